/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules of sysdev(7): what each directory under S/devices is. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"

bool classify_is_class_candidate(const struct classify_facts *f)
{
	return !f->is_root && !f->has_uevent && f->name_is_class &&
	       (f->parent_is_device || f->parent_is_virtual);
}

/* The rules, in the order sysdev(7) gives. */
enum sysdev_kind classify_decide(const struct classify_facts *f)
{
	if (f->is_root)
		return SYSDEV_KIND_ROOT;
	if (f->has_uevent)
		return SYSDEV_KIND_DEVICE;
	/* every rule below looks at the directory's entries, or at what it is not */
	if (f->unreadable)
		return SYSDEV_KIND_UNKNOWN;
	if (classify_is_class_candidate(f) && (f->empty || f->has_device_child))
		return SYSDEV_KIND_CLASS_DIR;
	if (f->below_device)
		return SYSDEV_KIND_ATTR_GROUP;
	return SYSDEV_KIND_CONTAINER;
}

static bool has_regular_uevent(int dirfd)
{
	struct stat st;

	return fstatat(dirfd, "uevent", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

bool child_has_uevent(int dirfd, const char *name)
{
	char path[NAME_MAX + 16];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/uevent", name) >= (int)sizeof(path))
		return false;
	return fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

bool dir_child_is_device(int dirfd, const char *name)
{
	struct stat st;

	/* AT_SYMLINK_NOFOLLOW covers the last component; a linked child is no directory */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
		return false;
	return child_has_uevent(dirfd, name);
}

int classify_scan_children(int fd, unsigned list_flags, struct classify_facts *f)
{
	struct dir_list l = {0};
	int err = dir_list_read(&l, fd, list_flags | DIR_LIST_UNSORTED);

	if (err == 0) {
		f->empty = l.n == 0;
		f->has_device_child = false;
		for (size_t i = 0; i < l.n && !f->has_device_child; i++)
			f->has_device_child = dir_entry_type(fd, &l.v[i]) == DT_DIR &&
					      child_has_uevent(fd, l.v[i].name);
	}
	dir_list_free(&l);
	return err;
}

void ancestry_free(struct ancestry *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	free(a->parent_devpath);
	free(a->parent_dirname);
	a->parent_devpath = NULL;
	a->parent_dirname = NULL;
}

/*
 * Open @devpath component by component, noting which ancestors are devices.
 * Costs a fstatat per level; used for single lookups, not for the walk.
 */
int ancestry_get(struct sysdev *ctx, const char *devpath, struct ancestry *a)
{
	size_t len = strlen(devpath), pos;
	bool prev_is_device = false, prev_prev_is_device = false;
	int fd;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (!devpath_is_valid(devpath))
		return -EINVAL;
	fd = openat(ctx->root_fd, "devices", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	pos = 8; /* past "/devices" */
	while (pos < len) {
		const char *c = devpath + pos + 1;
		size_t clen = strcspn(c, "/");
		char comp[NAME_MAX + 1];
		int nfd;

		if (clen > NAME_MAX) {
			close(fd);
			ancestry_free(a);
			return -ENAMETOOLONG;
		}
		memcpy(comp, c, clen);
		comp[clen] = '\0';
		/* the directory we stand in is the parent of the next one */
		prev_prev_is_device = prev_is_device;
		prev_is_device = pos > 8 && has_regular_uevent(fd);
		if (prev_is_device) {
			a->below_device = true;
			free(a->parent_devpath);
			a->parent_devpath = strndup(devpath, pos);
			if (!a->parent_devpath) {
				close(fd);
				return -ENOMEM;
			}
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			int err = errno == ELOOP ? -ENOTDIR : -errno;

			close(fd);
			ancestry_free(a);
			return err;
		}
		if (pos + 1 + clen >= len) {
			/* fd is the parent of devpath */
			const char *pname = devpath + pos;
			size_t plen;

			while (pname > devpath && pname[-1] != '/')
				pname--;
			plen = (size_t)(devpath + pos - pname);
			a->parent_dirname = strndup(pname, plen);
			a->parent_is_device = prev_is_device;
			a->parent_is_virtual = strncmp(devpath, "/devices/virtual", pos) == 0 && pos == 16;
			if (!a->parent_dirname) {
				close(fd);
				close(nfd);
				ancestry_free(a);
				return -ENOMEM;
			}
			/* the parent is a class grouping dir when it is a candidate */
			if (!prev_is_device && name_set_has(&ctx->classes, a->parent_dirname) &&
			    (prev_prev_is_device ||
			     (pos > 16 && strncmp(devpath, "/devices/virtual/", 17) == 0 &&
			      memchr(devpath + 17, '/', pos - 17) == NULL)))
				a->parent_is_class_dir = true;
		}
		close(fd);
		fd = nfd;
		pos += 1 + clen;
	}
	a->fd = fd;
	return 0;
}

static int facts_for(struct sysdev *ctx, const char *devpath, struct classify_facts *f,
		     struct ancestry *a)
{
	const char *name;
	int err;

	memset(f, 0, sizeof(*f));
	err = ancestry_get(ctx, devpath, a);
	if (err < 0)
		return err;
	if (strcmp(devpath, "/devices") == 0) {
		f->is_root = true;
		return 0;
	}
	name = strrchr(devpath, '/') + 1;
	f->has_uevent = has_regular_uevent(a->fd);
	f->name_is_class = name_set_has(&ctx->classes, name);
	f->parent_is_device = a->parent_is_device;
	f->parent_is_virtual = a->parent_is_virtual;
	f->below_device = a->below_device;
	if (classify_is_class_candidate(f)) {
		err = classify_scan_children(a->fd, DIR_LIST_REOPEN, f);
		if (err < 0)
			return err;
	}
	return 0;
}

_public_ int sysdev_classify(struct sysdev *ctx, const char *devpath)
{
	struct classify_facts f;
	struct ancestry a;
	int err;

	if (!ctx || !devpath)
		return -EINVAL;
	err = facts_for(ctx, devpath, &f, &a);
	ancestry_free(&a);
	if (err < 0)
		return err;
	return (int)classify_decide(&f);
}

_public_ int sysdev_explain(struct sysdev *ctx, const char *devpath, char *buf, size_t size)
{
	struct classify_facts f;
	struct ancestry a;
	enum sysdev_kind kind;
	const char *name;
	int err;

	if (!ctx || !devpath || !buf || size == 0)
		return -EINVAL;
	err = facts_for(ctx, devpath, &f, &a);
	if (err < 0) {
		ancestry_free(&a);
		return err;
	}
	kind = classify_decide(&f);
	name = strrchr(devpath, '/') + 1;
	switch (kind) {
	case SYSDEV_KIND_ROOT:
		snprintf(buf, size, "root: this is S/devices itself, the top of the device tree");
		break;
	case SYSDEV_KIND_DEVICE:
		snprintf(buf, size,
			 "device: it holds a regular file named 'uevent' (every directory with a "
			 "uevent file represents a device); %s%s",
			 a.parent_devpath ? "its parent device is " : "it has no parent device",
			 a.parent_devpath ? a.parent_devpath : "");
		break;
	case SYSDEV_KIND_CLASS_DIR:
		snprintf(buf, size,
			 "class-dir: not a device, named after the class '%s' (an entry of S/class), "
			 "its parent is %s, and it %s: a class grouping directory",
			 name, f.parent_is_device ? "a device" : "S/devices/virtual",
			 f.empty ? "is empty" : "holds device directories");
		break;
	case SYSDEV_KIND_ATTR_GROUP:
		if (classify_is_class_candidate(&f))
			snprintf(buf, size,
				 "attr-group: named after class '%s' but holds no device directory "
				 "and is not empty, so not a grouping directory; it lies below device "
				 "%s",
				 name, a.parent_devpath ? a.parent_devpath : "?");
		else if (f.name_is_class)
			snprintf(buf, size,
				 "attr-group: named after class '%s' but its parent is neither a "
				 "device nor S/devices/virtual; it lies below device %s",
				 name, a.parent_devpath ? a.parent_devpath : "?");
		else
			snprintf(buf, size,
				 "attr-group: no uevent file and not a class name; it lies below "
				 "device %s, so it groups attributes (like power/ or id/)",
				 a.parent_devpath ? a.parent_devpath : "?");
		break;
	case SYSDEV_KIND_CONTAINER:
		snprintf(buf, size,
			 "container: no uevent file, not a class grouping directory, and no device "
			 "above it: a place for parentless devices (like virtual/ or system/)");
		break;
	default:
		buf[0] = '\0';
	}
	ancestry_free(&a);
	return (int)kind;
}
