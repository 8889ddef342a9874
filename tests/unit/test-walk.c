/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The walk and the classification over a tree laid out like the article's. */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libsysdev.h"
#include "tree.h"

struct seen {
	char *path, *subsystem, *driver, *parent, *class_dir, *devnum, *devtype, *devname;
	enum sysdev_kind kind;
	enum sysdev_subsystem_kind skind;
	enum sysdev_placement placement;
	unsigned depth;
	bool has_next;
};

struct collect {
	struct seen v[256];
	size_t n;
	size_t leaves;
};

static char *dup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

#include "walk-test.h"

/* A string field of @dev, NULL where the getter says absent (and only then). */
static const char *str(struct sysdev_device *dev,
		       int (*get)(struct sysdev_device *dev, const char **ret))
{
	const char *v = NULL;
	int r = get(dev, &v);

	if (r < 0 && r != -ENOENT)
		fail_msg("a getter failed: %s", strerror(-r));
	return r < 0 ? NULL : v;
}

static int on_enter(struct sysdev_node *node, void *data)
{
	struct collect *c = data;
	struct seen *s = &c->v[c->n++];
	struct sysdev_device *dev, *parent;
	char num[32];
	dev_t devnum;

	assert_true(c->n < 256);
	memset(s, 0, sizeof(*s));
	s->path = strdup(sysdev_node_get_devpath(node));
	s->kind = sysdev_node_get_kind(node);
	if (sysdev_node_get_device(node, &dev) == 0) {
		assert_int_equal(s->kind, SYSDEV_KIND_DEVICE);
		s->subsystem = dup0(str(dev, sysdev_device_get_subsystem));
		if (sysdev_device_get_subsystem_kind(dev, &s->skind) < 0)
			s->skind = SYSDEV_SUBSYSTEM_NONE;
		s->driver = dup0(str(dev, sysdev_device_get_driver));
		if (sysdev_device_get_parent(dev, &parent) == 0)
			s->parent = dup0(str(parent, sysdev_device_get_devpath));
		s->class_dir = dup0(str(dev, sysdev_device_get_class_dir));
		if (sysdev_device_get_devnum(dev, &devnum) == 0) {
			snprintf(num, sizeof(num), "%u:%u", major(devnum), minor(devnum));
			s->devnum = strdup(num);
		}
		s->devtype = dup0(str(dev, sysdev_device_get_devtype));
		s->devname = dup0(str(dev, sysdev_device_get_devname));
		assert_int_equal(sysdev_device_get_placement(dev, &s->placement), 0);
		assert_string_equal(str(dev, sysdev_device_get_devpath), s->path);
	} else {
		assert_int_not_equal(s->kind, SYSDEV_KIND_DEVICE);
		s->skind = SYSDEV_SUBSYSTEM_NONE;
	}
	s->depth = sysdev_node_get_depth(node);
	s->has_next = sysdev_node_has_next_sibling(node);
	/* the name is the last component of the devpath */
	assert_string_equal(sysdev_node_get_name(node), strrchr(s->path, '/') + 1);
	return 0;
}

/* <0, 0, >0: @a before, equal to, after @b in pre-order with bytewise siblings */
static int preorder_cmp(const char *a, const char *b)
{
	for (;;) {
		size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
		int r = memcmp(a, b, la < lb ? la : lb);

		if (r || la != lb)
			return r ? r : la < lb ? -1 : 1;
		a += la;
		b += lb;
		if (!*a || !*b)
			return *a ? 1 : *b ? -1 : 0;
		a++;
		b++;
	}
}

static size_t ndirs;

static int count_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path, (void)st, (void)f;
	if (type == FTW_D || type == FTW_DNR)
		ndirs++;
	return 0;
}

static size_t count_dirs(const char *root)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/devices", root);
	ndirs = 0;
	assert_int_equal(nftw(path, count_one, 64, FTW_PHYS), 0);
	return ndirs;
}

static int on_leave(struct sysdev_node *node, void *data)
{
	(void)node;
	((struct collect *)data)->leaves++;
	return 0;
}

static void collect_free(struct collect *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct seen *s = &c->v[i];

		free(s->path);
		free(s->subsystem);
		free(s->driver);
		free(s->parent);
		free(s->class_dir);
		free(s->devnum);
		free(s->devtype);
		free(s->devname);
	}
	c->n = 0;
}

