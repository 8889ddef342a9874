/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device lookup by every DEVICE form of sysdev-tree(1), attributes and links. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libsysdev.h"
#include "tree.h"

#define CLIENT_REL "devices/platform/omap_i2c.2/i2c-2/2-0045"
#define CLIENT "/" CLIENT_REL

static int setup(void **state)
{
	char *root = tree_new();

	tree_article(root);
	tree_link(root, CLIENT_REL "/of_node", "../../../../../firmware/devicetree/base/tca6507");
	tree_dir(root, "firmware/devicetree/base/tca6507/");
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tree_free(*state);
	return 0;
}

static void expect_devpath(struct sysdev *ctx, const char *spec, const char *devpath)
{
	struct sysdev_device *dev = NULL;
	int err = sysdev_device_new(ctx, spec, &dev);

	if (err < 0)
		fail_msg("%s: %s", spec, strerror(-err));
	assert_string_equal(sysdev_device_get_devpath(dev), devpath);
	sysdev_device_unref(dev);
}

static void test_forms(void **state)
{
	const char *root = *state;
	struct sysdev_device *dev;
	struct sysdev *ctx;
	char spec[4096];

	assert_int_equal(sysdev_new(root, &ctx), 0);
	expect_devpath(ctx, CLIENT, CLIENT);
	expect_devpath(ctx, CLIENT "/", CLIENT);
	expect_devpath(ctx, "/sys" CLIENT, CLIENT);
	snprintf(spec, sizeof(spec), "%s%s", root, CLIENT);
	expect_devpath(ctx, spec, CLIENT);
	expect_devpath(ctx, "i2c:2-0045", CLIENT);
	expect_devpath(ctx, "leds:gta04:green:power", CLIENT "/leds/gta04:green:power");
	expect_devpath(ctx, "net:lo", "/devices/virtual/net/lo");
	/* links inside the root are followed */
	expect_devpath(ctx, "/sys/class/net/lo", "/devices/virtual/net/lo");
	expect_devpath(ctx, "/sys/bus/i2c/devices/2-0045", CLIENT);
	/* a device node on a captured root: by DEVNAME */
	expect_devpath(ctx, "/dev/sda1", CLIENT "/block/sda/sda1");
	expect_devpath(ctx, "/dev/sda", CLIENT "/block/sda");

	assert_int_equal(sysdev_device_new(ctx, "/dev/nonexistent", &dev), -ENOENT);
	assert_int_equal(sysdev_device_new(ctx, "net:eth9", &dev), -ENOENT);
	assert_int_equal(sysdev_device_new(ctx, "/devices/nope", &dev), -ENOENT);
	assert_int_equal(sysdev_device_new(ctx, "/devices/virtual", &dev), -ENODEV);
	assert_int_equal(sysdev_device_new(ctx, "/devices", &dev), -ENODEV);
	assert_int_equal(sysdev_device_new(ctx, "/etc/passwd", &dev), -EXDEV);
	assert_int_equal(sysdev_device_new(ctx, "/sys/../etc", &dev), -EXDEV);
	assert_int_equal(sysdev_device_new(ctx, "net:../../x", &dev), -EINVAL);
	assert_int_equal(sysdev_device_new(ctx, "garbage", &dev), -EINVAL);
	assert_int_equal(sysdev_device_new(ctx, "", &dev), -EINVAL);
	assert_null(dev);
	sysdev_unref(ctx);
}

