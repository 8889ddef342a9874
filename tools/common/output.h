/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_TOOLS_OUTPUT_H
#define SYSDEV_TOOLS_OUTPUT_H

/*
 * Make stdout a stream (buffered, writing to descriptor 1) that remembers
 * why its first write failed: by the time a program notices ferror(),
 * errno has long been overwritten, and stdio drops what it could not write.
 * Returns 0, or -errno with stdout left as it was.
 */
int stdout_track_errors(void);
/*
 * Flush stdout and say whether everything written reached descriptor 1: 0,
 * or the errno of the first failure (EPIPE when the reader went away,
 * ENOSPC for a full disk or /dev/full, ...).  Only EPIPE is no error of ours.
 */
int stdout_write_error(void);

#endif
