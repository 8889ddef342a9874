/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/dir-list.c: one pass of getdents64, sorted bytewise, "." and ".." left out. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <cmocka.h>

#include "dir-list.h"
#include "tree.h"

#define SYSFS_MAGIC 0x62656572 /* linux/magic.h */

struct fx {
	char *root;
	int fd; /* the empty directory "d" below the root */
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[PATH_MAX];

	f->root = tree_new();
	tree_dir(f->root, "d/");
	snprintf(path, sizeof(path), "%s/d", f->root);
	f->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->fd >= 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	close(f->fd);
	tree_free(f->root);
	free(f);
	return 0;
}

static void mk(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	close(fd);
}

static void assert_names(const struct dir_list *l, const char *const *want, size_t n)
{
	if (l->n != n)
		fail_msg("%zu entries, want %zu", l->n, n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(l->v[i].name, want[i]) != 0)
			fail_msg("entry %zu is '%s', want '%s'", i, l->v[i].name, want[i]);
}

/* Bytewise: unsigned bytes, no locale, a name before every longer name it starts. */
static void test_sorted_bytewise(void **state)
{
	struct fx *f = *state;
	static const char *const names[] = {"cpu10", "cpu1", "cpu2", "r.",	 "r",	"Z",
					    "a\nb",  "a",    "\xff", "\xc3\xa9", "...", ".x"};
	static const char *const want[] = {"...",  ".x", "Z",  "a",    "a\nb",	   "cpu1", "cpu10",
					   "cpu2", "r",	 "r.", "zdir", "\xc3\xa9", "\xff"};
	struct dir_list l = {0};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		mk(f->fd, names[i]);
	assert_int_equal(mkdirat(f->fd, "zdir", 0755), 0);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(l.n, 13);
	assert_names(&l, want, 13);
	for (size_t i = 0; i < l.n; i++)
		assert_int_equal(l.v[i].mark, -1);
	dir_list_free(&l);
	assert_null(l.v);
	assert_null(l.buf);
}

/* Only "." and ".." are left out; with DIR_LIST_NO_HIDDEN every dot name, "r." kept. */
static void test_hidden(void **state)
{
	struct fx *f = *state;
	static const char *const all[] = {"...", "..a", ".hidden", "r", "r."};
	static const char *const visible[] = {"r", "r."};
	struct dir_list l = {0};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		mk(f->fd, all[i]);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_names(&l, all, 5);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN | DIR_LIST_NO_HIDDEN), 0);
	assert_names(&l, visible, 2);
	dir_list_free(&l);
}

static void test_empty(void **state)
{
	struct fx *f = *state;
	struct dir_list l = {0};

	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(l.n, 0);
	assert_null(dir_list_find(&l, "uevent"));
	assert_null(dir_list_find(&l, ""));
	dir_list_free(&l);
}

static void test_find(void **state)
{
	struct fx *f = *state;
	static const char *const names[] = {"cpu1", "cpu10", "r", "r.", "uevent", "a\nb"};
	struct dir_list l = {0};
	struct dir_entry *e;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		mk(f->fd, names[i]);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		e = dir_list_find(&l, names[i]);
		assert_non_null(e);
		assert_string_equal(e->name, names[i]);
	}
	assert_null(dir_list_find(&l, "cpu"));
	assert_null(dir_list_find(&l, "cpu100"));
	assert_null(dir_list_find(&l, "r.."));
	assert_null(dir_list_find(&l, "uevent/"));
	assert_null(dir_list_find(&l, "a"));
	assert_null(dir_list_find(&l, "."));
	assert_null(dir_list_find(&l, ".."));
	dir_list_free(&l);
}

