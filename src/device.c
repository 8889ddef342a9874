/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device objects: one device looked up by any of the forms of sysdev-tree(1)'s DEVICES. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libsysdev-private.h"
#include "device-private.h"

static char *link_name_at(int fd, const char *name)
{
	char *target, *out;
	const char *base;
	size_t blen;

	if (readlink_alloc(fd, name, &target) < 0)
		return NULL;
	base = link_basename(target, &blen);
	out = blen ? strndup(base, blen) : NULL;
	free(target);
	return out;
}

_public_ int sysdev_device_new_from_devpath(struct sysdev *ctx, const char *devpath,
					    struct sysdev_device **out)
{
	struct sysdev_device *dev;
	struct ancestry a;
	struct stat st;
	char *target = NULL;
	int err;

	if (!ctx || !devpath || !out)
		return -EINVAL;
	*out = NULL;
	if (!devpath_is_valid(devpath))
		return -EINVAL;
	err = ancestry_get(ctx, devpath, &a);
	if (err == -ENOTDIR) {
		/*
		 * A file or link where a directory should be: there is
		 * something at @devpath but no device (a path into an
		 * attribute, "/devices/.../uevent/"), or nothing at all.
		 */
		err = fstatat(ctx->root_fd, devpath + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -ENODEV
											 : -ENOENT;
	}
	if (err < 0)
		return err;
	if (fstatat(a.fd, "uevent", &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
	    strcmp(devpath, "/devices") == 0) {
		ancestry_free(&a);
		return -ENODEV;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		ancestry_free(&a);
		return -ENOMEM;
	}
	dev->refcount = 1;
	dev->ctx = sysdev_ref(ctx);
	dev->fd = a.fd;
	a.fd = -1;
	dev->devpath = strdup(devpath);
	dev->parent_devpath = a.parent_devpath;
	a.parent_devpath = NULL;
	if (a.parent_is_class_dir) {
		dev->class_dir = a.parent_dirname;
		a.parent_dirname = NULL;
	}
	ancestry_free(&a);
	if (!dev->devpath) {
		sysdev_device_unref(dev);
		return -ENOMEM;
	}
	dev->name = strrchr(dev->devpath, '/') + 1;
	dev->subsystem = link_name_at(dev->fd, "subsystem");
	if (dev->subsystem && readlink_alloc(dev->fd, "subsystem", &target) == 0) {
		char *res = resolve_link_target(ctx->root, dev->devpath, target);

		if (res && strncmp(res, "/bus/", 5) == 0)
			dev->subsystem_kind = SYSDEV_SUBSYSTEM_BUS;
		else if (res && strncmp(res, "/class/", 7) == 0)
			dev->subsystem_kind = SYSDEV_SUBSYSTEM_CLASS;
		free(res);
		free(target);
	}
	dev->driver = link_name_at(dev->fd, "driver");
	dev->has_dev = fstatat(dev->fd, "dev", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	err = uevent_read_at(&dev->uevent, dev->fd);
	if (err == -ENOMEM) {
		sysdev_device_unref(dev);
		return err;
	}
	*out = dev;
	return 0;
}

/* /dev/NAME: by the device number on the live system, else by DEVNAME. */
static int lookup_devnode(struct sysdev *ctx, const char *node, char **devpath)
{
	static const char *const dirs[] = {"dev/block", "dev/char"};
	struct stat st;
	char link[64];
	int err;

	if (ctx->live && stat(node, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))) {
		snprintf(link, sizeof(link), "/dev/%s/%u:%u", S_ISBLK(st.st_mode) ? "block" : "char",
			 major(st.st_rdev), minor(st.st_rdev));
		err = resolve_in_root(ctx, link, devpath);
		if (err == 0)
			return 0;
	}
	/* A captured tree: match DEVNAME in the uevent of each S/dev entry. */
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct name_set set;

		if (name_set_load(ctx->root_fd, dirs[i], &set) < 0)
			continue;
		for (size_t j = 0; j < set.n; j++) {
			char *path, *res = NULL;
			struct uevent u = {0};
			const char *dn;
			int fd;

			if (asprintf(&path, "/%s/%s", dirs[i], set.names[j]) < 0)
				break;
			err = resolve_in_root(ctx, path, &res);
			free(path);
			if (err < 0 || !devpath_is_valid(res)) {
				free(res);
				continue;
			}
			fd = open_devpath(ctx, res);
			/* a hand-made tree: only a regular uevent is read (no FIFO, no device node) */
			if (fd >= 0 && fstatat(fd, "uevent", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode) && uevent_read_at(&u, fd) == 0) {
				dn = uevent_get(&u, "DEVNAME");
				if (dn && strcmp(dn, node + 5) == 0) {
					uevent_free(&u);
					close(fd);
					name_set_free(&set);
					*devpath = res;
					return 0;
				}
			}
			uevent_free(&u);
			if (fd >= 0)
				close(fd);
			free(res);
		}
		name_set_free(&set);
	}
	return -ENOENT;
}

_public_ int sysdev_device_new(struct sysdev *ctx, const char *spec, struct sysdev_device **out)
{
	char *devpath = NULL;
	const char *colon;
	int err;

	if (!ctx || !spec || !out)
		return -EINVAL;
	*out = NULL;
	if (!*spec || strlen(spec) > 64 * 1024)
		return -EINVAL;
	if (strncmp(spec, "/dev/", 5) == 0 && spec[5]) {
		err = lookup_devnode(ctx, spec, &devpath);
	} else if (spec[0] == '/') {
		err = sysdev_resolve_path(ctx, spec, &devpath);
	} else if ((colon = strchr(spec, ':')) && colon != spec && colon[1]) {
		/* SUBSYSTEM:NAME, through S/class or S/bus/.../devices */
		char *sub = strndup(spec, (size_t)(colon - spec)), *path = NULL;
		const char *name = colon + 1;

		if (!sub)
			return -ENOMEM;
		if (strchr(sub, '/') || strchr(name, '/') || strcmp(name, "..") == 0 ||
		    strcmp(name, ".") == 0 || strcmp(sub, "..") == 0 || strcmp(sub, ".") == 0) {
			free(sub);
			return -EINVAL;
		}
		err = -ENOENT;
		if (asprintf(&path, "/class/%s/%s", sub, name) >= 0) {
			err = resolve_in_root(ctx, path, &devpath);
			free(path);
		}
		if (err < 0 && asprintf(&path, "/bus/%s/devices/%s", sub, name) >= 0) {
			err = resolve_in_root(ctx, path, &devpath);
			free(path);
		}
		free(sub);
	} else {
		return -EINVAL;
	}
	if (err < 0)
		return err == -ENOTDIR ? -ENOENT : err;
	if (!devpath_is_valid(devpath)) {
		struct stat st;

		err = fstatat(ctx->root_fd, devpath + 1, &st, 0) == 0 ? -ENODEV : -ENOENT;
		free(devpath);
		return err;
	}
	err = sysdev_device_new_from_devpath(ctx, devpath, out);
	free(devpath);
	return err;
}

_public_ struct sysdev_device *sysdev_device_ref(struct sysdev_device *dev)
{
	if (dev)
		dev->refcount++;
	return dev;
}

_public_ struct sysdev_device *sysdev_device_unref(struct sysdev_device *dev)
{
	if (!dev || --dev->refcount > 0)
		return NULL;
	if (dev->fd >= 0)
		close(dev->fd);
	free(dev->devpath);
	free(dev->parent_devpath);
	free(dev->class_dir);
	free(dev->subsystem);
	free(dev->driver);
	uevent_free(&dev->uevent);
	attributes_free(dev);
	free(dev->link_value);
	sysdev_unref(dev->ctx);
	free(dev);
	return NULL;
}

_public_ const char *sysdev_device_get_devpath(const struct sysdev_device *dev)
{
	return dev ? dev->devpath : NULL;
}

_public_ const char *sysdev_device_get_name(const struct sysdev_device *dev)
{
	return dev ? dev->name : NULL;
}

_public_ const char *sysdev_device_get_subsystem(const struct sysdev_device *dev)
{
	return dev ? dev->subsystem : NULL;
}

_public_ enum sysdev_subsystem_kind sysdev_device_get_subsystem_kind(const struct sysdev_device *dev)
{
	return dev && dev->subsystem ? dev->subsystem_kind : SYSDEV_SUBSYSTEM_NONE;
}

_public_ const char *sysdev_device_get_driver(const struct sysdev_device *dev)
{
	return dev ? dev->driver : NULL;
}

_public_ const char *sysdev_device_get_parent_devpath(const struct sysdev_device *dev)
{
	return dev ? dev->parent_devpath : NULL;
}

_public_ const char *sysdev_device_get_class_dir(const struct sysdev_device *dev)
{
	return dev ? dev->class_dir : NULL;
}

_public_ enum sysdev_placement sysdev_device_get_placement(const struct sysdev_device *dev)
{
	return dev ? placement_of(dev->devpath) : SYSDEV_PLACEMENT_DEVICES;
}

_public_ const char *sysdev_device_get_devnum(const struct sysdev_device *dev)
{
	return dev && dev->has_dev && dev->uevent.devnum[0] ? dev->uevent.devnum : NULL;
}

_public_ const char *sysdev_device_get_property(const struct sysdev_device *dev, const char *key)
{
	return dev && key ? uevent_get(&dev->uevent, key) : NULL;
}

_public_ const char *sysdev_device_get_devtype(const struct sysdev_device *dev)
{
	return sysdev_device_get_property(dev, "DEVTYPE");
}

_public_ const char *sysdev_device_get_devname(const struct sysdev_device *dev)
{
	return dev && dev->has_dev ? sysdev_device_get_property(dev, "DEVNAME") : NULL;
}

_public_ bool sysdev_device_get_property_at(const struct sysdev_device *dev, size_t i,
					    const char **key, const char **value)
{
	if (!dev || i >= dev->uevent.n)
		return false;
	if (key)
		*key = dev->uevent.keys[i];
	if (value)
		*value = dev->uevent.values[i];
	return true;
}

_public_ const char *sysdev_device_get_link(const struct sysdev_device *dev, const char *name)
{
	struct sysdev_device *d = (struct sysdev_device *)dev;
	char *target, *res;

	if (!dev || !name || strchr(name, '/'))
		return NULL;
	if (readlink_alloc(dev->fd, name, &target) < 0)
		return NULL;
	res = resolve_link_target(dev->ctx->root, dev->devpath, target);
	free(d->link_value);
	d->link_value = res ? res : target;
	if (res)
		free(target);
	return d->link_value;
}

_public_ int sysdev_device_get_parent(struct sysdev_device *dev, struct sysdev_device **parent)
{
	if (!dev || !parent)
		return -EINVAL;
	*parent = NULL;
	if (!dev->parent_devpath)
		return -ENOENT;
	return sysdev_device_new_from_devpath(dev->ctx, dev->parent_devpath, parent);
}
