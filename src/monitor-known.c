/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The monitor's set of known devices: a tsearch tree by devpath.  glibc's
 * tsearch is a red-black tree, so a storm of thousands of events costs
 * n log n, and no hash can be flooded by names the kernel was made to send.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "monitor-private.h"

static int cmp_devpath(const void *a, const void *b)
{
	return strcmp(((const struct known_device *)a)->devpath,
		      ((const struct known_device *)b)->devpath);
}

static void known_free(void *p)
{
	struct known_device *d = p;

	free(d->devpath);
	free(d->subsystem);
	free(d->devtype);
	free(d->driver);
	free(d->parent);
	free(d->class_dir);
	free(d);
}

struct known_device *known_find(const struct known_set *s, const char *devpath)
{
	struct known_device key = {.devpath = (char *)devpath};
	void *const *hit = tfind(&key, &s->root, cmp_devpath);

	return hit ? *(struct known_device *const *)hit : NULL;
}

struct known_device *known_get(struct known_set *s, const char *devpath)
{
	struct known_device *d = known_find(s, devpath);
	void *slot;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->devpath = strdup(devpath);
	slot = d->devpath ? tsearch(d, &s->root, cmp_devpath) : NULL;
	if (!slot) {
		known_free(d);
		return NULL;
	}
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

void known_remove(struct known_set *s, const char *devpath)
{
	struct known_device *d = known_find(s, devpath);

	if (!d)
		return;
	tdelete(d, &s->root, cmp_devpath);
	known_free(d);
	s->n--;
}

void known_clear(struct known_set *s)
{
	tdestroy(s->root, known_free);
	s->root = NULL;
	s->n = 0;
}

struct foreach_call {
	void (*fn)(struct known_device *d, void *userdata);
	void *userdata;
};

static void visit(const void *node, VISIT which, void *closure)
{
	struct foreach_call *c = closure;

	if (which == postorder || which == leaf)
		c->fn(*(struct known_device *const *)node, c->userdata);
}

void known_foreach(const struct known_set *s, void (*fn)(struct known_device *d, void *userdata),
		   void *userdata)
{
	struct foreach_call c = {fn, userdata};

	twalk_r(s->root, visit, &c);
}
