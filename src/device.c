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
#include <linux/openat2.h>
#include <sys/syscall.h>

#include "libsysdev-private.h"
#include "device-id.h"
#include "device-private.h"
#include "rules.h"

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

/* Subsystem (and its kind), driver, "dev" and the uevent file, from the open directory @fd. */
static int device_fill_at(struct sysdev_device *dev, int fd)
{
	struct stat st;
	char *target = NULL;
	int err;

	dev->subsystem = link_name_at(fd, "subsystem");
	if (dev->subsystem && readlink_alloc(fd, "subsystem", &target) == 0) {
		char *res = resolve_link_target(dev->ctx->root, dev->devpath, target);

		if (res && strncmp(res, "/bus/", 5) == 0)
			dev->subsystem_kind = SYSDEV_SUBSYSTEM_BUS;
		else if (res && strncmp(res, "/class/", 7) == 0)
			dev->subsystem_kind = SYSDEV_SUBSYSTEM_CLASS;
		free(res);
		free(target);
	}
	dev->driver = link_name_at(fd, "driver");
	dev->has_dev = fstatat(fd, "dev", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	err = uevent_read_at(&dev->uevent, fd);
	return err == -ENOMEM ? err : 0;
}

static struct sysdev_device *device_alloc(struct sysdev *ctx, const char *devpath)
{
	struct sysdev_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->refcount = 1;
	dev->fd = -1;
	dev->ctx = sysdev_ref(ctx);
	dev->devpath = strdup(devpath);
	if (!dev->devpath) {
		sysdev_device_unref(dev);
		return NULL;
	}
	dev->name = strrchr(dev->devpath, '/') + 1;
	return dev;
}

_public_ int sysdev_device_new_from_devpath(struct sysdev *ctx, const char *devpath,
					    struct sysdev_device **out)
{
	struct sysdev_device *dev;
	struct ancestry a;
	struct stat st;
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
		err = lstat_below(ctx->root_fd, devpath + 1, &st) == 0 ? -ENODEV : -ENOENT;
	}
	if (err < 0)
		return err;
	if (!dir_has_uevent(a.fd) || a.place.is_root) {
		ancestry_free(&a);
		return -ENODEV;
	}
	dev = device_alloc(ctx, devpath);
	if (!dev) {
		ancestry_free(&a);
		return -ENOMEM;
	}
	dev->fd = a.fd;
	a.fd = -1;
	ancestry_take(&a, &dev->parent_devpath, &dev->class_dir);
	ancestry_free(&a);
	err = device_fill_at(dev, dev->fd);
	if (err < 0) {
		sysdev_device_unref(dev);
		return err;
	}
	*out = dev;
	return 0;
}

/* Open @devpath below the root in one call where the kernel can refuse every link. */
static int open_devpath_fast(struct sysdev *ctx, const char *devpath)
{
#ifdef SYS_openat2
	struct open_how how = {
	    .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, ctx->root_fd, devpath + 1, &how, sizeof(how));

	if (fd >= 0)
		return (int)fd;
	if (errno != ENOSYS && errno != EPERM && errno != E2BIG)
		return errno == ELOOP ? -ENOTDIR : -errno;
#endif
	return open_devpath(ctx, devpath);
}

int device_new_indexed(struct sysdev *ctx, const char *devpath, struct sysdev_device **out)
{
	struct sysdev_device *dev;
	int fd, err;

	*out = NULL;
	if (!devpath_is_valid(devpath) || strcmp(devpath, "/devices") == 0)
		return -ENODEV;
	fd = open_devpath_fast(ctx, devpath);
	if (fd < 0)
		return fd;
	if (!dir_has_uevent(fd)) {
		close(fd);
		return -ENODEV;
	}
	dev = device_alloc(ctx, devpath);
	if (!dev) {
		close(fd);
		return -ENOMEM;
	}
	dev->fd = fd;
	dev->ancestry_pending = true;
	err = device_fill_at(dev, fd);
	if (err < 0) {
		sysdev_device_unref(dev);
		return err;
	}
	*out = dev;
	return 0;
}

