/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device lookup by every DEVICE form of sysdev-tree(1), attributes and links. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

/* A string field, NULL where the getter says it is absent (and only then). */
static const char *str(struct sysdev_device *dev,
		       int (*get)(struct sysdev_device *dev, const char **ret))
{
	const char *v = NULL;
	int r = get(dev, &v);

	if (r < 0 && r != -ENOENT)
		fail_msg("a getter failed: %s", strerror(-r));
	return r < 0 ? NULL : v;
}

static const char *property(struct sysdev_device *dev, const char *key)
{
	const char *v = NULL;

	return sysdev_device_get_property(dev, key, &v) == 0 ? v : NULL;
}

static void expect_devpath(struct sysdev *ctx, const char *spec, const char *devpath)
{
	struct sysdev_device *dev = NULL;
	int err = sysdev_device_new(ctx, spec, &dev);

	if (err < 0)
		fail_msg("%s: %s", spec, strerror(-err));
	assert_string_equal(str(dev, sysdev_device_get_devpath), devpath);
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

/* A spec of more than 64 KiB is no device spec (-EINVAL) before anything is looked
 * up; one of 64 KiB is looked up (a devpath of missing components: -ENOENT). */
static void test_spec_length(void **state)
{
	const char *root = *state;
	struct sysdev_device *dev = NULL;
	struct sysdev *ctx;
	size_t max = 64 * 1024;
	char *spec = malloc(max + 2);

	assert_non_null(spec);
	assert_int_equal(sysdev_new(root, &ctx), 0);
	/* "/devices/nope/xxx...": missing from its second component on */
	memcpy(spec, "/devices/nope/", 14);
	memset(spec + 14, 'x', max - 14);
	spec[max] = 0;
	assert_int_equal(strlen(spec), max);
	assert_int_not_equal(sysdev_device_new(ctx, spec, &dev), -EINVAL);
	assert_null(dev);
	spec[max] = 'x';
	spec[max + 1] = 0;
	assert_int_equal(sysdev_device_new(ctx, spec, &dev), -EINVAL);
	assert_null(dev);
	/* the same for the other forms: a SUBSYSTEM:NAME */
	memcpy(spec, "net:", 4);
	memset(spec + 4, 'x', max - 4);
	assert_int_equal(sysdev_device_new(ctx, spec, &dev), -EINVAL);
	sysdev_unref(ctx);
	free(spec);
}

static void test_fields(void **state)
{
	const char *name;
	char *link;
	struct sysdev_device *dev, *parent, *pp;
	const char *key, *value;
	enum sysdev_subsystem_kind sk;
	enum sysdev_placement pl;
	enum sysdev_kind kind;
	struct sysdev *ctx;
	uint64_t seqnum;
	char buf[64];
	dev_t devnum;
	size_t i;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, "leds:gta04:green:power", &dev), 0);
	assert_string_equal(str(dev, sysdev_device_get_name), "gta04:green:power");
	assert_string_equal(str(dev, sysdev_device_get_subsystem), "leds");
	assert_int_equal(sysdev_device_get_subsystem_kind(dev, &sk), 0);
	assert_int_equal(sk, SYSDEV_SUBSYSTEM_CLASS);
	assert_int_equal(sysdev_device_get_driver(dev, &name), -ENOENT);
	assert_string_equal(str(dev, sysdev_device_get_class_dir), "leds");
	assert_int_equal(sysdev_device_get_kind(dev, &kind), 0);
	assert_int_equal(kind, SYSDEV_KIND_DEVICE);
	assert_int_equal(sysdev_device_get_placement(dev, &pl), 0);
	assert_int_equal(pl, SYSDEV_PLACEMENT_DEVICES);
	/* not from a monitor: no action, no sequence number */
	assert_int_equal(sysdev_device_get_action(dev, &name), -ENOENT);
	assert_int_equal(sysdev_device_get_seqnum(dev, &seqnum), -ENOENT);
	/* no dev attribute: no number, no node name */
	assert_int_equal(sysdev_device_get_devnum(dev, &devnum), -ENOENT);
	assert_int_equal(sysdev_device_get_devname(dev, &name), -ENOENT);
	assert_int_equal(sysdev_device_get_property(dev, "NOPE", &name), -ENOENT);
	assert_int_equal(sysdev_device_read_attribute(dev, "brightness", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "100");
	assert_int_equal(sysdev_device_read_attribute(dev, "../brightness", buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "/etc/passwd", buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "nope", buf, sizeof(buf)), -ENOENT);

	/* the parent chain, as udevadm info -a walks it; each parent lent by its child */
	assert_int_equal(sysdev_device_get_parent(dev, &parent), 0);
	assert_int_equal(sysdev_device_get_parent(dev, &pp), 0);
	assert_ptr_equal(pp, parent); /* asked twice, the same object */
	assert_string_equal(str(parent, sysdev_device_get_devpath), CLIENT);
	assert_string_equal(str(parent, sysdev_device_get_driver), "leds-tca6507");
	assert_int_equal(sysdev_device_get_subsystem_kind(parent, &sk), 0);
	assert_int_equal(sk, SYSDEV_SUBSYSTEM_BUS);
	assert_null(str(parent, sysdev_device_get_class_dir));
	assert_string_equal(property(parent, "MODALIAS"), "i2c:tca6507");
	assert_int_equal(sysdev_device_get_link(parent, "of_node", &link), 0);
	assert_string_equal(link, "/firmware/devicetree/base/tca6507");
	free(link);
	assert_int_equal(sysdev_device_get_link(parent, "firmware_node", &link), -ENOENT);
	assert_null(link);
	/* a regular file is no link; a path is no link name */
	assert_int_equal(sysdev_device_get_link(parent, "name", &link), -ENOENT);
	assert_int_equal(sysdev_device_get_link(parent, "power/x", &link), -EINVAL);
	/* attributes: regular files but uevent; groups: engine, net, power (not leds, block) */
	i = 0;
	SYSDEV_DEVICE_FOREACH_ATTRIBUTE(parent, name)
	{
		assert_string_not_equal(name, "uevent");
		i++;
	}
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
	SYSDEV_DEVICE_FOREACH_PROPERTY(parent, key, value)
	i++;
	assert_int_equal(i, 2);
	assert_int_equal(sysdev_device_get_property_at(parent, 2, &key, &value), -ENOENT);

	/* up to the top: a reference taken before the child goes */
	parent = sysdev_device_ref(parent);
	for (int n = 0; n < 3; n++) {
		assert_int_equal(sysdev_device_get_parent(parent, &pp), 0);
		sysdev_device_ref(pp);
		sysdev_device_unref(parent);
		parent = pp;
	}
	assert_string_equal(str(parent, sysdev_device_get_devpath), "/devices/platform");
	assert_int_equal(sysdev_device_get_parent(parent, &pp), -ENOENT);
	assert_null(pp);
	sysdev_device_unref(parent);
	sysdev_device_unref(dev);

	assert_int_equal(sysdev_device_new(ctx, "/dev/sda1", &dev), 0);
	assert_int_equal(sysdev_device_get_devnum(dev, &devnum), 0);
	assert_int_equal(major(devnum), 8);
	assert_int_equal(minor(devnum), 1);
	assert_string_equal(str(dev, sysdev_device_get_devtype), "partition");
	assert_string_equal(str(dev, sysdev_device_get_devname), "sda1");
	assert_null(str(dev, sysdev_device_get_class_dir));
	assert_int_equal(sysdev_device_get_udev_property(dev, "DEVNAME", &name), 0);
	assert_string_equal(name, "/dev/sda1");
	sysdev_device_unref(dev);
	/* the number both ways: the lookup takes what the getter gives */
	assert_int_equal(sysdev_device_new_from_devnum(ctx, 'x', makedev(8, 1), &dev), -EINVAL);
	sysdev_unref(ctx);
}

