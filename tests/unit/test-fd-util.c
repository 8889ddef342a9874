/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/shared/fd-util.c on a hostile tree: links never followed, FIFOs never
 * waited on, sizes bounded, "." and ".." refused, exclusive creation.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fd-util.h"
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
	/* a FIFO read must never wait: a case that blocks dies here instead */
	alarm(20);
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

static void mkfile(int dirfd, const char *name, const void *data, size_t len, mode_t mode)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static ino_t ino_of(int dirfd, const char *name)
{
	struct stat st;

	assert_int_equal(fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW), 0);
	return st.st_ino;
}

static ino_t ino_fd(int fd)
{
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	return st.st_ino;
}

/* a symbolic link refused: ENOTDIR, or ELOOP where the kernel says that for O_NOFOLLOW */
static void assert_link_refused(int err)
{
	if (err != -ENOTDIR && err != -ELOOP)
		fail_msg("a link was not refused: %d", err);
}

static void test_open_dir_at(void **state)
{
	struct fx *f = *state;
	int fd;

	tree_dir(f->root, "cpu1/");
	tree_dir(f->root, "cpu10/");
	tree_file(f->root, "file", "x\n");
	tree_link(f->root, "link", "cpu1");
	tree_link(f->root, "loop", "loop");
	fd = open_dir_at(f->fd, "cpu1");
	assert_true(fd >= 0);
	/* cpu1 itself, not its longer neighbour */
	assert_int_equal(ino_fd(fd), ino_of(f->fd, "cpu1"));
	assert_int_not_equal(ino_fd(fd), ino_of(f->fd, "cpu10"));
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	assert_int_equal(open_dir_at(f->fd, "file"), -ENOTDIR);
	assert_int_equal(open_dir_at(f->fd, "missing"), -ENOENT);
	assert_link_refused(open_dir_at(f->fd, "link"));
	assert_link_refused(open_dir_at(f->fd, "loop"));
}

static void test_open_below(void **state)
{
	struct fx *f = *state;
	static const char *const paths[] = {"a/b/c", "/a/b/c", "a//b///c/", "//a/b/c//"};
	int cfd, fd;

	tree_dir(f->root, "a/b/c/");
	cfd = openat(f->fd, "a/b/c", O_RDONLY | O_DIRECTORY);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		fd = open_below(f->fd, paths[i], NULL);
		assert_true(fd >= 0);
		assert_int_equal(ino_fd(fd), ino_fd(cfd));
		close(fd);
	}
	close(cfd);
	/* no component: the directory itself */
	fd = open_below(f->fd, "", NULL);
	assert_true(fd >= 0);
	assert_int_equal(ino_fd(fd), ino_fd(f->fd));
	close(fd);
	fd = open_below(f->fd, "///", NULL);
	assert_int_equal(ino_fd(fd), ino_fd(f->fd));
	close(fd);
	assert_int_equal(open_below(f->fd, "a/missing/c", NULL), -ENOENT);
	tree_file(f->root, "a/file", "");
	assert_int_equal(open_below(f->fd, "a/file/c", NULL), -ENOTDIR);
}

/* "." and ".." are refused wherever they stand; names that only look like them are names. */
static void test_open_below_dots(void **state)
{
	struct fx *f = *state;
	static const char *const bad[] = {"..",	 ".",	"a/..",	 "a/../a",
					  "./a", "a/.", "a/./b", "../x"};
	int fd;

	tree_dir(f->root, "a/b/");
	tree_dir(f->root, "a/.../..b/");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (open_below(f->fd, bad[i], NULL) != -EINVAL)
			fail_msg("'%s' not refused", bad[i]);
	fd = open_below(f->fd, "a/.../..b", NULL);
	assert_true(fd >= 0);
	close(fd);
}

/* A link on the way is -ENOTDIR, whatever it points at: a directory, itself, outside. */
static void test_open_below_links(void **state)
{
	struct fx *f = *state;

	tree_dir(f->root, "a/b/c/");
	tree_link(f->root, "l", "a");
	tree_link(f->root, "a/lb", "b");
	tree_link(f->root, "loop", "loop");
	tree_link(f->root, "abs", "/");
	tree_link(f->root, "up", "..");
	assert_int_equal(open_below(f->fd, "l/b/c", NULL), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "a/lb", NULL), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "a/lb/c", NULL), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "loop", NULL), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "loop/x", NULL), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "abs/etc", NULL), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "up", NULL), -ENOTDIR);
}

