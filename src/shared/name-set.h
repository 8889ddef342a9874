/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The names of one directory (S/class, S/bus), sorted, for lookups by name. */
#ifndef SYSDEV_SHARED_NAME_SET_H
#define SYSDEV_SHARED_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>

struct name_set {
	char **names; /* sorted bytewise */
	size_t n;
};

/*
 * Entries of directory @path (relative to @dirfd, no link followed on any
 * component), dotfiles excluded as a shell glob does.  0 or a negative errno
 * (then @set is empty).
 */
int name_set_load(int dirfd, const char *path, struct name_set *set);
/* The same for the open directory @fd (read from its start, left open). */
int name_set_load_fd(int fd, struct name_set *set);
bool name_set_has(const struct name_set *set, const char *name);
void name_set_free(struct name_set *set);

#endif
