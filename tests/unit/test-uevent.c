/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/uevent.c: the uevent attribute, KEY=VALUE lines as the kernel's
 * uevent_show() writes them (each ended by '\n'), read bounded from a tree
 * that may not be the kernel's.
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

struct fx {
	char *root;
	int fd;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->root = tree_new();
	f->fd = open(f->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->fd >= 0);
	alarm(20); /* a FIFO named uevent must not block */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	alarm(0);
	close(f->fd);
	tree_free(f->root);
	free(f);
	return 0;
}

/* Parse @len bytes of @text as uevent_read_at() does: a buffer with a byte to spare. */
static void parse(struct uevent *u, const char *text, size_t len)
{
	memset(u, 0, sizeof(*u));
	u->cap = len + 1;
	u->buf = malloc(u->cap);
	memcpy(u->buf, text, len);
	assert_int_equal(uevent_parse(u, len), 0);
}

static void write_uevent(int dirfd, const char *data, size_t len)
{
	int fd = openat(dirfd, "uevent", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* A block device's uevent, as the kernel writes it. */
static void test_kernel_format(void **state)
{
	static const char text[] = "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n"
				   "DISKSEQ=9\nPARTN=1\n";
	struct uevent u;

	(void)state;
	parse(&u, text, sizeof(text) - 1);
	assert_int_equal(u.n, 6);
	assert_string_equal(u.keys[0], "MAJOR");
	assert_string_equal(u.values[0], "8");
	assert_string_equal(u.keys[5], "PARTN");
	assert_string_equal(uevent_get(&u, "DEVNAME"), "sda1");
	assert_string_equal(uevent_get(&u, "DEVTYPE"), "partition");
	assert_string_equal(u.devnum, "8:1");
	/* keys are whole: no prefix, no other case */
	assert_null(uevent_get(&u, "DEV"));
	assert_null(uevent_get(&u, "DEVNAMEX"));
	assert_null(uevent_get(&u, "devname"));
	uevent_free(&u);
}

/* No final newline, empty values, '=' inside values, lines that are no property. */
static void test_odd_lines(void **state)
{
	static const char text[] = "noequals\n=novalue\n\n\nEMPTY=\nMODALIAS=of:Nx=y\n"
				   "SP= a b \nLAST=1";
	struct uevent u;

	(void)state;
	parse(&u, text, sizeof(text) - 1);
	assert_int_equal(u.n, 4);
	assert_string_equal(uevent_get(&u, "EMPTY"), "");
	assert_string_equal(uevent_get(&u, "MODALIAS"), "of:Nx=y");
	assert_string_equal(uevent_get(&u, "SP"), " a b ");
	assert_string_equal(uevent_get(&u, "LAST"), "1");
	assert_null(uevent_get(&u, "noequals"));
	assert_null(uevent_get(&u, ""));
	assert_string_equal(u.devnum, "");
	uevent_free(&u);
}

/* A NUL in the file ends a line, as it does for udev (its parser takes NUL for '\n'). */
static void test_embedded_nul(void **state)
{
	static const char text[] = "A=1\0B=2\nC=3\n";
	struct uevent u;

	(void)state;
	parse(&u, text, sizeof(text) - 1);
	assert_string_equal(uevent_get(&u, "A"), "1");
	assert_string_equal(uevent_get(&u, "B"), "2");
	assert_string_equal(uevent_get(&u, "C"), "3");
	assert_int_equal(u.n, 3);
	uevent_free(&u);
}

/* The device number: both of MAJOR and MINOR, decimal, at most 10 digits each. */
static void test_devnum(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"MAJOR=8\nMINOR=0\n", "8:0"},
	    {"MINOR=7\nMAJOR=189\n", "189:7"},
	    {"MAJOR=4294967295\nMINOR=1048575\n", "4294967295:1048575"},
	    {"MAJOR=8\n", ""},
	    {"MINOR=0\n", ""},
	    {"MAJOR=8\nMINOR=x\n", ""},
	    {"MAJOR=\nMINOR=0\n", ""},
	    {"MAJOR=-8\nMINOR=0\n", ""},
	    {"MAJOR=+8\nMINOR=0\n", ""},
	    {"MAJOR= 8\nMINOR=0\n", ""},
	    {"MAJOR=8 \nMINOR=0\n", ""},
	    {"MAJOR=0x8\nMINOR=0\n", ""},
	    {"MAJOR=12345678901\nMINOR=0\n", ""},
	    {"MAJOR=8\r\nMINOR=0\r\n", ""},
	};
	struct uevent u;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse(&u, cases[i].text, strlen(cases[i].text));
		if (strcmp(u.devnum, cases[i].want) != 0)
			fail_msg("'%s': devnum '%s', want '%s'", cases[i].text, u.devnum,
				 cases[i].want);
		uevent_free(&u);
	}
}