/* A uevent file that cannot be read: the properties say why, the links still answer. */
static void test_unreadable_uevent(void **state)
{
	const char *root = *state;
	struct sysdev_device *dev;
	struct sysdev *ctx;
	const char *v, *k;
	char path[4096];

	if (geteuid() == 0)
		skip(); /* root reads a file of mode 0 */
	snprintf(path, sizeof(path), "%s/%s/uevent", root, CLIENT_REL);
	assert_int_equal(chmod(path, 0), 0);
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_devtype(dev, &v), -EACCES);
	assert_int_equal(sysdev_device_get_property(dev, "MODALIAS", &v), -EACCES);
	assert_int_equal(sysdev_device_get_property_at(dev, 0, &k, &v), -EACCES);
	/* asked again: the same answer, not a silent absence */
	assert_int_equal(sysdev_device_get_devtype(dev, &v), -EACCES);
	assert_string_equal(str(dev, sysdev_device_get_driver), "leds-tca6507");
	/* udev's view: what the links give */
	assert_int_equal(sysdev_device_get_udev_property(dev, "DRIVER", &v), 0);
	assert_string_equal(v, "leds-tca6507");
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	assert_int_equal(chmod(path, 0644), 0);
}

/* A uevent file too large to be one (a hand-made tree): the properties say EFBIG, as root too. */
static void test_oversized_uevent(void **state)
{
	char *root = tree_new(), *big = malloc(70000);
	struct sysdev_device *dev;
	struct sysdev *ctx;
	const char *v, *k;

	(void)state;
	assert_non_null(big);
	memset(big, 'A', 69998);
	memcpy(big, "X=", 2);
	big[69998] = '\n';
	big[69999] = '\0';
	tree_device(root, "/devices/platform/big", "bus:platform", "drv", big);
	free(big);
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_int_equal(sysdev_device_new_from_devpath(ctx, "/devices/platform/big", &dev), 0);
	assert_int_equal(sysdev_device_get_devtype(dev, &v), -EFBIG);
	assert_int_equal(sysdev_device_get_property_at(dev, 0, &k, &v), -EFBIG);
	assert_string_equal(str(dev, sysdev_device_get_driver), "drv");
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	tree_free(root);
}

