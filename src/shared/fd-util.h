/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * File descriptor helpers: open below a directory without following links,
 * bounded reads, exclusive creation, readlink, write all.
 */
#ifndef SYSDEV_SHARED_FD_UTIL_H
#define SYSDEV_SHARED_FD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * @fd moved to the lowest free descriptor above 2, for one kept long: a
 * program that closed its standard input must not find it there.  Returns
 * the new fd (@fd closed), or @fd itself when it is negative, above 2, or
 * cannot be moved.
 */
int fd_move_above_stdio(int fd);

/* openat(@dirfd, @name) as a directory, never following a link. fd or -errno. */
int open_dir_at(int dirfd, const char *name);

/*
 * Open directory @path below @dirfd one component at a time, never
 * following a link (a link on the way: -ENOTDIR); empty components are
 * skipped, "." and ".." refused (-EINVAL).  With @last non-NULL the final
 * component is not opened: *@last points at it (the fd is its directory).
 * Returns an fd or a negative errno.
 */
int open_below(int dirfd, const char *path, const char **last);

/*
 * Read a regular file @name in @dirfd into @buf (size @size), without
 * blocking or following a final symlink; NUL-terminate.  Returns the length,
 * -EFBIG when the file holds more than @size - 1 bytes, -EINVAL for a
 * non-regular file and -EACCES for one without any read bit, whoever reads
 * (checked only when @check_regular), or a negative errno.
 */
ssize_t read_file_at(int dirfd, const char *name, char *buf, size_t size, bool check_regular);

/*
 * Read the regular file @name of @dirfd whose lstat is @st: never a FIFO,
 * socket, device node or symlink (-EINVAL), never one without any read bit
 * (-EACCES, not opened), never blocking (O_NONBLOCK).  At most @bound bytes
 * go to @buf (which holds @bound + 1 bytes); *@truncated tells whether the
 * file held more.  Returns the length or a negative errno.
 */
ssize_t copy_read_file(int dirfd, const char *name, const struct stat *st, char *buf, size_t bound,
		       bool *truncated);

/*
 * All of @fd (read to its end, going on after EINTR) into a malloc'd,
 * NUL-terminated buffer: *@ret, *@ret_len bytes.  -EFBIG for more than @max
 * bytes, of which at most @max + 1 are read and held.  0 or a negative errno.
 */
int read_fd_alloc(int fd, size_t max, char **ret, size_t *ret_len);

/* Write all of @buf, going on after EINTR and short writes; 0 or negative errno. */
int write_all(int fd, const char *buf, size_t len);

/*
 * Create regular file @name in @dirfd, which must not exist (O_EXCL, no link
 * followed), with the @len bytes of @buf and mode @mode & 07777.
 */
int create_file_excl(int dirfd, const char *name, const char *buf, size_t len, mode_t mode);

/* readlinkat into a malloc'd, NUL-terminated string; negative errno on failure. */
int readlink_alloc(int dirfd, const char *name, char **target);
/*
 * readlinkat into @buf (@size bytes), NUL-terminated; a longer target goes
 * to a malloc'd string.  *@target is @buf or that string (the caller frees
 * it when it is not @buf).  0 or a negative errno.
 */
int readlink_buf(int dirfd, const char *name, char *buf, size_t size, char **target);

#endif
