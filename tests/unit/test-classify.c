/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/classify.c: sysdev_classify() and sysdev_explain() for one devpath,
 * on the article's tree (tree.c) and a few hostile directories beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libsysdev-private.h"
#include "tree.h"

#define I2C "/devices/platform/omap_i2c.2/i2c-2/2-0045"

struct fx {
	char *root;
	struct sysdev *ctx;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[4096];

	f->root = tree_new();
	tree_article(f->root);
	/* cpu10 is a device, cpu1 beside it is not */
	tree_device(f->root, "/devices/system/cpu/cpu10", "bus:cpu", NULL, "");
	tree_dir(f->root, "devices/system/cpu/cpu1/");
	/* "r" a device, "r." beside it a directory */
	tree_device(f->root, "/devices/platform/r", NULL, NULL, "");
	tree_dir(f->root, "devices/platform/r./");
	/* a uevent that is no regular file: a FIFO, a directory, a link */
	tree_dir(f->root, "devices/platform/fifo/");
	snprintf(path, sizeof(path), "%s/devices/platform/fifo/uevent", f->root);
	assert_int_equal(mkfifo(path, 0644), 0);
	tree_dir(f->root, "devices/platform/dir/uevent/");
	tree_link(f->root, "devices/platform/link/uevent", "../r/uevent");
	/* a link where a directory would be */
	tree_link(f->root, "devices/platform/jump", "../virtual/net");
	tree_link(f->root, "devices/platform/loop", "loop");
	assert_int_equal(sysdev_new(f->root, &f->ctx), 0);
	alarm(20); /* the FIFO must never be opened */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	alarm(0);
	sysdev_unref(f->ctx);
	tree_free(f->root);
	free(f);
	return 0;
}

static void check(struct sysdev *ctx, const char *devpath, int kind, int rule, const char *parent)
{
	struct sysdev_reason *r = NULL;
	struct sysdev_device *pdev = NULL;
	const char *pdevpath = NULL;
	int got = sysdev_classify(ctx, devpath);

	if (got != kind)
		fail_msg("%s: classified %d, want %d", devpath, got, kind);
	got = sysdev_explain(ctx, devpath, &r);
	assert_non_null(r);
	if (got != kind || (int)sysdev_reason_get_kind(r) != kind)
		fail_msg("%s: explained %d (kind %d), want %d", devpath, got,
			 sysdev_reason_get_kind(r), kind);
	if ((int)sysdev_reason_get_rule(r) != rule)
		fail_msg("%s: rule %s, want %s", devpath,
			 sysdev_rule_to_string(sysdev_reason_get_rule(r)),
			 sysdev_rule_to_string(rule));
	got = sysdev_reason_get_parent(r, &pdev);
	if (got == 0)
		assert_int_equal(sysdev_device_get_devpath(pdev, &pdevpath), 0);
	else
		assert_int_equal(got, -ENOENT);
	if (parent ? !pdevpath || strcmp(pdevpath, parent) != 0 : pdevpath != NULL)
		fail_msg("%s: parent %s, want %s", devpath, pdevpath ? pdevpath : "none",
			 parent ? parent : "none");
	assert_null(sysdev_reason_unref(r));
}

static void test_root(void **state)
{
	struct fx *f = *state;

	check(f->ctx, "/devices", SYSDEV_KIND_ROOT, SYSDEV_RULE_ROOT, NULL);
}

static void test_devices(void **state)
{
	struct fx *f = *state;

	check(f->ctx, "/devices/platform", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT, NULL);
	check(f->ctx, "/devices/platform/omap_i2c.2", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT,
	      "/devices/platform");
	check(f->ctx, I2C "/leds/gta04:green:power", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT, I2C);
	check(f->ctx, I2C "/block/sda/sda1", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT,
	      I2C "/block/sda");
	check(f->ctx, "/devices/virtual/net/lo", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT, NULL);
	check(f->ctx, "/devices/system/cpu/cpu10", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT,
	      "/devices/system/cpu");
	check(f->ctx, "/devices/platform/r", SYSDEV_KIND_DEVICE, SYSDEV_RULE_UEVENT,
	      "/devices/platform");
}

static void test_class_dirs(void **state)
{
	struct fx *f = *state;
	struct sysdev_reason *r = NULL;

	/* named after a class, below a device, holding devices */
	check(f->ctx, I2C "/leds", SYSDEV_KIND_CLASS_DIR, SYSDEV_RULE_CLASS_DIR, I2C);
	check(f->ctx, I2C "/block", SYSDEV_KIND_CLASS_DIR, SYSDEV_RULE_CLASS_DIR, I2C);
	/* in S/devices/virtual: holding a device, or empty */
	check(f->ctx, "/devices/virtual/net", SYSDEV_KIND_CLASS_DIR, SYSDEV_RULE_CLASS_DIR, NULL);
	check(f->ctx, "/devices/virtual/leds", SYSDEV_KIND_CLASS_DIR, SYSDEV_RULE_CLASS_DIR, NULL);
	assert_int_equal(sysdev_explain(f->ctx, "/devices/virtual/leds", &r),
			 SYSDEV_KIND_CLASS_DIR);
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_NAME_IS_CLASS));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_VIRTUAL));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_EMPTY));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_DEVICE_CHILD));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_UEVENT));
	r = sysdev_reason_unref(r);
	assert_int_equal(sysdev_explain(f->ctx, I2C "/leds", &r), SYSDEV_KIND_CLASS_DIR);
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_DEVICE));
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_DEVICE_CHILD));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_EMPTY));
	r = sysdev_reason_unref(r);
}

