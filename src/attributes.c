/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's attributes and attribute groups, and bounded reads of them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device-private.h"

void attributes_free(struct sysdev_device *dev)
{
	name_set_free(&dev->attrs);
	name_set_free(&dev->groups);
	dev->listed = false;
}

static int set_add(struct name_set *set, size_t *cap, const char *name)
{
	if (set->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		char **n = realloc(set->names, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		set->names = n;
		*cap = ncap;
	}
	set->names[set->n] = strdup(name);
	if (!set->names[set->n])
		return -ENOMEM;
	set->n++;
	return 0;
}

/* A subdirectory is a group unless it is a device or a class grouping dir. */
static bool is_group(struct sysdev_device *dev, int fd, const char *name)
{
	struct classify_facts f = {0};
	int cfd;

	if (dir_child_is_device(fd, name))
		return false;
	f.name_is_class = name_set_has(&dev->ctx->classes, name);
	f.parent_is_device = true;
	f.below_device = true;
	if (!classify_is_class_candidate(&f))
		return true;
	cfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0)
		return true;
	DIR *d = fdopendir(cfd);

	if (!d) {
		close(cfd);
		return true;
	}
	f.empty = true;
	for (struct dirent *de; (de = readdir(d));) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		f.empty = false;
		if (dir_child_is_device(cfd, de->d_name)) {
			f.has_device_child = true;
			break;
		}
	}
	closedir(d);
	return classify_decide(&f) == SYSDEV_KIND_ATTR_GROUP;
}

static int list(struct sysdev_device *dev)
{
	size_t acap = 0, gcap = 0;
	int fd, err = 0;
	DIR *d;

	if (dev->listed)
		return 0;
	if (device_fd(dev) < 0)
		return dev->fd;
	fd = openat(dev->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	for (struct dirent *de; (de = readdir(d));) {
		unsigned char type = de->d_type;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dev->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_REG && strcmp(de->d_name, "uevent") != 0)
			err = set_add(&dev->attrs, &acap, de->d_name);
		else if (type == DT_DIR && is_group(dev, dev->fd, de->d_name))
			err = set_add(&dev->groups, &gcap, de->d_name);
		if (err < 0)
			break;
	}
	closedir(d);
	if (err < 0) {
		attributes_free(dev);
		return err;
	}
	if (dev->attrs.n)
		qsort(dev->attrs.names, dev->attrs.n, sizeof(char *), cmp_strp);
	if (dev->groups.n)
		qsort(dev->groups.names, dev->groups.n, sizeof(char *), cmp_strp);
	dev->listed = true;
	return 0;
}

_public_ const char *sysdev_device_get_attribute_at(struct sysdev_device *dev, size_t i)
{
	if (!dev || list(dev) < 0 || i >= dev->attrs.n)
		return NULL;
	return dev->attrs.names[i];
}

_public_ const char *sysdev_device_get_group_at(struct sysdev_device *dev, size_t i)
{
	if (!dev || list(dev) < 0 || i >= dev->groups.n)
		return NULL;
	return dev->groups.names[i];
}

/* An attribute name: relative, no empty, "." or ".." component. */
static bool attr_name_ok(const char *name)
{
	const char *p = name;

	if (!*name || *name == '/')
		return false;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
		if (*p == '/')
			p++;
		if (*p == '\0' && p[-1] == '/')
			return false;
	}
	return true;
}

/*
 * Open the directory that holds attribute @name ("power/control" -> power/),
 * one component at a time without following links.  The caller closes it.
 */
int attribute_dir_at(int dirfd, const char *name, const char **base)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	const char *p = name;

	if (fd < 0)
		return -errno;
	for (;;) {
		size_t len = strcspn(p, "/");
		char comp[NAME_MAX + 1];
		int nfd;

		if (p[len] == '\0') {
			*base = p;
			return fd;
		}
		if (len > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return errno == ELOOP ? -ENOTDIR : -errno;
		fd = nfd;
		p += len + 1;
	}
}

ssize_t attribute_read_at(int dirfd, const char *name, char *buf, size_t size)
{
	const char *base;
	ssize_t len;
	int fd;

	if (dirfd < 0 || !name || !buf || size == 0 || !attr_name_ok(name))
		return -EINVAL;
	fd = attribute_dir_at(dirfd, name, &base);
	if (fd < 0)
		return fd;
	len = read_file_at(fd, base, buf, size, true);
	close(fd);
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return len;
}

_public_ ssize_t sysdev_device_read_attribute(struct sysdev_device *dev, const char *name,
					      char *buf, size_t size)
{
	if (!dev)
		return -EINVAL;
	if (device_fd(dev) < 0)
		return dev->fd;
	return attribute_read_at(dev->fd, name, buf, size);
}

_public_ ssize_t sysdev_node_read_attribute(const struct sysdev_node *node, const char *name,
					    char *buf, size_t size)
{
	if (!node)
		return -EINVAL;
	return attribute_read_at(sysdev_node_get_dirfd(node), name, buf, size);
}