static const struct seen *find(const struct collect *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].path, path) == 0)
			return &c->v[i];
	fail_msg("not reported: %s", path);
	return NULL;
}

static bool reported(const struct collect *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].path, path) == 0)
			return true;
	return false;
}

#define S_EQ(a, b) ((a) == NULL ? assert_null(b) : assert_string_equal((a), (b)))

static int setup(void **state)
{
	char *root = tree_new();

	tree_article(root);
	/* a class-named directory below an attribute group is no grouping dir */
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045/engine/leds/x", "class:leds",
		    NULL, "");
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tree_free(*state);
	return 0;
}

static void test_kinds(void **state)
{
	static const struct {
		const char *path;
		enum sysdev_kind kind;
	} want[] = {
	    {"/devices", SYSDEV_KIND_ROOT},
	    {"/devices/platform", SYSDEV_KIND_DEVICE},
	    {"/devices/platform/power", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045", SYSDEV_KIND_DEVICE},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/leds", SYSDEV_KIND_CLASS_DIR},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:green:power",
	     SYSDEV_KIND_DEVICE},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/engine", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/engine/state0", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/engine/leds", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/engine/leds/x", SYSDEV_KIND_DEVICE},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/net", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/block", SYSDEV_KIND_CLASS_DIR},
	    {"/devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda/sda1", SYSDEV_KIND_DEVICE},
	    {"/devices/virtual", SYSDEV_KIND_CONTAINER},
	    {"/devices/virtual/net", SYSDEV_KIND_CLASS_DIR},
	    {"/devices/virtual/net/lo/queues/rx-0", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/virtual/leds", SYSDEV_KIND_CLASS_DIR},
	    {"/devices/system", SYSDEV_KIND_CONTAINER},
	    {"/devices/system/cpu", SYSDEV_KIND_DEVICE},
	    {"/devices/system/cpu/cpu0/cpuidle/state0", SYSDEV_KIND_ATTR_GROUP},
	    {"/devices/system/memory", SYSDEV_KIND_CONTAINER},
	    {"/devices/toplevel0", SYSDEV_KIND_DEVICE},
	};
	struct walk_stats st;
	struct collect c = {0};
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(walk(ctx, NULL, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_UEVENT, -1, on_enter,
			      on_leave, &c, &st),
			 0);
	assert_int_equal(c.leaves, c.n);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct seen *s = find(&c, want[i].path);

		if (s->kind != want[i].kind)
			fail_msg("%s: kind %s, want %s", want[i].path,
				 sysdev_kind_to_string(s->kind),
				 sysdev_kind_to_string(want[i].kind));
		/* the single-directory classification agrees with the walk */
		assert_int_equal(sysdev_classify(ctx, want[i].path), (int)want[i].kind);
	}
	/*
	 * every directory exactly once, in bytewise pre-order: each path comes
	 * strictly after the one before, comparing component by component (a
	 * parent before its children, siblings by name); and as many as nftw(3)
	 * counts directories, links not followed
	 */
	for (size_t i = 1; i < c.n; i++)
		if (preorder_cmp(c.v[i - 1].path, c.v[i].path) >= 0)
			fail_msg("walk order: %s after %s", c.v[i].path, c.v[i - 1].path);
	assert_int_equal(c.n, count_dirs(*state));
	assert_int_equal(st.devices, 14);
	assert_int_equal(st.vanished, 0);
	assert_int_equal(st.unreadable, 0);
	collect_free(&c);
	sysdev_unref(ctx);
}