/* The types the filesystem gives, and dir_entry_type() settling an unknown one by fstatat. */
static void test_types(void **state)
{
	struct fx *f = *state;
	struct dir_list l = {0};
	struct dir_entry *e;

	mk(f->fd, "file");
	assert_int_equal(mkdirat(f->fd, "dir", 0755), 0);
	assert_int_equal(symlinkat("dir", f->fd, "link"), 0);
	assert_int_equal(symlinkat("link-loop", f->fd, "link-loop"), 0);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(dir_entry_type(f->fd, dir_list_find(&l, "file")), DT_REG);
	assert_int_equal(dir_entry_type(f->fd, dir_list_find(&l, "dir")), DT_DIR);
	/* a link is a link: never the type of what it points at */
	assert_int_equal(dir_entry_type(f->fd, dir_list_find(&l, "link")), DT_LNK);
	assert_int_equal(dir_entry_type(f->fd, dir_list_find(&l, "link-loop")), DT_LNK);
	/* as a filesystem without d_type says */
	for (size_t i = 0; i < l.n; i++)
		l.v[i].type = DT_UNKNOWN;
	e = dir_list_find(&l, "link");
	assert_int_equal(dir_entry_type(f->fd, e), DT_LNK);
	assert_int_equal(e->type, DT_LNK);
	e = dir_list_find(&l, "dir");
	assert_int_equal(dir_entry_type(f->fd, e), DT_DIR);
	assert_int_equal(e->type, DT_DIR);
	e = dir_list_find(&l, "file");
	assert_int_equal(dir_entry_type(f->fd, e), DT_REG);
	/* settled once: a later change is not seen */
	assert_int_equal(unlinkat(f->fd, "file", 0), 0);
	assert_int_equal(dir_entry_type(f->fd, e), DT_REG);
	/* gone before it was asked: unknown */
	e = dir_list_find(&l, "link-loop");
	assert_int_equal(unlinkat(f->fd, "link-loop", 0), 0);
	assert_int_equal(dir_entry_type(f->fd, e), DT_UNKNOWN);
	dir_list_free(&l);
}

/* Many long names: the buffer grows over many getdents64 calls, nothing lost. */
static void test_many_entries(void **state)
{
	struct fx *f = *state;
	struct dir_list l = {0};
	const size_t n = 3000;
	char name[NAME_MAX + 1];
	size_t cap;

	memset(name, 'n', 200);
	for (size_t i = 0; i < n; i++) {
		snprintf(name + 200, sizeof(name) - 200, "%05zu", i);
		mk(f->fd, name);
	}
	/* a name of NAME_MAX bytes too */
	memset(name, 'z', NAME_MAX);
	name[NAME_MAX] = '\0';
	mk(f->fd, name);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(l.n, n + 1);
	for (size_t i = 0; i < n; i++) {
		char want[16];

		snprintf(want, sizeof(want), "%05zu", i);
		assert_int_equal(strlen(l.v[i].name), 205);
		assert_string_equal(l.v[i].name + 200, want);
	}
	assert_string_equal(l.v[n].name, name);
	/* the buffer is kept for the next directory, and the old entries are gone */
	cap = l.buf_cap;
	tree_file(f->root, "small/only", "");
	{
		char path[PATH_MAX];
		int sfd;

		snprintf(path, sizeof(path), "%s/small", f->root);
		sfd = open(path, O_RDONLY | O_DIRECTORY);
		assert_int_equal(dir_list_read(&l, sfd, 0), 0);
		close(sfd);
	}
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].name, "only");
	assert_int_equal(l.buf_cap, cap);
	dir_list_free(&l);
}

/* DIR_LIST_REOPEN leaves the descriptor's offset alone; without it the listing moves it. */
static void test_reopen(void **state)
{
	struct fx *f = *state;
	static const char *const names[] = {"a", "b"};
	struct dir_list l = {0};

	mk(f->fd, "a");
	mk(f->fd, "b");
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_names(&l, names, 2);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_names(&l, names, 2);
	/* the offset is still at the start: a plain listing sees everything, once */
	assert_int_equal(dir_list_read(&l, f->fd, 0), 0);
	assert_names(&l, names, 2);
	assert_int_equal(dir_list_read(&l, f->fd, 0), 0);
	assert_int_equal(l.n, 0);
	/* through a fresh descriptor even when this one is at its end */
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_names(&l, names, 2);
	dir_list_free(&l);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Unsorted: the same names, all of them; dir_list_names() copies them in that order. */
static void test_unsorted_and_names(void **state)
{
	struct fx *f = *state;
	static const char *const want[] = {"cpu0", "cpu1", "cpu10", "cpu2", "r", "r."};
	struct dir_list l = {0};
	char **v;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		mk(f->fd, want[i]);
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN | DIR_LIST_UNSORTED), 0);
	assert_int_equal(l.n, 6);
	v = dir_list_names(&l);
	assert_non_null(v);
	for (size_t i = 0; i < l.n; i++) {
		assert_string_equal(v[i], l.v[i].name);
		assert_ptr_not_equal(v[i], l.v[i].name);
	}
	assert_null(v[l.n]);
	dir_list_free(&l);
	/* the copies outlive the list */
	qsort(v, 6, sizeof(*v), cmp_name);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(v[i], want[i]);
		free(v[i]);
	}
	free(v);
	/* an empty list: an empty, NULL-terminated array */
	v = dir_list_names(&l);
	assert_non_null(v);
	assert_null(v[0]);
	free(v);
}

