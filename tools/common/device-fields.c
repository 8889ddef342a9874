/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's fields for output (device-fields.h). */
#include <stdio.h>
#include <sys/sysmacros.h>

#include "device-fields.h"

const char *dev_devnum(struct sysdev_device *dev, char *buf, size_t size)
{
	dev_t devnum;

	if (!dev || oom_check(sysdev_device_get_devnum(dev, &devnum)) < 0)
		return NULL;
	snprintf(buf, size, "%u:%u", major(devnum), minor(devnum));
	return buf;
}

const char *dev_subsystem_kind(struct sysdev_device *dev)
{
	enum sysdev_subsystem_kind kind;

	if (!dev || oom_check(sysdev_device_get_subsystem_kind(dev, &kind)) < 0)
		return NULL;
	return sysdev_subsystem_kind_to_string(kind);
}