static void test_device_fields(void **state)
{
	struct collect c = {0};
	struct sysdev *ctx;
	const struct seen *s;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(walk(ctx, NULL, SYSDEV_WALK_UEVENT, -1, on_enter, NULL, &c, NULL), 0);
	/* without SYSDEV_WALK_ATTR_GROUPS, attribute groups are not reported */
	assert_false(reported(&c, "/devices/platform/power"));
	assert_true(reported(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/engine/leds/x"));

	s = find(&c, "/devices/platform/omap_i2c.2");
	S_EQ("platform", s->subsystem);
	assert_int_equal(s->skind, SYSDEV_SUBSYSTEM_BUS);
	S_EQ("omap_i2c", s->driver);
	S_EQ("/devices/platform", s->parent);
	assert_null(s->class_dir);
	assert_int_equal(s->placement, SYSDEV_PLACEMENT_DEVICES);

	s = find(&c, "/devices/platform/omap_i2c.2/i2c-2");
	S_EQ("i2c_adapter", s->devtype);

	s = find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:green:power");
	S_EQ("leds", s->subsystem);
	assert_int_equal(s->skind, SYSDEV_SUBSYSTEM_CLASS);
	S_EQ("/devices/platform/omap_i2c.2/i2c-2/2-0045", s->parent);
	S_EQ("leds", s->class_dir);
	assert_null(s->driver);

	s = find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/ep_00");
	assert_null(s->subsystem);
	assert_int_equal(s->skind, SYSDEV_SUBSYSTEM_NONE);
	/* MAJOR/MINOR/DEVNAME in uevent but no "dev" file: the kernel never writes that,
	 * so no number and no node, in every output alike; DEVTYPE still stands */
	assert_null(s->devnum);
	assert_null(s->devname);
	S_EQ("usb_endpoint", s->devtype);

	s = find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda/sda1");
	S_EQ("/devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda", s->parent);
	assert_null(s->class_dir); /* its parent directory is a device */
	S_EQ("8:1", s->devnum);
	S_EQ("partition", s->devtype);

	s = find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/engine/leds/x");
	S_EQ("/devices/platform/omap_i2c.2/i2c-2/2-0045", s->parent);
	assert_null(s->class_dir);

	s = find(&c, "/devices/virtual/net/lo");
	assert_null(s->parent);
	S_EQ("net", s->class_dir);
	assert_int_equal(s->placement, SYSDEV_PLACEMENT_VIRTUAL);

	s = find(&c, "/devices/system/cpu/cpu0");
	S_EQ("/devices/system/cpu", s->parent);
	assert_int_equal(s->placement, SYSDEV_PLACEMENT_SYSTEM);
	S_EQ("cpu", s->subsystem);

	s = find(&c, "/devices/toplevel0");
	assert_null(s->parent);
	assert_int_equal(s->placement, SYSDEV_PLACEMENT_DEVICES);

	/* non-devices carry no device fields */
	s = find(&c, "/devices/virtual/net");
	assert_null(s->subsystem);
	assert_null(s->parent);
	collect_free(&c);
	sysdev_unref(ctx);
}

static void test_start_and_depth(void **state)
{
	struct collect c = {0};
	struct sysdev *ctx;
	const struct seen *s;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	/* a start below the top keeps its real parent and grouping directory */
	assert_int_equal(walk(ctx,
			      "/devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:green:power", 0,
			      -1, on_enter, NULL, &c, NULL),
			 0);
	assert_int_equal(c.n, 1);
	s = &c.v[0];
	assert_int_equal(s->depth, 0);
	S_EQ("/devices/platform/omap_i2c.2/i2c-2/2-0045", s->parent);
	S_EQ("leds", s->class_dir);
	collect_free(&c);

	assert_int_equal(walk(ctx, NULL, 0, 1, on_enter, NULL, &c, NULL), 0);
	for (size_t i = 0; i < c.n; i++)
		assert_true(c.v[i].depth <= 1);
	assert_true(reported(&c, "/devices/platform"));
	assert_false(reported(&c, "/devices/platform/omap_i2c.2"));
	collect_free(&c);

	assert_int_equal(walk(ctx, "/devices/nope", 0, -1, on_enter, NULL, &c, NULL), -ENOENT);
	assert_int_equal(walk(ctx, "/devices/../etc", 0, -1, on_enter, NULL, &c, NULL), -EINVAL);
	assert_int_equal(walk(ctx, "devices", 0, -1, on_enter, NULL, &c, NULL), -EINVAL);
	assert_int_equal(c.n, 0);
	sysdev_unref(ctx);
}

static int stop_at_cpu(struct sysdev_node *node, void *data)
{
	int *count = data;

	(*count)++;
	if (strcmp(sysdev_node_get_name(node), "platform") == 0)
		return SYSDEV_WALK_SKIP;
	if (strcmp(sysdev_node_get_name(node), "cpu0") == 0)
		return -ECANCELED;
	/* skipped subtree: never see anything below platform */
	assert_null(strstr(sysdev_node_get_devpath(node), "/platform/"));
	return 0;
}

static void test_skip_and_stop(void **state)
{
	struct sysdev *ctx;
	int count = 0;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(walk(ctx, NULL, 0, -1, stop_at_cpu, NULL, &count, NULL), -ECANCELED);
	assert_true(count > 2);
	sysdev_unref(ctx);
}

/* has_next_sibling with SYSDEV_WALK_SIBLINGS: exact among reported nodes */
static void test_siblings(void **state)
{
	struct collect c = {0};
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(walk(ctx, NULL, SYSDEV_WALK_SIBLINGS, -1, on_enter, NULL, &c, NULL), 0);
	/* 2-0045's reported children: block, ep_00, leds (engine, net, power hidden) */
	assert_true(find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/block")->has_next);
	assert_true(find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/ep_00")->has_next);
	assert_false(find(&c, "/devices/platform/omap_i2c.2/i2c-2/2-0045/leds")->has_next);
	/* omap_i2c.2's only reported child; its power/ sibling is hidden */
	assert_false(find(&c, "/devices/platform/omap_i2c.2/i2c-2")->has_next);
	assert_true(find(&c, "/devices/toplevel0")->has_next);
	assert_false(find(&c, "/devices/virtual")->has_next);
	collect_free(&c);
	sysdev_unref(ctx);
}

static void test_context(void **state)
{
	struct sysdev *ctx;
	char *root;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_true(sysdev_is_class_name(ctx, "leds"));
	assert_false(sysdev_is_class_name(ctx, "platform"));
	assert_true(sysdev_is_bus_name(ctx, "platform"));
	assert_ptr_equal(sysdev_ref(ctx), ctx);
	assert_null(sysdev_unref(ctx));
	assert_string_equal(sysdev_get_root(ctx), *state);
	assert_null(sysdev_unref(ctx));

	assert_int_equal(sysdev_new("/nonexistent-sysfs-root", &ctx), -ENOENT);
	assert_int_equal(sysdev_new("", &ctx), -EINVAL);
	root = tree_new();
	{
		char *devices = strcat(strcpy(malloc(strlen(root) + 16), root), "/devices");

		rmdir(devices);
		free(devices); /* LeakSanitizer in the .ci/sanitize build */
	}
	assert_int_equal(sysdev_new(root, &ctx), -ENOENT);
	tree_file(root, "devices", "not a directory\n");
	assert_int_equal(sysdev_new(root, &ctx), -ENOTDIR);
	tree_free(root);
	/* kind names */
	assert_string_equal(sysdev_kind_to_string(SYSDEV_KIND_CLASS_DIR), "class-dir");
	assert_string_equal(sysdev_kind_to_string(SYSDEV_KIND_ATTR_GROUP), "attr-group");
	assert_null(sysdev_kind_to_string(_SYSDEV_KIND_MAX));
	assert_null(sysdev_subsystem_kind_to_string(SYSDEV_SUBSYSTEM_NONE));
	assert_string_equal(sysdev_placement_to_string(SYSDEV_PLACEMENT_SYSTEM), "system");
}

static void test_explain(void **state)
{
	struct sysdev_reason *r;
	struct sysdev_device *parent;
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	/* empty, named after a class, in S/devices/virtual */
	assert_int_equal(sysdev_explain(ctx, "/devices/virtual/leds", &r), SYSDEV_KIND_CLASS_DIR);
	assert_int_equal(sysdev_reason_get_kind(r), SYSDEV_KIND_CLASS_DIR);
	assert_int_equal(sysdev_reason_get_rule(r), SYSDEV_RULE_CLASS_DIR);
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_NAME_IS_CLASS));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_VIRTUAL));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_EMPTY));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_DEVICE));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_UEVENT));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_BELOW_DEVICE));
	assert_false(sysdev_reason_has_fact(r, _SYSDEV_FACT_MAX));
	assert_int_equal(sysdev_reason_get_parent(r, &parent), -ENOENT);
	assert_null(parent);
	assert_null(sysdev_reason_unref(r));
	/* class-named below a device, but holding attributes only */
	assert_int_equal(sysdev_explain(ctx, "/devices/platform/omap_i2c.2/i2c-2/2-0045/net", &r),
			 SYSDEV_KIND_ATTR_GROUP);
	assert_int_equal(sysdev_reason_get_rule(r), SYSDEV_RULE_BELOW_DEVICE);
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_NAME_IS_CLASS));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_DEVICE));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_BELOW_DEVICE));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_EMPTY));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_DEVICE_CHILD));
	assert_int_equal(sysdev_reason_get_parent(r, &parent), 0);
	assert_string_equal(str(parent, sysdev_device_get_devpath),
			    "/devices/platform/omap_i2c.2/i2c-2/2-0045");
	sysdev_reason_unref(r);
	assert_int_equal(sysdev_explain(ctx, "/devices/platform/omap_i2c.2", &r),
			 SYSDEV_KIND_DEVICE);
	assert_int_equal(sysdev_reason_get_rule(r), SYSDEV_RULE_UEVENT);
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_UEVENT));
	assert_int_equal(sysdev_reason_get_parent(r, &parent), 0);
	assert_string_equal(str(parent, sysdev_device_get_devpath), "/devices/platform");
	sysdev_reason_unref(r);
	assert_int_equal(sysdev_explain(ctx, "/devices", &r), SYSDEV_KIND_ROOT);
	assert_int_equal(sysdev_reason_get_rule(r), SYSDEV_RULE_ROOT);
	sysdev_reason_unref(r);
	assert_int_equal(sysdev_explain(ctx, "/devices/virtual", &r), SYSDEV_KIND_CONTAINER);
	assert_int_equal(sysdev_reason_get_rule(r), SYSDEV_RULE_NO_DEVICE_ABOVE);
	sysdev_reason_unref(r);
	assert_int_equal(sysdev_explain(ctx, "/devices/nope", &r), -ENOENT);
	assert_null(r);
	assert_int_equal(sysdev_explain(NULL, "/devices", &r), -EINVAL);
	assert_int_equal(sysdev_explain(ctx, "/devices", NULL), -EINVAL);
	assert_int_equal(sysdev_reason_get_parent(NULL, &parent), -EINVAL);
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_BELOW_DEVICE), "below-device");
	assert_null(sysdev_rule_to_string(_SYSDEV_RULE_MAX));
	sysdev_unref(ctx);
}