/* With @last, the final component is named, not opened: a link or a missing name too. */
static void test_open_below_last(void **state)
{
	struct fx *f = *state;
	const char *path, *last;
	int fd;

	tree_dir(f->root, "a/b/");
	tree_link(f->root, "a/b/link", "/etc/passwd");
	path = "a/b/link";
	last = NULL;
	fd = open_below(f->fd, path, &last);
	assert_true(fd >= 0);
	assert_ptr_equal(last, path + 4);
	assert_int_equal(ino_fd(fd), ino_of(f->fd, "a/b"));
	close(fd);
	path = "/a/b/not-there";
	fd = open_below(f->fd, path, &last);
	assert_true(fd >= 0);
	assert_string_equal(last, "not-there");
	close(fd);
	/* one component: the directory given */
	path = "uevent";
	fd = open_below(f->fd, path, &last);
	assert_ptr_equal(last, path);
	assert_int_equal(ino_fd(fd), ino_fd(f->fd));
	close(fd);
	/* a trailing slash: the last component is a directory to open, *last left alone */
	last = NULL;
	fd = open_below(f->fd, "a/b/", &last);
	assert_true(fd >= 0);
	assert_null(last);
	assert_int_equal(ino_fd(fd), ino_of(f->fd, "a/b"));
	close(fd);
	fd = open_below(f->fd, "", &last);
	assert_null(last);
	close(fd);
	/* the components before the last are still walked without links */
	tree_link(f->root, "l", "a");
	assert_int_equal(open_below(f->fd, "l/b/x", &last), -ENOTDIR);
	assert_int_equal(open_below(f->fd, "a/../b/x", &last), -EINVAL);
}

static void test_open_below_long_name(void **state)
{
	struct fx *f = *state;
	char path[NAME_MAX + 16];
	int fd;

	memset(path, 'x', NAME_MAX + 1);
	path[NAME_MAX + 1] = '\0';
	assert_int_equal(open_below(f->fd, path, NULL), -ENAMETOOLONG);
	/* below a directory that is there */
	memcpy(path, "devices/", 8);
	memset(path + 8, 'x', NAME_MAX + 1);
	path[8 + NAME_MAX + 1] = '\0';
	assert_int_equal(open_below(f->fd, path, NULL), -ENAMETOOLONG);
	/* NAME_MAX itself is a name */
	path[8 + NAME_MAX] = '\0';
	tree_dir(f->root, path);
	fd = open_below(f->fd, path, NULL);
	assert_true(fd >= 0);
	close(fd);
}

static void test_read_file_at(void **state)
{
	struct fx *f = *state;
	char buf[64];

	mkfile(f->fd, "uevent", "MAJOR=8\nMINOR=0\n", 16, 0644);
	assert_int_equal(read_file_at(f->fd, "uevent", buf, sizeof(buf), true), 16);
	assert_string_equal(buf, "MAJOR=8\nMINOR=0\n");
	/* an empty file: 0, an empty string */
	mkfile(f->fd, "empty", "", 0, 0644);
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(read_file_at(f->fd, "empty", buf, sizeof(buf), true), 0);
	assert_int_equal(buf[0], '\0');
	/* bytes are bytes: a NUL inside is counted, and terminated after */
	mkfile(f->fd, "bin", "a\0b\xff\n", 5, 0444);
	assert_int_equal(read_file_at(f->fd, "bin", buf, sizeof(buf), true), 5);
	assert_memory_equal(buf, "a\0b\xff\n", 6);
	/* names with a newline and invalid UTF-8 are names */
	mkfile(f->fd, "n\nam\xff", "v", 1, 0644);
	assert_int_equal(read_file_at(f->fd, "n\nam\xff", buf, sizeof(buf), true), 1);
	assert_string_equal(buf, "v");
	assert_int_equal(read_file_at(f->fd, "missing", buf, sizeof(buf), true), -ENOENT);
	assert_int_equal(read_file_at(f->fd, "missing", buf, sizeof(buf), false), -ENOENT);
}

