/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The article's measurements (sysdev(7)), as data for --stats and its
 * OpenMetrics output: built on the library's public API and src/shared only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "in-root.h"
#include "libsysdev.h"
#include "macro.h"
#include "name-set.h"
#include "stats.h"

struct counter {
	char *name;
	unsigned long n;
};

struct counts {
	struct counter *v;
	size_t n, cap;
};

struct tree_stats {
	struct name_set bus_class;
	struct counts status_class;
	struct counts status_bus;
	struct counts subsystems;
	unsigned long kinds[_SYSDEV_KIND_MAX];
	unsigned long walk[_SYSDEV_WALK_COUNT_MAX];
};

static int counts_add(struct counts *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->n; i++) {
		if (strlen(c->v[i].name) == len && memcmp(c->v[i].name, name, len) == 0) {
			c->v[i].n++;
			return 0;
		}
	}
	if (GROW_MIN(c->v, c->cap, c->n + 1, 16) < 0)
		return -ENOMEM;
	c->v[c->n].name = strndup(name, len);
	if (!c->v[c->n].name)
		return -ENOMEM;
	c->v[c->n].n = 1;
	c->n++;
	return 0;
}

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct counter *)a)->name, ((const struct counter *)b)->name);
}

static void counts_free(struct counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
}

/* Count the lines of one file as `cat | sort | uniq -c` would. */
/*
 * cat joins a file without a final newline to the next one; the part line
 * waits here for the rest (bounded: a hostile tree cannot grow it).
 */
struct carry {
	char buf[4096];
	size_t len;
};

static int add_line(struct counts *c, struct carry *k, const char *s, size_t len)
{
	char line[sizeof(k->buf) + 4097];
	int err;

	if (!k->len)
		return counts_add(c, s, len);
	memcpy(line, k->buf, k->len);
	memcpy(line + k->len, s, len);
	err = counts_add(c, line, k->len + len);
	k->len = 0;
	return err;
}

/* Count the lines of one file as `cat | sort | uniq -c` would. */
static int count_lines(struct sysdev *ctx, struct counts *c, struct carry *k, const char *path)
{
	char buf[4097];
	ssize_t len;
	size_t start = 0;
	struct in_root r;
	int err, fd;

	/*
	 * cat follows the class/bus links: here inside the root, never out of
	 * it.  Only a regular file is read: a FIFO or a device node in a
	 * hand-made tree is not a status (opening a device can have effects).
	 */
	err = in_root_resolve(sysdev_get_root_fd(ctx), sysdev_get_root(ctx), path,
			      IN_ROOT_OPEN_FILE, &r);
	fd = r.fd;
	r.fd = -1;
	in_root_free(&r);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return 0; /* cat would complain and go on */
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	for (size_t i = 0; i < (size_t)len; i++) {
		if (buf[i] != '\n')
			continue;
		err = add_line(c, k, buf + start, i - start);
		if (err < 0)
			return err;
		start = i + 1;
	}
	if (start < (size_t)len) {
		size_t n = (size_t)len - start;

		if (n > sizeof(k->buf) - k->len)
			n = sizeof(k->buf) - k->len;
		memcpy(k->buf + k->len, buf + start, n);
		k->len += n;
	}
	return 0;
}

/* @glob_dir/&ast;/@sub/&ast;/power/runtime_status, dotfiles skipped as the shell does */
static int count_status(struct sysdev *ctx, const char *top, const char *sub, struct counts *c)
{
	struct carry carry = {.len = 0};
	struct name_set outer;
	int err;

	err = name_set_load(sysdev_get_root_fd(ctx), top, &outer);
	if (err < 0)
		return err == -ENOENT || err == -ENOTDIR ? 0 : err;
	for (size_t i = 0; i < outer.n && err >= 0; i++) {
		struct name_set inner;
		struct in_root r;
		char *dir;

		if (asprintf(&dir, "%s/%s%s", top, outer.names[i], sub) < 0) {
			err = -ENOMEM;
			break;
		}
		/* the glob follows a linked bus or class directory: inside the root only */
		err = in_root_resolve(sysdev_get_root_fd(ctx), sysdev_get_root(ctx), dir,
				      IN_ROOT_OPEN_DIR, &r);
		free(dir);
		if (err < 0) {
			in_root_free(&r);
			err = err == -ENOMEM ? err : 0;
			continue;
		}
		err = name_set_load_fd(r.fd, &inner);
		if (err < 0) {
			/* a directory that cannot be listed counts nothing; no memory ends */
			err = err == -ENOMEM ? err : 0;
		} else {
			for (size_t j = 0; j < inner.n && err >= 0; j++) {
				char *path;

				/* from where the directory resolved to, as the glob reads it */
				if (asprintf(&path, "%s/%s/power/runtime_status", r.path,
					     inner.names[j]) < 0) {
					err = -ENOMEM;
					break;
				}
				err = count_lines(ctx, c, &carry, path);
				free(path);
			}
			name_set_free(&inner);
		}
		in_root_free(&r);
	}
	name_set_free(&outer);
	/* a last line without a newline still counts, as uniq -c counts it */
	if (err >= 0 && carry.len)
		err = counts_add(c, carry.buf, carry.len);
	if (err >= 0 && c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_counter);
	return err < 0 ? err : 0;
}