/* The walker object: setters, counters, -EINVAL on a bad argument, -EBUSY while it runs. */
static int run_again(struct sysdev_node *node, void *data)
{
	struct sysdev_walker *w = data;

	(void)node;
	assert_int_equal(sysdev_walker_run(w), -EBUSY);
	assert_int_equal(sysdev_walker_set_flags(w, 0), -EBUSY);
	return -ECANCELED;
}

static void test_walker(void **state)
{
	struct sysdev_walker *w = (struct sysdev_walker *)1;
	struct collect c = {0};
	const char *name;
	unsigned char type;
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_walker_new(NULL, NULL, &w), -EINVAL);
	assert_null(w);
	assert_int_equal(sysdev_walker_new(ctx, "devices", &w), -EINVAL);
	assert_int_equal(sysdev_walker_new(ctx, NULL, NULL), -EINVAL);
	assert_int_equal(sysdev_walker_run(NULL), -EINVAL);
	assert_int_equal(sysdev_walker_set_flags(NULL, 0), -EINVAL);
	assert_int_equal(sysdev_walker_get_count(NULL, SYSDEV_WALK_COUNT_DEVICES), 0);
	assert_null(sysdev_walker_unref(NULL));

	assert_int_equal(sysdev_walker_new(ctx, NULL, &w), 0);
	assert_int_equal(sysdev_walker_set_flags(w, 1u << 20), -EINVAL);
	assert_int_equal(sysdev_walker_set_flags(w, SYSDEV_WALK_UEVENT), 0);
	assert_int_equal(sysdev_walker_set_max_depth(w, 1), 0);
	assert_int_equal(sysdev_walker_set_callbacks(w, on_enter, NULL, &c), 0);
	assert_int_equal(sysdev_walker_run(w), 0);
	for (size_t i = 0; i < c.n; i++)
		assert_true(c.v[i].depth <= 1);
	/* the article's tree: /devices, platform, system, toplevel0, virtual at depth <= 1 */
	assert_int_equal(sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_DEVICES), 2);
	assert_int_equal(sysdev_walker_get_count(w, _SYSDEV_WALK_COUNT_MAX), 0);
	/* run twice: the counters start again */
	collect_free(&c);
	assert_int_equal(sysdev_walker_run(w), 0);
	assert_int_equal(sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_DEVICES), 2);
	collect_free(&c);
	/* a callback cannot run its own walker again */
	assert_int_equal(sysdev_walker_set_callbacks(w, run_again, NULL, w), 0);
	assert_int_equal(sysdev_walker_run(w), -ECANCELED);
	assert_ptr_equal(sysdev_walker_ref(w), w);
	assert_null(sysdev_walker_unref(w));
	assert_null(sysdev_walker_unref(w));
	/* node facts: NULL is answered, never a crash */
	assert_null(sysdev_node_get_devpath(NULL));
	assert_int_equal(sysdev_node_get_entry_at(NULL, 0, &name, &type), -EINVAL);
	assert_int_equal(sysdev_node_get_device(NULL, (struct sysdev_device **)&w), -EINVAL);
	sysdev_unref(ctx);
}

