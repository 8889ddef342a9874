/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --check-udev: the records, the link lists of S/bus and S/class, and libudev's view. */
#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check-udev.h"
#include "cli.h"
#include "dir-list.h"
#include "in-root.h"

int cmp_link(const void *a, const void *b)
{
	return strcmp(((const struct link *)a)->list, ((const struct link *)b)->list);
}

void links_free(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].list);
		free(l->v[i].target);
		free(l->v[i].detail);
	}
	free(l->v);
}

/* ---------------------------------------------------------------- */
/* The lists: S/bus/X/devices/Y, S/class/X/Y, resolved here          */
/* ---------------------------------------------------------------- */

/*
 * Resolve @path (relative to the root) as the kernel would with the root
 * mounted at /sys, never leaving it (see in-root.h): 0 and the devpath in
 * *@out, or a negative errno with *@detail naming what failed (the path
 * reached, or the link text that leaves the root for -EXDEV).
 */
static int resolve_list_entry(int rootfd, const char *path, char **out, char **detail)
{
	struct in_root r;
	int err;

	err = in_root_resolve(rootfd, NULL, path, IN_ROOT_OPEN_PATH, &r);
	if (err == 0 && r.fd >= 0) {
		struct stat st;

		if (fstat(r.fd, &st) < 0)
			err = -errno;
		else if (!S_ISDIR(st.st_mode))
			err = -ENOTDIR;
		if (err < 0)
			r.detail = r.path;
		else
			*out = r.path;
		r.path = NULL;
	}
	*detail = r.detail;
	r.detail = NULL;
	in_root_free(&r);
	return err;
}

static int add_link(int rootfd, struct links *l, const char *list)
{
	struct link *x;
	struct stat st;
	int err;

	/* attribute files such as S/class/firmware/timeout are no entries (libudev skips them) */
	if (lstat_below(rootfd, list + 1, &st) == 0 && !S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode))
		return 0;
	if (grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		return -ENOMEM;
	x = &l->v[l->n];
	*x = (struct link){.list = strdup(list)};
	l->n++;
	if (!x->list)
		return -ENOMEM;
	err = resolve_list_entry(rootfd, list + 1, &x->target, &x->detail);
	if (err == -ENOMEM)
		return err;
	switch (err) {
	case 0:
		break;
	case -ENOENT:
		x->reason = "dangling link: no such file or directory";
		break;
	case -EXDEV:
		x->reason = "link points outside the sysfs root";
		break;
	case -ELOOP:
		x->reason = "too many levels of symbolic links";
		break;
	case -ENOTDIR:
		x->reason = "does not lead to a directory";
		break;
	default:
		x->reason = "cannot be resolved";
		break;
	}
	return 0;
}

/*
 * Entries of directory @dir (relative to the root fd, links on the way
 * resolved inside the root as libudev follows them in /sys), sorted,
 * dotfiles left out.
 */
static int list_dir(int rootfd, const char *dir, struct dir_list *l)
{
	struct in_root r;
	int fd, err;

	err = in_root_resolve(rootfd, NULL, dir, IN_ROOT_OPEN_DIR, &r);
	fd = r.fd;
	r.fd = -1;
	in_root_free(&r);
	if (err < 0)
		return err;
	err = dir_list_read(l, fd, DIR_LIST_NO_HIDDEN);
	close(fd);
	return err;
}

/*
 * Every entry of BASE/X/SUB/ (SUB may be NULL: BASE/X/) as a link.
 * A missing BASE is no error: a tree may have no buses.
 */
