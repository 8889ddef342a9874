/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The article's measurements on a tree whose answers are known. */
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

static void test_stats(void **state)
{
	char *root = tree_new();
	struct sysdev_stats *s;
	struct sysdev *ctx;
	const char *name;
	unsigned long n;

	(void)state;
	tree_article(root);
	/* class devices: 2 leds, 2 block, 1 net, all "unsupported"; make one active */
	tree_file(root, "devices/virtual/net/lo/power/runtime_status", "active\n");
	/* a dotfile is not matched by the shell's glob */
	tree_dir(root, "class/.hidden/");
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_int_equal(sysdev_stats_new(ctx, &s), 0);

	assert_string_equal(sysdev_stats_get_bus_class_name(s, 0), "mei");
	assert_null(sysdev_stats_get_bus_class_name(s, 1));

	assert_true(sysdev_stats_get_runtime_status(s, true, 0, &name, &n));
	assert_string_equal(name, "active");
	assert_int_equal(n, 1);
	assert_true(sysdev_stats_get_runtime_status(s, true, 1, &name, &n));
	assert_string_equal(name, "unsupported");
	assert_int_equal(n, 4);
	assert_false(sysdev_stats_get_runtime_status(s, true, 2, &name, &n));
	/* bus devices: omap_i2c.2 (platform), i2c-2, 2-0045 (i2c), cpu0, toplevel0 */
	assert_true(sysdev_stats_get_runtime_status(s, false, 0, &name, &n));
	assert_string_equal(name, "unsupported");
	assert_int_equal(n, 5);

	assert_int_equal(sysdev_stats_get_kind_count(s, SYSDEV_KIND_ROOT), 1);
	assert_int_equal(sysdev_stats_get_kind_count(s, SYSDEV_KIND_DEVICE), 13);
	assert_int_equal(sysdev_stats_get_kind_count(s, SYSDEV_KIND_CLASS_DIR), 4);
	assert_int_equal(sysdev_stats_get_kind_count(s, SYSDEV_KIND_CONTAINER), 3);
	assert_true(sysdev_stats_get_subsystem(s, 0, &name, &n));
	assert_string_equal(name, "block");
	assert_int_equal(n, 2);
	assert_int_equal(sysdev_stats_get_walk(s)->devices, 13);
	sysdev_stats_free(s);
	sysdev_unref(ctx);
	tree_free(root);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