/* At most size - 1 bytes, and -EFBIG (with those bytes kept) when the file holds more. */
static void test_read_file_at_bounds(void **state)
{
	struct fx *f = *state;
	size_t huge = 1024 * 1024;
	char *data = malloc(huge), buf[16];

	for (size_t i = 0; i < huge; i++)
		data[i] = (char)('a' + i % 26);
	mkfile(f->fd, "huge", data, huge, 0644);
	mkfile(f->fd, "15", data, 15, 0644);
	mkfile(f->fd, "16", data, 16, 0644);
	mkfile(f->fd, "1", data, 1, 0644);
	mkfile(f->fd, "0", data, 0, 0644);
	assert_int_equal(read_file_at(f->fd, "15", buf, sizeof(buf), true), 15);
	assert_memory_equal(buf, data, 15);
	assert_int_equal(buf[15], '\0');
	assert_int_equal(read_file_at(f->fd, "16", buf, sizeof(buf), true), -EFBIG);
	assert_memory_equal(buf, data, 15);
	assert_int_equal(buf[15], '\0');
	assert_int_equal(read_file_at(f->fd, "huge", buf, sizeof(buf), false), -EFBIG);
	assert_memory_equal(buf, data, 15);
	assert_int_equal(buf[15], '\0');
	/* a buffer of one byte holds the empty file only */
	assert_int_equal(read_file_at(f->fd, "0", buf, 1, true), 0);
	assert_int_equal(read_file_at(f->fd, "1", buf, 1, true), -EFBIG);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(read_file_at(f->fd, "huge", buf, 1, false), -EFBIG);
	assert_int_equal(read_file_at(f->fd, "16", buf, 0, true), -EINVAL);
	free(data);
}

/* What is not a regular file is refused when asked, and never waited on when not. */
static void test_read_file_at_refuses(void **state)
{
	struct fx *f = *state;
	char buf[64];

	mkfile(f->fd, "file", "x\n", 2, 0644);
	assert_int_equal(mkfifoat(f->fd, "fifo", 0644), 0);
	assert_int_equal(symlinkat("file", f->fd, "link"), 0);
	assert_int_equal(symlinkat("loop", f->fd, "loop"), 0);
	assert_int_equal(symlinkat("/etc/hostname", f->fd, "abs"), 0);
	tree_dir(f->root, "dir/");
	assert_int_equal(read_file_at(f->fd, "fifo", buf, sizeof(buf), true), -EINVAL);
	assert_int_equal(read_file_at(f->fd, "link", buf, sizeof(buf), true), -EINVAL);
	assert_int_equal(read_file_at(f->fd, "loop", buf, sizeof(buf), true), -EINVAL);
	assert_int_equal(read_file_at(f->fd, "abs", buf, sizeof(buf), true), -EINVAL);
	assert_int_equal(read_file_at(f->fd, "dir", buf, sizeof(buf), true), -EINVAL);
	/* unchecked: a FIFO without a writer reads as empty at once, links are not followed */
	assert_int_equal(read_file_at(f->fd, "fifo", buf, sizeof(buf), false), 0);
	assert_int_equal(read_file_at(f->fd, "link", buf, sizeof(buf), false), -ELOOP);
	assert_int_equal(read_file_at(f->fd, "loop", buf, sizeof(buf), false), -ELOOP);
	assert_int_equal(read_file_at(f->fd, "abs", buf, sizeof(buf), false), -ELOOP);
	assert_int_equal(read_file_at(f->fd, "dir", buf, sizeof(buf), false), -EISDIR);
}

/* No read bit at all: -EACCES, as sysfs says even to root. */
static void test_read_file_at_write_only(void **state)
{
	struct fx *f = *state;
	char buf[64];

	mkfile(f->fd, "store", "secret", 6, 0200);
	mkfile(f->fd, "none", "secret", 6, 0);
	mkfile(f->fd, "other", "public", 6, 0204);
	assert_int_equal(read_file_at(f->fd, "store", buf, sizeof(buf), true), -EACCES);
	assert_int_equal(read_file_at(f->fd, "none", buf, sizeof(buf), true), -EACCES);
	assert_int_equal(read_file_at(f->fd, "other", buf, sizeof(buf), true), 6);
	assert_string_equal(buf, "public");
}