static int scan_lists(int rootfd, struct links *l, const char *base, const char *sub)
{
	struct dir_list outer = {0}, inner = {0};
	int err;

	err = list_dir(rootfd, base, &outer);
	if (err < 0) {
		dir_list_free(&outer);
		return err == -ENOENT ? 0 : err;
	}
	for (size_t i = 0; i < outer.n && err >= 0; i++) {
		char dir[PATH_MAX];
		int r;

		snprintf(dir, sizeof(dir), "%s/%s%s%s", base, outer.v[i].name, sub ? "/" : "",
			 sub ? sub : "");
		/* not a directory (or no devices/): libudev skips it too; not for want of memory */
		r = list_dir(rootfd, dir, &inner);
		if (r < 0) {
			err = r == -ENOMEM ? r : 0;
			continue;
		}
		for (size_t j = 0; j < inner.n && err >= 0; j++) {
			char list[PATH_MAX * 2];

			snprintf(list, sizeof(list), "/%s/%s", dir, inner.v[j].name);
			err = add_link(rootfd, l, list);
		}
	}
	dir_list_free(&inner);
	dir_list_free(&outer);
	return err;
}

/* ---------------------------------------------------------------- */
/* libudev                                                            */
/* ---------------------------------------------------------------- */

int udev_collect(struct devs *out)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e;
	struct udev_list_entry *entry;
	int err = 0;

	if (!udev)
		return -errno ? -errno : -ENOMEM;
	e = udev_enumerate_new(udev);
	if (!e) {
		err = -errno ? -errno : -ENOMEM;
		udev_unref(udev);
		return err;
	}
	err = udev_enumerate_scan_devices(e);
	if (err < 0)
		warnx_("libudev",
		       "scanning /sys reported an error: %s (the list may be "
		       "incomplete)",
		       error_words(err));
	err = 0;
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
	{
		const char *syspath = udev_list_entry_get_name(entry);
		struct udev_device *d = udev_device_new_from_syspath(udev, syspath);
		struct udev_device *p;
		const char *devpath, *parent = NULL;
		char devnum[32], *devnum_s = NULL;

		if (!d) {
			/* gone since the scan, or refused: list it with no fields */
			devpath = strncmp(syspath, "/sys/", 5) == 0 ? syspath + 4 : syspath;
			err = devs_add(out, devpath, NULL, NULL, NULL, NULL, NULL);
			if (err < 0)
				break;
			continue;
		}
		devpath = udev_device_get_devpath(d);
		if (!devpath)
			devpath = strncmp(syspath, "/sys/", 5) == 0 ? syspath + 4 : syspath;
		if (major(udev_device_get_devnum(d)) || minor(udev_device_get_devnum(d))) {
			snprintf(devnum, sizeof(devnum), "%u:%u", major(udev_device_get_devnum(d)),
				 minor(udev_device_get_devnum(d)));
			devnum_s = devnum;
		}
		p = udev_device_get_parent(d); /* owned by d */
		if (p)
			parent = udev_device_get_devpath(p);
		err =
		    devs_add(out, devpath, udev_device_get_subsystem(d), udev_device_get_driver(d),
			     udev_device_get_devtype(d), devnum_s, parent);
		udev_device_unref(d);
		if (err < 0)
			break;
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return err;
}

int collect_lists(int rootfd, struct links *l)
{
	struct stat st;
	int err;

	/* S/bus and S/class, as libudev scans them (S/subsystem, which no kernel
	 * merged, libudev no longer reads: neither do we) */
	err = scan_lists(rootfd, l, "bus", "devices");
	if (err >= 0)
		err = scan_lists(rootfd, l, "class", NULL);
	if (err >= 0 && lstat_below(rootfd, "class/block", &st) < 0 &&
	    lstat_below(rootfd, "block", &st) == 0) {
		/* old kernels: block devices are listed in S/block */
		struct dir_list names = {0};

		err = list_dir(rootfd, "block", &names);
		for (size_t i = 0; err >= 0 && i < names.n; i++) {
			char list[PATH_MAX];

			snprintf(list, sizeof(list), "/block/%s", names.v[i].name);
			err = add_link(rootfd, l, list);
		}
		dir_list_free(&names);
	}
	if (err >= 0 && l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_link);
	return err;
}
