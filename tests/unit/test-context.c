/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The context: opening a root, its names, paths typed by people, and the checks at its entries. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libsysdev.h"
#include "tree.h"

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

static void test_open(void **state)
{
	struct sysdev *ctx = (struct sysdev *)1;
	char sysroot[4096];
	char *top = tree_new();

	assert_int_equal(sysdev_new(NULL, NULL), -EINVAL);
	assert_int_equal(sysdev_new("", &ctx), -EINVAL);
	assert_null(ctx);
	assert_int_equal(sysdev_new("/nonexistent-sysfs-root", &ctx), -ENOENT);
	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_string_equal(sysdev_get_root(ctx), *state);
	assert_true(sysdev_get_root_fd(ctx) >= 0);
	assert_ptr_equal(sysdev_ref(ctx), ctx);
	assert_null(sysdev_unref(ctx));
	assert_null(sysdev_unref(ctx));
	/* a system root: its sys/ is the root */
	snprintf(sysroot, sizeof(sysroot), "%s/sys", top);
	tree_article(sysroot);
	snprintf(sysroot, sizeof(sysroot), "%s", top);
	/* tree_new() made a devices/ of its own at the top: a system root has none */
	{
		char devices[4200];

		snprintf(devices, sizeof(devices), "%s/devices", top);
		rmdir(devices);
	}
	assert_int_equal(sysdev_new(sysroot, &ctx), 0);
	assert_string_equal(strrchr(sysdev_get_root(ctx), '/'), "/sys");
	assert_true(sysdev_is_class_name(ctx, "leds"));
	sysdev_unref(ctx);
	tree_free(top);
}

static void test_names(void **state)
{
	struct sysdev *ctx;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_true(sysdev_is_class_name(ctx, "leds"));
	assert_false(sysdev_is_class_name(ctx, "platform"));
	assert_true(sysdev_is_bus_name(ctx, "platform"));
	assert_true(sysdev_is_bus_name(ctx, "mei") && sysdev_is_class_name(ctx, "mei"));
	assert_false(sysdev_is_bus_name(ctx, NULL));
	assert_false(sysdev_is_class_name(NULL, "leds"));
	assert_null(sysdev_get_root(NULL));
	assert_int_equal(sysdev_get_root_fd(NULL), -EINVAL);
	assert_string_equal(sysdev_kind_to_string(SYSDEV_KIND_DEVICE), "device");
	assert_null(sysdev_kind_to_string(_SYSDEV_KIND_MAX));
	assert_string_equal(sysdev_subsystem_kind_to_string(SYSDEV_SUBSYSTEM_BUS), "bus");
	assert_string_equal(sysdev_placement_to_string(SYSDEV_PLACEMENT_VIRTUAL), "virtual");
	sysdev_unref(ctx);
}

static void test_resolve(void **state)
{
	struct sysdev *ctx;
	char *out = (char *)1;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_resolve_path(ctx, "/sys/devices/nope", &out), -ENOENT);
	assert_null(out);
	assert_int_equal(sysdev_resolve_path(ctx, "/devices/virtual/net/lo", &out), 0);
	assert_string_equal(out, "/devices/virtual/net/lo");
	free(out);
	assert_int_equal(sysdev_resolve_path(ctx, "/devices/nope", &out), -ENOENT);
	assert_int_equal(sysdev_resolve_path(ctx, "/etc", &out), -EXDEV);
	assert_int_equal(sysdev_resolve_path(ctx, "", &out), -EINVAL);
	assert_int_equal(sysdev_resolve_path(NULL, "/devices", &out), -EINVAL);
	assert_int_equal(sysdev_resolve_path(ctx, NULL, &out), -EINVAL);
	assert_int_equal(sysdev_resolve_path(ctx, "/devices", NULL), -EINVAL);
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_open),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_resolve),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
