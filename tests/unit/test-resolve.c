/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/resolve.c: paths resolved as realpath(1) would with the root mounted
 * at /sys, never leaving the root: resolve_in_root() and
 * sysdev_resolve_path() (devpaths, host paths below the root, relative
 * paths, the /sys paths of the captured system).
 */
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
#include "tree.h"

#define I2C "/devices/platform/omap_i2c.2/i2c-2/2-0045"

struct fx {
	char *root;
	struct sysdev *ctx;
	char cwd[PATH_MAX];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->root = tree_new();
	tree_article(f->root);
	tree_link(f->root, "class/net/abs", "/sys/devices/virtual/net/lo");
	tree_link(f->root, "class/net/escape", "../../../../../../../../etc");
	tree_link(f->root, "class/net/host", "/etc");
	tree_link(f->root, "class/net/loop", "loop");
	tree_link(f->root, "class/net/ping", "pong");
	tree_link(f->root, "class/net/pong", "ping");
	tree_link(f->root, "class/net/up", "..");
	tree_dir(f->root, "devices/virtual/net/lo/queues/cpu1/");
	tree_dir(f->root, "devices/virtual/net/lo/queues/cpu10/");
	assert_int_equal(sysdev_new(f->root, &f->ctx), 0);
	assert_non_null(getcwd(f->cwd, sizeof(f->cwd)));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	assert_int_equal(chdir(f->cwd), 0);
	sysdev_unref(f->ctx);
	tree_free(f->root);
	free(f);
	return 0;
}

static void check_in(struct sysdev *ctx, const char *path, int err, const char *want)
{
	char *out = (char *)"unset";
	int got = resolve_in_root(ctx, path, &out);

	if (got != err)
		fail_msg("%s: %d, want %d", path, got, err);
	if (err < 0) {
		assert_null(out);
		return;
	}
	if (strcmp(out, want) != 0)
		fail_msg("%s: '%s', want '%s'", path, out, want);
	free(out);
}

static void check_path(struct sysdev *ctx, const char *path, int err, const char *want)
{
	char *out = (char *)"unset";
	int got = sysdev_resolve_path(ctx, path, &out);

	if (got != err)
		fail_msg("%s: %d, want %d", path, got, err);
	if (err < 0) {
		assert_null(out);
		return;
	}
	if (strcmp(out, want) != 0)
		fail_msg("%s: '%s', want '%s'", path, out, want);
	free(out);
}

static void test_links_followed(void **state)
{
	struct fx *f = *state;

	check_in(f->ctx, "/class/net/lo", 0, "/devices/virtual/net/lo");
	check_in(f->ctx, "class/net/lo/", 0, "/devices/virtual/net/lo");
	check_in(f->ctx, "/class/net/lo/queues/rx-0", 0, "/devices/virtual/net/lo/queues/rx-0");
	check_in(f->ctx, "/bus/i2c/devices/2-0045", 0, I2C);
	check_in(f->ctx, "/dev/block/8:1", 0, I2C "/block/sda/sda1");
	check_in(f->ctx, I2C "/subsystem", 0, "/bus/i2c");
	/* an absolute target naming /sys is the root */
	check_in(f->ctx, "/class/net/abs", 0, "/devices/virtual/net/lo");
	check_in(f->ctx, "/", 0, "/");
	check_in(f->ctx, "", 0, "/");
	check_in(f->ctx, "/devices/./virtual//net/", 0, "/devices/virtual/net");
}

/* ".." is applied to what a link resolved to, as the kernel does. */
static void test_dotdot_physical(void **state)
{
	struct fx *f = *state;

	check_in(f->ctx, "/class/net/lo/..", 0, "/devices/virtual/net");
	check_in(f->ctx, "/class/net/lo/../../..", 0, "/devices");
	check_in(f->ctx, "/dev/block/8:1/../..", 0, I2C "/block");
	check_in(f->ctx, "/devices/../class", 0, "/class");
	check_in(f->ctx, "/class/net/up", 0, "/class");
	/* cpu1 and cpu10: each its own */
	check_in(f->ctx, "/class/net/lo/queues/cpu1/../cpu10", 0,
		 "/devices/virtual/net/lo/queues/cpu10");
}

