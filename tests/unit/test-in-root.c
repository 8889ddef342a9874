/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The resolver inside a root: links followed where they stand, never out of the root. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "in-root.h"

static char top[PATH_MAX]; /* holds root/ and outside/ */
static char root[PATH_MAX + 8];
static int rootfd = -1;

static void mk(const char *rel, bool dir, const char *link)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (link)
		assert_int_equal(symlink(link, p), 0);
	else if (dir)
		assert_int_equal(mkdir(p, 0755), 0);
	else {
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, "x\n", 2), 2);
		close(fd);
	}
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	char outside_file[PATH_MAX * 3];

	(void)state;
	snprintf(top, sizeof(top), "%s/in-root-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(top));
	snprintf(root, sizeof(root), "%s/root", top);
	mk("root", true, NULL);
	mk("outside", true, NULL);
	mk("outside/secret", false, NULL);
	mk("root/devices", true, NULL);
	mk("root/devices/d1", true, NULL);
	mk("root/devices/d1/uevent", false, NULL);
	mk("root/class", true, NULL);
	mk("root/class/net", true, NULL);
	mk("root/class/net/eth0", false, "../../devices/d1");
	mk("root/class/net/abs", false, "/sys/devices/d1");
	mk("root/class/net/up", false, "../../../outside");
	snprintf(outside_file, sizeof(outside_file), "%s/outside/secret", top);
	mk("root/class/net/out", false, outside_file);
	snprintf(outside_file, sizeof(outside_file), "%s/devices/d1", root);
	mk("root/class/net/rootabs", false, outside_file);
	mk("root/class/loop", false, "loop");
	mk("root/class/file", false, NULL);
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	close(rootfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void expect(const char *path, enum in_root_open how, int err, const char *want,
		   const char *detail)
{
	struct in_root r;
	int got = in_root_resolve(rootfd, root, path, how, &r);

	assert_int_equal(got, err);
	if (want)
		assert_string_equal(r.path, want);
	if (detail)
		assert_string_equal(r.detail, detail);
	if (err == 0)
		assert_true(how == IN_ROOT_OPEN_NONE ? r.fd == -1 : r.fd >= 0);
	in_root_free(&r);
}

static void test_inside(void **state)
{
	(void)state;
	expect("/class/net/eth0", IN_ROOT_OPEN_DIR, 0, "/devices/d1", NULL);
	/* an absolute /sys target means the root */
	expect("class/net/abs/uevent", IN_ROOT_OPEN_FILE, 0, "/devices/d1/uevent", NULL);
	/* and so does the root's own host path */
	expect("class/net/rootabs", IN_ROOT_OPEN_DIR, 0, "/devices/d1", NULL);
	expect("/", IN_ROOT_OPEN_DIR, 0, "/", NULL);
	expect("devices/d1/..", IN_ROOT_OPEN_PATH, 0, "/devices", NULL);
}

static void test_outside(void **state)
{
	(void)state;
	/* a ".." above the root and an absolute target elsewhere are refused */
	expect("class/net/up/secret", IN_ROOT_OPEN_FILE, -EXDEV, NULL, "../../../outside");
	expect("class/net/out", IN_ROOT_OPEN_FILE, -EXDEV, NULL, NULL);
	expect("..", IN_ROOT_OPEN_NONE, -EXDEV, NULL, NULL);
	expect("devices/../..", IN_ROOT_OPEN_NONE, -EXDEV, NULL, NULL);
	/* a loop ends after the bound */
	expect("class/loop", IN_ROOT_OPEN_NONE, -ELOOP, NULL, NULL);
	expect("class/nothing", IN_ROOT_OPEN_NONE, -ENOENT, NULL, "/class/nothing");
	/* what is asked for: a file is no directory, a directory no file */
	expect("class/file", IN_ROOT_OPEN_DIR, -ENOTDIR, NULL, NULL);
	expect("class/net/eth0", IN_ROOT_OPEN_FILE, -EINVAL, NULL, NULL);
}

static void test_no_link_on_the_way(void **state)
{
	struct stat st;
	char *target = NULL;

	(void)state;
	assert_int_equal(lstat_below(rootfd, "class/net/eth0", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* through a link: refused, never followed */
	assert_int_equal(lstat_below(rootfd, "class/net/eth0/uevent", &st), -ENOTDIR);
	assert_int_equal(readlink_below(rootfd, "class/net/eth0", &target), 0);
	assert_string_equal(target, "../../devices/d1");
	free(target);
	assert_int_equal(readlink_below(rootfd, "class/net/up/secret", &target), -ENOTDIR);
}

#include "unit-main.h"

/*
 * A directory that may be searched but not listed is what it is: the open is
 * refused with EACCES, not taken for a file (ENOTDIR).  Run as nobody in a
 * child (root opens every directory).
 */
static void test_unreadable_dir(void **state)
{
	char path[PATH_MAX * 2];
	pid_t pid;
	int status;

	(void)state;
	mk("root/devices/locked", true, NULL);
	mk("root/class/net/locked", false, "../../devices/locked");
	snprintf(path, sizeof(path), "%s/devices/locked", root);
	assert_int_equal(chmod(path, 0111), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct in_root r;

		if (geteuid() == 0 &&
		    (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		     setresuid(65534, 65534, 65534) < 0))
			_exit(3);
		if (in_root_resolve(rootfd, root, "devices/locked", IN_ROOT_OPEN_DIR, &r) !=
		    -EACCES)
			_exit(4);
		in_root_free(&r);
		if (in_root_resolve(rootfd, root, "class/net/locked", IN_ROOT_OPEN_DIR, &r) !=
		    -EACCES)
			_exit(5);
		in_root_free(&r);
		/* a file is still not a directory */
		if (in_root_resolve(rootfd, root, "class/file", IN_ROOT_OPEN_DIR, &r) != -ENOTDIR)
			_exit(6);
		in_root_free(&r);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(chmod(path, 0755), 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inside),
	    cmocka_unit_test(test_outside),
	    cmocka_unit_test(test_no_link_on_the_way),
	    cmocka_unit_test(test_unreadable_dir),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
