/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DEVICE and START arguments: what a person typed, resolved to a devpath or said why not. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "args.h"
#include "device-fields.h"
#include "device-id.h"
#include "messages.h"
#include "plural.h"
#include "root-archive.h"

static char syspath_buf[PATH_MAX * 2];

/* The root as messages name it, and as the prefix of a path below it ("" for "/"). */
const char *root_named(struct sysdev *ctx)
{
	return root_shown(sysdev_get_root(ctx));
}

static const char *root_prefix(struct sysdev *ctx)
{
	return strcmp(root_named(ctx), "/") ? root_named(ctx) : "";
}

const char *syspath_of(struct sysdev *ctx, const char *devpath)
{
	snprintf(syspath_buf, sizeof(syspath_buf), "%s%s", root_prefix(ctx), devpath);
	return syspath_buf;
}

/* Why a /dev/NODE argument names no device, in one line. */
static void warn_devnode(struct sysdev *ctx, const char *arg)
{
	struct stat st;

	if (stat(arg, &st) < 0)
		warnx_(arg, "no such device node: %s", error_words(-errno));
	else if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		warnx_(arg, "not a device node: expected a block or character device in /dev");
	else
		warnx_(arg, "no device under %s has this node: %s/dev/%s/%u:%u does not exist",
		       root_named(ctx), root_prefix(ctx), S_ISBLK(st.st_mode) ? "block" : "char",
		       major(st.st_rdev), minor(st.st_rdev));
}

static bool looks_like_subsystem_name(const char *arg)
{
	const char *colon = strchr(arg, ':');

	return colon && colon != arg && colon[1] && !strchr(arg, '/') && arg[0] != '.';
}

int resolve_arg(struct sysdev *ctx, const char *arg, char **devpath)
{
	const char *root = root_named(ctx);
	struct sysdev_device *dev;
	struct device_id id;
	char *path = NULL;
	int err;

	*devpath = NULL;
	/* udev's device ids, parsed as the library parses them */
	if (device_id_parse(arg, &id)) {
		err = sysdev_device_new(ctx, arg, &dev);
		if (err < 0 && id.kind == DEVICE_ID_DEVNUM)
			warnx_(arg, "no device has this number: %s/dev/%s/%u:%u: %s",
			       strcmp(root, "/") ? root : "", id.type == 'b' ? "block" : "char",
			       id.major, id.minor, error_words(err));
		else if (err < 0 && id.kind == DEVICE_ID_IFINDEX)
			warnx_(arg,
			       "no network interface has this index: no %s/class/net/* has "
			       "ifindex %u: %s",
			       strcmp(root, "/") ? root : "", id.ifindex, error_words(err));
		else if (err < 0)
			warnx_(arg, "no such device: %s", error_words(err));
		if (err < 0)
			return err;
		*devpath = strdup(dev_str(dev, sysdev_device_get_devpath));
		sysdev_device_unref(dev);
		return *devpath ? 0 : -ENOMEM;
	}
	if (strncmp(arg, "/dev/", 5) == 0 || looks_like_subsystem_name(arg)) {
		err = sysdev_device_new(ctx, arg, &dev);
		if (err == 0) {
			*devpath = strdup(dev_str(dev, sysdev_device_get_devpath));
			sysdev_device_unref(dev);
			return *devpath ? 0 : -ENOMEM;
		}
		if (arg[0] == '/') {
			if (err == -ENOENT)
				warn_devnode(ctx, arg);
			else
				warnx_(arg, "%s", error_words(err));
			return err;
		}
		/* pci0000:00 typed in S/devices is a path, not SUBSYSTEM:NAME */
		if (err != -ENOENT || access(arg, F_OK) != 0) {
			if (err == -ENOENT)
				warnx_(arg,
				       "no such device: S/class/SUBSYSTEM/NAME and "
				       "S/bus/SUBSYSTEM/devices/NAME do not exist under %s",
				       root);
			else
				warnx_(arg, "%s", error_words(err));
			return err;
		}
	}
	err = sysdev_resolve_path(ctx, arg, &path);
	if (err == -EXDEV) {
		warnx_(arg,
		       "outside the sysfs root %s: expected a path below %s/devices, "
		       "SUBSYSTEM:NAME or /dev/NODE (EXDEV)",
		       root, strcmp(root, "/") ? root : "");
		return err;
	}
	if (err == -ENOTDIR) {
		warnx_(arg, "no such device or directory: the path goes through a file (ENOTDIR)");
		return err;
	}
	if (err < 0) {
		warnx_(arg, "%s", error_words(err));
		return err;
	}
	/* the root itself: the whole tree */
	if (strcmp(path, "/") == 0) {
		free(path);
		path = strdup("/devices");
		if (!path)
			return -ENOMEM;
	}
	if (strncmp(path, "/devices", 8) != 0 || (path[8] != '/' && path[8] != '\0')) {
		const char *real = syspath_of(ctx, path);

		warnx_(arg,
		       "not under %s/devices%s%s%s: expected a directory there, "
		       "SUBSYSTEM:NAME or /dev/NODE",
		       strcmp(root, "/") ? root : "", strcmp(real, arg) ? " (it is " : "",
		       strcmp(real, arg) ? real : "", strcmp(real, arg) ? ")" : "");
		free(path);
		return -EXDEV;
	}
	*devpath = path;
	return 0;
}

/* The start of a walk: any directory under S/devices, or any DEVICE form. */
int resolve_start(struct sysdev *ctx, const char *start, char **devpath)
{
	int err = resolve_arg(ctx, start, devpath);

	if (err < 0)
		return err;
	err = sysdev_classify(ctx, *devpath);
	if (err == -ENOTDIR)
		warnx_(start,
		       "a file, not a directory: expected a directory under %s/devices "
		       "(ENOTDIR)",
		       root_prefix(ctx));
	else if (err < 0)
		warnx_(start, "%s", error_words(err));
	if (err < 0) {
		free(*devpath);
		*devpath = NULL;
	}
	return err;
}

void warn_root(const char *root, int err)
{
	if (err == -ENOENT)
		warnx_(root, "not a sysfs root: no such directory, or it has no devices/ "
			     "directory (ENOENT)");
	else if (err == -ENOTDIR)
		warnx_(root, "not a sysfs root: not a directory, or its devices/ is not a "
			     "directory (ENOTDIR)");
	else
		warnx_(root, "cannot open sysfs root: %s", error_words(err));
}

int start_or_warn(struct sysdev *ctx, const char *arg, char **start)
{
	int err;

	*start = NULL;
	if (!arg)
		return 0;
	err = resolve_start(ctx, arg, start);
	return err;
}

struct sysdev_device *open_device_or_warn(struct sysdev *ctx, const char *spec)
{
	struct sysdev_device *dev = NULL;
	char *devpath;
	int err = resolve_arg(ctx, spec, &devpath);

	if (err < 0)
		return NULL;
	err = sysdev_device_new_from_devpath(ctx, devpath, &dev);
	if (err == -ENODEV) {
		int kind = sysdev_classify(ctx, devpath);

		if (kind >= 0)
			warnx_(spec, "%s is %s %s, not a device (it has no uevent file)",
			       syspath_of(ctx, devpath),
			       indefinite_article(sysdev_kind_to_string(kind)),
			       sysdev_kind_to_string(kind));
		else
			warnx_(spec, "%s is not a device directory (ENODEV)",
			       syspath_of(ctx, devpath));
	} else if (err < 0) {
		warnx_(spec, "%s", error_words(err));
	}
	free(devpath);
	return dev;
}
