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

/* Read link @name of @fd into @out as its last component: true when present. */
static int link_name_at(int fd, const char *name, struct sbuf *out, bool *present,
			char **ret_target)
{
	_cleanup_free_ char *target = NULL;
	const char *base;
	size_t blen;
	int err;

	*present = false;
	err = readlink_alloc(fd, name, &target);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return 0; /* no link of that name, or not a link: absent */
	base = link_basename(target, &blen);
	if (!blen)
		return 0;
	err = sbuf_set(out, base, blen);
	if (err < 0)
		return err;
	*present = true;
	if (ret_target)
		*ret_target = TAKE_PTR(target);
	return 0;
}

/*
 * Where the subsystem link's text @target leads, in dev->subsystem_kind:
 * below S/bus, below S/class, or neither.  0 or -ENOMEM.
 */
static int set_subsystem_kind(struct sysdev_device *dev, const char *target)
{
	_cleanup_free_ char *res = resolve_link_target(dev->ctx->root, dev->devpath.s, target);

	if (!res && errno == ENOMEM)
		return -ENOMEM;
	if (res && strncmp(res, "/bus/", 5) == 0)
		dev->subsystem_kind = SYSDEV_SUBSYSTEM_BUS;
	else if (res && strncmp(res, "/class/", 7) == 0)
		dev->subsystem_kind = SYSDEV_SUBSYSTEM_CLASS;
	else
		dev->subsystem_kind = SYSDEV_SUBSYSTEM_NONE;
	return 0;
}

