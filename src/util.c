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

/* A devpath: "/devices" or below it, no ".", ".." or empty components. */
bool devpath_is_valid(const char *devpath)
{
	const char *p;

	if (strncmp(devpath, "/devices", 8) != 0 || (devpath[8] != '/' && devpath[8] != '\0'))
		return false;
	for (p = devpath; *p; p++) {
		if (*p != '/')
			continue;
		if (p[1] == '/' || p[1] == '\0')
			return false;
		if (p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			return false;
		if (p[1] == '.' && p[2] == '.' && (p[3] == '/' || p[3] == '\0'))
			return false;
	}
	return true;
}