/* The entries of a node, past the end -ENOENT. */
static int entries(struct sysdev_node *node, void *data)
{
	size_t *n = data;
	const char *name;
	unsigned char type;

	SYSDEV_NODE_FOREACH_ENTRY(node, name, type)
	{
		assert_true(sysdev_node_has_entry(node, name));
		(*n)++;
	}
	assert_int_equal(sysdev_node_get_entry_at(node, *n, &name, &type), -ENOENT);
	assert_int_equal(sysdev_node_get_entry_at(node, 0, NULL, &type), -EINVAL);
	return SYSDEV_WALK_SKIP;
}

static void test_entries(void **state)
{
	struct sysdev *ctx;
	size_t n = 0;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	/* /devices: platform, system, toplevel0, virtual */
	assert_int_equal(walk(ctx, NULL, 0, -1, entries, NULL, &n, NULL), 0);
	assert_int_equal(n, 4);
	sysdev_unref(ctx);
}

/* The error of the node "locked", in *data. */
static int locked_error(struct sysdev_node *node, void *data)
{
	const char *devpath = sysdev_node_get_devpath(node);
	size_t n = strlen(devpath);

	if (n >= 7 && strcmp(devpath + n - 7, "/locked") == 0)
		*(int *)data = sysdev_node_get_error(node);
	return 0;
}