/* The test's own strdup(): the Nth call from when it is armed fails, as with no memory. */
static int strdup_fails_in = -1;

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (strdup_fails_in >= 0 && strdup_fails_in-- == 0) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(n);
	return p ? memcpy(p, s, n) : NULL;
}

/* No memory for the fourth copy: NULL, and the three made before are freed, the first too. */
static void test_names_no_memory(void **state)
{
	struct fx *f = *state;
	struct dir_list l = {0};
	size_t before;

	for (int i = 0; i < 6; i++) {
		char name[16];

		snprintf(name, sizeof(name), "entry%d", i);
		mk(f->fd, name);
	}
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(l.n, 6);
	/* freed chunks kept in the tcache count as in use: meson.build turns it off */
	assert_non_null(getenv("GLIBC_TUNABLES"));
	assert_non_null(strstr(getenv("GLIBC_TUNABLES"), "glibc.malloc.tcache_count=0"));
	before = mallinfo2().uordblks;
	strdup_fails_in = 3;
	assert_null(dir_list_names(&l));
	strdup_fails_in = -1;
	assert_int_equal(mallinfo2().uordblks, before);
	dir_list_free(&l);
}

/* Not a directory: the errno, no entries, and the buffers kept for the next one. */
static void test_errors(void **state)
{
	struct fx *f = *state;
	struct dir_list l = {0};
	int fd;

	mk(f->fd, "a");
	mk(f->fd, "b");
	assert_int_equal(dir_list_read(&l, f->fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(l.n, 2);
	fd = openat(f->fd, "a", O_RDONLY);
	assert_int_equal(dir_list_read(&l, fd, 0), -ENOTDIR);
	assert_int_equal(l.n, 0);
	assert_non_null(l.buf);
	assert_int_equal(dir_list_read(&l, fd, DIR_LIST_REOPEN), -ENOTDIR);
	assert_int_equal(l.n, 0);
	close(fd);
	/* an O_PATH descriptor cannot be read, but a fresh one through it can */
	fd = openat(f->fd, ".", O_PATH | O_DIRECTORY);
	assert_int_equal(dir_list_read(&l, fd, 0), -EBADF);
	assert_int_equal(dir_list_read(&l, fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(l.n, 2);
	close(fd);
	assert_int_equal(dir_list_read(&l, -1, 0), -EBADF);
	dir_list_free(&l);
}

static void test_dir_is_empty(void **state)
{
	struct fx *f = *state;
	int fd;

	assert_int_equal(dir_is_empty(f->fd), 1);
	mk(f->fd, ".hidden");
	assert_int_equal(dir_is_empty(f->fd), 0);
	assert_int_equal(unlinkat(f->fd, ".hidden", 0), 0);
	assert_int_equal(dir_is_empty(f->fd), 1);
	assert_int_equal(mkdirat(f->fd, "sub", 0755), 0);
	assert_int_equal(dir_is_empty(f->fd), 0);
	fd = openat(f->fd, "sub", O_RDONLY | O_DIRECTORY);
	assert_int_equal(dir_is_empty(fd), 1);
	close(fd);
	mk(f->fd, "file");
	fd = openat(f->fd, "file", O_RDONLY);
	assert_int_equal(dir_is_empty(fd), -ENOTDIR);
	close(fd);
}

/* On sysfs, DIR_LIST_KERNFS (ending without the final empty getdents64) lists the same. */
static void test_kernfs(void **state)
{
	struct dir_list a = {0}, b = {0};
	struct statfs sfs;
	int fd;

	(void)state;
	fd = open("/sys/devices/system", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstatfs(fd, &sfs) < 0 || sfs.f_type != SYSFS_MAGIC) {
		if (fd >= 0)
			close(fd);
		skip();
	}
	assert_int_equal(dir_list_read(&a, fd, DIR_LIST_REOPEN), 0);
	assert_int_equal(dir_list_read(&b, fd, DIR_LIST_REOPEN | DIR_LIST_KERNFS), 0);
	assert_true(a.n > 0);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.v[i].name, b.v[i].name);
	close(fd);
	dir_list_free(&a);
	dir_list_free(&b);
}

#include "unit-main.h"

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    T(test_sorted_bytewise), T(test_hidden),
	    T(test_empty),	     T(test_find),
	    T(test_types),	     T(test_many_entries),
	    T(test_reopen),	     T(test_unsorted_and_names),
	    T(test_names_no_memory), T(test_errors),
	    T(test_dir_is_empty),    T(test_kernfs),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
