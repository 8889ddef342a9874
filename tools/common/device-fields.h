/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A device's fields for output: the value, or NULL where the device has none
 * or it could not be read (the library's -ENOENT or another errno).  The
 * commands that must tell the two apart call the library's getters.  No
 * memory is never taken for "none": the program says so and exits.
 */
#ifndef SYSDEV_TOOLS_DEVICE_FIELDS_H
#define SYSDEV_TOOLS_DEVICE_FIELDS_H

#include <stddef.h>

#include "libsysdev.h"
#include "messages.h"

static inline const char *dev_str(struct sysdev_device *dev,
				  int (*get)(struct sysdev_device *dev, const char **ret))
{
	const char *v = NULL;

	return dev && oom_check(get(dev, &v)) >= 0 ? v : NULL;
}

static inline const char *dev_property(struct sysdev_device *dev, const char *key)
{
	const char *v = NULL;

	return dev && oom_check(sysdev_device_get_property(dev, key, &v)) >= 0 ? v : NULL;
}

static inline const char *dev_udev_property(struct sysdev_device *dev, const char *key)
{
	const char *v = NULL;

	return dev && oom_check(sysdev_device_get_udev_property(dev, key, &v)) >= 0 ? v : NULL;
}

/* The parent device's devpath, or NULL. */
static inline const char *dev_parent_devpath(struct sysdev_device *dev)
{
	return dev_str(dev, sysdev_device_get_parent_devpath);
}

/* "MAJOR:MINOR" in @buf, or NULL when the device has no number. */
const char *dev_devnum(struct sysdev_device *dev, char *buf, size_t size);
/* The name of where the subsystem link points ("bus", "class"), or NULL. */
const char *dev_subsystem_kind(struct sysdev_device *dev);

#endif
