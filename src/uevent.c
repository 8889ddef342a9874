/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The uevent file: KEY=VALUE lines, as the kernel's uevent attribute shows them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsysdev-private.h"

void uevent_clear(struct uevent *u)
{
	u->len = 0;
	u->n = 0;
	u->devnum[0] = '\0';
}

void uevent_free(struct uevent *u)
{
	free(u->buf);
	free(u->keys);
	free(u->values);
	memset(u, 0, sizeof(*u));
}

static bool is_decimal(const char *s)
{
	if (!*s || strlen(s) > 10)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Lines without '=' or with an empty key are ignored, as udev does. */
int uevent_parse(struct uevent *u, size_t len)
{
	const char *major, *minor;
	size_t i = 0;

	u->len = len;
	u->n = 0;
	u->devnum[0] = '\0';
	while (i < len) {
		char *line = u->buf + i, *eq, *nl;

		nl = memchr(line, '\n', len - i);
		if (nl)
			*nl = '\0';
		else
			u->buf[len] = '\0';
		i += strlen(line) + 1;
		/* an embedded NUL ends the line early; the rest is skipped above */
		eq = strchr(line, '=');
		if (!eq || eq == line)
			continue;
		*eq = '\0';
		size_t kcap = u->keys_cap;

		if (GROW_MIN(u->keys, kcap, u->n + 1, 16) < 0 ||
		    GROW_MIN(u->values, u->keys_cap, u->n + 1, 16) < 0)
			return -ENOMEM;
		u->keys[u->n] = line;
		u->values[u->n] = eq + 1;
		u->n++;
	}
	major = uevent_get(u, "MAJOR");
	minor = uevent_get(u, "MINOR");
	if (major && minor && is_decimal(major) && is_decimal(minor))
		snprintf(u->devnum, sizeof(u->devnum), "%s:%s", major, minor);
	return 0;
}

int uevent_read_at(struct uevent *u, int dirfd)
{
	return uevent_read_name(u, dirfd, "uevent");
}

int uevent_read_name(struct uevent *u, int dirfd, const char *name)
{
	ssize_t len;

	if (!u->buf) {
		/* sysfs shows at most a page; start there and grow to the bound */
		u->cap = 4096 + 1;
		u->buf = malloc(u->cap);
		if (!u->buf)
			return -ENOMEM;
	}
	for (;;) {
		len = read_file_at(dirfd, name, u->buf, u->cap, false);
		if (len != -EFBIG || u->cap > SYSDEV_ATTR_MAX)
			break;
		/* SYSDEV_ATTR_MAX bytes and the NUL: a byte more is -EFBIG */
		char *nb = realloc(u->buf, SYSDEV_ATTR_MAX + 1);

		if (!nb)
			return -ENOMEM;
		u->buf = nb;
		u->cap = SYSDEV_ATTR_MAX + 1;
	}
	if (len < 0) {
		uevent_clear(u);
		return (int)len;
	}
	return uevent_parse(u, (size_t)len);
}

int uevent_copy(struct uevent *dst, const struct uevent *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->cap = src->len + 1;
	dst->buf = malloc(dst->cap);
	dst->keys = malloc((src->n ? src->n : 1) * sizeof(*dst->keys));
	dst->values = malloc((src->n ? src->n : 1) * sizeof(*dst->values));
	if (!dst->buf || !dst->keys || !dst->values) {
		uevent_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->buf, src->buf, src->len + 1);
	/* keys and values point into the buffer: the same offsets in the copy */
	for (size_t i = 0; i < src->n; i++) {
		dst->keys[i] = dst->buf + (src->keys[i] - src->buf);
		dst->values[i] = dst->buf + (src->values[i] - src->buf);
	}
	dst->len = src->len;
	dst->n = dst->keys_cap = src->n;
	memcpy(dst->devnum, src->devnum, sizeof(dst->devnum));
	return 0;
}

const char *uevent_get(const struct uevent *u, const char *key)
{
	for (size_t i = 0; i < u->n; i++)
		if (strcmp(u->keys[i], key) == 0)
			return u->values[i];
	return NULL;
}
