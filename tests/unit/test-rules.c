/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/rules.c: the rules of sysdev(7), their order, the facts gathered, ancestry. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#define I2C "/devices/platform/omap_i2c.2/i2c-2/2-0045"

struct fx {
	char *root;
	struct sysdev *ctx;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[4096];

	f->root = tree_new();
	tree_article(f->root);
	tree_device(f->root, "/devices/platform/cpu10", NULL, NULL, "");
	tree_dir(f->root, "devices/platform/cpu1/");
	tree_dir(f->root, "devices/platform/u/");
	snprintf(path, sizeof(path), "%s/devices/platform/u/uevent", f->root);
	assert_int_equal(mkfifo(path, 0644), 0);
	tree_dir(f->root, "devices/platform/ud/uevent/");
	tree_link(f->root, "devices/platform/ul/uevent", "../cpu10/uevent");
	tree_link(f->root, "devices/platform/jump", "../virtual");
	assert_int_equal(sysdev_new(f->root, &f->ctx), 0);
	alarm(20);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	alarm(0);
	sysdev_unref(f->ctx);
	tree_free(f->root);
	free(f);
	return 0;
}

/* The rules in sysdev(7)'s order: the first that holds decides. */
static void test_rule_order(void **state)
{
	struct dir_facts f;

	(void)state;
	/* everything true: the root is the root */
	memset(&f, 1, sizeof(f));
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_ROOT);
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_ROOT);
	/* a uevent file decides before anything unreadable */
	f.is_root = false;
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_UEVENT);
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_DEVICE);
	f.has_uevent = false;
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_UNREADABLE);
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_UNKNOWN);
	f.unreadable = false;
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_CLASS_DIR);
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CLASS_DIR);
	/* a class-named directory needs to be empty or hold a device */
	f.empty = false;
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_CLASS_DIR);
	f.has_device_child = false;
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_BELOW_DEVICE);
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_ATTR_GROUP);
	f.below_device = false;
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_NO_DEVICE_ABOVE);
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_CONTAINER);
	/* nothing at all: a container */
	memset(&f, 0, sizeof(f));
	assert_int_equal(rules_rule(&f), SYSDEV_RULE_NO_DEVICE_ABOVE);
	/* unreadable below a device is still unknown */
	f.unreadable = f.below_device = true;
	assert_int_equal(rules_decide(&f), SYSDEV_KIND_UNKNOWN);
}

static void test_rule_names(void **state)
{
	(void)state;
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_ROOT), "root");
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_UEVENT), "uevent");
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_UNREADABLE), "unreadable");
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_CLASS_DIR), "class-dir");
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_BELOW_DEVICE), "below-device");
	assert_string_equal(sysdev_rule_to_string(SYSDEV_RULE_NO_DEVICE_ABOVE), "no-device-above");
	assert_null(sysdev_rule_to_string(_SYSDEV_RULE_MAX));
	assert_null(sysdev_rule_to_string((enum sysdev_rule) - 1));
	assert_null(sysdev_rule_to_string((enum sysdev_rule)1000));
}

static void test_class_candidate(void **state)
{
	struct dir_facts f = {.name_is_class = true, .parent_is_device = true};

	(void)state;
	assert_true(rules_class_candidate(&f));
	f.parent_is_device = false;
	assert_false(rules_class_candidate(&f));
	f.parent_is_virtual = true;
	assert_true(rules_class_candidate(&f));
	f.has_uevent = true;
	assert_false(rules_class_candidate(&f));
	f.has_uevent = false;
	f.is_root = true;
	assert_false(rules_class_candidate(&f));
	f.is_root = false;
	f.name_is_class = false;
	assert_false(rules_class_candidate(&f));
	/* below a device but not right below one: no */
	f = (struct dir_facts){.name_is_class = true, .below_device = true};
	assert_false(rules_class_candidate(&f));
}

static int dirfd_of(struct fx *f, const char *rel)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", f->root, rel);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