static void test_attr_groups(void **state)
{
	struct fx *f = *state;
	struct sysdev_reason *r = NULL;

	/* a class name holding only files is an attribute group */
	check(f->ctx, I2C "/net", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE, I2C);
	assert_int_equal(sysdev_explain(f->ctx, I2C "/net", &r), SYSDEV_KIND_ATTR_GROUP);
	assert_true(sysdev_reason_has_fact(r, SYSDEV_FACT_NAME_IS_CLASS));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_EMPTY));
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_DEVICE_CHILD));
	r = sysdev_reason_unref(r);
	check(f->ctx, I2C "/power", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE, I2C);
	check(f->ctx, I2C "/engine/state0", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE, I2C);
	check(f->ctx, "/devices/virtual/net/lo/queues/rx-0", SYSDEV_KIND_ATTR_GROUP,
	      SYSDEV_RULE_BELOW_DEVICE, "/devices/virtual/net/lo");
	/* cpu1 beside the device cpu10: a directory below cpu, not a device */
	check(f->ctx, "/devices/system/cpu/cpu1", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE,
	      "/devices/system/cpu");
	check(f->ctx, "/devices/platform/r.", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE,
	      "/devices/platform");
}

static void test_containers(void **state)
{
	struct fx *f = *state;

	check(f->ctx, "/devices/virtual", SYSDEV_KIND_CONTAINER, SYSDEV_RULE_NO_DEVICE_ABOVE, NULL);
	check(f->ctx, "/devices/system", SYSDEV_KIND_CONTAINER, SYSDEV_RULE_NO_DEVICE_ABOVE, NULL);
	check(f->ctx, "/devices/system/memory", SYSDEV_KIND_CONTAINER, SYSDEV_RULE_NO_DEVICE_ABOVE,
	      NULL);
}

/* A uevent that is no regular file makes no device; the FIFO is never opened. */
static void test_uevent_not_regular(void **state)
{
	struct fx *f = *state;
	struct sysdev_reason *r = NULL;

	check(f->ctx, "/devices/platform/fifo", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE,
	      "/devices/platform");
	check(f->ctx, "/devices/platform/dir", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE,
	      "/devices/platform");
	check(f->ctx, "/devices/platform/link", SYSDEV_KIND_ATTR_GROUP, SYSDEV_RULE_BELOW_DEVICE,
	      "/devices/platform");
	assert_int_equal(sysdev_explain(f->ctx, "/devices/platform/fifo", &r),
			 SYSDEV_KIND_ATTR_GROUP);
	assert_false(sysdev_reason_has_fact(r, SYSDEV_FACT_HAS_UEVENT));
	r = sysdev_reason_unref(r);
}

static void test_refused(void **state)
{
	struct fx *f = *state;
	static const char *const invalid[] = {
	    "",
	    "/",
	    "devices",
	    "devices/platform",
	    "/devices/",
	    "/devicesx",
	    "/sys/devices",
	    "/devices//platform",
	    "/devices/./platform",
	    "/devices/platform/..",
	    "/devices/../class",
	    "/class/net/lo",
	};
	struct sysdev_reason *r = NULL;

	assert_int_equal(sysdev_classify(NULL, "/devices"), -EINVAL);
	assert_int_equal(sysdev_classify(f->ctx, NULL), -EINVAL);
	assert_int_equal(sysdev_explain(NULL, "/devices", &r), -EINVAL);
	assert_int_equal(sysdev_explain(f->ctx, NULL, &r), -EINVAL);
	assert_int_equal(sysdev_explain(f->ctx, "/devices", NULL), -EINVAL);
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		if (sysdev_classify(f->ctx, invalid[i]) != -EINVAL)
			fail_msg("'%s' not refused", invalid[i]);
		if (sysdev_explain(f->ctx, invalid[i], &r) != -EINVAL)
			fail_msg("'%s' not refused", invalid[i]);
		assert_null(r);
	}
	assert_int_equal(sysdev_classify(f->ctx, "/devices/platform/missing"), -ENOENT);
	assert_int_equal(sysdev_classify(f->ctx, "/devices/missing/x"), -ENOENT);
	/* cpu1 is no prefix of cpu10 */
	assert_int_equal(sysdev_classify(f->ctx, "/devices/system/cpu/cpu"), -ENOENT);
	assert_int_equal(sysdev_classify(f->ctx, "/devices/system/cpu/cpu100"), -ENOENT);
	/* links are not followed, at the end or on the way */
	assert_int_equal(sysdev_classify(f->ctx, "/devices/platform/jump"), -ENOTDIR);
	assert_int_equal(sysdev_classify(f->ctx, "/devices/platform/jump/lo"), -ENOTDIR);
	assert_int_equal(sysdev_classify(f->ctx, "/devices/platform/loop"), -ENOTDIR);
	/* a file is no directory */
	assert_int_equal(sysdev_classify(f->ctx, I2C "/name"), -ENOTDIR);
	assert_int_equal(sysdev_explain(f->ctx, I2C "/name", &r), -ENOTDIR);
	assert_null(r);
	assert_null(sysdev_reason_unref(NULL));
}

#include "unit-main.h"

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    T(test_root),	 T(test_devices),    T(test_class_dirs),
	    T(test_attr_groups), T(test_containers), T(test_uevent_not_regular),
	    T(test_refused),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
