/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_ROOT_ARCHIVE_H
#define SYSDEV_ROOT_ARCHIVE_H

/*
 * If *@root names a regular file, unpack it as a sysfs archive into the
 * program's private directory and point *@root at the tree (a malloc'd
 * string that lives as long as the program).  The first archive starts the
 * guard that removes the directory on every exit (see root-archive.c).
 * Returns 1 (unpacked), 0 (not a file: left as it is), or -1 after one
 * line on stderr: the caller exits 1.
 */
int root_prepare(const char *prog, const char **root);

/*
 * The root as the user named it: for a tree root_prepare() unpacked, the
 * archive it was given (the private directory is gone once the program
 * ends, so no message or output names it); any other @root as it is.
 */
const char *root_shown(const char *root);

/* Remove everything below the directory @fd (not @fd itself), never following
 * a link; 0 or the first negative errno. */
int remove_below(int fd);

#endif