/* Many properties: the arrays grow, the order stays. */
static void test_many_keys(void **state)
{
	char text[4096], key[16];
	size_t len = 0;
	struct uevent u;

	(void)state;
	for (int i = 0; i < 100; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "K%d=v%d\n", i, i);
	parse(&u, text, len);
	assert_int_equal(u.n, 100);
	for (int i = 0; i < 100; i++) {
		char want[16];

		snprintf(key, sizeof(key), "K%d", i);
		snprintf(want, sizeof(want), "v%d", i);
		assert_string_equal(u.keys[i], key);
		assert_string_equal(uevent_get(&u, key), want);
	}
	uevent_free(&u);
}

static void test_read_at(void **state)
{
	struct fx *f = *state;
	struct uevent u = {0};

	write_uevent(f->fd, "MAJOR=1\nMINOR=3\nDEVNAME=null\nDEVMODE=0666\n", 41);
	assert_int_equal(uevent_read_at(&u, f->fd), 0);
	assert_int_equal(u.len, 41);
	assert_int_equal(u.n, 4);
	assert_string_equal(u.devnum, "1:3");
	assert_string_equal(uevent_get(&u, "DEVMODE"), "0666");
	/* read again into the same buffer: the old properties are gone */
	write_uevent(f->fd, "DRIVER=e1000e\n", 14);
	assert_int_equal(uevent_read_at(&u, f->fd), 0);
	assert_int_equal(u.n, 1);
	assert_null(uevent_get(&u, "DEVNAME"));
	assert_string_equal(u.devnum, "");
	/* an empty file: a device with no properties */
	write_uevent(f->fd, "", 0);
	assert_int_equal(uevent_read_at(&u, f->fd), 0);
	assert_int_equal(u.n, 0);
	uevent_free(&u);
}

/* Larger than a page: grown up to SYSDEV_ATTR_MAX, and -EFBIG past it. */
static void test_read_at_bounds(void **state)
{
	struct fx *f = *state;
	struct uevent u = {0};
	size_t len = SYSDEV_ATTR_MAX;
	char *data = malloc(len + 1);

	/* "X=" then 'v' up to the bound, a last newline: exactly SYSDEV_ATTR_MAX bytes */
	memset(data, 'v', len);
	memcpy(data, "X=", 2);
	data[len - 1] = '\n';
	write_uevent(f->fd, data, len);
	assert_int_equal(uevent_read_at(&u, f->fd), 0);
	assert_int_equal(u.len, len);
	assert_int_equal(u.n, 1);
	assert_int_equal(strlen(uevent_get(&u, "X")), len - 3);
	/* one byte more: refused, and nothing left of the last read */
	data[len - 1] = 'v';
	data[len] = '\n';
	write_uevent(f->fd, data, len + 1);
	assert_int_equal(uevent_read_at(&u, f->fd), -EFBIG);
	assert_int_equal(u.n, 0);
	assert_null(uevent_get(&u, "X"));
	assert_string_equal(u.devnum, "");
	uevent_free(&u);
	/* from a fresh struct too */
	assert_int_equal(uevent_read_at(&u, f->fd), -EFBIG);
	uevent_free(&u);
	free(data);
}

