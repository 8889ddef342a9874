/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The names of one directory, sorted: S/class and S/bus for the library, globs for the tools. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc-util.h"
#include "dir-list.h"
#include "fd-util.h"
#include "name-set.h"

int name_set_load(int dirfd, const char *path, struct name_set *set)
{
	int fd, err;

	set->names = NULL;
	set->n = 0;
	fd = open_below(dirfd, path, NULL);
	if (fd < 0)
		return fd;
	err = name_set_load_fd(fd, set);
	close(fd);
	return err;
}

int name_set_load_fd(int fd, struct name_set *set)
{
	struct dir_list l = {0};
	int err;

	set->names = NULL;
	set->n = 0;
	err = dir_list_read(&l, fd, DIR_LIST_NO_HIDDEN | DIR_LIST_REOPEN);
	if (err == 0) {
		set->names = dir_list_names(&l);
		if (set->names)
			set->n = l.n;
		else
			err = -ENOMEM;
	}
	dir_list_free(&l);
	return err;
}

bool name_set_has(const struct name_set *set, const char *name)
{
	return set->n && bsearch(&name, set->names, set->n, sizeof(*set->names), cmp_strp);
}

void name_set_free(struct name_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->names[i]);
	free(set->names);
	set->names = NULL;
	set->n = 0;
}
