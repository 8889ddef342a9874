/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --check-udev's three views of one tree (see cmd-check-udev.c): the records
 * they are collected into, the link lists read from S/bus and S/class, and
 * libudev's enumeration.
 */
#ifndef SYSDEV_TREE_CHECK_UDEV_H
#define SYSDEV_TREE_CHECK_UDEV_H

#include <stdbool.h>
#include <stddef.h>

#include "devs.h"

struct link {
	char *list;   /* "/class/net/lo" */
	char *target; /* devpath it resolves to, or NULL */
	const char *reason;
	char *detail; /* what made it fail, or NULL */
};

struct links {
	struct link *v;
	size_t n, cap;
};

/* check-udev-views.c: the lists, sorted by list path */
int cmp_link(const void *a, const void *b);
void links_free(struct links *l);
/*
 * All the lists: S/bus/X/devices and S/class/X (and S/block on old kernels
 * without S/class/block), sorted by cmp_link; 0 or a negative errno.
 */
int collect_lists(int rootfd, struct links *l);
/* libudev's enumeration of /sys with no match, into @out */
int udev_collect(struct devs *out);

/*
 * sysfs-namespace.c: libudev reads /sys: make /sys show @root, in a private
 * mount namespace.  Returns 0 when /sys already is the root, 1 when bound, or
 * a negative errno (with *@step naming what failed).
 */
int bind_root_over_sys(const char *root, const char **step);

#endif
