/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Path helpers: components, normalising, link targets inside a root. */
#ifndef SYSDEV_SHARED_PATH_UTIL_H
#define SYSDEV_SHARED_PATH_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* The next '/'-separated component at *@p (empty ones skipped), or NULL at the end. */
const char *path_next_component(const char **p, size_t *len);
/* A name that is safe to create below a directory: one component, not "." or "..". */
bool name_is_single_component(const char *name);
/* Whether @path is @top or below it, by whole components ("/a/b1" is not below "/a/b"). */
bool path_in_subtree(const char *top, const char *path);
/* A devpath: "/devices" or below it, no ".", ".." or empty components. */
bool devpath_is_valid(const char *devpath);
/*
 * Normalise "a/./b/../c" (leading slash kept); NULL with errno EXDEV when
 * ".." leaves the top, ENOMEM when out of memory.
 */
char *path_normalize(const char *path);
/*
 * The walk's order of two devpaths: parents before children, each
 * directory's entries bytewise; strcmp() with '/' below every other byte.
 */
int path_cmp_walk_order(const char *a, const char *b);
/* last path component of a link target ("../../bus/pci/" -> "pci") */
const char *link_basename(const char *target, size_t *len);
/*
 * Resolve link @target found in directory @dir_devpath lexically to a path
 * relative to the root ("/bus/pci").  Absolute targets are accepted when they
 * lie under @root.  Returns a malloc'd string, or NULL with errno EXDEV
 * (outside the root) or ENOMEM (no memory: a caller must not take it for
 * "outside").
 */
char *resolve_link_target(const char *root, const char *dir_devpath, const char *target);

#endif
