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

/*
 * One component at a time from a descriptor of the directory reached so
 * far, never a long path string: a tree deeper than PATH_MAX resolves too.
 */
int resolve_in_root(struct sysdev *ctx, const char *path, char **out)
{
	struct in_root r;
	int err;

	*out = NULL;
	err = in_root_resolve(ctx->root_fd, ctx->root, path, IN_ROOT_OPEN_NONE, &r);
	if (err == 0) {
		*out = r.path;
		r.path = NULL;
	}
	in_root_free(&r);
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

	assert_return(resolved, -EINVAL);
	*resolved = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(path, -EINVAL);
	assert_return(*path, -EINVAL);
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
