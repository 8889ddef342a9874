/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libudev always reads /sys.  To compare it with another root, --check-udev
 * enters a private mount namespace (unshare(CLONE_NEWNS), then MS_PRIVATE
 * recursively on /, and only then a bind mount of the root over /sys), so
 * the host's /sys is never touched; unprivileged, in a user namespace of its
 * own first.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check-udev.h"

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, (size_t)len) != len)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

/* Enter a new user and mount namespace, mapping ourselves to root in it. */
static int map_self(void)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char map[64];
	int err;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return -errno;
	err = write_file("/proc/self/setgroups", "deny");
	if (err < 0 && err != -ENOENT) {
		errno = -err;
		return err;
	}
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	err = write_file("/proc/self/uid_map", map);
	if (err >= 0) {
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
		err = write_file("/proc/self/gid_map", map);
	}
	if (err < 0)
		errno = -err;
	return err;
}

/* See check-udev.h. */
int bind_root_over_sys(const char *root, const char **step)
{
	struct stat a, b;
	char *real;

	*step = "stat";
	if (stat(root, &a) < 0)
		return -errno;
	if (stat("/sys", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return 0;
	real = realpath(root, NULL);
	if (!real)
		return -errno;
	*step = "unshare(CLONE_NEWNS)";
	if (unshare(CLONE_NEWNS) < 0) {
		if (errno != EPERM || geteuid() == 0)
			goto fail;
		/* unprivileged: a user namespace of our own, as unshare -mr does */
		*step = "unshare(CLONE_NEWUSER|CLONE_NEWNS)";
		if (map_self() < 0)
			goto fail;
	}
	/* never let the bind mount propagate back to the host */
	*step = "mount --make-rprivate /";
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		goto fail;
	*step = "mount --rbind ROOT /sys";
	if (mount(real, "/sys", "none", MS_BIND | MS_REC, NULL) < 0)
		goto fail;
	free(real);
	return 1;
fail:
	free(real);
	return -errno;
}