static ssize_t copy_read(int dirfd, const char *name, char *buf, size_t bound, bool *truncated)
{
	struct stat st;

	assert_int_equal(fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW), 0);
	return copy_read_file(dirfd, name, &st, buf, bound, truncated);
}

static void test_copy_read_file(void **state)
{
	struct fx *f = *state;
	char buf[9];
	bool truncated = true;

	mkfile(f->fd, "8", "01234567", 8, 0644);
	mkfile(f->fd, "9", "012345678", 9, 0644);
	mkfile(f->fd, "empty", "", 0, 0644);
	assert_int_equal(copy_read(f->fd, "8", buf, 8, &truncated), 8);
	assert_false(truncated);
	assert_memory_equal(buf, "01234567", 8);
	assert_int_equal(copy_read(f->fd, "9", buf, 8, &truncated), 8);
	assert_true(truncated);
	assert_memory_equal(buf, "01234567", 8);
	assert_int_equal(copy_read(f->fd, "empty", buf, 8, &truncated), 0);
	assert_false(truncated);
	/* a bound of 0: nothing kept, but whether there was something is known */
	assert_int_equal(copy_read(f->fd, "9", buf, 0, &truncated), 0);
	assert_true(truncated);
	assert_int_equal(copy_read(f->fd, "empty", buf, 0, &truncated), 0);
	assert_false(truncated);
}

static void test_copy_read_file_refuses(void **state)
{
	struct fx *f = *state;
	char buf[16];
	bool truncated;
	struct stat st;

	assert_int_equal(mkfifoat(f->fd, "fifo", 0644), 0);
	assert_int_equal(symlinkat("x", f->fd, "link"), 0);
	mkfile(f->fd, "wo", "secret", 6, 0200);
	assert_int_equal(copy_read(f->fd, "fifo", buf, 8, &truncated), -EINVAL);
	assert_int_equal(copy_read(f->fd, "link", buf, 8, &truncated), -EINVAL);
	assert_int_equal(copy_read(f->fd, "wo", buf, 8, &truncated), -EACCES);
	/* replaced after the lstat: a FIFO now, refused without waiting for a writer */
	mkfile(f->fd, "swap", "regular", 7, 0644);
	assert_int_equal(fstatat(f->fd, "swap", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(unlinkat(f->fd, "swap", 0), 0);
	assert_int_equal(mkfifoat(f->fd, "swap", 0644), 0);
	assert_int_equal(copy_read_file(f->fd, "swap", &st, buf, 8, &truncated), -EINVAL);
	/* a link now: not followed */
	assert_int_equal(unlinkat(f->fd, "swap", 0), 0);
	assert_int_equal(symlinkat("8", f->fd, "swap"), 0);
	mkfile(f->fd, "8", "01234567", 8, 0644);
	assert_int_equal(copy_read_file(f->fd, "swap", &st, buf, 8, &truncated), -ELOOP);
	/* gone */
	assert_int_equal(unlinkat(f->fd, "swap", 0), 0);
	assert_int_equal(copy_read_file(f->fd, "swap", &st, buf, 8, &truncated), -ENOENT);
}

static void test_write_all(void **state)
{
	struct fx *f = *state;
	size_t len = 3 * 1024 * 1024 + 7;
	char *data = malloc(len), *back = malloc(len);
	int fd, p[2];

	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7);
	fd = openat(f->fd, "out", O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_int_equal(write_all(fd, data, len), 0);
	assert_int_equal(pread(fd, back, len, 0), (ssize_t)len);
	assert_memory_equal(back, data, len);
	assert_int_equal(write_all(fd, data, 0), 0);
	close(fd);
	assert_int_equal(write_all(fd, data, 1), -EBADF);
	/* a pipe nobody reads: -EPIPE, once SIGPIPE does not end the process */
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(write_all(p[1], "x", 1), -EPIPE);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
	free(data);
	free(back);
}

/* read_fd_alloc() of a file of @len bytes (byte i is i * 7) with limit @max. */
static int read_alloc_of(struct fx *f, size_t len, size_t max, char **buf, size_t *got)
{
	char *data = malloc(len + 1);
	int fd, err;

	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7);
	fd = openat(f->fd, "in", O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, data, len), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	err = read_fd_alloc(fd, max, buf, got);
	if (err == 0) {
		assert_int_equal(*got, len);
		assert_memory_equal(*buf, data, len);
		assert_int_equal((*buf)[len], '\0');
	}
	close(fd);
	free(data);
	return err;
}

/* All of a file up to the limit, NUL-terminated; one byte past it is -EFBIG, nothing kept. */
static void test_read_fd_alloc(void **state)
{
	struct fx *f = *state;
	size_t sizes[] = {0, 1, 4095, 4096, 4097, 100000, 1u << 20};
	char *buf;
	size_t got;
	int p[2];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(read_alloc_of(f, sizes[i], 1u << 20, &buf, &got), 0);
		free(buf);
		/* the limit itself is kept; one byte more is too big */
		assert_int_equal(read_alloc_of(f, sizes[i], sizes[i], &buf, &got), 0);
		free(buf);
		if (sizes[i] > 0) {
			assert_int_equal(read_alloc_of(f, sizes[i], sizes[i] - 1, &buf, &got),
					 -EFBIG);
			assert_null(buf);
			assert_int_equal(got, 0);
		}
	}
	/* a pipe: read to its end, in pieces */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write_all(p[1], "abc\ndef", 7), 0);
	close(p[1]);
	assert_int_equal(read_fd_alloc(p[0], SIZE_MAX, &buf, &got), 0); /* no limit: no wrap */
	assert_int_equal(got, 7);
	assert_string_equal(buf, "abc\ndef");
	free(buf);
	close(p[0]);
	assert_int_equal(read_fd_alloc(-1, 100, &buf, &got), -EBADF);
	assert_null(buf);
}

