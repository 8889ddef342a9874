/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers: paths, links, bounded reads, uevent parsing. */
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
#include "rules.h"
#include "tree.h"

static void check_norm(const char *in, const char *want)
{
	char *out = path_normalize(in);

	if (!want) {
		assert_null(out);
		return;
	}
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

static void test_normalize(void **state)
{
	(void)state;
	check_norm("/a/b/../c", "/a/c");
	check_norm("a//b/./c/", "/a/b/c");
	check_norm("/", "/");
	check_norm("/..", NULL);
	check_norm("/a/../..", NULL);
	check_norm("/devices/x/../../bus/pci", "/bus/pci");
}

static void test_links(void **state)
{
	size_t len;
	const char *b;
	char *r;

	(void)state;
	b = link_basename("../../../bus/pci", &len);
	assert_int_equal(len, 3);
	assert_memory_equal(b, "pci", 3);
	b = link_basename("../../class/net/", &len);
	assert_int_equal(len, 3);
	assert_memory_equal(b, "net", 3);
	b = link_basename("", &len);
	assert_int_equal(len, 0);

	r = resolve_link_target("/sys", "/devices/pci0000:00/0000:00:02.0", "../../../bus/pci");
	assert_string_equal(r, "/bus/pci");
	free(r);
	r = resolve_link_target("/sys", "/devices/x", "/sys/class/net");
	assert_string_equal(r, "/class/net");
	free(r);
	/* absolute, outside the root: not ours */
	assert_null(resolve_link_target("/tmp/root", "/devices/x", "/sys/class/net"));
	/* climbing above the root */
	assert_null(resolve_link_target("/sys", "/devices", "../../../etc"));
}

static void test_read_bounded(void **state)
{
	char *root = tree_new();
	char buf[8];
	int fd;

	(void)state;
	tree_file(root, "small", "abc\n");
	tree_file(root, "exact", "1234567");
	tree_file(root, "big", "123456789");
	fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_int_equal(read_file_at(fd, "small", buf, sizeof(buf), true), 4);
	assert_string_equal(buf, "abc\n");
	assert_int_equal(read_file_at(fd, "exact", buf, sizeof(buf), true), 7);
	assert_int_equal(read_file_at(fd, "big", buf, sizeof(buf), true), -EFBIG);
	assert_int_equal(read_file_at(fd, "missing", buf, sizeof(buf), true), -ENOENT);
	/* a FIFO is refused without blocking */
	assert_int_equal(mkfifoat(fd, "fifo", 0644), 0);
	assert_int_equal(read_file_at(fd, "fifo", buf, sizeof(buf), true), -EINVAL);
	/* a final symlink is not followed */
	assert_int_equal(symlinkat("small", fd, "link"), 0);
	assert_int_equal(read_file_at(fd, "link", buf, sizeof(buf), true), -EINVAL);
	close(fd);
	tree_free(root);
}

static void test_uevent(void **state)
{
	static const char text[] = "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n"
				   "noequals\n=novalue\nEMPTY=\nMODALIAS=of:Nx=y\nPARTN=1";
	struct uevent u = {0};

	(void)state;
	u.buf = malloc(sizeof(text));
	memcpy(u.buf, text, sizeof(text));
	assert_int_equal(uevent_parse(&u, sizeof(text) - 1), 0);
	assert_string_equal(u.devnum, "8:1");
	assert_string_equal(uevent_get(&u, "DEVNAME"), "sda1");
	assert_string_equal(uevent_get(&u, "DEVTYPE"), "partition");
	assert_string_equal(uevent_get(&u, "EMPTY"), "");
	assert_string_equal(uevent_get(&u, "PARTN"), "1");
	assert_null(uevent_get(&u, "noequals"));
	/* a value may hold '=': the key ends at the first one */
	assert_string_equal(uevent_get(&u, "MODALIAS"), "of:Nx=y");
	assert_null(uevent_get(&u, ""));
	assert_int_equal(u.n, 7);
	uevent_free(&u);

	/* a devnum needs both numbers, decimal */
	u.buf = strdup("MAJOR=8\nMINOR=x\n");
	assert_int_equal(uevent_parse(&u, strlen(u.buf)), 0);
	assert_string_equal(u.devnum, "");
	uevent_free(&u);
}

static void test_classify_rules(void **state)
{
	struct dir_facts f = {0};

	(void)state;
	f.is_root = true;
	f.has_uevent = true;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_ROOT);
	f.is_root = false;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_DEVICE);
	f.has_uevent = false;
	f.name_is_class = true;
	f.parent_is_device = true;
	f.below_device = true;
	f.has_device_child = true;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CLASS_DIR);
	f.has_device_child = false;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_ATTR_GROUP);
	f.empty = true;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CLASS_DIR);
	f.parent_is_device = false; /* below an attr-group */
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_ATTR_GROUP);
	f.below_device = false;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CONTAINER);
	f.parent_is_virtual = true;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CLASS_DIR);
	f.name_is_class = false;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CONTAINER);
}

/* S/devices/virtual/..., S/devices/system/..., the rest; by component, not by prefix. */
static void test_placement(void **state)
{
	(void)state;
	assert_int_equal(placement_of("/devices/virtual/net/lo"), SYSDEV_PLACEMENT_VIRTUAL);
	assert_int_equal(placement_of("/devices/system/cpu/cpu0"), SYSDEV_PLACEMENT_SYSTEM);
	assert_int_equal(placement_of("/devices/pci0000:00/0000:00:02.0"),
			 SYSDEV_PLACEMENT_DEVICES);
	assert_int_equal(placement_of("/devices/platform/virtual/x"), SYSDEV_PLACEMENT_DEVICES);
	assert_int_equal(placement_of("/devices/virtualx/a"), SYSDEV_PLACEMENT_DEVICES);
	assert_int_equal(placement_of("/devices/systemd/a"), SYSDEV_PLACEMENT_DEVICES);
}

/* open_devpath(): one component at a time from the root, no link followed. */
static void test_open_devpath(void **state)
{
	char *root = tree_new();
	struct sysdev *ctx;
	struct stat a, b;
	int fd;

	(void)state;
	tree_article(root);
	tree_link(root, "devices/platform/jump", "../virtual");
	assert_int_equal(sysdev_new(root, &ctx), 0);
	fd = open_devpath(ctx, "/devices/virtual/net/lo");
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstatat(ctx->root_fd, "devices/virtual/net/lo", &b, 0), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	close(fd);
	assert_int_equal(open_devpath(ctx, "/devices/platform/jump/net"), -ENOTDIR);
	assert_int_equal(open_devpath(ctx, "/devices/platform/jump"), -ENOTDIR);
	assert_int_equal(open_devpath(ctx, "/devices/nothere"), -ENOENT);
	assert_int_equal(open_devpath(ctx, "/devices/../class"), -EINVAL);
	sysdev_unref(ctx);
	tree_free(root);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_normalize),	   cmocka_unit_test(test_links),
	    cmocka_unit_test(test_read_bounded),   cmocka_unit_test(test_uevent),
	    cmocka_unit_test(test_classify_rules), cmocka_unit_test(test_placement),
	    cmocka_unit_test(test_open_devpath),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
