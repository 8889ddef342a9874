/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "path-util.h"

const char *path_next_component(const char **p, size_t *len)
{
	const char *c;

	while (**p == '/')
		(*p)++;
	if (!**p)
		return NULL;
	c = *p;
	while (**p && **p != '/')
		(*p)++;
	*len = (size_t)(*p - c);
	return c;
}

bool name_is_single_component(const char *name)
{
	return name && name[0] && strchr(name, '/') == NULL && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

bool path_in_subtree(const char *top, const char *path)
{
	size_t n = strlen(top);

	return strncmp(path, top, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

const char *link_basename(const char *target, size_t *len)
{
	size_t end = strlen(target), start;

	while (end > 0 && target[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && target[start - 1] != '/')
		start--;
	*len = end - start;
	return target + start;
}

char *path_normalize(const char *path)
{
	size_t len = strlen(path);
	char *out = malloc(len + 2);
	size_t o = 0, clen;
	const char *p = path, *c;

	if (!out)
		return NULL;
	while ((c = path_next_component(&p, &clen))) {
		if (clen == 1 && c[0] == '.')
			continue;
		if (clen == 2 && c[0] == '.' && c[1] == '.') {
			if (o == 0) {
				free(out);
				errno = EXDEV;
				return NULL;
			}
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--; /* drop the slash too */
			continue;
		}
		out[o++] = '/';
		memcpy(out + o, c, clen);
		o += clen;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

char *resolve_link_target(const char *root, const char *dir_devpath, const char *target)
{
	char *joined, *norm;
	size_t rlen;

	if (target[0] == '/') {
		/* Absolute: only meaningful when it points into this root. */
		rlen = strlen(root);
		if (strcmp(root, "/") == 0)
			return path_normalize(target);
		if (strncmp(target, root, rlen) != 0 ||
		    (target[rlen] != '/' && target[rlen] != '\0')) {
			errno = EXDEV;
			return NULL;
		}
		return path_normalize(target + rlen);
	}
	joined = malloc(strlen(dir_devpath) + strlen(target) + 2);
	if (!joined)
		return NULL;
	strcpy(joined, dir_devpath);
	strcat(joined, "/");
	strcat(joined, target);
	norm = path_normalize(joined);
	free(joined);
	return norm;
}

int path_cmp_walk_order(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char ca = (unsigned char)*a, cb = (unsigned char)*b;

		if (ca != cb) {
			if (!ca || !cb)
				return ca ? 1 : -1;
			if (ca == '/')
				return -1;
			if (cb == '/')
				return 1;
			return ca < cb ? -1 : 1;
		}
		if (!ca)
			return 0;
	}
}

/* A devpath: "/devices" or below it, no ".", ".." or empty components. */
bool devpath_is_valid(const char *devpath)
{
	const char *p;

	if (strncmp(devpath, "/devices", 8) != 0 || (devpath[8] != '/' && devpath[8] != '\0'))
		return false;
	for (p = devpath; *p; p++) {
		if (*p != '/')
			continue;
		if (p[1] == '/' || p[1] == '\0')
			return false;
		if (p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			return false;
		if (p[1] == '.' && p[2] == '.' && (p[3] == '/' || p[3] == '\0'))
			return false;
	}
	return true;
}
