/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers of the library: name sets, devpaths. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"

/*
 * Entries of directory @path (relative to @dirfd, no link followed on any
 * component), dotfiles excluded as a shell glob does.
 */
int name_set_load(int dirfd, const char *path, struct name_set *set)
{
	int fd, err;

	set->names = NULL;
	set->n = 0;
	fd = open_below(dirfd, path, NULL);
	if (fd < 0)
		return fd;
	err = name_set_load_fd(fd, set);
	close(fd);
	return err;
}

int name_set_load_fd(int fd, struct name_set *set)
{
	struct dir_list l = {0};
	int err;

	set->names = NULL;
	set->n = 0;
	err = dir_list_read(&l, fd, DIR_LIST_NO_HIDDEN | DIR_LIST_REOPEN);
	if (err == 0) {
		set->names = dir_list_names(&l);
		if (set->names)
			set->n = l.n;
		else
			err = -ENOMEM;
	}
	dir_list_free(&l);
	return err;
}

bool name_set_has(const struct name_set *set, const char *name)
{
	return set->n && bsearch(&name, set->names, set->n, sizeof(*set->names), cmp_strp);
}

void name_set_free(struct name_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->names[i]);
	free(set->names);
	set->names = NULL;
	set->n = 0;
}

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