/*
 * A directory this user may search but not list (0111) is counted unreadable,
 * whatever descriptor it is opened at: a program that closed its standard
 * input gets 0 for it.  Run as nobody (root lists every directory).
 */
static void test_unlistable_at_fd0(void **state)
{
	char *root = tree_new(), path[4096];
	pid_t pid;
	int status;

	(void)state;
	tree_device(root, "/devices/platform/locked", "bus:platform", NULL, "");
	tree_device(root, "/devices/platform/locked/inner", "bus:platform", NULL, "");
	assert_int_equal(chmod(root, 0755), 0);
	snprintf(path, sizeof(path), "%s/devices/platform/locked", root);
	assert_int_equal(chmod(path, 0111), 0); /* search only, for its owner too */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sysdev_walker *w;
		struct sysdev *ctx;
		int error = 1;

		if (geteuid() == 0 &&
		    (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		     setresuid(65534, 65534, 65534) < 0))
			_exit(3);
		if (sysdev_new(root, &ctx) < 0 ||
		    sysdev_walker_new(ctx, "/devices/platform", &w) < 0)
			_exit(4);
		if (sysdev_walker_set_flags(w, SYSDEV_WALK_ERRORS) < 0 ||
		    sysdev_walker_set_callbacks(w, locked_error, NULL, &error) < 0)
			_exit(4);
		close(0);
		if (sysdev_walker_run(w) < 0)
			_exit(5);
		/* what kept it from being listed: permission, as for any other descriptor */
		if (error != -EACCES)
			_exit(8);
		if (sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_UNREADABLE) != 1)
			_exit(6);
		/* locked is a device; inner cannot be found (no listing) */
		if (sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_DEVICES) != 1)
			_exit(7);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(chmod(path, 0755), 0);
	tree_free(root);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kinds),	    cmocka_unit_test(test_device_fields),
	    cmocka_unit_test(test_start_and_depth), cmocka_unit_test(test_skip_and_stop),
	    cmocka_unit_test(test_siblings),	    cmocka_unit_test(test_context),
	    cmocka_unit_test(test_explain),	    cmocka_unit_test(test_walker),
	    cmocka_unit_test(test_entries),	    cmocka_unit_test(test_unlistable_at_fd0),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