static int on_node(struct sysdev_node *node, void *data)
{
	struct tree_stats *s = data;
	struct sysdev_device *dev;
	const char *sub;

	s->kinds[sysdev_node_get_kind(node)]++;
	if (sysdev_node_get_device(node, &dev) >= 0 && sysdev_device_get_subsystem(dev, &sub) >= 0)
		return counts_add(&s->subsystems, sub, strlen(sub));
	return 0;
}

void tree_stats_free(struct tree_stats *s)
{
	if (!s)
		return;
	name_set_free(&s->bus_class);
	counts_free(&s->status_class);
	counts_free(&s->status_bus);
	counts_free(&s->subsystems);
	free(s);
}

/* Names both in S/bus and in S/class, sorted (a root without S/bus has none). */
static int bus_class_names(struct sysdev *ctx, struct name_set *out)
{
	struct name_set buses;
	size_t n = 0;
	int err;

	err = name_set_load(sysdev_get_root_fd(ctx), "bus", &buses);
	if (err < 0)
		return err == -ENOENT || err == -ENOTDIR ? 0 : err;
	/* kept in place, in their order */
	for (size_t i = 0; i < buses.n; i++) {
		if (!sysdev_is_class_name(ctx, buses.names[i])) {
			free(buses.names[i]);
			continue;
		}
		buses.names[n++] = buses.names[i];
	}
	buses.n = n;
	*out = buses;
	return 0;
}

static int stats_walk(struct sysdev *ctx, struct tree_stats *s)
{
	struct sysdev_walker *w = NULL;
	int err;

	err = sysdev_walker_new(ctx, NULL, &w);
	if (err >= 0)
		err = sysdev_walker_set_flags(w, SYSDEV_WALK_ATTR_GROUPS);
	if (err >= 0)
		err = sysdev_walker_set_callbacks(w, on_node, NULL, s);
	if (err >= 0)
		err = sysdev_walker_run(w);
	for (unsigned i = 0; w && i < _SYSDEV_WALK_COUNT_MAX; i++)
		s->walk[i] = sysdev_walker_get_count(w, i);
	sysdev_walker_unref(w);
	return err;
}

int tree_stats_new(struct sysdev *ctx, struct tree_stats **out)
{
	struct tree_stats *s;
	int err;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = bus_class_names(ctx, &s->bus_class);
	if (err >= 0)
		err = count_status(ctx, "class", "", &s->status_class);
	if (err >= 0)
		err = count_status(ctx, "bus", "/devices", &s->status_bus);
	if (err >= 0)
		err = stats_walk(ctx, s);
	if (err < 0) {
		tree_stats_free(s);
		return err;
	}
	if (s->subsystems.n > 1)
		qsort(s->subsystems.v, s->subsystems.n, sizeof(*s->subsystems.v), cmp_counter);
	*out = s;
	return 0;
}

int tree_stats_get_bus_class_name_at(struct tree_stats *s, size_t i, const char **ret)
{
	assert_return(s, -EINVAL);
	assert_return(ret, -EINVAL);
	if (i >= s->bus_class.n)
		return -ENOENT;
	*ret = s->bus_class.names[i];
	return 0;
}

/* Entry @i of @c: 0 with its name and count (either may be NULL), or -ENOENT. */
static int counts_at(const struct counts *c, size_t i, const char **ret_name,
		     unsigned long *ret_count)
{
	if (i >= c->n)
		return -ENOENT;
	if (ret_name)
		*ret_name = c->v[i].name;
	if (ret_count)
		*ret_count = c->v[i].n;
	return 0;
}

int tree_stats_get_runtime_status_at(struct tree_stats *s, bool from_class, size_t i,
				     const char **ret_status, unsigned long *ret_count)
{
	assert_return(s, -EINVAL);
	return counts_at(from_class ? &s->status_class : &s->status_bus, i, ret_status, ret_count);
}

unsigned long tree_stats_get_kind_count(const struct tree_stats *s, enum sysdev_kind kind)
{
	assert_return(s, 0);
	assert_return((unsigned)kind < _SYSDEV_KIND_MAX, 0);
	return s->kinds[kind];
}

int tree_stats_get_subsystem_at(struct tree_stats *s, size_t i, const char **ret_name,
				unsigned long *ret_count)
{
	assert_return(s, -EINVAL);
	return counts_at(&s->subsystems, i, ret_name, ret_count);
}

unsigned long tree_stats_get_walk_count(const struct tree_stats *s, enum sysdev_walk_count which)
{
	assert_return(s, 0);
	assert_return((unsigned)which < _SYSDEV_WALK_COUNT_MAX, 0);
	return s->walk[which];
}
