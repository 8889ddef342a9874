/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_UMOCKDEV_H
#define SYSDEV_UMOCKDEV_H

#include <stdio.h>

#include "libsysdev.h"

/* What an export or an import left out, to say so on stderr. */
struct umockdev_stats {
	unsigned long devices;	     /* devices written (export) or read (import) */
	unsigned long no_subsystem;  /* export: devices without a subsystem, left out */
	unsigned long skipped_names; /* names or values the format cannot hold */
	unsigned long unreadable;    /* export: files that could not be read */
	unsigned long skipped_links; /* import: link targets outside the tree */
};

/*
 * Export every device with a subsystem under @ctx's /devices as a umockdev
 * recording on @out (the format of umockdev-record: P:, N:, E:, A:, H:, L:
 * lines, a blank line between devices).  Returns 0 or a negative errno.
 */
int umockdev_export(struct sysdev *ctx, FILE *out, struct umockdev_stats *st);

/*
 * Turn the umockdev recording in @buf (@len bytes) into the text of a sysfs
 * archive (sysdev-archive(5)) in a malloc'd *@archive of *@archive_len
 * bytes: devices/ with each device's uevent, attributes and links, and
 * class/, bus/ and dev/ with the links sysfs has.  A pure function of the
 * buffer.  Returns 0; -EBADMSG (a malformed line), -EINVAL (an unsafe path),
 * -EEXIST (a path that is both a file and a directory), -ENOMEM; then
 * *@bad_line is the 1-based line to blame (0 when none).
 */
int umockdev_to_archive(const char *buf, size_t len, char **archive, size_t *archive_len,
			size_t *bad_line, struct umockdev_stats *st);

#endif