/* Subsystem (and its kind), driver, "dev" and the uevent file, from the open directory @fd. */
static int device_fill_at(struct sysdev_device *dev, int fd)
{
	_cleanup_free_ char *target = NULL;
	struct stat st;
	int err;

	err = link_name_at(fd, "subsystem", &dev->subsystem, &dev->has_subsystem, &target);
	if (err < 0)
		return err;
	if (target && set_subsystem_kind(dev, target) < 0)
		return -ENOMEM;
	err = link_name_at(fd, "driver", &dev->driver, &dev->has_driver, NULL);
	if (err < 0)
		return err;
	dev->has_dev = fstatat(fd, "dev", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	err = uevent_read_at(&dev->uevent, fd);
	if (err == -ENOMEM)
		return err;
	/* an unreadable uevent file: the properties answer with its errno */
	dev->uevent_error = err < 0 ? err : 0;
	return 0;
}

static void device_free(struct sysdev_device *dev)
{
	if (dev->fd >= 0 && !dev->fd_lent)
		close(dev->fd);
	free(dev->devpath.s);
	free(dev->parent_devpath.s);
	free(dev->class_dir.s);
	free(dev->subsystem.s);
	free(dev->driver.s);
	free(dev->udev_devname);
	free(dev->action);
	sysdev_device_unref(dev->parent);
	uevent_free(&dev->uevent);
	attributes_free(dev);
	device_db_free(dev);
	udev_db_free(&dev->db);
	free(dev->udev_id.s);
	sysdev_unref(dev->ctx);
	free(dev);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev_device, sysdev_device, device_free);

int device_alloc(struct sysdev *ctx, const char *devpath, size_t len, struct sysdev_device **ret)
{
	_cleanup_(sysdev_device_unrefp) struct sysdev_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return -ENOMEM;
	dev->n_ref = 1;
	dev->fd = -1;
	dev->ctx = sysdev_ref(ctx);
	if (sbuf_set(&dev->devpath, devpath, len) < 0)
		return -ENOMEM;
	dev->name = strrchr(dev->devpath.s, '/');
	dev->name = dev->name ? dev->name + 1 : dev->devpath.s;
	*ret = TAKE_PTR(dev);
	return 0;
}

void device_reset_cache(struct sysdev_device *dev)
{
	dev->parent = sysdev_device_unref(dev->parent);
	dev->udev_ready = false;
	dev->udev_devname = mfree(dev->udev_devname);
	dev->udev_major[0] = dev->udev_minor[0] = '\0';
	attributes_free(dev);
	device_db_free(dev);
}

static int set_ancestry(struct sysdev_device *dev, struct ancestry *a)
{
	_cleanup_free_ char *parent = NULL, *class_dir = NULL;

	ancestry_take(a, &parent, &class_dir);
	dev->has_parent = parent != NULL;
	dev->has_class_dir = class_dir != NULL;
	if (parent && sbuf_set(&dev->parent_devpath, parent, strlen(parent)) < 0)
		return -ENOMEM;
	if (class_dir && sbuf_set(&dev->class_dir, class_dir, strlen(class_dir)) < 0)
		return -ENOMEM;
	return 0;
}

_public_ int sysdev_device_new_from_devpath(struct sysdev *ctx, const char *devpath,
					    struct sysdev_device **ret)
{
	_cleanup_(sysdev_device_unrefp) struct sysdev_device *dev = NULL;
	struct ancestry a;
	struct stat st;
	int err;

	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(devpath, -EINVAL);
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
	err = device_alloc(ctx, devpath, strlen(devpath), &dev);
	if (err < 0) {
		ancestry_free(&a);
		return err;
	}
	dev->fd = TAKE_FD(a.fd);
	err = set_ancestry(dev, &a);
	ancestry_free(&a);
	if (err < 0)
		return err;
	err = device_fill_at(dev, dev->fd);
	if (err < 0)
		return err;
	*ret = TAKE_PTR(dev);
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
	_cleanup_(sysdev_device_unrefp) struct sysdev_device *dev = NULL;
	_cleanup_close_ int fd = -1;
	int err;

	*out = NULL;
	if (!devpath_is_valid(devpath) || strcmp(devpath, "/devices") == 0)
		return -ENODEV;
	fd = open_devpath_fast(ctx, devpath);
	if (fd < 0)
		return fd;
	if (!dir_has_uevent(fd))
		return -ENODEV;
	err = device_alloc(ctx, devpath, strlen(devpath), &dev);
	if (err < 0)
		return err;
	dev->fd = TAKE_FD(fd);
	dev->ancestry_pending = true;
	err = device_fill_at(dev, dev->fd);
	if (err < 0)
		return err;
	*out = TAKE_PTR(dev);
	return 0;
}

bool devpath_is_device(struct sysdev *ctx, const char *devpath)
{
	_cleanup_close_ int fd = open_devpath_fast(ctx, devpath);

	return fd >= 0 && dir_has_uevent(fd);
}

bool devpath_exists(struct sysdev *ctx, const char *devpath)
{
	_cleanup_close_ int fd = open_devpath_fast(ctx, devpath);

	return fd >= 0;
}

int device_fd(struct sysdev_device *dev)
{
	if (dev->fd < 0) {
		int fd = open_devpath_fast(dev->ctx, dev->devpath.s);

		/* a directory gone is a device gone */
		if (fd < 0)
			return fd == -ENOENT || fd == -ENOTDIR ? -ENODEV : fd;
		dev->fd = fd;
		dev->fd_lent = false;
	}
	return dev->fd;
}

/* Where the device sits, looked up when first asked (objects of the enumerator). */
static int device_ancestry(struct sysdev_device *dev)
{
	struct ancestry a;
	int err;

	if (!dev->ancestry_pending)
		return dev->ancestry_error;
	err = ancestry_get(dev->ctx, dev->devpath.s, &a);
	if (err == -ENOMEM)
		return err; /* not kept: the next call tries again */
	dev->ancestry_pending = false;
	if (err < 0)
		return dev->ancestry_error = err == -ENOENT || err == -ENOTDIR ? -ENODEV : err;
	err = set_ancestry(dev, &a);
	ancestry_free(&a);
	if (err < 0) {
		dev->ancestry_pending = true;
		return err;
	}
	return 0;
}

/* Subsystem and driver, read when first asked where the maker did not read them. */
int device_links(struct sysdev_device *dev)
{
	_cleanup_free_ char *target = NULL;
	int fd, err;

	if (!dev->links_pending)
		return dev->links_error;
	fd = device_fd(dev);
	err = fd < 0 ? fd
		     : link_name_at(fd, "subsystem", &dev->subsystem, &dev->has_subsystem, &target);
	if (err >= 0 && target)
		err = set_subsystem_kind(dev, target);
	if (err >= 0)
		err = link_name_at(fd, "driver", &dev->driver, &dev->has_driver, NULL);
	if (err == -ENOMEM)
		return err;
	dev->links_pending = false;
	dev->links_error = err < 0 ? err : 0;
	return dev->links_error;
}

int device_uevent(struct sysdev_device *dev)
{
	int fd, err;

	if (!dev->uevent_pending)
		return dev->uevent_error;
	fd = device_fd(dev);
	err = fd < 0 ? fd : uevent_read_at(&dev->uevent, fd);
	if (err == -ENOMEM)
		return err;
	dev->uevent_pending = false;
	dev->uevent_error = err < 0 ? err : 0;
	return dev->uevent_error;
}

/*
 * The link of index entry @entry, read as readlink_below() reads it.  The
 * device number directories S/dev/block and S/dev/char are opened once (no
 * link on the way) and kept: a program that enumerates a tag or a database
 * asks for one device number after another, and each then costs one readlink.
 */
static int read_index_link(struct sysdev *ctx, const char *entry, char **target)
{
	static const char *const dirs[] = {"dev/block", "dev/char"};
	const char *rel = entry + 1;

	for (size_t i = 0; i < 2; i++) {
		size_t len = strlen(dirs[i]);
		int fd;

		if (strncmp(rel, dirs[i], len) != 0 || rel[len] != '/' ||
		    strchr(rel + len + 1, '/'))
			continue;
		if (ctx->devnum_fd[i] < 0) {
			fd = open_below(ctx->root_fd, dirs[i], NULL);
			if (fd < 0)
				break; /* the general way says why */
			ctx->devnum_fd[i] = fd_move_above_stdio(fd);
		}
		return readlink_alloc(ctx->devnum_fd[i], rel + len + 1, target);
	}
	return readlink_below(ctx->root_fd, rel, target);
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
	err = read_index_link(ctx, entry, &target);
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
	err = devpath ? 0 : target[0] != '/' && errno == ENOMEM ? -ENOMEM : -ENOENT;
	free(dir);
	free(target);
	if (err == 0)
		err = device_new_indexed(ctx, devpath, out);
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

_public_ int sysdev_device_new_from_devnum(struct sysdev *ctx, char type, dev_t devnum,
					   struct sysdev_device **out)
{
	char entry[64];

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(type == 'b' || type == 'c', -EINVAL);
	snprintf(entry, sizeof(entry), "/dev/%s/%u:%u", type == 'b' ? "block" : "char",
		 major(devnum), minor(devnum));
	return device_new_from_index_entry(ctx, entry, out);
}

_public_ int sysdev_device_new_from_subsystem_sysname(struct sysdev *ctx, const char *subsystem,
						      const char *sysname,
						      struct sysdev_device **out)
{
	char *entry;
	int err = -ENOENT;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(subsystem, -EINVAL);
	assert_return(sysname, -EINVAL);
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
		const char *prop;
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
		else if (sysdev_device_get_property(dev, "IFINDEX", &prop) >= 0 && prop[0] >= '0' &&
			 prop[0] <= '9')
			/* a capture that kept the uevent file but not the attribute's value */
			v = strtoul(prop, &end, 10);
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
		return sysdev_device_new_from_devnum(ctx, id->type, makedev(id->major, id->minor),
						     out);
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

/*
 * A link below /dev (/dev/disk/by-id/...) that is not there (a captured root, or
 * udevd has not made it): the device whose database file has it as an S: line.
 */
static int lookup_devlink(struct sysdev *ctx, const char *node, struct sysdev_device **out)
{
	_cleanup_(dir_list_free) struct dir_list l = {0};
	struct udev_db db = {0};
	struct device_id id;
	const char *want = node + 5;
	int fd, err = -ENOENT;

	if (ctx->udev_db_fd < 0)
		return -ENOENT;
	fd = open_dir_at(ctx->udev_db_fd, "data");
	if (fd < 0)
		return -ENOENT;
	if (dir_list_read(&l, fd, 0) < 0) {
		close(fd);
		return -ENOENT;
	}
	while (*want == '/')
		want++;
	for (size_t i = 0; i < l.n && err == -ENOENT; i++) {
		if (!device_id_parse(l.v[i].name, &id))
			continue;
		err = udev_db_read_at(&db, fd, l.v[i].name);
		if (err == -ENOMEM)
			break;
		if (err == 0 && udev_db_has(db.links, db.n_links, want))
			err = device_new_from_id(ctx, &id, out);
		else
			err = -ENOENT;
	}
	udev_db_free(&db);
	close(fd);
	return err;
}

_public_ int sysdev_device_new_from_device_id(struct sysdev *ctx, const char *id,
					      struct sysdev_device **out)
{
	struct device_id parsed;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(id, -EINVAL);
	if (!device_id_parse(id, &parsed))
		return -EINVAL;
	return device_new_from_id(ctx, &parsed, out);
}

_public_ int sysdev_device_new_from_ifindex(struct sysdev *ctx, int ifindex,
					    struct sysdev_device **out)
{
	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(ifindex > 0, -EINVAL);
	return device_new_from_ifindex(ctx, (unsigned)ifindex, out);
}

_public_ int sysdev_device_new_from_ifname(struct sysdev *ctx, const char *ifname,
					   struct sysdev_device **out)
{
	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(ifname, -EINVAL);
	return sysdev_device_new_from_subsystem_sysname(ctx, "net", ifname, out);
}

_public_ int sysdev_device_new(struct sysdev *ctx, const char *spec, struct sysdev_device **out)
{
	struct device_id id;
	char *devpath = NULL;
	const char *colon;
	int err;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(spec, -EINVAL);
	if (!*spec || strlen(spec) > 64 * 1024)
		return -EINVAL;
	if (device_id_parse(spec, &id))
		return device_new_from_id(ctx, &id, out);
	if (strncmp(spec, "/dev/", 5) == 0 && spec[5]) {
		err = lookup_devnode(ctx, spec, &devpath);
		if (err == -ENOENT)
			return lookup_devlink(ctx, spec, out);
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

_public_ int sysdev_device_get_devpath(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (dev->is_loss)
		return -ENOENT; /* a loss notice names no device */
	*ret = dev->devpath.s;
	return 0;
}

_public_ int sysdev_device_get_name(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	*ret = dev->name;
	return 0;
}

_public_ int sysdev_device_get_kind(struct sysdev_device *dev, enum sysdev_kind *ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (dev->is_event && !dev->has_kind)
		return -ENOENT;
	*ret = dev->is_event ? dev->kind : SYSDEV_KIND_DEVICE;
	return 0;
}

/* A string field once @load has read what holds it: 0 and the string, -ENOENT,
 * or the error of the read.  @present is read after the load, which sets it. */
static int loaded_field(struct sysdev_device *dev, int (*load)(struct sysdev_device *dev),
			const bool *present, const struct sbuf *b, const char **ret)
{
	int err = load(dev);

	if (err < 0)
		return err;
	if (!*present)
		return -ENOENT;
	*ret = b->s;
	return 0;
}

_public_ int sysdev_device_get_subsystem(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return loaded_field(dev, device_links, &dev->has_subsystem, &dev->subsystem, ret);
}

_public_ int sysdev_device_get_subsystem_kind(struct sysdev_device *dev,
					      enum sysdev_subsystem_kind *ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_links(dev);
	if (err < 0)
		return err;
	/* an event knows the link's kind only when it could look at the directory */
	if (!dev->has_subsystem || (dev->is_event && !dev->has_kind))
		return -ENOENT;
	*ret = dev->subsystem_kind;
	return 0;
}

_public_ int sysdev_device_get_driver(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return loaded_field(dev, device_links, &dev->has_driver, &dev->driver, ret);
}

int device_get_parent_devpath(struct sysdev_device *dev, const char **ret)
{
	return loaded_field(dev, device_ancestry, &dev->has_parent, &dev->parent_devpath, ret);
}

_public_ int sysdev_device_get_parent_devpath(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return loaded_field(dev, device_ancestry, &dev->has_parent, &dev->parent_devpath, ret);
}

_public_ int sysdev_device_get_class_dir(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return loaded_field(dev, device_ancestry, &dev->has_class_dir, &dev->class_dir, ret);
}

_public_ int sysdev_device_get_parent(struct sysdev_device *dev, struct sysdev_device **ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	*ret = NULL;
	if (!dev->parent) {
		err = device_ancestry(dev);
		if (err < 0)
			return err;
		if (!dev->has_parent)
			return -ENOENT;
		err = sysdev_device_new_from_devpath(dev->ctx, dev->parent_devpath.s, &dev->parent);
		if (err < 0)
			return err == -ENOENT || err == -ENOTDIR ? -ENODEV : err;
	}
	*ret = dev->parent;
	return 0;
}

_public_ int sysdev_device_get_placement(struct sysdev_device *dev, enum sysdev_placement *ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (!devpath_is_valid(dev->devpath.s))
		return -ENOENT;
	*ret = placement_of(dev->devpath.s);
	return 0;
}

/* A property of the uevent file (read now if it was not). */
static int uevent_value(struct sysdev_device *dev, const char *key, const char **ret)
{
	const char *v;
	int err;

	err = device_uevent(dev);
	if (err < 0)
		return err;
	v = uevent_get(&dev->uevent, key);
	if (!v)
		return -ENOENT;
	*ret = v;
	return 0;
}

_public_ int sysdev_device_get_devnum(struct sysdev_device *dev, dev_t *ret)
{
	unsigned long major, minor;
	const char *colon;
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (!dev->has_dev)
		return -ENOENT;
	err = device_uevent(dev);
	if (err < 0)
		return err;
	if (!dev->uevent.devnum[0])
		return -ENOENT;
	/* uevent_parse() made it of two decimal numbers of at most 10 digits */
	colon = strchr(dev->uevent.devnum, ':');
	major = strtoul(dev->uevent.devnum, NULL, 10);
	minor = strtoul(colon + 1, NULL, 10);
	*ret = makedev(major, minor);
	return 0;
}

_public_ int sysdev_device_get_devtype(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return uevent_value(dev, "DEVTYPE", ret);
}

_public_ int sysdev_device_get_devname(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (!dev->has_dev)
		return -ENOENT;
	return uevent_value(dev, "DEVNAME", ret);
}

_public_ int sysdev_device_get_property(struct sysdev_device *dev, const char *key,
					const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(key, -EINVAL);
	assert_return(ret, -EINVAL);
	return uevent_value(dev, key, ret);
}

_public_ int sysdev_device_get_property_at(struct sysdev_device *dev, size_t i,
					   const char **ret_key, const char **ret_value)
{
	int err;

	assert_return(dev, -EINVAL);
	err = device_uevent(dev);
	if (err < 0)
		return err;
	if (i >= dev->uevent.n)
		return -ENOENT;
	if (ret_key)
		*ret_key = dev->uevent.keys[i];
	if (ret_value)
		*ret_value = dev->uevent.values[i];
	return 0;
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
int device_udev_properties(struct sysdev_device *dev)
{
	const char *name;
	int err;

	if (dev->udev_ready)
		return 0;
	err = device_uevent(dev);
	if (err == -ENOMEM)
		return err;
	dev->udev_ready = true;
	name = uevent_get(&dev->uevent, "DEVNAME");
	/* udev's DEVNAME is the node's path */
	if (name && name[0] != '/' && asprintf(&dev->udev_devname, "/dev/%s", name) < 0) {
		dev->udev_devname = NULL;
		dev->udev_ready = false;
		return -ENOMEM;
	}
	udev_devnum(dev);
	return 0;
}

int device_sysfs_udev_property(struct sysdev_device *dev, const char *key, const char **ret)
{
	const char *v = NULL;
	int err;

	/* an unreadable uevent file leaves the keys udev makes from links and attributes */
	err = device_udev_properties(dev);
	if (err >= 0)
		err = device_links(dev);
	if (err < 0)
		return err;
	if (strcmp(key, "DEVNAME") == 0 && dev->udev_devname)
		v = dev->udev_devname;
	else
		v = uevent_get(&dev->uevent, key);
	if (!v) {
		if (strcmp(key, "DEVPATH") == 0)
			v = dev->devpath.s;
		else if (strcmp(key, "SUBSYSTEM") == 0 && dev->has_subsystem)
			v = dev->subsystem.s;
		else if (strcmp(key, "DRIVER") == 0 && dev->has_driver)
			v = dev->driver.s;
		else if (strcmp(key, "MAJOR") == 0 && dev->udev_major[0])
			v = dev->udev_major;
		else if (strcmp(key, "MINOR") == 0 && dev->udev_minor[0])
			v = dev->udev_minor;
	}
	if (!v)
		return -ENOENT;
	*ret = v;
	return 0;
}

_public_ int sysdev_device_get_udev_property(struct sysdev_device *dev, const char *key,
					     const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(key, -EINVAL);
	assert_return(ret, -EINVAL);
	/* with a database, the merged view; without, no list to build */
	if (dev->ctx->udev_db_fd >= 0 && !dev->is_event)
		return device_db_property(dev, key, ret);
	return device_sysfs_udev_property(dev, key, ret);
}

_public_ int sysdev_device_get_action(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (!dev->is_event)
		return -ENOENT;
	*ret = dev->action;
	return 0;
}

_public_ int sysdev_device_get_seqnum(struct sysdev_device *dev, uint64_t *ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	if (!dev->is_event)
		return -ENOENT;
	if (dev->synthesized || dev->is_loss)
		return -ENODATA; /* not heard: the kernel gave it no number */
	*ret = dev->seqnum;
	return 0;
}

_public_ int sysdev_device_get_is_synthesized(struct sysdev_device *dev)
{
	assert_return(dev, -EINVAL);
	return dev->synthesized;
}

/* A loss notice's field: 0 and the number, -ENODATA where unknown, -EINVAL for no notice. */
static int lost_field(const struct sysdev_device *dev, bool known, uint64_t value, uint64_t *ret)
{
	assert_return(dev->is_loss, -EINVAL);
	if (!known)
		return -ENODATA;
	*ret = value;
	return 0;
}

_public_ int sysdev_device_get_lost_count(struct sysdev_device *dev, uint64_t *ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return lost_field(dev, dev->lost_count_known, dev->lost_count, ret);
}

_public_ int sysdev_device_get_lost_first(struct sysdev_device *dev, uint64_t *ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return lost_field(dev, dev->lost_first_known, dev->lost_first, ret);
}

_public_ int sysdev_device_get_lost_last(struct sysdev_device *dev, uint64_t *ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return lost_field(dev, dev->lost_last_known, dev->lost_last, ret);
}

_public_ int sysdev_device_get_lost_evidence(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	assert_return(dev->is_loss, -EINVAL);
	*ret = dev->lost_evidence;
	return 0;
}

_public_ int sysdev_device_get_link(struct sysdev_device *dev, const char *name, char **ret)
{
	_cleanup_free_ char *target = NULL;
	char *res;
	int fd, err;

	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(dev, -EINVAL);
	assert_return(name, -EINVAL);
	assert_return(name_is_single_component(name), -EINVAL);
	fd = device_fd(dev);
	if (fd < 0)
		return fd;
	err = readlink_alloc(fd, name, &target);
	if (err < 0)
		return err == -EINVAL ? -ENOENT : err; /* not a link: no link of that name */
	res = resolve_link_target(dev->ctx->root, dev->devpath.s, target);
	if (!res && errno == ENOMEM)
		return -ENOMEM;
	*ret = res ? res : TAKE_PTR(target);
	return 0;
}

/* A udev message's properties as uevent file text ("KEY=VALUE\n..."), parsed. */
static int uevent_from_message(struct uevent *u, const struct uevent_message *msg)
{
	size_t len = 0;

	for (size_t i = 0; i < msg->n; i++)
		len += strlen(msg->keys[i]) + strlen(msg->values[i]) + 2;
	u->cap = len + 1;
	u->buf = malloc(u->cap);
	if (!u->buf)
		return -ENOMEM;
	len = 0;
	for (size_t i = 0; i < msg->n; i++) {
		/* a value holding a newline would start a line of its own: cut there */
		size_t kl = strlen(msg->keys[i]), vl = strcspn(msg->values[i], "\n");

		memcpy(u->buf + len, msg->keys[i], kl);
		u->buf[len + kl] = '=';
		memcpy(u->buf + len + kl + 1, msg->values[i], vl);
		len += kl + 1 + vl;
		u->buf[len++] = '\n';
	}
	return uevent_parse(u, len);
}

static int set_from_property(struct sysdev_device *dev, const char *key, struct sbuf *b,
			     bool *present)
{
	const char *v = uevent_get(&dev->uevent, key);

	*present = false;
	if (!v || !*v)
		return 0;
	*present = true;
	return sbuf_set(b, v, strlen(v));
}

int device_new_from_message(struct sysdev *ctx, const struct uevent_message *msg, bool look,
			    struct sysdev_device **ret)
{
	_cleanup_(sysdev_device_unrefp) struct sysdev_device *dev = NULL;
	int kind, err;

	err = device_alloc(ctx, msg->devpath, strlen(msg->devpath), &dev);
	if (err < 0)
		return err;
	dev->is_event = true;
	dev->seqnum = msg->seqnum;
	dev->action = strdup(msg->action);
	if (!dev->action)
		return -ENOMEM;
	err = uevent_from_message(&dev->uevent, msg);
	if (err < 0)
		return err;
	err = set_from_property(dev, "SUBSYSTEM", &dev->subsystem, &dev->has_subsystem);
	if (err >= 0)
		err = set_from_property(dev, "DRIVER", &dev->driver, &dev->has_driver);
	if (err < 0)
		return err;
	/* the kernel sends MAJOR and MINOR exactly for a device with a number */
	dev->has_dev = dev->uevent.devnum[0] != '\0';
	/*
	 * Where the device sits, while it is there: one walk down from the
	 * root gives the kind, the parent and the class directory (a storm of
	 * events pays it once an event, not three times).
	 */
	if (look && strcmp(msg->action, "remove") != 0 && devpath_is_valid(msg->devpath)) {
		_cleanup_free_ char *parent = NULL, *class_dir = NULL, *target = NULL;
		struct ancestry a;

		/* gone already (a reader behind a storm): one failed open, not a walk */
		if (!devpath_is_device(ctx, msg->devpath))
			goto done;
		kind = classify_with_ancestry(ctx, msg->devpath, &a);
		if (kind == -ENOMEM)
			return kind;
		if (kind < 0)
			goto done;
		dev->has_kind = true;
		dev->kind = (enum sysdev_kind)kind;
		if (kind == SYSDEV_KIND_DEVICE) {
			ancestry_take(&a, &parent, &class_dir);
			err = readlink_alloc(a.fd, "subsystem", &target);
		}
		ancestry_free(&a);
		if (kind != SYSDEV_KIND_DEVICE)
			goto done;
		if (err == -ENOMEM)
			return err;
		if (target && set_subsystem_kind(dev, target) < 0)
			return -ENOMEM;
		dev->has_parent = parent != NULL;
		dev->has_class_dir = class_dir != NULL;
		if ((parent && sbuf_set(&dev->parent_devpath, parent, strlen(parent)) < 0) ||
		    (class_dir && sbuf_set(&dev->class_dir, class_dir, strlen(class_dir)) < 0))
			return -ENOMEM;
	}
done:
	*ret = TAKE_PTR(dev);
	return 0;
}