/* A uevent that is a directory: no device there at all. */
static void test_uevent_directory(void **state)
{
	char *root = tree_new();
	struct sysdev_device *dev = (struct sysdev_device *)1;
	struct sysdev *ctx;

	(void)state;
	tree_dir(root, "devices/platform/odd/uevent/");
	tree_device(root, "/devices/platform/even", NULL, NULL, "DEVTYPE=x\n");
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_int_equal(sysdev_device_new_from_devpath(ctx, "/devices/platform/odd", &dev),
			 -ENODEV);
	assert_null(dev);
	assert_int_equal(sysdev_device_new_from_devpath(ctx, "/devices/platform/even", &dev), 0);
	assert_string_equal(str(dev, sysdev_device_get_devtype), "x");
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	tree_free(root);
}

/* assert_return() at every entry: NULL is -EINVAL, *ret cleared, nothing aborts. */
static void test_null(void **state)
{
	struct sysdev_device *dev = (struct sysdev_device *)1;
	struct sysdev *ctx;
	const char *v;
	dev_t devnum;
	char buf[8], *link = (char *)1;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(NULL, CLIENT, &dev), -EINVAL);
	assert_null(dev);
	assert_int_equal(sysdev_device_new(ctx, NULL, &dev), -EINVAL);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, NULL), -EINVAL);
	assert_int_equal(sysdev_device_new_from_devpath(ctx, NULL, &dev), -EINVAL);
	assert_int_equal(sysdev_device_new_from_devnum(NULL, 'b', 0, &dev), -EINVAL);
	assert_int_equal(sysdev_device_new_from_subsystem_sysname(ctx, NULL, "x", &dev), -EINVAL);
	/* a sysname is one name: with a '/' it would reach another directory (here the
	 * LED's device link, its parent), so it is refused, whatever the subsystem */
	assert_int_equal(
	    sysdev_device_new_from_subsystem_sysname(ctx, "leds", "gta04:green:power/device", &dev),
	    -EINVAL);
	assert_null(dev);
	assert_int_equal(sysdev_device_new_from_subsystem_sysname(ctx, "leds", "..", &dev),
			 -EINVAL);
	assert_int_equal(sysdev_device_new_from_subsystem_sysname(ctx, "leds", ".", &dev), -EINVAL);
	assert_int_equal(sysdev_device_new_from_subsystem_sysname(ctx, "leds", "", &dev), -EINVAL);
	assert_int_equal(sysdev_device_new_from_subsystem_sysname(ctx, "", "x", &dev), -EINVAL);
	assert_int_equal(sysdev_device_get_devpath(NULL, &v), -EINVAL);
	assert_int_equal(sysdev_device_get_subsystem(NULL, &v), -EINVAL);
	assert_int_equal(sysdev_device_get_devnum(NULL, &devnum), -EINVAL);
	assert_int_equal(sysdev_device_get_parent(NULL, &dev), -EINVAL);
	assert_int_equal(sysdev_device_get_property(NULL, "A", &v), -EINVAL);
	assert_int_equal(sysdev_device_get_property_at(NULL, 0, &v, &v), -EINVAL);
	assert_int_equal(sysdev_device_get_attribute_at(NULL, 0, &v), -EINVAL);
	assert_int_equal(sysdev_device_get_action(NULL, &v), -EINVAL);
	assert_int_equal(sysdev_device_get_link(NULL, "x", &link), -EINVAL);
	assert_null(link);
	assert_int_equal(sysdev_device_read_attribute(NULL, "x", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_devpath(dev, NULL), -EINVAL);
	assert_int_equal(sysdev_device_get_property(dev, NULL, &v), -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "name", NULL, 8), -EINVAL);
	assert_int_equal(sysdev_device_read_attribute(dev, "name", buf, 0), -EINVAL);
	assert_null(sysdev_device_ref(NULL));
	assert_null(sysdev_device_unref(NULL));
	assert_null(sysdev_device_unref(dev));
	sysdev_unref(ctx);
}