/* A regular file named uevent, not a FIFO (never opened), a directory or a link. */
static void test_has_uevent(void **state)
{
	struct fx *f = *state;
	int pfd = dirfd_of(f, "devices/platform"), fd;

	fd = dirfd_of(f, "devices/platform/cpu10");
	assert_true(dir_has_uevent(fd));
	close(fd);
	static const char *const no[] = {"cpu1", "u", "ud", "ul"};

	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		fd = openat(pfd, no[i], O_RDONLY | O_DIRECTORY);
		assert_true(fd >= 0);
		if (dir_has_uevent(fd))
			fail_msg("%s: a device", no[i]);
		close(fd);
		if (child_has_uevent(pfd, no[i]))
			fail_msg("%s: a device child", no[i]);
	}
	assert_true(child_has_uevent(pfd, "cpu10"));
	assert_true(child_has_uevent(pfd, "omap_i2c.2"));
	assert_false(child_has_uevent(pfd, "missing"));
	assert_false(child_has_uevent(pfd, "cpu"));
	/* a name longer than any: no, and no overflow */
	{
		char name[NAME_MAX + 32];

		memset(name, 'x', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		assert_false(child_has_uevent(pfd, name));
	}
	close(pfd);
}

/* rules_gather() from a listing, an fd or the parent alone. */
static void test_gather(void **state)
{
	struct fx *f = *state;
	struct dir_facts facts;
	struct dir_list l = {0};
	struct dir_probe d = {.parent_fd = -1, .fd = -1};
	int fd;

	/* 2-0045/leds, from its listing: a class-named dir holding devices */
	fd = dirfd_of(f, "devices/platform/omap_i2c.2/i2c-2/2-0045/leds");
	assert_int_equal(dir_list_read(&l, fd, DIR_LIST_REOPEN), 0);
	d.name = "leds";
	d.place = (struct dir_place){.parent_is_device = true, .below_device = true};
	d.fd = fd;
	d.list = &l;
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.name_is_class);
	assert_true(facts.has_device_child);
	assert_false(facts.has_uevent);
	assert_false(facts.empty);
	assert_int_equal(rules_decide(&facts), SYSDEV_KIND_CLASS_DIR);
	/* the same from the fd alone */
	d.list = NULL;
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.has_device_child);
	assert_int_equal(rules_decide(&facts), SYSDEV_KIND_CLASS_DIR);
	close(fd);
	/* and from its parent alone */
	d.fd = -1;
	d.parent_fd = dirfd_of(f, "devices/platform/omap_i2c.2/i2c-2/2-0045");
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.has_device_child);
	/* 2-0045/net: class-named, files only: an attribute group */
	d.name = "net";
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.name_is_class);
	assert_false(facts.has_device_child);
	assert_false(facts.empty);
	assert_int_equal(rules_decide(&facts), SYSDEV_KIND_ATTR_GROUP);
	/* a device from its parent */
	d.name = "leds/gta04:green:power";
	d.place = (struct dir_place){.below_device = true};
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.has_uevent);
	close(d.parent_fd);
	/* a uevent directory in a listing is no uevent file */
	fd = dirfd_of(f, "devices/platform/ud");
	assert_int_equal(dir_list_read(&l, fd, DIR_LIST_REOPEN), 0);
	d = (struct dir_probe){.name = "ud", .parent_fd = -1, .fd = fd, .list = &l};
	d.place = (struct dir_place){.parent_is_device = true, .below_device = true};
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_false(facts.has_uevent);
	close(fd);
	dir_list_free(&l);
}

static void test_gather_unreadable_and_root(void **state)
{
	struct fx *f = *state;
	struct dir_facts facts;
	struct dir_probe d = {.name = "leds", .parent_fd = -1, .fd = -1, .error = -EACCES};

	d.place = (struct dir_place){.parent_is_device = true, .below_device = true};
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.unreadable);
	assert_false(facts.has_device_child);
	assert_int_equal(rules_rule(&facts), SYSDEV_RULE_UNREADABLE);
	/* the root: nothing looked at */
	d = (struct dir_probe){.name = "devices", .parent_fd = -1, .fd = -1};
	d.place.is_root = true;
	assert_int_equal(rules_gather(f->ctx, &d, &facts), 0);
	assert_true(facts.is_root);
	assert_false(facts.name_is_class);
	/* a class-named candidate that is gone: the errno of listing it */
	d = (struct dir_probe){.name = "leds", .fd = -1};
	d.parent_fd = dirfd_of(f, "devices/platform");
	d.place = (struct dir_place){.parent_is_device = true, .below_device = true};
	assert_int_equal(rules_gather(f->ctx, &d, &facts), -ENOENT);
	close(d.parent_fd);
}