int device_new_from_node(const struct sysdev_node *node, struct sysdev_device **out)
{
	const struct uevent *u = node_uevent(node);
	struct sysdev_device *dev;
	int err = 0;

	*out = NULL;
	dev = device_alloc(node_context(node), sysdev_node_get_devpath(node));
	if (!dev)
		return -ENOMEM;
	/* the walk knew it all: no descriptor is held, so results may be many */
	dev->parent_devpath = strdup_or_null(sysdev_node_get_parent(node));
	dev->class_dir = strdup_or_null(sysdev_node_get_class_dir(node));
	dev->subsystem = strdup_or_null(sysdev_node_get_subsystem(node));
	dev->subsystem_kind = sysdev_node_get_subsystem_kind(node);
	dev->driver = strdup_or_null(sysdev_node_get_driver(node));
	dev->has_dev = node_has_dev(node);
	if ((sysdev_node_get_parent(node) && !dev->parent_devpath) ||
	    (sysdev_node_get_class_dir(node) && !dev->class_dir) ||
	    (sysdev_node_get_subsystem(node) && !dev->subsystem) ||
	    (sysdev_node_get_driver(node) && !dev->driver))
		err = -ENOMEM;
	else if (u)
		err = uevent_copy(&dev->uevent, u);
	else
		dev->uevent_pending = true;
	if (err < 0) {
		sysdev_device_unref(dev);
		return err;
	}
	*out = dev;
	return 0;
}

int device_fd(struct sysdev_device *dev)
{
	if (dev->fd < 0)
		dev->fd = open_devpath_fast(dev->ctx, dev->devpath);
	return dev->fd;
}

/* Where the device sits, looked up when first asked (objects of the enumerator). */
static void device_ancestry(const struct sysdev_device *cdev)
{
	struct sysdev_device *dev = (struct sysdev_device *)cdev; /* a cache, not a change */
	struct ancestry a;

	if (!dev->ancestry_pending)
		return;
	dev->ancestry_pending = false;
	if (ancestry_get(dev->ctx, dev->devpath, &a) < 0)
		return;
	ancestry_take(&a, &dev->parent_devpath, &dev->class_dir);
	ancestry_free(&a);
}

static void device_uevent(const struct sysdev_device *cdev)
{
	struct sysdev_device *dev = (struct sysdev_device *)cdev; /* a cache, not a change */

	if (!dev->uevent_pending)
		return;
	dev->uevent_pending = false;
	if (device_fd(dev) >= 0)
		uevent_read_at(&dev->uevent, dev->fd);
}

/*
 * A device through an index entry the kernel made (S/dev/block/8:0,
 * S/class/net/lo): its relative link read as text, as udev does, and the
 * directory opened without following any link; anything else (a link that is
 * absolute, climbs out, or leads through other links) is resolved the slow,
 * physical way.
 */
static int device_new_from_index_entry(struct sysdev *ctx, const char *entry,
				       struct sysdev_device **out)
{
	char *target, *devpath = NULL, *dir, *slash;
	int err;

	/* a link on the way to the entry: only the slow way resolves it (inside the root) */
	err = readlink_below(ctx->root_fd, entry + 1, &target);
	if (err == -ENOTDIR)
		goto slow;
	if (err < 0)
		return err == -EINVAL ? -ENOENT : err;
	dir = strdup(entry);
	if (!dir) {
		free(target);
		return -ENOMEM;
	}
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (target[0] != '/')
		devpath = resolve_link_target(ctx->root, dir, target);
	free(dir);
	free(target);
	err = devpath ? device_new_indexed(ctx, devpath, out) : -ENOENT;
	free(devpath);
	if (err == 0 || err == -ENOMEM)
		return err;
slow:
	err = resolve_in_root(ctx, entry, &devpath);
	if (err < 0)
		return err == -ENOTDIR ? -ENOENT : err;
	err =
	    devpath_is_valid(devpath) ? sysdev_device_new_from_devpath(ctx, devpath, out) : -ENOENT;
	free(devpath);
	return err;
}