/* Never out of the root: -EXDEV; loops: -ELOOP; missing: -ENOENT. */
static void test_refused(void **state)
{
	struct fx *f = *state;

	check_in(f->ctx, "/..", -EXDEV, NULL);
	check_in(f->ctx, "/devices/../..", -EXDEV, NULL);
	check_in(f->ctx, "/class/net/escape", -EXDEV, NULL);
	check_in(f->ctx, "/class/net/escape/passwd", -EXDEV, NULL);
	check_in(f->ctx, "/class/net/host", -EXDEV, NULL);
	check_in(f->ctx, "/class/net/loop", -ELOOP, NULL);
	check_in(f->ctx, "/class/net/ping", -ELOOP, NULL);
	check_in(f->ctx, "/class/net/nothere", -ENOENT, NULL);
	check_in(f->ctx, "/class/net/lo/nothere/x", -ENOENT, NULL);
	check_in(f->ctx, I2C "/name/x", -ENOTDIR, NULL);
}

/* A devpath names a place in the tree, whatever the host has at /devices. */
static void test_path_devpath(void **state)
{
	struct fx *f = *state;

	check_path(f->ctx, "/devices/virtual/net/lo", 0, "/devices/virtual/net/lo");
	check_path(f->ctx, "/devices", 0, "/devices");
	check_path(f->ctx, "/devices/platform/omap_i2c.2/subsystem", 0, "/bus/platform");
	/* "/devicesx" is not below /devices: a host path, outside the root */
	check_path(f->ctx, "/devicesx/y", -EXDEV, NULL);
}

/* Host paths: below the root, through the root's own path. */
static void test_path_host(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX * 2], *slashes;

	snprintf(path, sizeof(path), "%s/class/net/lo", f->root);
	check_path(f->ctx, path, 0, "/devices/virtual/net/lo");
	snprintf(path, sizeof(path), "%s", f->root);
	check_path(f->ctx, path, 0, "/");
	snprintf(path, sizeof(path), "%s/", f->root);
	check_path(f->ctx, path, 0, "/");
	/* doubled slashes: the root found by identity, not by text */
	slashes = strrchr(f->root, '/');
	snprintf(path, sizeof(path), "%.*s//%s//class//net/lo", (int)(slashes - f->root), f->root,
		 slashes + 1);
	check_path(f->ctx, path, 0, "/devices/virtual/net/lo");
	/* a name that only starts with the root's: not below it */
	snprintf(path, sizeof(path), "%sx/class", f->root);
	check_path(f->ctx, path, -EXDEV, NULL);
	check_path(f->ctx, "/etc", -EXDEV, NULL);
	/* below the root, then out by a link */
	snprintf(path, sizeof(path), "%s/class/net/escape", f->root);
	check_path(f->ctx, path, -EXDEV, NULL);
}

/* Relative paths are taken from the working directory. */
static void test_path_relative(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class", f->root);
	assert_int_equal(chdir(path), 0);
	check_path(f->ctx, "net/lo", 0, "/devices/virtual/net/lo");
	check_path(f->ctx, "./net/lo/../lo", 0, "/devices/virtual/net/lo");
	check_path(f->ctx, "..", 0, "/");
	check_path(f->ctx, ".", 0, "/class");
	assert_int_equal(chdir(f->root), 0);
	check_path(f->ctx, "bus/i2c/devices/2-0045", 0, I2C);
}

/* The /sys paths of the system the tree was captured from. */
static void test_path_sys(void **state)
{
	struct fx *f = *state;

	check_path(f->ctx, "/sys/class/net/lo", 0, "/devices/virtual/net/lo");
	check_path(f->ctx, "/sys", 0, "/");
	check_path(f->ctx, "/sys/", 0, "/");
	check_path(f->ctx, "/sys/devices/virtual/net/lo/..", 0, "/devices/virtual/net");
	/* /sysx is not /sys */
	check_path(f->ctx, "/sysx/class/net/lo", -EXDEV, NULL);
	check_path(f->ctx, "/sys/class/net/nothere", -ENOENT, NULL);
}

static void test_path_refused(void **state)
{
	struct fx *f = *state;
	char *out = (char *)"unset", *huge;

	assert_int_equal(sysdev_resolve_path(NULL, "/devices", &out), -EINVAL);
	assert_int_equal(sysdev_resolve_path(f->ctx, NULL, &out), -EINVAL);
	assert_int_equal(sysdev_resolve_path(f->ctx, "/devices", NULL), -EINVAL);
	check_path(f->ctx, "", -EINVAL, NULL);
	huge = malloc(64 * 1024 + 2);
	memset(huge, 'a', 64 * 1024 + 1);
	huge[0] = '/';
	huge[64 * 1024 + 1] = '\0';
	check_path(f->ctx, huge, -ENAMETOOLONG, NULL);
	free(huge);
}

#include "unit-main.h"

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    T(test_links_followed), T(test_dotdot_physical), T(test_refused),  T(test_path_devpath),
	    T(test_path_host),	    T(test_path_relative),   T(test_path_sys), T(test_path_refused),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
