/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_UMOCKDEV_H
#define SYSDEV_UMOCKDEV_H

#include <stdio.h>

#include "libsysdev.h"

/* What an export or an import left out, to say so on stderr. */
struct umockdev_stats {
	unsigned long devices;	     /* devices written (export) or read (import) */
	unsigned long no_subsystem;  /* export: devices without a subsystem, left out */
	unsigned long skipped_names; /* names or values umockdev cannot hold */
	unsigned long unreadable;    /* export: files that could not be read */
	unsigned long skipped_links; /* link targets absolute or climbing out of the tree */
	unsigned long long_links;    /* import: link targets longer than symlink(2) takes */
};

/*
 * Export every device with a subsystem under @ctx's /devices as a umockdev
 * recording on @out (the format of umockdev-record: P:, N:, E:, A:, H:, L:
 * lines, a blank line between devices).  Nothing in it names a place
 * outside umockdev-run's testbed or is invalid UTF-8: such devices, names,
 * values and links are left out and counted in *@st.  Returns 0 or a
 * negative errno.
 */
int umockdev_export(struct sysdev *ctx, FILE *out, struct umockdev_stats *st);

/* A recording read into memory, as the tree it describes. */
struct umockdev_tree;

/*
 * Read the umockdev recording in @buf (@len bytes) into *@tree: devices/
 * with each device's uevent, attributes and links, and class/, bus/ and
 * dev/ with the links sysfs has.  A pure function of the buffer, n log n
 * in its length.  Returns 0; -EBADMSG (a malformed line), -EINVAL (an
 * unsafe path), -EEXIST (a path that is both a file and a directory),
 * -ENOMEM; then *@bad_line is the 1-based line to blame (0 when none).
 */
int umockdev_parse(const char *buf, size_t len, struct umockdev_tree **tree, size_t *bad_line,
		   struct umockdev_stats *st);
void umockdev_tree_free(struct umockdev_tree *tree);

/*
 * Make @tree in the empty directory @dirfd, each entry once below its open
 * parent, modes as an archive's (0755, 0644).  Returns 0 or a negative
 * errno, with *@bad_line the line of the entry that could not be made.
 */
int umockdev_tree_lay_out(const struct umockdev_tree *tree, int dirfd, size_t *bad_line);

/*
 * @tree as the text of a sysfs archive (sysdev-archive(5)) in a malloc'd
 * *@archive of *@archive_len bytes.  0 or -ENOMEM.
 */
int umockdev_tree_to_archive(const struct umockdev_tree *tree, char **archive, size_t *archive_len);

/* umockdev_parse(), then umockdev_tree_to_archive(). */
int umockdev_to_archive(const char *buf, size_t len, char **archive, size_t *archive_len,
			size_t *bad_line, struct umockdev_stats *st);

#endif
