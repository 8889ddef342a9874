/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers of the library: devpaths. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"

int open_devpath(const struct sysdev *ctx, const char *devpath)
{
	return open_below(ctx->root_fd, devpath, NULL);
}

enum sysdev_placement placement_of(const char *devpath)
{
	if (strncmp(devpath, "/devices/virtual/", 17) == 0)
		return SYSDEV_PLACEMENT_VIRTUAL;
	if (strncmp(devpath, "/devices/system/", 16) == 0)
		return SYSDEV_PLACEMENT_SYSTEM;
	return SYSDEV_PLACEMENT_DEVICES;
}