_public_ int sysdev_device_new_from_devnum(struct sysdev *ctx, char type, unsigned major,
					   unsigned minor, struct sysdev_device **out)
{
	char entry[64];

	if (!ctx || !out || (type != 'b' && type != 'c'))
		return -EINVAL;
	*out = NULL;
	snprintf(entry, sizeof(entry), "/dev/%s/%u:%u", type == 'b' ? "block" : "char", major,
		 minor);
	return device_new_from_index_entry(ctx, entry, out);
}

_public_ int sysdev_device_new_from_subsystem_sysname(struct sysdev *ctx, const char *subsystem,
						      const char *sysname,
						      struct sysdev_device **out)
{
	char *entry;
	int err = -ENOENT;

	if (!ctx || !out || !subsystem || !sysname)
		return -EINVAL;
	*out = NULL;
	if (!*subsystem || !*sysname || strchr(subsystem, '/') || strchr(sysname, '/') ||
	    !strcmp(subsystem, ".") || !strcmp(subsystem, "..") || !strcmp(sysname, ".") ||
	    !strcmp(sysname, ".."))
		return -EINVAL;
	if (sysdev_is_class_name(ctx, subsystem)) {
		if (asprintf(&entry, "/class/%s/%s", subsystem, sysname) < 0)
			return -ENOMEM;
		err = device_new_from_index_entry(ctx, entry, out);
		free(entry);
	}
	if (err < 0 && err != -ENOMEM && sysdev_is_bus_name(ctx, subsystem)) {
		if (asprintf(&entry, "/bus/%s/devices/%s", subsystem, sysname) < 0)
			return -ENOMEM;
		err = device_new_from_index_entry(ctx, entry, out);
		free(entry);
	}
	return err;
}

