/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The directory lister: every entry of a directory in one getdents64 pass
 * into a buffer that is kept for the next directory, sorted bytewise, "."
 * and ".." left out.  d_type is taken as the filesystem gives it; where it
 * says DT_UNKNOWN, dir_entry_type() asks fstatat, and only when called.
 */
#ifndef SYSDEV_SHARED_DIR_LIST_H
#define SYSDEV_SHARED_DIR_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct dir_entry {
	const char *name;   /* points into the list's buffer */
	unsigned char type; /* DT_*; DT_UNKNOWN until dir_entry_type() settles it */
	signed char mark;   /* the caller's: -1 after dir_list_read() */
};

struct dir_list {
	struct dir_entry *v;
	size_t n, cap;
	char *buf; /* getdents64 records the names point into */
	size_t buf_cap;
};

enum {
	/*
	 * The directory is on kernfs (sysfs): kernfs stops filling only when
	 * the next record does not fit, so room left for a maximal record
	 * means the end, and the final getdents64 that would return 0 is saved.
	 */
	DIR_LIST_KERNFS = 1u << 0,
	/* Leave out every name that starts with '.', as a shell glob does. */
	DIR_LIST_NO_HIDDEN = 1u << 1,
	/* List through a fresh descriptor: @fd's offset is left alone. */
	DIR_LIST_REOPEN = 1u << 2,
	/* Keep the order getdents64 gave. */
	DIR_LIST_UNSORTED = 1u << 3,
};

/*
 * List directory @fd into @l, reusing @l's buffers (zero it before the
 * first use).  0 or a negative errno; on failure @l holds no entries and
 * keeps its buffers.
 */
int dir_list_read(struct dir_list *l, int fd, unsigned flags);
/* The entry named @name (a sorted list only), or NULL. */
struct dir_entry *dir_list_find(const struct dir_list *l, const char *name);
/* Entry @e's type, asking fstatat in @dirfd when the listing did not say (kept). */
unsigned char dir_entry_type(int dirfd, struct dir_entry *e);
void dir_list_free(struct dir_list *l);
/* Copies of the names, in the list's order: a malloc'd, NULL-terminated array of
 * malloc'd strings (NULL: no memory). */
char **dir_list_names(const struct dir_list *l);

/* Whether directory @dirfd has no entries (1), has some (0), or a negative errno. */
int dir_is_empty(int dirfd);

#endif
