/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The monitor's set of known devices: a chained hash table by devpath,
 * grown by doubling, so a storm of thousands of events costs a constant
 * per event.  SipHash under a key drawn for each set: no hash can be
 * flooded by names the kernel was made to send.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"
#include "monitor-private.h"

static void known_free(struct known_device *d)
{
	free(d->devpath);
	free(d->subsystem);
	free(d->devtype);
	free(d->driver);
	free(d->parent);
	free(d->class_dir);
	free(d);
}

static uint64_t hash_of(const struct known_set *s, const char *devpath)
{
	return siphash24(&s->key, devpath, strlen(devpath));
}

/* The link that points at @devpath's entry, or at the NULL that ends its bucket. */
static struct known_device **slot_of(const struct known_set *s, const char *devpath, uint64_t hash)
{
	struct known_device **p = &s->buckets[hash & (s->nbuckets - 1)];

	while (*p && ((*p)->hash != hash || strcmp((*p)->devpath, devpath) != 0))
		p = &(*p)->next;
	return p;
}

struct known_device *known_find(const struct known_set *s, const char *devpath)
{
	if (!s->n)
		return NULL;
	return *slot_of(s, devpath, hash_of(s, devpath));
}

/* Twice the buckets (at least 64), the entries moved: 0 or -ENOMEM. */
static int grow(struct known_set *s)
{
	size_t nb = s->nbuckets ? s->nbuckets * 2 : 64;
	struct known_device **b = calloc(nb, sizeof(*b));

	if (!b)
		return -ENOMEM;
	if (!s->nbuckets)
		siphash_random_key(&s->key); /* no entry is hashed yet */
	for (size_t i = 0; i < s->nbuckets; i++)
		while (s->buckets[i]) {
			struct known_device *d = s->buckets[i];

			s->buckets[i] = d->next;
			d->next = b[d->hash & (nb - 1)];
			b[d->hash & (nb - 1)] = d;
		}
	free(s->buckets);
	s->buckets = b;
	s->nbuckets = nb;
	return 0;
}

struct known_device *known_get(struct known_set *s, const char *devpath)
{
	struct known_device *d = known_find(s, devpath), **p;

	if (d)
		return d;
	/* at most one entry a bucket on average */
	if (s->n + 1 > s->nbuckets && grow(s) < 0)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->devpath = strdup(devpath);
	if (!d->devpath) {
		free(d);
		return NULL;
	}
	d->hash = hash_of(s, devpath);
	p = &s->buckets[d->hash & (s->nbuckets - 1)];
	d->next = *p;
	*p = d;
	s->n++;
	return d;
}

int known_set_field(char **field, const char *value)
{
	char *copy = NULL;

	if (*field && value && strcmp(*field, value) == 0)
		return 0;
	if (value) {
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	}
	free(*field);
	*field = copy;
	return 0;
}

void known_remove_entry(struct known_set *s, struct known_device *d)
{
	struct known_device **p;

	if (!d)
		return;
	p = slot_of(s, d->devpath, d->hash);
	if (*p != d)
		return; /* not an entry of @s */
	*p = d->next;
	known_free(d);
	s->n--;
}

void known_remove(struct known_set *s, const char *devpath)
{
	known_remove_entry(s, known_find(s, devpath));
}

void known_clear(struct known_set *s)
{
	for (size_t i = 0; i < s->nbuckets; i++)
		while (s->buckets[i]) {
			struct known_device *d = s->buckets[i];

			s->buckets[i] = d->next;
			known_free(d);
		}
	free(s->buckets);
	s->buckets = NULL;
	s->nbuckets = s->n = 0;
}

static int cmp_devpath(const void *a, const void *b)
{
	return strcmp((*(struct known_device *const *)a)->devpath,
		      (*(struct known_device *const *)b)->devpath);
}

/* A resync's walk, not an event's: sorting here costs n log n once a resync. */
int known_foreach(const struct known_set *s, void (*fn)(struct known_device *d, void *userdata),
		  void *userdata)
{
	_cleanup_free_ struct known_device **all = NULL;
	size_t n = 0;

	if (!s->n)
		return 0;
	all = malloc(s->n * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < s->nbuckets; i++)
		for (struct known_device *d = s->buckets[i]; d; d = d->next)
			all[n++] = d;
	qsort(all, n, sizeof(*all), cmp_devpath);
	for (size_t i = 0; i < n; i++)
		fn(all[i], userdata);
	return 0;
}
