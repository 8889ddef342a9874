/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stand-in for libudev, and for unshare(2)/mount(2), so that sysdev-tree's
 * --check-udev comparison can be tested without privileges and without
 * binding anything over /sys: this file is linked into a copy of
 * sysdev-tree (sysdev-tree-fakeudev) in place of libudev.
 *
 * libudev's enumeration is read from the file named by FAKE_UDEV_DEVICES,
 * one device a line, six tab-separated fields ("-" for none):
 *     DEVPATH  SUBSYSTEM  DRIVER  DEVTYPE  MAJOR:MINOR  PARENT-DEVPATH
 * unshare() and mount() succeed without doing anything: the walk reads the
 * --root given, the fake "libudev" reads the file.
 */
#include <errno.h>
#include <libudev.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

struct udev {
	int refs;
};

struct udev_device {
	char *devpath, *syspath, *subsystem, *driver, *devtype, *parent_path;
	dev_t devnum;
	struct udev_device *parent;
};

struct udev_list_entry {
	char *name;
	struct udev_list_entry *next;
};

struct udev_enumerate {
	struct udev_list_entry *first;
};

int unshare(int flags)
{
	(void)flags;
	return 0;
}

int mount(const char *source, const char *target, const char *type, unsigned long flags,
	  const void *data)
{
	(void)source, (void)target, (void)type, (void)flags, (void)data;
	return 0;
}

struct udev *udev_new(void)
{
	return calloc(1, sizeof(struct udev));
}

struct udev *udev_unref(struct udev *udev)
{
	free(udev);
	return NULL;
}

struct udev_enumerate *udev_enumerate_new(struct udev *udev)
{
	(void)udev;
	return calloc(1, sizeof(struct udev_enumerate));
}

struct udev_enumerate *udev_enumerate_unref(struct udev_enumerate *e)
{
	if (!e)
		return NULL;
	for (struct udev_list_entry *x = e->first, *n; x; x = n) {
		n = x->next;
		free(x->name);
		free(x);
	}
	free(e);
	return NULL;
}

static char *field(char **p)
{
	char *s = *p, *t = strchr(s, '\t');

	if (t) {
		*t = '\0';
		*p = t + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

/* The line of FAKE_UDEV_DEVICES for @devpath, split; NULL if none. */
static int lookup(const char *devpath, char *fields[6], char *line, size_t size)
{
	const char *path = getenv("FAKE_UDEV_DEVICES");
	FILE *f = path ? fopen(path, "r") : NULL;

	if (!f)
		return -ENOENT;
	while (fgets(line, (int)size, f)) {
		char *p = line;

		line[strcspn(line, "\n")] = '\0';
		for (int i = 0; i < 6; i++)
			fields[i] = field(&p);
		if (strcmp(fields[0], devpath) == 0) {
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

int udev_enumerate_scan_devices(struct udev_enumerate *e)
{
	const char *path = getenv("FAKE_UDEV_DEVICES");
	struct udev_list_entry **tail = &e->first;
	char line[8192];
	FILE *f = path ? fopen(path, "r") : NULL;

	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		struct udev_list_entry *x;

		line[strcspn(line, "\t\n")] = '\0';
		if (!line[0])
			continue;
		x = calloc(1, sizeof(*x));
		if (!x || asprintf(&x->name, "/sys%s", line) < 0)
			abort();
		*tail = x;
		tail = &x->next;
	}
	fclose(f);
	return 0;
}

struct udev_list_entry *udev_enumerate_get_list_entry(struct udev_enumerate *e)
{
	return e->first;
}

struct udev_list_entry *udev_list_entry_get_next(struct udev_list_entry *x)
{
	return x ? x->next : NULL;
}

const char *udev_list_entry_get_name(struct udev_list_entry *x)
{
	return x ? x->name : NULL;
}

/* Values are never asked for: the lists here hold names only. */
const char *udev_list_entry_get_value(struct udev_list_entry *x)
{
	(void)x;
	return NULL;
}

/* No hardware database: the names of sysdev-tree are then empty, as on a
 * system without hwdb.bin. */
struct udev_hwdb *udev_hwdb_new(struct udev *udev)
{
	(void)udev;
	errno = ENOENT;
	return NULL;
}

struct udev_hwdb *udev_hwdb_unref(struct udev_hwdb *hwdb)
{
	(void)hwdb;
	return NULL;
}

struct udev_list_entry *udev_hwdb_get_properties_list_entry(struct udev_hwdb *hwdb,
							    const char *modalias, unsigned flags)
{
	(void)hwdb;
	(void)modalias;
	(void)flags;
	return NULL;
}

static char *opt(const char *s)
{
	return strcmp(s, "-") == 0 ? NULL : strdup(s);
}

/* @any: a device that is not listed too (libudev makes a parent from its syspath) */
static struct udev_device *device_new(const char *devpath, bool any)
{
	char line[8192], *fs[6];
	struct udev_device *d;
	unsigned maj, min;

	if (lookup(devpath, fs, line, sizeof(line)) < 0) {
		if (!any)
			return NULL;
		snprintf(line, sizeof(line), "%s", devpath);
		fs[0] = line;
		fs[1] = fs[2] = fs[3] = fs[4] = fs[5] = "-";
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	d->devpath = strdup(fs[0]);
	d->subsystem = opt(fs[1]);
	d->driver = opt(fs[2]);
	d->devtype = opt(fs[3]);
	if (sscanf(fs[4], "%u:%u", &maj, &min) == 2)
		d->devnum = makedev(maj, min);
	d->parent_path = opt(fs[5]);
	return d;
}

struct udev_device *udev_device_new_from_syspath(struct udev *udev, const char *syspath)
{
	(void)udev;
	if (strncmp(syspath, "/sys/", 5) != 0)
		return NULL;
	return device_new(syspath + 4, false);
}

struct udev_device *udev_device_unref(struct udev_device *d)
{
	if (!d)
		return NULL;
	udev_device_unref(d->parent);
	free(d->devpath);
	free(d->subsystem);
	free(d->driver);
	free(d->devtype);
	free(d->parent_path);
	free(d);
	return NULL;
}

const char *udev_device_get_devpath(struct udev_device *d)
{
	return d->devpath;
}

const char *udev_device_get_subsystem(struct udev_device *d)
{
	return d->subsystem;
}

const char *udev_device_get_driver(struct udev_device *d)
{
	return d->driver;
}

const char *udev_device_get_devtype(struct udev_device *d)
{
	return d->devtype;
}

dev_t udev_device_get_devnum(struct udev_device *d)
{
	return d->devnum;
}

struct udev_device *udev_device_get_parent(struct udev_device *d)
{
	if (!d->parent && d->parent_path)
		d->parent = device_new(d->parent_path, true);
	return d->parent;
}
