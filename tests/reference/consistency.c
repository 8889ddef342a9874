/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every node of a tree through each single-directory path, against the
 * whole-tree walk:
 *   sysdev_classify(devpath) and sysdev_explain(devpath)  == the walk's kind
 *   a walk started at the node (depth 0)                 == kind and fields
 *   sysdev_device_new_from_devpath (devices)             == fields, and its
 *     parent (sysdev_device_get_parent) is a device of the walk
 *   sysdev_device_new_from_devpath (other kinds)         == -ENODEV
 *
 *   consistency ROOT      (exit 0: all agree, 1: a disagreement, 2: trouble)
 *
 * The whole walk and the single lookups are different code (the walk
 * carries its ancestors' facts down; a lookup rebuilds them component by
 * component), so a rule one of them reads differently shows up here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "libsysdev.h"

struct rec {
	char *path;
	int kind;
	char *f[9]; /* subsystem, subsystem_kind, driver, parent, class_dir, placement, devnum,
		       devtype, devname */
};

static const char *const field_names[9] = {"subsystem", "subsystem_kind", "driver",
					   "parent",	"class_dir",	  "placement",
					   "devnum",	"devtype",	  "devname"};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static unsigned long failures, checks;

static char *dup_or_null(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d) {
		perror("strdup");
		exit(2);
	}
	return d;
}

#include "walk-test.h"

/* A string field of @d, NULL where it has none. */
static const char *str(struct sysdev_device *d, int (*get)(struct sysdev_device *, const char **))
{
	const char *v = NULL;

	return get(d, &v) >= 0 ? v : NULL;
}

static void device_fields(struct sysdev_device *d, char *f[9])
{
	enum sysdev_subsystem_kind sk;
	enum sysdev_placement pl;
	struct sysdev_device *p;
	char num[32];
	dev_t devnum;

	f[0] = dup_or_null(str(d, sysdev_device_get_subsystem));
	f[1] = dup_or_null(sysdev_device_get_subsystem_kind(d, &sk) >= 0
			       ? sysdev_subsystem_kind_to_string(sk)
			       : NULL);
	f[2] = dup_or_null(str(d, sysdev_device_get_driver));
	f[3] = dup_or_null(sysdev_device_get_parent(d, &p) >= 0 ? str(p, sysdev_device_get_devpath)
								: NULL);
	f[4] = dup_or_null(str(d, sysdev_device_get_class_dir));
	f[5] = dup_or_null(sysdev_device_get_placement(d, &pl) >= 0 ? sysdev_placement_to_string(pl)
								    : NULL);
	f[6] = dup_or_null(
	    sysdev_device_get_devnum(d, &devnum) >= 0
		? (snprintf(num, sizeof(num), "%u:%u", major(devnum), minor(devnum)), num)
		: NULL);
	f[7] = dup_or_null(str(d, sysdev_device_get_devtype));
	f[8] = dup_or_null(str(d, sysdev_device_get_devname));
}

/* A node's fields: its device's, all NULL for a node that is no device. */
static void node_fields(struct sysdev_node *n, char *f[9])
{
	struct sysdev_device *d;

	memset(f, 0, 9 * sizeof(*f));
	if (sysdev_node_get_device(n, &d) >= 0)
		device_fields(d, f);
}

static void free_fields(char *f[9])
{
	for (int i = 0; i < 9; i++)
		free(f[i]);
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void fail(const char *path, const char *how, const char *field, const char *walk,
		 const char *other)
{
	failures++;
	if (failures <= 50)
		printf("FAIL: %s: %s: %s is %s%s%s, the whole walk says %s%s%s\n", path, how, field,
		       other ? "'" : "", other ? other : "null", other ? "'" : "", walk ? "'" : "",
		       walk ? walk : "null", walk ? "'" : "");
}

static void compare_fields(const struct rec *r, char *f[9], const char *how)
{
	for (int i = 0; i < 9; i++) {
		checks++;
		if (!same(r->f[i], f[i]))
			fail(r->path, how, field_names[i], r->f[i], f[i]);
	}
}

static int on_whole(struct sysdev_node *n, void *data)
{
	struct recs *rs = data;
	struct rec *r;

	if (sysdev_node_get_error(n))
		return 0; /* unreadable: nothing to compare with */
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 1024;
		rs->v = realloc(rs->v, rs->cap * sizeof(*rs->v));
		if (!rs->v) {
			perror("realloc");
			exit(2);
		}
	}
	r = &rs->v[rs->n++];
	r->path = dup_or_null(sysdev_node_get_devpath(n));
	r->kind = (int)sysdev_node_get_kind(n);
	node_fields(n, r->f);
	return 0;
}

