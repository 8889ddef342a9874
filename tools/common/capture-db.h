/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_TOOLS_CAPTURE_DB_H
#define SYSDEV_TOOLS_CAPTURE_DB_H

#include "libsysdev.h"

struct capture_db_counts {
	unsigned long files;   /* data/ID files copied */
	unsigned long tags;    /* tags/TAG/ID entries */
	unsigned long skipped; /* names that are no device id, files that could not be read */
};

/*
 * Copy the database of @ctx (sysdev_get_udev_db(); none: nothing to do) into
 * @dest_dirfd as run/udev/data/ID and run/udev/tags/TAG/ID.  0 or the
 * negative errno of opening the database or of a write.
 */
int capture_udev_db(struct sysdev *ctx, int dest_dirfd, struct capture_db_counts *c);

#endif