static void test_fields(void **state)
{
	const char *name;
	char *link;
	struct sysdev_device *dev, *parent, *pp;
	const char *key, *value;
	struct sysdev *ctx;
	char buf[64];
	size_t i;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, "leds:gta04:green:power", &dev), 0);
	assert_string_equal(sysdev_device_get_name(dev), "gta04:green:power");
	assert_string_equal(sysdev_device_get_subsystem(dev), "leds");
	assert_int_equal(sysdev_device_get_subsystem_kind(dev), SYSDEV_SUBSYSTEM_CLASS);
	assert_null(sysdev_device_get_driver(dev));
	assert_string_equal(sysdev_device_get_class_dir(dev), "leds");
	assert_string_equal(sysdev_device_get_parent_devpath(dev), CLIENT);
	assert_int_equal(sysdev_device_read_attribute(dev, "brightness", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "100");
	assert_int_equal(sysdev_device_read_attribute(dev, "../brightness", buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "/etc/passwd", buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "nope", buf, sizeof(buf)), -ENOENT);

	/* the parent chain, as udevadm info -a walks it */
	assert_int_equal(sysdev_device_get_parent(dev, &parent), 0);
	assert_string_equal(sysdev_device_get_devpath(parent), CLIENT);
	assert_string_equal(sysdev_device_get_driver(parent), "leds-tca6507");
	assert_int_equal(sysdev_device_get_subsystem_kind(parent), SYSDEV_SUBSYSTEM_BUS);
	assert_null(sysdev_device_get_class_dir(parent));
	assert_string_equal(sysdev_device_get_property(parent, "MODALIAS"), "i2c:tca6507");
	assert_int_equal(sysdev_device_get_link(parent, "of_node", &link), 0);
	assert_string_equal(link, "/firmware/devicetree/base/tca6507");
	free(link);
	assert_int_equal(sysdev_device_get_link(parent, "firmware_node", &link), -ENOENT);
	assert_null(link);
	/* a regular file is no link; a path is no link name */
	assert_int_equal(sysdev_device_get_link(parent, "name", &link), -ENOENT);
	assert_int_equal(sysdev_device_get_link(parent, "power/x", &link), -EINVAL);
	/* attributes: regular files but uevent; groups: engine, net, power (not leds, block) */
	for (i = 0; sysdev_device_get_attribute_at(parent, i, &name) == 0; i++)
		assert_string_not_equal(name, "uevent");
	assert_int_equal(i, 1);
	assert_int_equal(sysdev_device_get_attribute_at(parent, 1, &name), -ENOENT);
	assert_null(name);
	assert_int_equal(sysdev_device_get_attribute_at(parent, 0, &name), 0);
	assert_string_equal(name, "name");
	assert_int_equal(sysdev_device_get_group_at(parent, 0, &name), 0);
	assert_string_equal(name, "engine");
	assert_int_equal(sysdev_device_get_group_at(parent, 1, &name), 0);
	assert_string_equal(name, "net");
	assert_int_equal(sysdev_device_get_group_at(parent, 2, &name), 0);
	assert_string_equal(name, "power");
	assert_int_equal(sysdev_device_get_group_at(parent, 3, &name), -ENOENT);
	assert_int_equal(sysdev_device_get_attribute_at(parent, 0, NULL), -EINVAL);
	i = 0;
	while (sysdev_device_get_property_at(parent, i, &key, &value))
		i++;
	assert_int_equal(i, 2);

	for (int n = 0; n < 3; n++) {
		assert_int_equal(sysdev_device_get_parent(parent, &pp), 0);
		sysdev_device_unref(parent);
		parent = pp;
	}
	assert_string_equal(sysdev_device_get_devpath(parent), "/devices/platform");
	assert_int_equal(sysdev_device_get_parent(parent, &pp), -ENOENT);
	sysdev_device_unref(parent);
	sysdev_device_unref(dev);

	assert_int_equal(sysdev_device_new(ctx, "/dev/sda1", &dev), 0);
	assert_string_equal(sysdev_device_get_devnum(dev), "8:1");
	assert_string_equal(sysdev_device_get_devtype(dev), "partition");
	assert_string_equal(sysdev_device_get_devname(dev), "sda1");
	assert_null(sysdev_device_get_class_dir(dev));
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

struct node_devices {
	struct sysdev_device *client; /* the CLIENT node's device */
	int not_device;               /* what the root node answered */
};

static int take_device(const struct sysdev_node *node, void *data)
{
	struct node_devices *nd = data;
	struct sysdev_device *dev = NULL;

	if (sysdev_node_get_depth(node) == 0)
		nd->not_device = sysdev_node_get_device(node, &dev);
	else if (strcmp(sysdev_node_get_devpath(node), CLIENT) == 0)
		assert_int_equal(sysdev_node_get_device(node, &nd->client), 0);
	return 0;
}

static void test_node_device(void **state)
{
	struct node_devices nd = {0};
	const char *name;
	struct sysdev *ctx;
	char path[4096];

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_walk(ctx, NULL, 0, -1, take_device, NULL, &nd, NULL), 0);
	assert_int_equal(nd.not_device, -ENODEV);
	assert_non_null(nd.client);
	/* the device outlives the walk, with what the walk read */
	assert_string_equal(sysdev_device_get_devpath(nd.client), CLIENT);
	assert_string_equal(sysdev_device_get_driver(nd.client), "leds-tca6507");
	assert_string_equal(sysdev_device_get_property(nd.client, "MODALIAS"), "i2c:tca6507");
	/* its directory gone before the first listing: a failure, told apart from the end */
	snprintf(path, sizeof(path), "rm -rf '%s/%s'", (const char *)*state, CLIENT_REL);
	assert_int_equal(system(path), 0);
	assert_int_equal(sysdev_device_get_attribute_at(nd.client, 0, &name), -ENODEV);
	assert_null(name);
	sysdev_device_unref(nd.client);
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_fields),
		cmocka_unit_test_setup_teardown(test_node_device, setup, teardown),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
