/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_DEVICE_PRIVATE_H
#define LIBSYSDEV_DEVICE_PRIVATE_H

#include "libsysdev-private.h"

struct sysdev_device {
	int refcount;
	struct sysdev *ctx;
	int fd; /* the device directory */
	char *devpath;
	const char *name; /* last component of devpath */
	char *parent_devpath;
	char *class_dir;
	char *subsystem;
	enum sysdev_subsystem_kind subsystem_kind;
	char *driver;
	struct uevent uevent;
	bool has_dev; /* a regular "dev" attribute: the device has a number */
	/* filled on first use by objects the enumerator makes (fd < 0 until then) */
	bool ancestry_pending; /* parent_devpath and class_dir not yet looked up */
	bool uevent_pending;   /* the uevent file not yet read */
	/* udev's view of the properties, made on first use */
	bool udev_ready;
	char *udev_devname;		     /* DEVNAME as /dev/NAME */
	char udev_major[12], udev_minor[12]; /* from the dev attribute */
	/* attributes.c, filled on first use */
	bool listed;
	struct name_set attrs;
	struct name_set groups;
};

void attributes_free(struct sysdev_device *dev);
/* The device directory, opened on first use.  A descriptor or a negative errno. */
int device_fd(struct sysdev_device *dev);
/* Objects for the enumerator: from a walk's node (no descriptor held), or from a
 * devpath found through S/class or S/bus (its ancestry looked up when asked). */
int device_new_from_node(const struct sysdev_node *node, struct sysdev_device **out);
int device_new_indexed(struct sysdev *ctx, const char *devpath, struct sysdev_device **out);

#endif
