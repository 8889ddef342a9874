/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/name-set.c: the names of a directory (S/class, S/bus), dotfiles left out, sorted
 * bytewise. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "name-set.h"
#include "tree.h"

static void test_name_set(void **state)
{
	char *root = tree_new();
	struct name_set set = {0}, empty = {0};
	int fd;

	(void)state;
	tree_dir(root, "class/net/");
	tree_dir(root, "class/leds/");
	tree_dir(root, "class/cpu10/");
	tree_dir(root, "class/cpu1/");
	tree_dir(root, "class/.hidden/");
	tree_dir(root, "class/r./");
	tree_file(root, "class/file", "");
	tree_link(root, "bus", "class");
	fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_int_equal(name_set_load(fd, "class", &set), 0);
	assert_int_equal(set.n, 6);
	assert_string_equal(set.names[0], "cpu1");
	assert_string_equal(set.names[1], "cpu10");
	assert_string_equal(set.names[2], "file");
	assert_string_equal(set.names[3], "leds");
	assert_string_equal(set.names[4], "net");
	assert_string_equal(set.names[5], "r.");
	assert_true(name_set_has(&set, "cpu1"));
	assert_true(name_set_has(&set, "cpu10"));
	assert_true(name_set_has(&set, "r."));
	assert_false(name_set_has(&set, "cpu"));
	assert_false(name_set_has(&set, "cpu100"));
	assert_false(name_set_has(&set, "r"));
	assert_false(name_set_has(&set, ".hidden"));
	assert_false(name_set_has(&set, ""));
	name_set_free(&set);
	assert_int_equal(set.n, 0);
	assert_null(set.names);
	name_set_free(&set);
	assert_false(name_set_has(&empty, "net"));
	/* no link followed, no "..": a tree's S/class that is a link is no S/class */
	assert_int_equal(name_set_load(fd, "bus", &set), -ENOTDIR);
	assert_int_equal(set.n, 0);
	assert_int_equal(name_set_load(fd, "devices/../class", &set), -EINVAL);
	assert_int_equal(name_set_load(fd, "missing", &set), -ENOENT);
	assert_int_equal(name_set_load(fd, "class/file", &set), -ENOTDIR);
	/* from an open directory: read from its start, left open */
	{
		int cfd = openat(fd, "class", O_RDONLY | O_DIRECTORY);

		assert_int_equal(name_set_load_fd(cfd, &set), 0);
		assert_int_equal(set.n, 6);
		name_set_free(&set);
		assert_int_equal(name_set_load_fd(cfd, &set), 0);
		assert_int_equal(set.n, 6);
		name_set_free(&set);
		assert_int_equal(fcntl(cfd, F_GETFD) >= 0, 1);
		close(cfd);
	}
	/* an empty directory: an empty set */
	assert_int_equal(name_set_load(fd, "devices", &set), 0);
	assert_int_equal(set.n, 0);
	assert_false(name_set_has(&set, "x"));
	name_set_free(&set);
	close(fd);
	tree_free(root);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_name_set),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