struct single {
	int calls;
	int kind;
	char *f[9];
	char *path;
};

static int on_single(struct sysdev_node *n, void *data)
{
	struct single *s = data;

	if (s->calls++ == 0) {
		s->kind = (int)sysdev_node_get_kind(n);
		s->path = dup_or_null(sysdev_node_get_devpath(n));
		node_fields(n, s->f);
	}
	return 0;
}

static struct rec *find(struct recs *rs, const char *path)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->v[i].path, path) == 0)
			return &rs->v[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct recs rs = {0};
	struct walk_stats st;
	struct sysdev *ctx;
	struct sysdev_reason *reason;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: consistency ROOT\n");
		return 2;
	}
	err = sysdev_new(argv[1], &ctx);
	if (err < 0) {
		fprintf(stderr, "consistency: %s: %s\n", argv[1], strerror(-err));
		return 2;
	}
	err = walk(ctx, NULL, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_UEVENT, -1, on_whole, NULL, &rs,
		   &st);
	if (err < 0) {
		fprintf(stderr, "consistency: walk: %s\n", strerror(-err));
		return 2;
	}
	for (size_t i = 0; i < rs.n; i++) {
		struct rec *r = &rs.v[i];
		struct single s = {0};
		const char *kname = sysdev_kind_to_string((enum sysdev_kind)r->kind);
		int k;

		/* sysdev_classify */
		k = sysdev_classify(ctx, r->path);
		checks++;
		if (k != r->kind)
			fail(r->path, "sysdev_classify", "kind", kname,
			     k < 0 ? strerror(-k) : sysdev_kind_to_string((enum sysdev_kind)k));
		/* sysdev_explain: the same kind, in the reason too */
		k = sysdev_explain(ctx, r->path, &reason);
		checks++;
		if (k != r->kind || (k >= 0 && (int)sysdev_reason_get_kind(reason) != r->kind))
			fail(r->path, "sysdev_explain", "kind", kname,
			     k < 0 ? strerror(-k)
				   : sysdev_kind_to_string(sysdev_reason_get_kind(reason)));
		if (k >= 0)
			sysdev_reason_unref(reason);
		/* a walk started here, depth 0 */
		err = walk(ctx, r->path, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_UEVENT, 0, on_single,
			   NULL, &s, NULL);
		checks++;
		if (err < 0 || s.calls != 1) {
			fail(r->path, "walk started here", "result", "one node",
			     err < 0 ? strerror(-err) : "not one node");
		} else {
			if (s.kind != r->kind)
				fail(r->path, "walk started here", "kind", kname,
				     sysdev_kind_to_string((enum sysdev_kind)s.kind));
			if (!same(s.path, r->path))
				fail(r->path, "walk started here", "path", r->path, s.path);
			compare_fields(r, s.f, "walk started here");
		}
		free_fields(s.f);
		free(s.path);
		/* device lookup */
		if (r->kind == SYSDEV_KIND_DEVICE) {
			struct sysdev_device *d;
			char *f[9];

			err = sysdev_device_new_from_devpath(ctx, r->path, &d);
			checks++;
			if (err < 0) {
				fail(r->path, "sysdev_device_new_from_devpath", "result",
				     "a device", strerror(-err));
				continue;
			}
			device_fields(d, f);
			compare_fields(r, f, "device lookup");
			free_fields(f);
			/* the parent's device is the walk's device too */
			if (r->f[3]) {
				struct sysdev_device *p;

				checks++;
				if (sysdev_device_get_parent(d, &p) < 0 ||
				    !find(&rs, str(p, sysdev_device_get_devpath)) ||
				    find(&rs, str(p, sysdev_device_get_devpath))->kind !=
					SYSDEV_KIND_DEVICE)
					fail(r->path, "sysdev_device_get_parent", "parent", r->f[3],
					     "no device of the walk");
			}
			sysdev_device_unref(d);
		} else {
			struct sysdev_device *d;

			/* no device there: a lookup says so */
			err = sysdev_device_new_from_devpath(ctx, r->path, &d);
			checks++;
			if (err != -ENODEV) {
				fail(r->path, "sysdev_device_new_from_devpath", "result", "ENODEV",
				     err < 0 ? strerror(-err) : "a device");
				if (err == 0)
					sysdev_device_unref(d);
			}
		}
	}
	printf("consistency %s: %zu nodes, %lu checks, %lu failures\n", argv[1], rs.n, checks,
	       failures);
	for (size_t i = 0; i < rs.n; i++) {
		free(rs.v[i].path);
		free_fields(rs.v[i].f);
	}
	free(rs.v);
	sysdev_unref(ctx);
	return failures ? 1 : 0;
}
