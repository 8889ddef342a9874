/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device records of --diff and --check-udev: one per device, sorted by
 * devpath, with what each comparison reads and marks.
 */
#ifndef SYSDEV_TREE_DEVS_H
#define SYSDEV_TREE_DEVS_H

#include <stdbool.h>
#include <stddef.h>

struct attr {
	char *name;
	char *value; /* NULL: unreadable */
	size_t len;  /* bytes of value: binary attributes hold NULs */
	int err;
};

struct dev {
	char *devpath;
	const char *name; /* --diff: points into devpath */
	char *subsystem, *driver, *devtype, *devnum, *parent;
	char *modalias; /* --diff: MODALIAS property or modalias attribute: what the device is */
	struct attr *attrs; /* --diff --attrs */
	size_t nattrs;
	/* --diff, set while comparing */
	struct dev *moved_to;	/* OLD side: its counterpart in NEW */
	struct dev *moved_from; /* NEW side */
	struct dev *carried_by; /* OLD side: the moved ancestor that carried it */
	size_t carried;		/* OLD side: moves it carried */
	/* --check-udev */
	bool listed; /* walk: libudev lists it */
	bool linked; /* walk: an entry of the lists links to it */
};

struct devs {
	struct dev *v;
	size_t n, cap;
};

/* Order by devpath (for qsort and bsearch). */
int cmp_dev(const void *a, const void *b);
/* The record for @devpath in sorted @d, or NULL (also for a NULL @devpath). */
struct dev *find_dev(const struct devs *d, const char *devpath);
void devs_free(struct devs *d);
/* Append a record (the strings are copied; NULL stays NULL); 0 or -ENOMEM. */
int devs_add(struct devs *d, const char *devpath, const char *subsystem, const char *driver,
	     const char *devtype, const char *devnum, const char *parent);

#endif
