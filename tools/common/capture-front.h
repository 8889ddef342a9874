/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one front end of a capture, for sysdev-tree --capture and
 * sysdev-fixture capture: START resolved as every START is (args.h), the
 * capture itself, and the lines that report it.
 */
#ifndef SYSDEV_TOOLS_CAPTURE_FRONT_H
#define SYSDEV_TOOLS_CAPTURE_FRONT_H

#include "archive.h"
#include "capture.h"
#include "libsysdev.h"

/*
 * Capture the tree of @ctx, or only @start (any START form, NULL: all of
 * S/devices), into the empty directory @dfd (tree_capture(), @flags its
 * enum tree_capture_flags, its counts in @st); @what names the target in
 * messages.  0 with the syspath captured in *@syspath (until the next
 * syspath_of(); @syspath may be NULL), or -1 after one line saying why.
 */
int capture_to_dir(struct sysdev *ctx, const char *start, int dfd, unsigned flags, const char *what,
		   struct tree_counts *st, const char **syspath);
/* One line: "PROGRAM: WHAT: VERB N files, N directories, N links, N skipped (...)". */
void capture_summary(const char *what, const char *verb, const struct tree_counts *st);
/* What an archive's own limits and rules left out, one line each. */
void capture_report_left_out(const char *what, const struct tree_counts *st);

#endif
