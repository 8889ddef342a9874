/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "dir-list.h"

/* a dirent64 header and a NAME_MAX name, rounded up to 8 */
#define MAX_DIRENT_SIZE (((offsetof(struct dirent64, d_name) + 256) + 7) & ~(size_t)7)
#define DIR_BUF_MIN 8192

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct dir_entry *)a)->name, ((const struct dir_entry *)b)->name);
}

static int read_records(struct dir_list *l, int fd, unsigned flags, size_t *used)
{
	*used = 0;
	for (;;) {
		ssize_t n;

		/* grown on demand and kept, so a walk allocates per level, not per directory */
		if (l->buf_cap - *used < 4096 &&
		    GROW_MIN(l->buf, l->buf_cap, l->buf_cap + 4096, DIR_BUF_MIN) < 0)
			return -ENOMEM;
		n = getdents64(fd, l->buf + *used, l->buf_cap - *used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		*used += (size_t)n;
		if ((flags & DIR_LIST_KERNFS) && l->buf_cap - *used >= MAX_DIRENT_SIZE)
			break;
	}
	return 0;
}

int dir_list_read(struct dir_list *l, int fd, unsigned flags)
{
	size_t used = 0;
	int err;

	l->n = 0;
	if (flags & DIR_LIST_REOPEN) {
		int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0)
			return -errno;
		err = read_records(l, dfd, flags, &used);
		close(dfd);
	} else {
		err = read_records(l, fd, flags, &used);
	}
	if (err < 0)
		return err;
	for (size_t off = 0; off < used;) {
		struct dirent64 *de = (struct dirent64 *)(l->buf + off);

		off += de->d_reclen;
		if (de->d_name[0] == '.' &&
		    ((flags & DIR_LIST_NO_HIDDEN) || de->d_name[1] == '\0' ||
		     (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		if (GROW(l->v, l->cap, l->n + 1) < 0) {
			l->n = 0;
			return -ENOMEM;
		}
		l->v[l->n].name = de->d_name;
		l->v[l->n].type = de->d_type;
		l->v[l->n].mark = -1;
		l->n++;
	}
	if (l->n > 1 && !(flags & DIR_LIST_UNSORTED))
		qsort(l->v, l->n, sizeof(*l->v), cmp_entry);
	return 0;
}

struct dir_entry *dir_list_find(const struct dir_list *l, const char *name)
{
	struct dir_entry key = {.name = name};

	if (!l->n)
		return NULL;
	return bsearch(&key, l->v, l->n, sizeof(*l->v), cmp_entry);
}

unsigned char dir_entry_type(int dirfd, struct dir_entry *e)
{
	struct stat st;

	if (e->type != DT_UNKNOWN)
		return e->type;
	if (fstatat(dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	if (S_ISDIR(st.st_mode))
		e->type = DT_DIR;
	else if (S_ISREG(st.st_mode))
		e->type = DT_REG;
	else if (S_ISLNK(st.st_mode))
		e->type = DT_LNK;
	return e->type;
}

void dir_list_free(struct dir_list *l)
{
	free(l->v);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

char **dir_list_names(const struct dir_list *l)
{
	char **v = calloc(l->n + 1, sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < l->n; i++) {
		v[i] = strdup(l->v[i].name);
		if (!v[i]) {
			while (i-- > 0)
				free(v[i]);
			free(v);
			return NULL;
		}
	}
	return v;
}

int dir_is_empty(int dirfd)
{
	struct dir_list l = {0};
	int err = dir_list_read(&l, dirfd, DIR_LIST_REOPEN | DIR_LIST_UNSORTED);

	if (err == 0)
		err = l.n == 0;
	dir_list_free(&l);
	return err;
}