static mode_t mode_of(int dirfd, const char *name)
{
	struct stat st;

	assert_int_equal(fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	return st.st_mode & 07777;
}

static void test_create_file_excl(void **state)
{
	struct fx *f = *state;
	char buf[32];
	mode_t old = umask(077);

	/* the mode given, whatever the umask; only its permission bits */
	assert_int_equal(create_file_excl(f->fd, "a", "hello\n", 6, 0644), 0);
	assert_int_equal(mode_of(f->fd, "a"), 0644);
	assert_int_equal(read_file_at(f->fd, "a", buf, sizeof(buf), true), 6);
	assert_string_equal(buf, "hello\n");
	assert_int_equal(create_file_excl(f->fd, "b", "", 0, S_IFREG | 0440), 0);
	assert_int_equal(mode_of(f->fd, "b"), 0440);
	assert_int_equal(create_file_excl(f->fd, "c", "x", 1, 0), 0);
	assert_int_equal(mode_of(f->fd, "c"), 0);
	umask(old);
	/* there already: refused, the old one left as it was */
	assert_int_equal(create_file_excl(f->fd, "a", "other", 5, 0600), -EEXIST);
	assert_int_equal(mode_of(f->fd, "a"), 0644);
	assert_int_equal(read_file_at(f->fd, "a", buf, sizeof(buf), true), 6);
	assert_string_equal(buf, "hello\n");
}

/* A link in the way is never followed: neither its target created nor written. */
static void test_create_file_excl_links(void **state)
{
	struct fx *f = *state;
	char buf[32];
	struct stat st;

	assert_int_equal(symlinkat("target", f->fd, "dangling"), 0);
	assert_int_equal(create_file_excl(f->fd, "dangling", "x", 1, 0644), -EEXIST);
	assert_int_equal(fstatat(f->fd, "target", &st, AT_SYMLINK_NOFOLLOW), -1);
	assert_int_equal(errno, ENOENT);
	mkfile(f->fd, "victim", "keep", 4, 0644);
	assert_int_equal(symlinkat("victim", f->fd, "tovictim"), 0);
	assert_int_equal(create_file_excl(f->fd, "tovictim", "overwritten", 11, 0644), -EEXIST);
	assert_int_equal(read_file_at(f->fd, "victim", buf, sizeof(buf), true), 4);
	assert_string_equal(buf, "keep");
	assert_int_equal(create_file_excl(f->fd, "no/such/dir", "x", 1, 0644), -ENOENT);
}

static void test_readlink_alloc(void **state)
{
	struct fx *f = *state;
	char long_target[4000], *t = NULL;

	assert_int_equal(symlinkat("../../bus/pci", f->fd, "subsystem"), 0);
	assert_int_equal(readlink_alloc(f->fd, "subsystem", &t), 0);
	assert_string_equal(t, "../../bus/pci");
	free(t);
	/* absolute targets and odd bytes are given back as they are */
	assert_int_equal(symlinkat("/sys/class/net", f->fd, "abs"), 0);
	assert_int_equal(readlink_alloc(f->fd, "abs", &t), 0);
	assert_string_equal(t, "/sys/class/net");
	free(t);
	assert_int_equal(symlinkat("a\nb\xff/..", f->fd, "odd"), 0);
	assert_int_equal(readlink_alloc(f->fd, "odd", &t), 0);
	assert_string_equal(t, "a\nb\xff/..");
	free(t);
	/* longer than the first guess (256): grown until it fits */
	for (size_t len = 255; len <= 257; len++) {
		char name[16];

		memset(long_target, 'x', len);
		long_target[len] = '\0';
		snprintf(name, sizeof(name), "l%zu", len);
		assert_int_equal(symlinkat(long_target, f->fd, name), 0);
		assert_int_equal(readlink_alloc(f->fd, name, &t), 0);
		assert_int_equal(strlen(t), len);
		assert_string_equal(t, long_target);
		free(t);
	}
	memset(long_target, 'y', sizeof(long_target) - 1);
	long_target[sizeof(long_target) - 1] = '\0';
	assert_int_equal(symlinkat(long_target, f->fd, "long"), 0);
	assert_int_equal(readlink_alloc(f->fd, "long", &t), 0);
	assert_string_equal(t, long_target);
	free(t);
	mkfile(f->fd, "file", "", 0, 0644);
	t = NULL;
	assert_int_equal(readlink_alloc(f->fd, "file", &t), -EINVAL);
	assert_int_equal(readlink_alloc(f->fd, "missing", &t), -ENOENT);
	assert_null(t);
}

static void test_readlink_buf(void **state)
{
	struct fx *f = *state;
	char buf[8], *t = NULL;

	assert_int_equal(symlinkat("1234567", f->fd, "fits"), 0);
	assert_int_equal(symlinkat("12345678", f->fd, "full"), 0);
	assert_int_equal(symlinkat("../../../devices/x", f->fd, "long"), 0);
	assert_int_equal(readlink_buf(f->fd, "fits", buf, sizeof(buf), &t), 0);
	assert_ptr_equal(t, buf);
	assert_string_equal(buf, "1234567");
	/* as long as the buffer: no room for the NUL, so a string of its own */
	assert_int_equal(readlink_buf(f->fd, "full", buf, sizeof(buf), &t), 0);
	assert_ptr_not_equal(t, buf);
	assert_string_equal(t, "12345678");
	free(t);
	assert_int_equal(readlink_buf(f->fd, "long", buf, sizeof(buf), &t), 0);
	assert_ptr_not_equal(t, buf);
	assert_string_equal(t, "../../../devices/x");
	free(t);
	assert_int_equal(readlink_buf(f->fd, "missing", buf, sizeof(buf), &t), -ENOENT);
	tree_dir(f->root, "dir/");
	assert_int_equal(readlink_buf(f->fd, "dir", buf, sizeof(buf), &t), -EINVAL);
}

#include "unit-main.h"

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    T(test_open_dir_at),
	    T(test_open_below),
	    T(test_open_below_dots),
	    T(test_open_below_links),
	    T(test_open_below_last),
	    T(test_open_below_long_name),
	    T(test_read_file_at),
	    T(test_read_file_at_bounds),
	    T(test_read_file_at_refuses),
	    T(test_read_file_at_write_only),
	    T(test_copy_read_file),
	    T(test_copy_read_file_refuses),
	    T(test_write_all),
	    T(test_read_fd_alloc),
	    T(test_create_file_excl),
	    T(test_create_file_excl_links),
	    T(test_readlink_alloc),
	    T(test_readlink_buf),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
