/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_DEVICE_PRIVATE_H
#define LIBSYSDEV_DEVICE_PRIVATE_H

#include "libsysdev-private.h"

struct sysdev_device {
	int refcount;
	struct sysdev *ctx;
	int fd;                  /* the device directory */
	char *devpath;
	const char *name;        /* last component of devpath */
	char *parent_devpath;
	char *class_dir;
	char *subsystem;
	enum sysdev_subsystem_kind subsystem_kind;
	char *driver;
	struct uevent uevent;
	bool has_dev;            /* a regular "dev" attribute: the device has a number */
	char *link_value;        /* last answer of sysdev_device_get_link() */
	/* attributes.c, filled on first use */
	bool listed;
	struct name_set attrs;
	struct name_set groups;
};

void attributes_free(struct sysdev_device *dev);

#endif
