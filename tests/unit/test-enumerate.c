/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The enumerator on the article's tree: the devices each match finds, written by hand. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libsysdev.h"
#include "tree.h"

#define CLIENT "/devices/platform/omap_i2c.2/i2c-2/2-0045"

static int setup(void **state)
{
	char *root = tree_new();

	tree_article(root);
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tree_free(*state);
	return 0;
}

/* The devpaths of the last scan, one string, each followed by a space. */
static char *listed(struct sysdev_enumerator *e)
{
	struct sysdev_device *dev;
	static char buf[4096];
	const char *p;

	buf[0] = '\0';
	SYSDEV_FOREACH_DEVICE(e, dev)
	{
		assert_int_equal(sysdev_device_get_devpath(dev, &p), 0);
		strcat(buf, p);
		strcat(buf, " ");
	}
	return buf;
}

static void test_scan_all(void **state)
{
	struct sysdev_enumerator *e;
	struct sysdev_device *dev = (struct sysdev_device *)1;
	struct sysdev *ctx;
	size_t n = 0;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	/* no scan yet: nothing, past the end at once */
	assert_int_equal(sysdev_enumerator_get_count(e), 0);
	assert_int_equal(sysdev_enumerator_get_device_at(e, 0, &dev), -ENOENT);
	assert_null(dev);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	/* libudev's devices: those with a subsystem link, in the walk's order */
	assert_string_equal(
	    listed(e), "/devices/platform/omap_i2c.2 /devices/platform/omap_i2c.2/i2c-2 " CLIENT
		       " " CLIENT "/block/sda " CLIENT "/block/sda/sda1 " CLIENT
		       "/leds/gta04:green:power " CLIENT "/leds/gta04:red:aux "
		       "/devices/system/cpu/cpu0 /devices/toplevel0 /devices/virtual/net/lo ");
	SYSDEV_FOREACH_DEVICE(e, dev)
	n++;
	assert_int_equal(n, 10);
	assert_int_equal(sysdev_enumerator_get_count(e), 10);
	assert_int_equal(sysdev_enumerator_get_device_at(e, 9, &dev), 0);
	assert_int_equal(sysdev_enumerator_get_device_at(e, 10, &dev), -ENOENT);
	assert_null(dev);
	/* the devices without one too, as a walk shows them */
	assert_int_equal(sysdev_enumerator_allow_no_subsystem(e, true), 0);
	assert_int_equal(sysdev_enumerator_get_count(e), 0); /* a change drops the results */
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_int_equal(sysdev_enumerator_get_count(e), 13);
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
}

static void test_matches(void **state)
{
	struct sysdev_enumerator *e;
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_subsystem(e, "leds", true), 0);
	assert_int_equal(sysdev_enumerator_set_full_walk(e, true), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_string_equal(listed(e),
			    CLIENT "/leds/gta04:green:power " CLIENT "/leds/gta04:red:aux ");
	sysdev_enumerator_unref(e);

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_parent(e, CLIENT), 0);
	assert_int_equal(sysdev_enumerator_add_match_subsystem(e, "leds", false), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_string_equal(listed(e), CLIENT " " CLIENT "/block/sda " CLIENT "/block/sda/sda1 ");
	sysdev_enumerator_unref(e);

	/* properties as udev holds them: DEVNAME is the node's path */
	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_property(e, "DEVNAME", "/dev/sda*"), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_string_equal(listed(e), CLIENT "/block/sda " CLIENT "/block/sda/sda1 ");
	sysdev_enumerator_unref(e);

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_devtype(e, "disk"), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_string_equal(listed(e), CLIENT "/block/sda ");
	sysdev_enumerator_unref(e);

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_placement(e, SYSDEV_PLACEMENT_VIRTUAL), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_string_equal(listed(e), "/devices/virtual/net/lo ");
	sysdev_enumerator_unref(e);

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_sysattr(e, "brightness", "1*"), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_string_equal(listed(e), CLIENT "/leds/gta04:green:power ");
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
}

/* A device of a scan is the enumerator's until it takes a reference of its own. */
static void test_keep(void **state)
{
	struct sysdev_enumerator *e;
	struct sysdev_device *dev, *parent;
	struct sysdev *ctx;
	const char *v;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_sysname(e, "sda1"), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_int_equal(sysdev_enumerator_get_device_at(e, 0, &dev), 0);
	sysdev_device_ref(dev);
	assert_null(sysdev_enumerator_unref(e));
	assert_int_equal(sysdev_device_get_devname(dev, &v), 0);
	assert_string_equal(v, "sda1");
	assert_int_equal(sysdev_device_get_parent(dev, &parent), 0);
	assert_int_equal(sysdev_device_get_devpath(parent, &v), 0);
	assert_string_equal(v, CLIENT "/block/sda");
	assert_int_equal(sysdev_device_get_class_dir(dev, &v), -ENOENT);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

/* A device of the enumerator whose directory went away: its link is -ENODEV, as its
 * attributes are, not an error of a directory that was never opened. */
static void test_gone(void **state)
{
	struct sysdev_enumerator *e;
	struct sysdev_device *dev;
	struct sysdev *ctx;
	char from[4096], to[4096];
	char *target = (char *)"unset";

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_sysname(e, "sda1"), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_int_equal(sysdev_enumerator_get_device_at(e, 0, &dev), 0);
	snprintf(from, sizeof(from), "%s" CLIENT "/block/sda/sda1", (const char *)*state);
	snprintf(to, sizeof(to), "%s" CLIENT "/block/sda/gone", (const char *)*state);
	assert_int_equal(rename(from, to), 0);
	assert_int_equal(sysdev_device_get_link(dev, "subsystem", &target), -ENODEV);
	assert_null(target);
	assert_int_equal(rename(to, from), 0);
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
}

static void test_null(void **state)
{
	struct sysdev_enumerator *e = (struct sysdev_enumerator *)1;
	struct sysdev_device *dev;
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_enumerator_new(NULL, &e), -EINVAL);
	assert_null(e);
	assert_int_equal(sysdev_enumerator_new(ctx, NULL), -EINVAL);
	assert_int_equal(sysdev_enumerator_scan(NULL), -EINVAL);
	assert_int_equal(sysdev_enumerator_add_match_subsystem(NULL, "x", true), -EINVAL);
	assert_int_equal(sysdev_enumerator_add_match_sysname(NULL, "x"), -EINVAL);
	assert_int_equal(sysdev_enumerator_get_device_at(NULL, 0, &dev), -EINVAL);
	assert_int_equal(sysdev_enumerator_get_count(NULL), 0);
	assert_null(sysdev_enumerator_ref(NULL));
	assert_null(sysdev_enumerator_unref(NULL));
	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_subsystem(e, NULL, true), -EINVAL);
	assert_int_equal(sysdev_enumerator_add_match_property(e, "", "x"), -EINVAL);
	assert_int_equal(sysdev_enumerator_add_match_value(e, "K", NULL), -EINVAL);
	assert_int_equal(sysdev_enumerator_add_match_parent(e, "devices"), -EINVAL);
	assert_int_equal(sysdev_enumerator_add_match_placement(e, (enum sysdev_placement)7),
			 -EINVAL);
	assert_int_equal(sysdev_enumerator_get_device_at(e, 0, NULL), -EINVAL);
	assert_ptr_equal(sysdev_enumerator_ref(e), e);
	sysdev_enumerator_unref(e);
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scan_all), cmocka_unit_test(test_matches),
	    cmocka_unit_test(test_keep),     cmocka_unit_test(test_gone),
	    cmocka_unit_test(test_null),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
