/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by capture.c and archive.c (copying trees safely). */
#ifndef SYSDEV_CAPTURE_PRIVATE_H
#define SYSDEV_CAPTURE_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* One directory's entries, sorted bytewise, "." and ".." left out. */
struct dlist_entry {
	char *name;
	unsigned char type; /* DT_*, DT_UNKNOWN when the filesystem did not say */
};
struct dlist {
	struct dlist_entry *v;
	size_t n, cap;
	char *buf; /* getdents64 records the names point into */
};

/* List the directory @fd (not moved: a fresh descriptor is used). */
int dlist_read(int fd, struct dlist *l);
void dlist_free(struct dlist *l);

/* A name that is safe to create below a directory: one component. */
bool name_is_single_component(const char *name);

/*
 * Read the regular file @name of @dirfd whose lstat is @st: never a FIFO,
 * socket, device node or symlink (-EINVAL), never one without any read bit
 * (-EACCES, not opened), never blocking (O_NONBLOCK).  At most @bound bytes
 * go to @buf (which holds @bound + 1 bytes); *@truncated tells whether the
 * file held more.  Returns the length or a negative errno.
 */
ssize_t copy_read_file(int dirfd, const char *name, const struct stat *st, char *buf,
		       size_t bound, bool *truncated);

/* Write all of @buf, going on after EINTR and short writes; 0 or negative errno. */
int write_all(int fd, const char *buf, size_t len);

/* Whether @dirfd (a directory) has no entries; negative errno on failure. */
int dir_is_empty(int dirfd);

#endif
