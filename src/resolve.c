/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Paths given by people: resolved as realpath(1) does (physically, each
 * symbolic link followed where it stands, ".." applied to what a link
 * resolved to), but inside the root: a link or a ".." that would leave the
 * root is refused with -EXDEV, so a captured tree never reaches the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"

#define MAX_LINKS 40

/* Components still to resolve, kept as one string consumed from the front. */
struct todo {
	char *s;
	size_t pos;
};

static int todo_prepend(struct todo *t, const char *head)
{
	size_t hlen = strlen(head), rest = strlen(t->s + t->pos);
	char *n = malloc(hlen + 1 + rest + 1);

	if (!n)
		return -ENOMEM;
	memcpy(n, head, hlen);
	n[hlen] = '/';
	memcpy(n + hlen + 1, t->s + t->pos, rest + 1);
	free(t->s);
	t->s = n;
	t->pos = 0;
	return 0;
}

/* Where an absolute link target points inside the root, or NULL: outside. */
static const char *absolute_target_in_root(const struct sysdev *ctx, const char *target)
{
	size_t rlen = strlen(ctx->root);

	if (strcmp(ctx->root, "/") == 0)
		return target;
	if (strncmp(target, ctx->root, rlen) == 0 && (target[rlen] == '/' || !target[rlen]))
		return target + rlen;
	/* a capture of /sys that kept an absolute link: it meant this tree */
	if (strncmp(target, "/sys", 4) == 0 && (target[4] == '/' || !target[4]))
		return target + 4;
	return NULL;
}

/* Append "/@c" (@clen bytes) to the resolved path. */
static int done_push(char **done, size_t *dlen, size_t *dcap, const char *c, size_t clen)
{
	if (GROW_MIN(*done, *dcap, *dlen + 1 + clen + 1, 256) < 0)
		return -ENOMEM;
	(*done)[*dlen] = '/';
	memcpy(*done + *dlen + 1, c, clen);
	*dlen += 1 + clen;
	(*done)[*dlen] = '\0';
	return 0;
}

/*
 * One component at a time from a descriptor of the directory reached so
 * far, never a long path string: a tree deeper than PATH_MAX resolves too.
 */
int resolve_in_root(struct sysdev *ctx, const char *path, char **out)
{
	struct todo t = {.s = strdup(path)};
	size_t dlen = 0, dcap = 64, depth = 0;
	char *done = malloc(dcap); /* the resolved path: "" or "/a/b" */
	int fd = fcntl(ctx->root_fd, F_DUPFD_CLOEXEC, 3);
	int links = 0, err = 0;

	*out = NULL;
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	if (!t.s || !done) {
		err = -ENOMEM;
		goto out;
	}
	done[0] = '\0';
	for (;;) {
		char comp[NAME_MAX + 1], *target;
		const char *c;
		size_t clen;
		int nfd;

		while (t.s[t.pos] == '/')
			t.pos++;
		if (!t.s[t.pos])
			break;
		c = t.s + t.pos;
		clen = strcspn(c, "/");
		t.pos += clen;
		if (clen == 1 && c[0] == '.')
			continue;
		if (clen > NAME_MAX) {
			err = -ENAMETOOLONG;
			goto out;
		}
		memcpy(comp, c, clen);
		comp[clen] = '\0';
		if (strcmp(comp, "..") == 0) {
			if (depth == 0) {
				err = -EXDEV; /* above the root */
				goto out;
			}
			nfd = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (nfd < 0) {
				err = -errno;
				goto out;
			}
			close(fd);
			fd = nfd;
			depth--;
			while (dlen > 0 && done[dlen - 1] != '/')
				dlen--;
			dlen = dlen > 0 ? dlen - 1 : 0;
			done[dlen] = '\0';
			continue;
		}
		err = readlink_alloc(fd, comp, &target);
		if (err == -EINVAL) { /* not a link: step into it (a file ends the walk) */
			nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (nfd < 0) {
				err = -errno;
				goto out;
			}
			close(fd);
			fd = nfd;
			depth++;
			err = done_push(&done, &dlen, &dcap, comp, clen);
			if (err < 0)
				goto out;
			continue;
		}
		if (err < 0)
			goto out; /* -ENOENT, -ENOTDIR (a file on the way), ... */
		if (++links > MAX_LINKS) {
			free(target);
			err = -ELOOP;
			goto out;
		}
		if (target[0] == '/') {
			const char *in = absolute_target_in_root(ctx, target);

			if (!in) {
				free(target);
				err = -EXDEV;
				goto out;
			}
			nfd = fcntl(ctx->root_fd, F_DUPFD_CLOEXEC, 3);
			if (nfd < 0) {
				err = -errno;
				free(target);
				goto out;
			}
			close(fd);
			fd = nfd;
			depth = dlen = 0;
			done[0] = '\0';
			err = todo_prepend(&t, in);
		} else {
			err = todo_prepend(&t, target); /* relative to the link's own directory */
		}
		free(target);
		if (err < 0)
			goto out;
	}
	if (dlen == 0)
		strcpy(done, "/");
	*out = done;
	done = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(done);
	free(t.s);
	return err;
}

/* Whether the host path @prefix is the root directory itself. */
static bool is_root_dir(const struct stat *root, const char *prefix)
{
	struct stat st;

	return stat(prefix, &st) == 0 && st.st_dev == root->st_dev && st.st_ino == root->st_ino;
}

/*
 * The part of the absolute host path @abs that lies below the root: the
 * shortest prefix that is the root directory (found by identity, so
 * "/tmp//x", a relative --root or a root reached through a link all work).
 */
static const char *below_root(const struct sysdev *ctx, char *abs)
{
	struct stat root;
	size_t len = strlen(abs);

	if (fstat(ctx->root_fd, &root) < 0)
		return NULL;
	for (size_t i = 1; i <= len; i++) {
		char saved;

		if (abs[i] != '/' && abs[i] != '\0')
			continue;
		if (abs[i - 1] == '/')
			continue;
		saved = abs[i];
		abs[i] = '\0';
		if (is_root_dir(&root, abs)) {
			abs[i] = saved;
			return abs + i;
		}
		abs[i] = saved;
	}
	return is_root_dir(&root, "/") ? abs : NULL;
}

static bool starts_with_component(const char *path, const char *comp)
{
	size_t n = strlen(comp);

	return strncmp(path, comp, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

_public_ int sysdev_resolve_path(struct sysdev *ctx, const char *path, char **resolved)
{
	char *abs = NULL;
	const char *rel;
	int err;

	if (!ctx || !path || !resolved)
		return -EINVAL;
	*resolved = NULL;
	if (!*path)
		return -EINVAL;
	if (strlen(path) > 64 * 1024)
		return -ENAMETOOLONG;
	/* a devpath names a place in the tree, whatever the host has at /devices */
	if (starts_with_component(path, "/devices"))
		return resolve_in_root(ctx, path, resolved);
	if (path[0] == '/') {
		abs = strdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return -errno;
		if (asprintf(&abs, "%s/%s", cwd, path) < 0)
			abs = NULL;
		free(cwd);
	}
	if (!abs)
		return -ENOMEM;
	rel = below_root(ctx, abs);
	if (!rel && starts_with_component(abs, "/sys"))
		rel = abs + 4; /* a syspath of the system the tree was captured from */
	err = rel ? resolve_in_root(ctx, *rel ? rel : "/", resolved) : -EXDEV;
	free(abs);
	return err;
}