struct node_devices {
	struct sysdev_device *client; /* the CLIENT node's device, kept */
	struct sysdev_device *leds;   /* a child's device, kept: it keeps its parent */
	int not_device;		      /* what the root node answered */
};

static int take_device(struct sysdev_node *node, void *data)
{
	struct node_devices *nd = data;
	struct sysdev_device *dev = NULL, *parent;

	if (sysdev_node_get_depth(node) == 0) {
		nd->not_device = sysdev_node_get_device(node, &dev);
	} else if (strcmp(sysdev_node_get_devpath(node), CLIENT) == 0) {
		assert_int_equal(sysdev_node_get_device(node, &dev), 0);
		nd->client = sysdev_device_ref(dev);
	} else if (strcmp(sysdev_node_get_devpath(node), CLIENT "/leds/gta04:green:power") == 0) {
		assert_int_equal(sysdev_node_get_device(node, &dev), 0);
		/* the parent is the walk's device of the node above */
		assert_int_equal(sysdev_device_get_parent(dev, &parent), 0);
		assert_ptr_equal(parent, nd->client);
		nd->leds = sysdev_device_ref(dev);
	} else if (sysdev_node_get_device(node, &dev) == 0) {
		/* lent, not kept: the walk refills it for its next node */
		assert_non_null(str(dev, sysdev_device_get_devpath));
	}
	return 0;
}

static void test_node_device(void **state)
{
	struct node_devices nd = {0};
	struct sysdev_walker *w;
	struct sysdev_device *parent;
	const char *name;
	struct sysdev *ctx;
	char path[4096];

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_walker_new(ctx, NULL, &w), 0);
	assert_int_equal(sysdev_walker_set_callbacks(w, take_device, NULL, &nd), 0);
	assert_int_equal(sysdev_walker_run(w), 0);
	sysdev_walker_unref(w);
	assert_int_equal(nd.not_device, -ENODEV);
	assert_non_null(nd.client);
	assert_non_null(nd.leds);
	/* the devices outlive the walk, with what the walk read */
	assert_string_equal(str(nd.client, sysdev_device_get_devpath), CLIENT);
	assert_string_equal(str(nd.client, sysdev_device_get_driver), "leds-tca6507");
	assert_string_equal(property(nd.client, "MODALIAS"), "i2c:tca6507");
	assert_string_equal(str(nd.leds, sysdev_device_get_class_dir), "leds");
	assert_int_equal(sysdev_device_get_parent(nd.leds, &parent), 0);
	assert_ptr_equal(parent, nd.client);
	sysdev_device_unref(nd.leds);
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
	    cmocka_unit_test(test_spec_length),
	    cmocka_unit_test(test_fields),
	    cmocka_unit_test(test_unreadable_uevent),
	    cmocka_unit_test(test_oversized_uevent),
	    cmocka_unit_test(test_uevent_directory),
	    cmocka_unit_test(test_null),
	    cmocka_unit_test_setup_teardown(test_node_device, setup, teardown),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
