/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd-util.h"
#include "path-util.h"

int fd_move_above_stdio(int fd)
{
	int moved;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (moved < 0)
		return fd;
	close(fd);
	return moved;
}

int open_dir_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int open_below(int dirfd, const char *path, const char **last)
{
	const char *p = path, *c;
	size_t clen;
	int fd;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((c = path_next_component(&p, &clen))) {
		char comp[NAME_MAX + 1];
		int nfd;

		if (last && *p == '\0') {
			*last = c;
			break;
		}
		if (clen > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, c, clen);
		comp[clen] = '\0';
		if (strcmp(comp, "..") == 0 || strcmp(comp, ".") == 0) {
			close(fd);
			return -EINVAL;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* a directory on the way needs only to be searched, not listed */
		if (nfd < 0 && errno == EACCES && (last || p[strspn(p, "/")]))
			nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return errno == ELOOP ? -ENOTDIR : -errno;
		fd = nfd;
	}
	return fd;
}

/* 0 when @fd is a regular file, -EINVAL when not, or the errno of fstat. */
static int fd_is_regular(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

ssize_t read_file_at(int dirfd, const char *name, char *buf, size_t size, bool check_regular)
{
	size_t len = 0;
	int fd, err;

	if (size == 0)
		return -EINVAL;
	if (check_regular) {
		struct stat st;

		/* before the open: opening a device node can have effects of its own */
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (!S_ISREG(st.st_mode))
			return -EINVAL;
		/* sysfs refuses even root a file without read bits (no read method);
		 * a copy of the tree must say the same, not read it as empty */
		if (!(st.st_mode & (S_IRUSR | S_IRGRP | S_IROTH)))
			return -EACCES;
	}
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* and after it: it may have been replaced in between */
	if (check_regular && (err = fd_is_regular(fd)) < 0)
		goto out;
	/*
	 * One read is the whole file on sysfs; a short read on a regular file
	 * is its end, which saves the final zero-length read.
	 */
	for (;;) {
		ssize_t r;

		/* with @size 1 there is no room at all: only the probe below says whether
		 * the file is empty (a read of 0 bytes returns 0 whatever the file holds) */
		if (len < size - 1) {
			r = read(fd, buf + len, size - 1 - len);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				err = -errno;
				goto out;
			}
			len += (size_t)r;
			if (r == 0 || len < size - 1)
				break;
		}
		/* the buffer is full: is there more? */
		char extra;

		r = read(fd, &extra, 1);
		if (r > 0) {
			/* the first size - 1 bytes stay, for a caller that shows a part */
			buf[len] = '\0';
			err = -EFBIG;
			goto out;
		}
		break;
	}
	buf[len] = '\0';
	err = (int)len;
out:
	close(fd);
	return err;
}

ssize_t copy_read_file(int dirfd, const char *name, const struct stat *st, char *buf, size_t bound,
		       bool *truncated)
{
	size_t len = 0;
	ssize_t ret;
	int fd;

	*truncated = false;
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	if (!(st->st_mode & (S_IRUSR | S_IRGRP | S_IROTH)))
		return -EACCES; /* write-only: never opened for reading */
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* it may have been replaced since the lstat: check again */
	if ((ret = fd_is_regular(fd)) < 0)
		goto out;
	/* large reads only: sysfs refuses odd sizes on register windows */
	while (len <= bound) {
		ssize_t r = read(fd, buf + len, bound + 1 - len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	if (len > bound) {
		*truncated = true;
		len = bound;
	}
	ret = (ssize_t)len;
out:
	close(fd);
	return ret;
}

int read_fd_alloc(int fd, size_t max, char **ret, size_t *ret_len)
{
	size_t len = 0, cap;
	char *buf;

	/* no file is bigger than memory: a limit past it must not wrap max + 1 */
	if (max > SIZE_MAX / 4)
		max = SIZE_MAX / 4;
	cap = max < 4096 ? max + 1 : 4096;
	buf = malloc(cap + 1);

	*ret = NULL;
	*ret_len = 0;
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (len == cap) {
			char *nbuf;

			/* max + 1 bytes read: the file is too big, and no more is read */
			if (cap > max) {
				free(buf);
				return -EFBIG;
			}
			cap = cap > max / 2 ? max + 1 : cap * 2;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	return 0;
}

int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

int create_file_excl(int dirfd, const char *name, const char *buf, size_t len, mode_t mode)
{
	int fd, err;

	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
		    0600);
	if (fd < 0)
		return -errno;
	err = write_all(fd, buf, len);
	if (err == 0 && fchmod(fd, mode & 07777) < 0)
		err = -errno;
	if (close(fd) < 0 && err == 0)
		err = -errno;
	return err;
}

int readlink_alloc(int dirfd, const char *name, char **target)
{
	size_t size = 256;

	for (;;) {
		char *buf = malloc(size);
		ssize_t len;

		if (!buf)
			return -ENOMEM;
		len = readlinkat(dirfd, name, buf, size);
		if (len < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if ((size_t)len < size) {
			buf[len] = '\0';
			*target = buf;
			return 0;
		}
		free(buf);
		if (size >= 1024 * 1024)
			return -ENAMETOOLONG;
		size *= 4;
	}
}

int readlink_buf(int dirfd, const char *name, char *buf, size_t size, char **target)
{
	ssize_t len = readlinkat(dirfd, name, buf, size);

	if (len < 0)
		return -errno;
	if ((size_t)len >= size)
		return readlink_alloc(dirfd, name, target);
	buf[len] = '\0';
	*target = buf;
	return 0;
}
