/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers shared by the library: name sets, links, bounded reads. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"

/* The next '/'-separated component at *@p (empty ones skipped), or NULL at the end. */
static const char *next_component(const char **p, size_t *len)
{
	const char *c;

	while (**p == '/')
		(*p)++;
	if (!**p)
		return NULL;
	c = *p;
	while (**p && **p != '/')
		(*p)++;
	*len = (size_t)(*p - c);
	return c;
}

char *strdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Entries of directory @path (relative to @dirfd), dotfiles excluded as a shell glob does. */
int name_set_load(int dirfd, const char *path, struct name_set *set)
{
	size_t cap = 0;
	int fd, err = 0;
	DIR *d;

	set->names = NULL;
	set->n = 0;
	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		err = -errno;
		close(fd);
		return err;
	}
	for (;;) {
		struct dirent *de;

		errno = 0;
		de = readdir(d);
		if (!de) {
			err = -errno;
			break;
		}
		if (de->d_name[0] == '.')
			continue;
		if (set->n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **nn = realloc(set->names, ncap * sizeof(*nn));

			if (!nn) {
				err = -ENOMEM;
				break;
			}
			set->names = nn;
			cap = ncap;
		}
		set->names[set->n] = strdup(de->d_name);
		if (!set->names[set->n]) {
			err = -ENOMEM;
			break;
		}
		set->n++;
	}
	closedir(d);
	if (err < 0) {
		name_set_free(set);
		return err;
	}
	if (set->n)
		qsort(set->names, set->n, sizeof(*set->names), cmp_strp);
	return 0;
}

bool name_set_has(const struct name_set *set, const char *name)
{
	return set->n && bsearch(&name, set->names, set->n, sizeof(*set->names), cmp_strp);
}

void name_set_free(struct name_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->names[i]);
	free(set->names);
	set->names = NULL;
	set->n = 0;
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

const char *link_basename(const char *target, size_t *len)
{
	size_t end = strlen(target), start;

	while (end > 0 && target[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && target[start - 1] != '/')
		start--;
	*len = end - start;
	return target + start;
}

char *path_normalize(const char *path)
{
	size_t len = strlen(path);
	char *out = malloc(len + 2);
	size_t o = 0, clen;
	const char *p = path, *c;

	if (!out)
		return NULL;
	while ((c = next_component(&p, &clen))) {
		if (clen == 1 && c[0] == '.')
			continue;
		if (clen == 2 && c[0] == '.' && c[1] == '.') {
			if (o == 0) {
				free(out);
				return NULL;
			}
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--; /* drop the slash too */
			continue;
		}
		out[o++] = '/';
		memcpy(out + o, c, clen);
		o += clen;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

char *resolve_link_target(const char *root, const char *dir_devpath, const char *target)
{
	char *joined, *norm;
	size_t rlen;

	if (target[0] == '/') {
		/* Absolute: only meaningful when it points into this root. */
		rlen = strlen(root);
		if (strcmp(root, "/") == 0)
			return path_normalize(target);
		if (strncmp(target, root, rlen) != 0 || (target[rlen] != '/' && target[rlen] != '\0'))
			return NULL;
		return path_normalize(target + rlen);
	}
	joined = malloc(strlen(dir_devpath) + strlen(target) + 2);
	if (!joined)
		return NULL;
	strcpy(joined, dir_devpath);
	strcat(joined, "/");
	strcat(joined, target);
	norm = path_normalize(joined);
	free(joined);
	return norm;
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
	}
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (check_regular) {
		struct stat st;

		/* and after it: it may have been replaced in between */
		if (fstat(fd, &st) < 0) {
			err = -errno;
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			err = -EINVAL;
			goto out;
		}
	}
	/*
	 * One read is the whole file on sysfs; a short read on a regular file
	 * is its end, which saves the final zero-length read.
	 */
	for (;;) {
		ssize_t r = read(fd, buf + len, size - 1 - len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		len += (size_t)r;
		if (r == 0 || len < size - 1)
			break;
		/* the buffer is full: is there more? */
		char extra;

		r = read(fd, &extra, 1);
		if (r > 0) {
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

int open_devpath(const struct sysdev *ctx, const char *devpath)
{
	const char *p = devpath, *c;
	size_t clen;
	int fd;

	fd = openat(ctx->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((c = next_component(&p, &clen))) {
		char comp[NAME_MAX + 1];
		int nfd;

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
		close(fd);
		if (nfd < 0)
			return errno == ELOOP ? -ENOTDIR : -errno;
		fd = nfd;
	}
	return fd;
}

enum sysdev_placement placement_of(const char *devpath)
{
	if (strncmp(devpath, "/devices/virtual/", 17) == 0)
		return SYSDEV_PLACEMENT_VIRTUAL;
	if (strncmp(devpath, "/devices/system/", 16) == 0)
		return SYSDEV_PLACEMENT_SYSTEM;
	return SYSDEV_PLACEMENT_DEVICES;
}

/* A devpath: "/devices" or below it, no ".", ".." or empty components. */
bool devpath_is_valid(const char *devpath)
{
	const char *p;

	if (strncmp(devpath, "/devices", 8) != 0 || (devpath[8] != '/' && devpath[8] != '\0'))
		return false;
	for (p = devpath; *p; p++) {
		if (*p != '/')
			continue;
		if (p[1] == '/' || p[1] == '\0')
			return false;
		if (p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			return false;
		if (p[1] == '.' && p[2] == '.' && (p[3] == '/' || p[3] == '\0'))
			return false;
	}
	return true;
}
