/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tools/tree/stats.c: the article's measurements on a tree whose answers are known. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include <cmocka.h>

#include "libsysdev.h"
#include "stats.h"
#include "tree.h"

static void test_stats(void **state)
{
	char *root = tree_new();
	struct tree_stats *s;
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
	assert_int_equal(tree_stats_new(ctx, &s), 0);

	assert_int_equal(tree_stats_get_bus_class_name_at(s, 0, &name), 0);
	assert_string_equal(name, "mei");
	assert_int_equal(tree_stats_get_bus_class_name_at(s, 1, &name), -ENOENT);

	assert_int_equal(tree_stats_get_runtime_status_at(s, true, 0, &name, &n), 0);
	assert_string_equal(name, "active");
	assert_int_equal(n, 1);
	assert_int_equal(tree_stats_get_runtime_status_at(s, true, 1, &name, &n), 0);
	assert_string_equal(name, "unsupported");
	assert_int_equal(n, 4);
	assert_int_equal(tree_stats_get_runtime_status_at(s, true, 2, &name, &n), -ENOENT);
	/* bus devices: omap_i2c.2 (platform), i2c-2, 2-0045 (i2c), cpu0, toplevel0 */
	assert_int_equal(tree_stats_get_runtime_status_at(s, false, 0, &name, &n), 0);
	assert_string_equal(name, "unsupported");
	assert_int_equal(n, 5);

	assert_int_equal(tree_stats_get_kind_count(s, SYSDEV_KIND_ROOT), 1);
	assert_int_equal(tree_stats_get_kind_count(s, SYSDEV_KIND_DEVICE), 13);
	assert_int_equal(tree_stats_get_kind_count(s, SYSDEV_KIND_CLASS_DIR), 4);
	assert_int_equal(tree_stats_get_kind_count(s, SYSDEV_KIND_CONTAINER), 3);
	/* past the last kind: none, not what lies beyond the table */
	assert_int_equal(tree_stats_get_kind_count(s, _SYSDEV_KIND_MAX), 0);
	assert_int_equal(tree_stats_get_subsystem_at(s, 0, &name, &n), 0);
	assert_string_equal(name, "block");
	assert_int_equal(n, 2);
	assert_int_equal(tree_stats_get_walk_count(s, SYSDEV_WALK_COUNT_DEVICES), 13);
	assert_int_equal(tree_stats_get_walk_count(s, _SYSDEV_WALK_COUNT_MAX), 0);
	tree_stats_free(s);
	sysdev_unref(ctx);
	tree_free(root);
}

static void test_stats_null(void **state)
{
	struct tree_stats *s = (struct tree_stats *)1;
	const char *name;

	(void)state;
	assert_int_equal(tree_stats_new(NULL, &s), -EINVAL);
	assert_null(s);
	assert_int_equal(tree_stats_get_bus_class_name_at(NULL, 0, &name), -EINVAL);
	assert_int_equal(tree_stats_get_subsystem_at(NULL, 0, &name, NULL), -EINVAL);
	assert_int_equal(tree_stats_get_kind_count(NULL, SYSDEV_KIND_DEVICE), 0);
	tree_stats_free(NULL);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats),
	    cmocka_unit_test(test_stats_null),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