static void test_ancestry(void **state)
{
	struct fx *f = *state;
	struct ancestry a;
	char *parent = NULL, *class_dir = NULL;
	struct stat st1, st2;

	assert_int_equal(ancestry_get(f->ctx, I2C "/leds/gta04:green:power", &a), 0);
	assert_true(a.fd >= 0);
	assert_int_equal(fstat(a.fd, &st1), 0);
	assert_int_equal(fstatat(f->ctx->root_fd, &I2C "/leds/gta04:green:power"[1], &st2, 0), 0);
	assert_int_equal(st1.st_ino, st2.st_ino);
	assert_string_equal(a.parent_devpath, I2C);
	assert_string_equal(a.parent_dirname, "leds");
	assert_true(a.parent_is_class_dir);
	assert_true(a.place.below_device);
	assert_false(a.place.parent_is_device);
	assert_false(a.place.is_root);
	ancestry_take(&a, &parent, &class_dir);
	assert_null(a.parent_devpath);
	assert_null(a.parent_dirname);
	assert_string_equal(parent, I2C);
	assert_string_equal(class_dir, "leds");
	ancestry_free(&a);
	assert_int_equal(a.fd, -1);
	free(parent);
	free(class_dir);

	/* right below a device: no class dir, the parent is the device */
	assert_int_equal(ancestry_get(f->ctx, I2C "/net", &a), 0);
	assert_true(a.place.parent_is_device);
	assert_false(a.parent_is_class_dir);
	parent = class_dir = NULL;
	ancestry_take(&a, &parent, &class_dir);
	assert_string_equal(parent, I2C);
	assert_null(class_dir);
	assert_non_null(a.parent_dirname); /* not taken: still the ancestry's */
	ancestry_free(&a);
	free(parent);

	/* in S/devices/virtual: a class dir, no device above */
	assert_int_equal(ancestry_get(f->ctx, "/devices/virtual/net/lo", &a), 0);
	assert_null(a.parent_devpath);
	assert_true(a.parent_is_class_dir);
	assert_false(a.place.below_device);
	ancestry_free(&a);
	assert_int_equal(ancestry_get(f->ctx, "/devices/virtual/net", &a), 0);
	assert_true(a.place.parent_is_virtual);
	assert_false(a.parent_is_class_dir);
	ancestry_free(&a);
	assert_int_equal(ancestry_get(f->ctx, "/devices", &a), 0);
	assert_true(a.place.is_root);
	assert_null(a.parent_devpath);
	ancestry_free(&a);
}

static void test_ancestry_refused(void **state)
{
	struct fx *f = *state;
	struct ancestry a;

	assert_int_equal(ancestry_get(f->ctx, "/devices/../class", &a), -EINVAL);
	assert_int_equal(a.fd, -1);
	ancestry_free(&a);
	assert_int_equal(ancestry_get(f->ctx, "/devicesx", &a), -EINVAL);
	ancestry_free(&a);
	assert_int_equal(ancestry_get(f->ctx, "/devices/platform/nothere", &a), -ENOENT);
	assert_null(a.parent_devpath);
	ancestry_free(&a);
	assert_int_equal(ancestry_get(f->ctx, "/devices/platform/jump/net", &a), -ENOTDIR);
	assert_int_equal(a.fd, -1);
	ancestry_free(&a);
	assert_int_equal(ancestry_get(f->ctx, "/devices/platform/jump", &a), -ENOTDIR);
	ancestry_free(&a);
	{
		char long_path[NAME_MAX + 64];

		snprintf(long_path, sizeof(long_path), "/devices/platform/%0*d", NAME_MAX + 1, 0);
		assert_int_equal(ancestry_get(f->ctx, long_path, &a), -ENAMETOOLONG);
		ancestry_free(&a);
	}
}

#include "unit-main.h"

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rule_order),
	    cmocka_unit_test(test_rule_names),
	    cmocka_unit_test(test_class_candidate),
	    T(test_has_uevent),
	    T(test_gather),
	    T(test_gather_unreadable_and_root),
	    T(test_ancestry),
	    T(test_ancestry_refused),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
