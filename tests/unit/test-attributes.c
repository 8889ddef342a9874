/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's attributes and groups, and the bounded read of one: each errno by its condition. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libsysdev.h"
#include "tree.h"

#define CLIENT_REL "devices/platform/omap_i2c.2/i2c-2/2-0045"
#define CLIENT "/" CLIENT_REL

static int setup(void **state)
{
	char *root = tree_new();
	char path[4096];

	tree_article(root);
	tree_file(root, CLIENT_REL "/long", "0123456789abcdefXYZ\n");
	tree_link(root, CLIENT_REL "/of_node", "../../../../../firmware/node");
	snprintf(path, sizeof(path), "%s/%s/fifo", root, CLIENT_REL);
	assert_int_equal(mkfifo(path, 0644), 0);
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tree_free(*state);
	return 0;
}

static void test_read(void **state)
{
	struct sysdev_device *dev;
	struct sysdev *ctx;
	char buf[16];

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_read_attribute(dev, "name", buf, sizeof(buf)), 7);
	assert_string_equal(buf, "tca6507");
	/* longer than the buffer: its first bytes, and EFBIG */
	assert_int_equal(sysdev_device_read_attribute(dev, "long", buf, sizeof(buf)), -EFBIG);
	assert_string_equal(buf, "0123456789abcde");
	/* a file in a group */
	assert_int_equal(sysdev_device_read_attribute(dev, "power/pm_qos_latency_tolerance_us", buf,
						      sizeof(buf)),
			 4);
	assert_string_equal(buf, "auto");
	/* libudev's links read as names; any other link, a FIFO or a directory: not a regular file
	 */
	assert_int_equal(sysdev_device_read_attribute(dev, "driver", buf, sizeof(buf)), 12);
	assert_string_equal(buf, "leds-tca6507");
	assert_int_equal(sysdev_device_read_attribute(dev, "subsystem", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "i2c");
	assert_int_equal(sysdev_device_read_attribute(dev, "of_node", buf, sizeof(buf)), -EBADFD);
	assert_int_equal(sysdev_device_read_attribute(dev, "fifo", buf, sizeof(buf)), -EBADFD);
	assert_int_equal(sysdev_device_read_attribute(dev, "power", buf, sizeof(buf)), -EBADFD);
	/* absent, and names that are no attribute's */
	assert_int_equal(sysdev_device_read_attribute(dev, "nope", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sysdev_device_read_attribute(dev, "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "power/../name", buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "name/", buf, sizeof(buf)), -EINVAL);
	/* ".." as the last component names a directory above, never an attribute */
	assert_int_equal(sysdev_device_read_attribute(dev, "..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "power/..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "power/.", buf, sizeof(buf)), -EINVAL);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

static void test_unreadable(void **state)
{
	struct sysdev_device *dev;
	struct sysdev *ctx;
	char buf[64], path[4096];

	if (geteuid() == 0)
		skip(); /* root reads a file of mode 0 */
	snprintf(path, sizeof(path), "%s/%s/name", (const char *)*state, CLIENT_REL);
	assert_int_equal(chmod(path, 0), 0);
	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_read_attribute(dev, "name", buf, sizeof(buf)), -EACCES);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	assert_int_equal(chmod(path, 0644), 0);
}

static void test_lists(void **state)
{
	struct sysdev_device *dev;
	struct sysdev *ctx;
	const char *name;
	char names[256] = "";

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	/* regular files, uevent left out, sorted: not the FIFO, not the links */
	SYSDEV_DEVICE_FOREACH_ATTRIBUTE(dev, name)
	{
		strcat(names, name);
		strcat(names, " ");
	}
	assert_string_equal(names, "long name ");
	assert_int_equal(sysdev_device_get_attribute_at(dev, 2, &name), -ENOENT);
	names[0] = '\0';
	SYSDEV_DEVICE_FOREACH_GROUP(dev, name)
	{
		strcat(names, name);
		strcat(names, " ");
	}
	assert_string_equal(names, "engine net power ");
	assert_int_equal(sysdev_device_get_group_at(dev, 3, &name), -ENOENT);
	assert_int_equal(sysdev_device_get_group_at(NULL, 0, &name), -EINVAL);
	assert_int_equal(sysdev_device_get_group_at(dev, 0, NULL), -EINVAL);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read),
	    cmocka_unit_test(test_unreadable),
	    cmocka_unit_test(test_lists),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
