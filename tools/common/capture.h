/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The capture: a copy of a sysfs tree (or of one device with its ancestors)
 * that reads back as the same tree, for sysdev-tree --capture and
 * sysdev-fixture capture (through capture-front.h).  Built on the library's
 * public API and src/shared only: not part of the library's ABI.
 */
#ifndef SYSDEV_TOOLS_CAPTURE_H
#define SYSDEV_TOOLS_CAPTURE_H

#include "archive.h" /* struct tree_counts */
#include "libsysdev.h"

enum tree_capture_flags {
	/* Contents only of what the walk, the statistics and the lookups read:
	 * "uevent", "dev" and the files of a device's power/ group.  Every other
	 * file is created empty (name and mode kept). */
	TREE_CAPTURE_SLIM = 1u << 0,
	/* Never read a file that others may not read (no S_IROTH): serial
	 * numbers and the like stay out of fixtures.  Created empty. */
	TREE_CAPTURE_PUBLIC = 1u << 1,
};

/* Bounds of a file's contents: text attributes, and larger (binary) ones. */
#define TREE_CAPTURE_TEXT_MAX (64 * 1024)
#define TREE_CAPTURE_BIN_MAX (1024 * 1024)

/*
 * Copy the tree at devpath @start (NULL: "/devices"; a deeper start brings
 * its ancestors as directories with their files and links) into the EMPTY
 * directory @dest_dirfd, plus the entries of S/class/&ast;/&ast;,
 * S/bus/&ast;/devices/&ast;, S/bus/&ast;/drivers/&ast; (names only) and
 * S/dev/{block,char}/&ast; that the walk and the device lookups read (with a
 * start below /devices, only the links that point into its subtree, or to
 * its ancestors).  Directories (empty ones too), symbolic links (their text,
 * as it is) and regular files (read without blocking, at most
 * TREE_CAPTURE_TEXT_MAX bytes, or TREE_CAPTURE_BIN_MAX for files sysfs sizes
 * above a page) keep their modes.  FIFOs, sockets, device nodes and
 * write-only files are never opened.  What cannot be read is skipped and
 * counted in @counts; a file with read bits that cannot be read is written
 * empty without its read bits (unreadable, not empty, when read back).
 * Nothing is ever written outside @dest_dirfd.  @flags: a set of enum
 * tree_capture_flags.  @counts (may be NULL) is zeroed first; too_deep and
 * unsafe_links stay 0 (an archive's limits, not a capture's).  Returns 0,
 * -EINVAL for a bad argument, -ENOTEMPTY when the destination is not empty,
 * -ENOTDIR, -ENOENT/-EINVAL for a bad start, or the negative errno of a
 * write into the destination.
 */
int tree_capture(struct sysdev *ctx, const char *start, int dest_dirfd, unsigned flags,
		 struct tree_counts *counts);

#endif
