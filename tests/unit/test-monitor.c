/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The monitor's events: devices with an action and a seqnum, from messages written by hand. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "device-private.h"
#include "tree.h"

#define CLIENT "/devices/platform/omap_i2c.2/i2c-2/2-0045"
#define LED CLIENT "/leds/gta04:green:power"

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

/* An event from a kernel message: "ACTION@DEVPATH\0KEY=VALUE\0..." of @len bytes. */
static struct sysdev_device *event(struct sysdev *ctx, const char *msg, size_t len)
{
	struct uevent_message m;
	struct sysdev_device *dev = NULL;

	assert_int_equal(uevent_message_parse(&m, msg, len), 0);
	assert_int_equal(device_new_from_message(ctx, &m, &dev), 0);
	uevent_message_free(&m);
	return dev;
}

#define EVENT(ctx, lit) event((ctx), (lit), sizeof(lit))

static void test_add(void **state)
{
	struct sysdev_device *dev, *parent;
	enum sysdev_placement pl;
	enum sysdev_kind kind;
	struct sysdev *ctx;
	uint64_t seqnum;
	const char *v;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	dev = EVENT(ctx, "change@" LED "\0ACTION=change\0DEVPATH=" LED
			 "\0SUBSYSTEM=leds\0SEQNUM=4711\0TRIGGER=none");
	assert_int_equal(sysdev_device_get_action(dev, &v), 0);
	assert_string_equal(v, "change");
	assert_int_equal(sysdev_device_get_seqnum(dev, &seqnum), 0);
	assert_int_equal(seqnum, 4711);
	assert_int_equal(sysdev_device_get_devpath(dev, &v), 0);
	assert_string_equal(v, LED);
	assert_int_equal(sysdev_device_get_name(dev, &v), 0);
	assert_string_equal(v, "gta04:green:power");
	assert_int_equal(sysdev_device_get_subsystem(dev, &v), 0);
	assert_string_equal(v, "leds");
	assert_int_equal(sysdev_device_get_property(dev, "TRIGGER", &v), 0);
	assert_string_equal(v, "none");
	assert_int_equal(sysdev_device_get_driver(dev, &v), -ENOENT);
	/* looked up while it was there */
	assert_int_equal(sysdev_device_get_kind(dev, &kind), 0);
	assert_int_equal(kind, SYSDEV_KIND_DEVICE);
	assert_int_equal(sysdev_device_get_class_dir(dev, &v), 0);
	assert_string_equal(v, "leds");
	assert_int_equal(sysdev_device_get_parent(dev, &parent), 0);
	assert_int_equal(sysdev_device_get_devpath(parent, &v), 0);
	assert_string_equal(v, CLIENT);
	assert_int_equal(sysdev_device_get_placement(dev, &pl), 0);
	assert_int_equal(pl, SYSDEV_PLACEMENT_DEVICES);
	assert_null(sysdev_device_unref(dev));
	sysdev_unref(ctx);
}

/* A remove, and a path outside S/devices: what cannot be looked up is absent. */
static void test_remove_and_module(void **state)
{
	struct sysdev_device *dev, *parent;
	enum sysdev_placement pl;
	enum sysdev_kind kind;
	struct sysdev *ctx;
	const char *v;
	dev_t devnum;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	dev = EVENT(ctx, "remove@" CLIENT "/block/sda\0ACTION=remove\0DEVPATH=" CLIENT
			 "/block/sda\0SUBSYSTEM=block\0SEQNUM=9\0MAJOR=8\0MINOR=0\0DEVNAME=sda");
	assert_int_equal(sysdev_device_get_kind(dev, &kind), -ENOENT);
	assert_int_equal(sysdev_device_get_parent(dev, &parent), -ENOENT);
	assert_int_equal(sysdev_device_get_class_dir(dev, &v), -ENOENT);
	/* the message's number and name */
	assert_int_equal(sysdev_device_get_devnum(dev, &devnum), 0);
	assert_int_equal(devnum, makedev(8, 0));
	assert_int_equal(sysdev_device_get_devname(dev, &v), 0);
	assert_string_equal(v, "sda");
	sysdev_device_unref(dev);

	dev = EVENT(ctx, "add@/module/loop\0ACTION=add\0DEVPATH=/module/loop\0SUBSYSTEM=module\0"
			 "SEQNUM=10");
	assert_int_equal(sysdev_device_get_kind(dev, &kind), -ENOENT);
	assert_int_equal(sysdev_device_get_placement(dev, &pl), -ENOENT);
	assert_int_equal(sysdev_device_get_devnum(dev, &devnum), -ENOENT);
	assert_int_equal(sysdev_device_get_name(dev, &v), 0);
	assert_string_equal(v, "loop");
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

static void test_null(void **state)
{
	struct sysdev_monitor *m = (struct sysdev_monitor *)1;
	struct sysdev_device *dev = (struct sysdev_device *)1;
	struct sysdev *ctx;
	int r;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_monitor_new(NULL, &m), -EINVAL);
	assert_null(m);
	assert_int_equal(sysdev_monitor_new(ctx, NULL), -EINVAL);
	assert_int_equal(sysdev_monitor_receive(NULL, &dev), -EINVAL);
	assert_null(dev);
	assert_int_equal(sysdev_monitor_get_fd(NULL), -EINVAL);
	assert_int_equal(sysdev_monitor_get_dropped(NULL), 0);
	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(NULL, "x", NULL), -EINVAL);
	assert_null(sysdev_monitor_ref(NULL));
	assert_null(sysdev_monitor_unref(NULL));
	/* where netlink is allowed: nothing pending is -EAGAIN */
	r = sysdev_monitor_new(ctx, &m);
	if (r == 0) {
		assert_true(sysdev_monitor_get_fd(m) >= 0);
		assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, NULL, NULL),
				 -EINVAL);
		assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "net", NULL), 0);
		assert_int_equal(sysdev_monitor_receive(m, NULL), -EINVAL);
		assert_null(sysdev_monitor_unref(m));
	}
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_add),
	    cmocka_unit_test(test_remove_and_module),
	    cmocka_unit_test(test_null),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
