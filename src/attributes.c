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
#include "rules.h"

void attributes_free(struct sysdev_device *dev)
{
	name_set_free(&dev->attrs);
	name_set_free(&dev->groups);
	dev->listed = false;
}

static int set_add(struct name_set *set, size_t *cap, const char *name)
{
	if (GROW_MIN(set->names, *cap, set->n + 1, 32) < 0)
		return -ENOMEM;
	set->names[set->n] = strdup(name);
	if (!set->names[set->n])
		return -ENOMEM;
	set->n++;
	return 0;
}

/* A subdirectory is a group unless it is a device or a class grouping dir. */
static bool is_group(struct sysdev_device *dev, int fd, const char *name)
{
	struct dir_probe d = {
	    .name = name,
	    .place = {.parent_is_device = true, .below_device = true},
	    .parent_fd = fd,
	    .fd = -1,
	};
	struct dir_facts f;

	/* one that cannot be listed stays a group, as it was before it became unreadable */
	return rules_gather(dev->ctx, &d, &f) < 0 || rules_decide(&f) == SYSDEV_KIND_ATTR_GROUP;
}

static int list(struct sysdev_device *dev)
{
	struct dir_list l = {0};
	size_t acap = 0, gcap = 0;
	int err;

	if (dev->listed)
		return 0;
	err = device_fd(dev);
	if (err < 0)
		return err;
	err = dir_list_read(&l, dev->fd, DIR_LIST_REOPEN);
	for (size_t i = 0; i < l.n && err == 0; i++) {
		const char *name = l.v[i].name;
		unsigned char type = dir_entry_type(dev->fd, &l.v[i]);

		if (type == DT_REG && strcmp(name, "uevent") != 0)
			err = set_add(&dev->attrs, &acap, name);
		else if (type == DT_DIR && is_group(dev, dev->fd, name))
			err = set_add(&dev->groups, &gcap, name);
	}
	dir_list_free(&l);
	if (err < 0) {
		attributes_free(dev);
		return err;
	}
	dev->listed = true;
	return 0;
}

/* Name @i of @set, listing the device first: 0, -ENOENT past the end, or why the listing failed. */
static int name_at(struct sysdev_device *dev, const struct name_set *set, size_t i,
		   const char **ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	*ret = NULL;
	err = list(dev);
	if (err < 0)
		return err == -ENOENT ? -ENODEV : err; /* the directory is gone, not the end */
	if (i >= set->n)
		return -ENOENT;
	*ret = set->names[i];
	return 0;
}

_public_ int sysdev_device_get_attribute_at(struct sysdev_device *dev, size_t i, const char **ret)
{
	return name_at(dev, dev ? &dev->attrs : NULL, i, ret);
}

_public_ int sysdev_device_get_group_at(struct sysdev_device *dev, size_t i, const char **ret)
{
	return name_at(dev, dev ? &dev->groups : NULL, i, ret);
}

/* An attribute name: relative, no empty, "." or ".." component. */
static bool attr_name_ok(const char *name)
{
	const char *p = name;

	if (!*name || *name == '/')
		return false;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
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
	return open_below(dirfd, name, base);
}

/*
 * The links libudev reads as values ("driver", "subsystem", "module"): the
 * last component of the link's text, never what it points to.  -EINVAL
 * when @name is not a link there (then it is read as a file).
 */
static ssize_t read_link_name(int dirfd, const char *name, char *buf, size_t size)
{
	const char *base;
	char *target;
	size_t blen;
	int err;

	if (strcmp(name, "driver") != 0 && strcmp(name, "subsystem") != 0 &&
	    strcmp(name, "module") != 0)
		return -EINVAL;
	err = readlink_alloc(dirfd, name, &target);
	if (err < 0)
		return err == -ENOENT ? -EINVAL : err;
	base = link_basename(target, &blen);
	if (!blen) {
		err = -ENOENT; /* a link to "/" or "": no name */
	} else if (blen > size - 1) {
		err = -EFBIG;
	} else {
		memcpy(buf, base, blen);
		buf[blen] = '\0';
	}
	free(target);
	return err < 0 ? err : (ssize_t)blen;
}

ssize_t attribute_read_at(int dirfd, const char *name, char *buf, size_t size)
{
	const char *base;
	ssize_t len;
	int fd;

	if (dirfd < 0 || !name || !buf || size == 0 || !attr_name_ok(name))
		return -EINVAL;
	len = read_link_name(dirfd, name, buf, size);
	if (len != -EINVAL)
		return len;
	if (!strchr(name, '/')) {
		/* a file of the directory itself: no descriptor of its own to open */
		len = read_file_at(dirfd, name, buf, size, true);
	} else {
		fd = attribute_dir_at(dirfd, name, &base);
		if (fd < 0)
			return fd;
		len = read_file_at(fd, base, buf, size, true);
		close(fd);
	}
	if (len == -EINVAL)
		return -EBADFD; /* a directory, FIFO, device node or other link: no attribute file
				 */
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return len;
}

_public_ ssize_t sysdev_device_read_attribute(struct sysdev_device *dev, const char *name,
					      char *buf, size_t size)
{
	int fd;

	assert_return(dev, -EINVAL);
	assert_return(name, -EINVAL);
	assert_return(buf, -EINVAL);
	assert_return(size > 0, -EINVAL);
	fd = device_fd(dev);
	if (fd < 0)
		return fd;
	return attribute_read_at(fd, name, buf, size);
}
