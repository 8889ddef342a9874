/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/path-util.c: components, normalising, the walk's order, link targets. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "path-util.h"

static void test_next_component(void **state)
{
	const char *p = "//devices///pci0000:00/", *c;
	size_t len = 99;

	(void)state;
	c = path_next_component(&p, &len);
	assert_non_null(c);
	assert_int_equal(len, 7);
	assert_memory_equal(c, "devices", 7);
	c = path_next_component(&p, &len);
	assert_int_equal(len, 10);
	assert_memory_equal(c, "pci0000:00", 10);
	assert_null(path_next_component(&p, &len));
	assert_null(path_next_component(&p, &len));
	p = "";
	assert_null(path_next_component(&p, &len));
	p = "///";
	assert_null(path_next_component(&p, &len));
	/* "." and ".." are components like any other here; a newline is a byte */
	p = "./..\n/a";
	c = path_next_component(&p, &len);
	assert_int_equal(len, 1);
	c = path_next_component(&p, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(c, "..\n", 3);
	c = path_next_component(&p, &len);
	assert_int_equal(len, 1);
	assert_int_equal(*c, 'a');
}

static void test_single_component(void **state)
{
	(void)state;
	assert_true(name_is_single_component("uevent"));
	assert_true(name_is_single_component("..."));
	assert_true(name_is_single_component(".hidden"));
	assert_true(name_is_single_component("r."));
	assert_true(name_is_single_component("..a"));
	assert_true(name_is_single_component("a\nb"));
	assert_true(name_is_single_component("\xff\xfe"));
	assert_false(name_is_single_component(NULL));
	assert_false(name_is_single_component(""));
	assert_false(name_is_single_component("."));
	assert_false(name_is_single_component(".."));
	assert_false(name_is_single_component("a/b"));
	assert_false(name_is_single_component("/a"));
	assert_false(name_is_single_component("a/"));
	assert_false(name_is_single_component("/"));
	assert_false(name_is_single_component("../x"));
}

static void check_norm(const char *in, const char *want)
{
	char *out;

	errno = 0;
	out = path_normalize(in);
	if (!want) {
		if (out)
			fail_msg("'%s' normalised to '%s', want NULL", in, out);
		if (errno != EXDEV)
			fail_msg("'%s': NULL with errno %d, want EXDEV", in, errno);
		return;
	}
	if (!out)
		fail_msg("'%s' normalised to NULL, want '%s'", in, want);
	if (strcmp(out, want) != 0)
		fail_msg("'%s' normalised to '%s', want '%s'", in, out, want);
	free(out);
}

static void test_normalize(void **state)
{
	(void)state;
	check_norm("", "/");
	check_norm(".", "/");
	check_norm("/", "/");
	check_norm("//", "/");
	check_norm("/./.", "/");
	check_norm("a", "/a");
	check_norm("/a/", "/a");
	check_norm("/a//b///c", "/a/b/c");
	check_norm("/a/./b/.", "/a/b");
	check_norm("/a/b/..", "/a");
	check_norm("/a/..", "/");
	check_norm("/a/b/../../c", "/c");
	check_norm("/devices/x/../../bus/pci", "/bus/pci");
	/* names that only look like "." and ".." are names */
	check_norm("/.../..a/a../.b", "/.../..a/a../.b");
	check_norm("/r./r", "/r./r");
	/* a component that is a prefix of the next is removed whole */
	check_norm("/cpu10/../cpu1", "/cpu1");
	check_norm("/a\n/../\xff", "/\xff");
	/* leaving the top */
	check_norm("..", NULL);
	check_norm("/..", NULL);
	check_norm("/../a", NULL);
	check_norm("/a/../..", NULL);
	check_norm("/a/b/../../../c", NULL);
	check_norm("a/./../..", NULL);
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void check_order(const char *a, const char *b, int want)
{
	int got = sign(path_cmp_walk_order(a, b)), back = sign(path_cmp_walk_order(b, a));

	if (got != want || back != -want)
		fail_msg("'%s' vs '%s': %d and %d, want %d", a, b, got, back, want);
}

static void test_walk_order(void **state)
{
	(void)state;
	check_order("/devices", "/devices", 0);
	check_order("", "", 0);
	/* a parent before its children */
	check_order("/devices/a", "/devices/a/b", -1);
	/* and its children before a sibling whose name extends its own */
	check_order("/devices/cpu1/x", "/devices/cpu10", -1);
	check_order("/devices/a/b", "/devices/a-b", -1);
	check_order("/devices/a/b", "/devices/a.b", -1);
	check_order("/devices/r/x", "/devices/r.", -1);
	check_order("/devices/a/zzz", "/devices/a!", -1);
	/* bytewise: unsigned, not by locale */
	check_order("/devices/Z", "/devices/a", -1);
	check_order("/devices/z", "/devices/\xc3\xa9", -1);
	check_order("/devices/a\n", "/devices/a ", -1);
	check_order("/devices/cpu1", "/devices/cpu2", -1);
	check_order("/devices/cpu10", "/devices/cpu2", -1);
}

static int cmp_walk(const void *a, const void *b)
{
	return path_cmp_walk_order(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted with it, a tree comes out in the order a depth-first walk visits it. */
static void test_walk_order_sort(void **state)
{
	const char *v[] = {
	    "/devices/cpu10", "/devices/r.",	  "/devices/cpu1/cache",
	    "/devices",	      "/devices/r/x",	  "/devices/cpu1",
	    "/devices/r",     "/devices/cpu10/a", "/devices/cpu1-extra",
	};
	static const char *const want[] = {
	    "/devices",	      "/devices/cpu1",	  "/devices/cpu1/cache", "/devices/cpu1-extra",
	    "/devices/cpu10", "/devices/cpu10/a", "/devices/r",		 "/devices/r/x",
	    "/devices/r.",
	};

	(void)state;
	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), cmp_walk);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_string_equal(v[i], want[i]);
}

static void check_base(const char *target, const char *want)
{
	size_t len = 99;
	const char *b = link_basename(target, &len);

	assert_int_equal(len, strlen(want));
	assert_memory_equal(b, want, len);
	assert_true(b >= target && b + len <= target + strlen(target));
}

static void test_link_basename(void **state)
{
	(void)state;
	check_base("../../../bus/pci", "pci");
	check_base("../../class/net/", "net");
	check_base("../../class/net//", "net");
	check_base("pci", "pci");
	check_base("/sys/bus/pci", "pci");
	check_base("", "");
	check_base("/", "");
	check_base("//", "");
	check_base("../..", "..");
	check_base("../drivers/r.", "r.");
}

static void check_target(const char *root, const char *dir, const char *target, const char *want)
{
	char *r;

	errno = 0;
	r = resolve_link_target(root, dir, target);
	if (!want) {
		if (r)
			fail_msg("%s in %s (root %s): '%s', want NULL", target, dir, root, r);
		/* outside the root, told apart from no memory */
		if (errno != EXDEV)
			fail_msg("%s in %s (root %s): NULL with errno %d, want EXDEV", target, dir,
				 root, errno);
		return;
	}
	if (!r || strcmp(r, want) != 0)
		fail_msg("%s in %s (root %s): '%s', want '%s'", target, dir, root, r ? r : "NULL",
			 want);
	free(r);
}

static void test_resolve_relative(void **state)
{
	(void)state;
	check_target("/sys", "/devices/pci0000:00/0000:00:02.0", "../../../bus/pci", "/bus/pci");
	check_target("/tmp/t", "/devices/platform/omap_i2c.2/i2c-2", "../../../../bus/i2c",
		     "/bus/i2c");
	check_target("/sys", "/class/net", "../../devices/virtual/net/lo",
		     "/devices/virtual/net/lo");
	check_target("/sys", "/devices/x", "./y/./z/", "/devices/x/y/z");
	check_target("/sys", "/devices/x", "", "/devices/x");
	/* climbing to the root is fine, above it is not */
	check_target("/sys", "/devices/x", "../..", "/");
	check_target("/sys", "/devices/x", "../../..", NULL);
	check_target("/sys", "/devices", "../../../etc", NULL);
	check_target("/sys", "/devices/x", "../../../../../../../../etc/passwd", NULL);
}

static void test_resolve_absolute(void **state)
{
	(void)state;
	check_target("/sys", "/devices/x", "/sys/class/net", "/class/net");
	check_target("/tmp/root", "/devices/x", "/tmp/root/class/net", "/class/net");
	check_target("/tmp/root", "/devices/x", "/tmp/root", "/");
	check_target("/tmp/root", "/devices/x", "/tmp/root/", "/");
	/* outside the root: not ours */
	check_target("/tmp/root", "/devices/x", "/sys/class/net", NULL);
	check_target("/tmp/root", "/devices/x", "/etc/passwd", NULL);
	/* a prefix of the root's name is not the root */
	check_target("/tmp/root", "/devices/x", "/tmp/rootx/class", NULL);
	check_target("/tmp/root", "/devices/x", "/tmp/roo", NULL);
	check_target("/tmp/root", "/devices/x", "/tmp/root./class", NULL);
	/* inside the root by its text, outside by its ".." */
	check_target("/tmp/root", "/devices/x", "/tmp/root/../etc", NULL);
	check_target("/tmp/root", "/devices/x", "/tmp/root/devices/../class", "/class");
	/* the root "/": every absolute target is inside it */
	check_target("/", "/devices/x", "/class/net//lo/", "/class/net/lo");
	check_target("/", "/devices/x", "/..", NULL);
}

/* A devpath: S/devices or below it, no ".", ".." or empty components. */
static void test_devpath_valid(void **state)
{
	(void)state;
	assert_true(devpath_is_valid("/devices"));
	assert_true(devpath_is_valid("/devices/virtual/net/lo"));
	assert_true(devpath_is_valid("/devices/a..b"));
	assert_false(devpath_is_valid("/devices/"));
	assert_false(devpath_is_valid("/devicesx"));
	assert_false(devpath_is_valid("/devices//x"));
	assert_false(devpath_is_valid("/devices/./x"));
	assert_false(devpath_is_valid("/devices/x/.."));
	assert_false(devpath_is_valid("/class/net"));
	assert_false(devpath_is_valid("devices/x"));
}

static void test_devpath_valid_more(void **state)
{
	(void)state;
	assert_true(devpath_is_valid("/devices/..."));
	assert_true(devpath_is_valid("/devices/.hidden"));
	assert_true(devpath_is_valid("/devices/r."));
	assert_true(devpath_is_valid("/devices/a\nb"));
	assert_true(devpath_is_valid("/devices/\xff"));
	assert_false(devpath_is_valid("/devices/x/."));
	assert_false(devpath_is_valid("/devices/x/"));
	assert_false(devpath_is_valid("/devices/.."));
	assert_false(devpath_is_valid("/devices/../devices"));
	assert_false(devpath_is_valid("//devices/x"));
	assert_false(devpath_is_valid(""));
	assert_false(devpath_is_valid("/"));
	assert_false(devpath_is_valid("/device"));
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_next_component),   cmocka_unit_test(test_single_component),
	    cmocka_unit_test(test_normalize),	     cmocka_unit_test(test_walk_order),
	    cmocka_unit_test(test_walk_order_sort),  cmocka_unit_test(test_link_basename),
	    cmocka_unit_test(test_resolve_relative), cmocka_unit_test(test_resolve_absolute),
	    cmocka_unit_test(test_devpath_valid),    cmocka_unit_test(test_devpath_valid_more),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