/* /dev/NAME: by the device number on the live system, else by DEVNAME. */
static int lookup_devnode(struct sysdev *ctx, const char *node, char **devpath)
{
	static const char *const dirs[] = {"dev/block", "dev/char"};
	struct stat st;
	char link[64];
	int err;

	if (ctx->live && stat(node, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))) {
		snprintf(link, sizeof(link), "/dev/%s/%u:%u",
			 S_ISBLK(st.st_mode) ? "block" : "char", major(st.st_rdev),
			 minor(st.st_rdev));
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
			/* a hand-made tree: only a regular uevent is read (no FIFO, no device node)
			 */
			if (fd >= 0 && dir_has_uevent(fd) && uevent_read_at(&u, fd) == 0) {
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

/* The network interface of index @ifindex: the S/class/net entry whose ifindex attribute says so.
 */
static int device_new_from_ifindex(struct sysdev *ctx, unsigned ifindex, struct sysdev_device **out)
{
	struct name_set set;
	int err;

	err = name_set_load(ctx->root_fd, "class/net", &set);
	if (err < 0)
		return err == -ENOTDIR ? -ENOENT : err;
	err = -ENOENT;
	for (size_t i = 0; i < set.n && err == -ENOENT; i++) {
		struct sysdev_device *dev;
		char buf[32], *end = buf;
		unsigned long v = 0;
		int r = sysdev_device_new_from_subsystem_sysname(ctx, "net", set.names[i], &dev);

		if (r == -ENOMEM)
			err = r;
		if (r < 0)
			continue;
		if (sysdev_device_read_attribute(dev, "ifindex", buf, sizeof(buf)) > 0 &&
		    buf[0] >= '0' && buf[0] <= '9')
			v = strtoul(buf, &end, 10);
		if (end != buf && !*end && v == ifindex) {
			*out = dev;
			err = 0;
		} else {
			sysdev_device_unref(dev);
		}
	}
	name_set_free(&set);
	return err;
}

/* udev's device ids: b8:0, c1:3, n2, +SUBSYSTEM:SYSNAME. */
static int device_new_from_id(struct sysdev *ctx, const struct device_id *id,
			      struct sysdev_device **out)
{
	char *sub, *name;
	int err;

	switch (id->kind) {
	case DEVICE_ID_DEVNUM:
		return sysdev_device_new_from_devnum(ctx, id->type, id->major, id->minor, out);
	case DEVICE_ID_IFINDEX:
		return device_new_from_ifindex(ctx, id->ifindex, out);
	case DEVICE_ID_SUBSYSTEM_SYSNAME:
		break;
	}
	sub = strndup(id->subsystem, id->subsystem_len);
	name = strdup(id->sysname);
	if (!sub || !name) {
		free(sub);
		free(name);
		return -ENOMEM;
	}
	/* udev writes a '/' of a sysfs name as '!' in names and ids; the kernel's is '!' */
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '!';
	err = sysdev_device_new_from_subsystem_sysname(ctx, sub, name, out);
	free(sub);
	free(name);
	return err;
}

_public_ int sysdev_device_new(struct sysdev *ctx, const char *spec, struct sysdev_device **out)
{
	struct device_id id;
	char *devpath = NULL;
	const char *colon;
	int err;

	if (!ctx || !spec || !out)
		return -EINVAL;
	*out = NULL;
	if (!*spec || strlen(spec) > 64 * 1024)
		return -EINVAL;
	if (device_id_parse(spec, &id))
		return device_new_from_id(ctx, &id, out);
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

		err = lstat_below(ctx->root_fd, devpath + 1, &st) == 0 ? -ENODEV : -ENOENT;
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
	free(dev->udev_devname);
	uevent_free(&dev->uevent);
	attributes_free(dev);
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

_public_ enum sysdev_subsystem_kind
sysdev_device_get_subsystem_kind(const struct sysdev_device *dev)
{
	return dev && dev->subsystem ? dev->subsystem_kind : SYSDEV_SUBSYSTEM_NONE;
}

_public_ const char *sysdev_device_get_driver(const struct sysdev_device *dev)
{
	return dev ? dev->driver : NULL;
}

_public_ const char *sysdev_device_get_parent_devpath(const struct sysdev_device *dev)
{
	if (!dev)
		return NULL;
	device_ancestry(dev);
	return dev->parent_devpath;
}

_public_ const char *sysdev_device_get_class_dir(const struct sysdev_device *dev)
{
	if (!dev)
		return NULL;
	device_ancestry(dev);
	return dev->class_dir;
}

_public_ enum sysdev_placement sysdev_device_get_placement(const struct sysdev_device *dev)
{
	return dev ? placement_of(dev->devpath) : SYSDEV_PLACEMENT_DEVICES;
}

_public_ const char *sysdev_device_get_devnum(const struct sysdev_device *dev)
{
	if (!dev || !dev->has_dev)
		return NULL;
	device_uevent(dev);
	return dev->uevent.devnum[0] ? dev->uevent.devnum : NULL;
}

_public_ const char *sysdev_device_get_property(const struct sysdev_device *dev, const char *key)
{
	if (!dev || !key)
		return NULL;
	device_uevent(dev);
	return uevent_get(&dev->uevent, key);
}

/* MAJOR and MINOR from the dev attribute ("MAJOR:MINOR"), where the uevent file has neither. */
static void udev_devnum(struct sysdev_device *dev)
{
	char buf[64], *colon, *end;
	unsigned long major, minor;

	if (uevent_get(&dev->uevent, "MAJOR") || uevent_get(&dev->uevent, "MINOR") || !dev->has_dev)
		return;
	if (device_fd(dev) < 0 || attribute_read_at(dev->fd, "dev", buf, sizeof(buf)) <= 0)
		return;
	colon = strchr(buf, ':');
	if (!colon || colon == buf || buf[0] < '0' || buf[0] > '9' || colon[1] < '0' ||
	    colon[1] > '9')
		return;
	*colon = '\0';
	errno = 0;
	major = strtoul(buf, &end, 10);
	if (*end || errno)
		return;
	minor = strtoul(colon + 1, &end, 10);
	if (*end || errno || major > 0xfff || minor > 0xfffff)
		return;
	snprintf(dev->udev_major, sizeof(dev->udev_major), "%lu", major);
	snprintf(dev->udev_minor, sizeof(dev->udev_minor), "%lu", minor);
}

/* The keys udev computes where the uevent file does not hold them. */
static void udev_properties(const struct sysdev_device *cdev)
{
	struct sysdev_device *dev = (struct sysdev_device *)cdev; /* a cache, not a change */
	const char *name;

	if (dev->udev_ready)
		return;
	dev->udev_ready = true;
	device_uevent(dev);
	name = uevent_get(&dev->uevent, "DEVNAME");
	/* udev's DEVNAME is the node's path; on no memory the bare name stands */
	if (name && name[0] != '/' && asprintf(&dev->udev_devname, "/dev/%s", name) < 0)
		dev->udev_devname = NULL;
	udev_devnum(dev);
}

_public_ const char *sysdev_device_get_udev_property(const struct sysdev_device *dev,
						     const char *key)
{
	const char *v;

	if (!dev || !key)
		return NULL;
	udev_properties(dev);
	if (strcmp(key, "DEVNAME") == 0 && dev->udev_devname)
		return dev->udev_devname;
	v = uevent_get(&dev->uevent, key);
	if (v)
		return v;
	if (strcmp(key, "DEVPATH") == 0)
		return dev->devpath;
	if (strcmp(key, "SUBSYSTEM") == 0)
		return dev->subsystem;
	if (strcmp(key, "DRIVER") == 0)
		return dev->driver;
	if (strcmp(key, "MAJOR") == 0)
		return dev->udev_major[0] ? dev->udev_major : NULL;
	if (strcmp(key, "MINOR") == 0)
		return dev->udev_minor[0] ? dev->udev_minor : NULL;
	return NULL;
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
	if (!dev)
		return false;
	device_uevent(dev);
	if (i >= dev->uevent.n)
		return false;
	if (key)
		*key = dev->uevent.keys[i];
	if (value)
		*value = dev->uevent.values[i];
	return true;
}

_public_ int sysdev_device_get_link(struct sysdev_device *dev, const char *name, char **ret)
{
	char *target, *res;
	int err;

	if (!dev || !name || !ret || !name_is_single_component(name))
		return -EINVAL;
	*ret = NULL;
	if (device_fd(dev) < 0)
		return dev->fd;
	err = readlink_alloc(dev->fd, name, &target);
	if (err < 0)
		return err == -EINVAL ? -ENOENT : err; /* not a link: no link of that name */
	res = resolve_link_target(dev->ctx->root, dev->devpath, target);
	if (res) {
		free(target);
		target = res;
	}
	*ret = target;
	return 0;
}

_public_ int sysdev_node_get_device(const struct sysdev_node *node, struct sysdev_device **ret)
{
	if (!node || !ret)
		return -EINVAL;
	*ret = NULL;
	if (sysdev_node_get_kind(node) != SYSDEV_KIND_DEVICE)
		return -ENODEV;
	return device_new_from_node(node, ret);
}

_public_ int sysdev_device_get_parent(struct sysdev_device *dev, struct sysdev_device **parent)
{
	if (!dev || !parent)
		return -EINVAL;
	*parent = NULL;
	device_ancestry(dev);
	if (!dev->parent_devpath)
		return -ENOENT;
	return sysdev_device_new_from_devpath(dev->ctx, dev->parent_devpath, parent);
}
