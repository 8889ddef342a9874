/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Paths below a root, resolved inside it: the one resolver of the library
 * and the tools, for every open that may meet a symbolic link of the tree.
 */
#ifndef SYSDEV_SHARED_IN_ROOT_H
#define SYSDEV_SHARED_IN_ROOT_H

#include <stdbool.h>
#include <sys/stat.h>

/* Links followed for one path at most, as the kernel's own bound. */
#define IN_ROOT_MAX_LINKS 40

/* What in_root_resolve() opens at the end. */
enum in_root_open {
	IN_ROOT_OPEN_NONE, /* nothing: the path only */
	IN_ROOT_OPEN_PATH, /* O_PATH: a place to stand (a directory or a file) */
	IN_ROOT_OPEN_DIR,  /* a directory to list (-ENOTDIR for anything else) */
	IN_ROOT_OPEN_FILE, /* a regular file to read, never blocking (-EINVAL for anything else) */
};

struct in_root {
	char *path;   /* "/" or "/a/b": where it led, below the root */
	int fd;	      /* open as asked, or -1 */
	char *detail; /* on failure: the link text that would leave the root (-EXDEV), else
			 the path reached ("/a/b"); NULL when not known */
};

/*
 * Resolve @path (below the root @rootfd; leading slashes, "." and empty
 * components ignored) inside the root, one component at a time from a
 * directory descriptor: each symbolic link's text is read and resolved where
 * it stands, as the kernel would with the root mounted at /sys.  A ".." never
 * climbs above the root, and an absolute target means the root only when it
 * names /sys or @root_path (the root's host path, may be NULL); any other
 * way out is -EXDEV and nothing outside is opened.  More than
 * IN_ROOT_MAX_LINKS links is -ELOOP.  0 or a negative errno; in_root_free()
 * afterwards either way.
 */
int in_root_resolve(int rootfd, const char *root_path, const char *path, enum in_root_open how,
		    struct in_root *r);
void in_root_free(struct in_root *r);

/* fstatat() of @path below @dirfd without following a link on any component. */
int lstat_below(int dirfd, const char *path, struct stat *st);
/* readlinkat() of @path below @dirfd, no link followed on the way; as readlink_alloc(). */
int readlink_below(int dirfd, const char *path, char **target);

/*
 * openat() of directory @name as O_RDONLY, or, where its mode lets this
 * user search but not list it, as O_PATH: the entries can then be reached
 * by name (readlinkat, fstatat, openat) but not listed.  *@listable tells
 * which.  fd or -errno.
 */
int open_dir_searchable_at(int dirfd, const char *name, bool *listable);
/* Whether @fd was opened O_PATH (by open_dir_searchable_at: not listable). */
bool fd_is_path_only(int fd);

#endif