/* Missing, a link, a FIFO, a directory: errors or nothing, never a wait. */
static void test_read_at_hostile(void **state)
{
	struct fx *f = *state;
	struct uevent u = {0};

	assert_int_equal(uevent_read_at(&u, f->fd), -ENOENT);
	assert_int_equal(u.n, 0);
	tree_file(f->root, "real", "MAJOR=8\nMINOR=0\n");
	assert_int_equal(symlinkat("real", f->fd, "uevent"), 0);
	assert_int_equal(uevent_read_at(&u, f->fd), -ELOOP);
	assert_int_equal(unlinkat(f->fd, "uevent", 0), 0);
	assert_int_equal(symlinkat("uevent", f->fd, "uevent"), 0);
	assert_int_equal(uevent_read_at(&u, f->fd), -ELOOP);
	assert_int_equal(unlinkat(f->fd, "uevent", 0), 0);
	assert_int_equal(mkdirat(f->fd, "uevent", 0755), 0);
	assert_int_equal(uevent_read_at(&u, f->fd), -EISDIR);
	assert_int_equal(unlinkat(f->fd, "uevent", AT_REMOVEDIR), 0);
	/* a FIFO without a writer: read at once as empty */
	assert_int_equal(mkfifoat(f->fd, "uevent", 0644), 0);
	assert_int_equal(uevent_read_at(&u, f->fd), 0);
	assert_int_equal(u.n, 0);
	uevent_free(&u);
}

/* A copy has its own buffer: the original can go, and the copy can be read into again. */
static void test_copy(void **state)
{
	struct fx *f = *state;
	static const char text[] = "MAJOR=8\nMINOR=16\nDEVNAME=sdb\n";
	struct uevent u, c, e;

	parse(&u, text, sizeof(text) - 1);
	assert_int_equal(uevent_copy(&c, &u), 0);
	uevent_free(&u);
	assert_int_equal(c.n, 3);
	assert_string_equal(uevent_get(&c, "DEVNAME"), "sdb");
	assert_string_equal(c.devnum, "8:16");
	for (size_t i = 0; i < c.n; i++) {
		assert_true(c.keys[i] >= c.buf && c.keys[i] < c.buf + c.len);
		assert_true(c.values[i] >= c.buf && c.values[i] <= c.buf + c.len);
	}
	/* the copy's buffer is just large enough; a later read grows it */
	write_uevent(f->fd, "DEVNAME=a-much-longer-name-than-before\nX=1\n", 42);
	assert_int_equal(uevent_read_at(&c, f->fd), 0);
	assert_string_equal(uevent_get(&c, "DEVNAME"), "a-much-longer-name-than-before");
	assert_string_equal(c.devnum, "");
	uevent_free(&c);
	/* a copy of an empty uevent, then a read into it */
	parse(&u, "", 0);
	assert_int_equal(uevent_copy(&e, &u), 0);
	uevent_free(&u);
	assert_int_equal(e.n, 0);
	assert_null(uevent_get(&e, "X"));
	assert_int_equal(uevent_read_at(&e, f->fd), 0);
	assert_int_equal(e.n, 2);
	assert_string_equal(uevent_get(&e, "X"), "1");
	uevent_free(&e);
}

static void test_clear(void **state)
{
	struct uevent u;

	(void)state;
	parse(&u, "MAJOR=8\nMINOR=0\n", 16);
	uevent_clear(&u);
	assert_int_equal(u.n, 0);
	assert_int_equal(u.len, 0);
	assert_string_equal(u.devnum, "");
	assert_null(uevent_get(&u, "MAJOR"));
	assert_non_null(u.buf); /* kept for the next read */
	uevent_free(&u);
	assert_null(u.buf);
	assert_null(u.keys);
	uevent_free(&u); /* twice is harmless */
}

#include "unit-main.h"

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kernel_format),
	    cmocka_unit_test(test_odd_lines),
	    cmocka_unit_test(test_embedded_nul),
	    cmocka_unit_test(test_devnum),
	    cmocka_unit_test(test_many_keys),
	    T(test_read_at),
	    T(test_read_at_bounds),
	    T(test_read_at_hostile),
	    T(test_copy),
	    cmocka_unit_test(test_clear),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
