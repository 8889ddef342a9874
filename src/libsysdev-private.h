/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_PRIVATE_H
#define LIBSYSDEV_PRIVATE_H

#include <stdbool.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "libsysdev.h"
#include "alloc-util.h"
#include "dir-list.h"
#include "fd-util.h"
#include "in-root.h"
#include "macro.h"
#include "name-set.h"
#include "path-util.h"

#define _public_ __attribute__((visibility("default")))
/* NAME_ref() and NAME_unref() of a public refcounted type (macro.h) */
#define DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(type, name, free_func)                                \
	DEFINE_REF_UNREF_FUNC(_public_, type, name, free_func)

/* _cleanup_(NAME_unrefp) for the public types */
DEFINE_UNREF_CLEANUP_FUNC(struct sysdev, sysdev_unref)
DEFINE_UNREF_CLEANUP_FUNC(struct sysdev_device, sysdev_device_unref)
DEFINE_UNREF_CLEANUP_FUNC(struct sysdev_walker, sysdev_walker_unref)
DEFINE_UNREF_CLEANUP_FUNC(struct sysdev_enumerator, sysdev_enumerator_unref)
DEFINE_UNREF_CLEANUP_FUNC(struct sysdev_monitor, sysdev_monitor_unref)

/* A string in a buffer kept for reuse. */
struct sbuf {
	char *s;
	size_t cap;
};

/* Copy @len bytes of @s into @b, NUL-terminated: 0 or -ENOMEM (then @b is as it was). */
static inline int sbuf_set(struct sbuf *b, const char *s, size_t len)
{
	if (GROW(b->s, b->cap, len + 1) < 0)
		return -ENOMEM;
	memmove(b->s, s, len);
	b->s[len] = '\0';
	return 0;
}

/* Attributes are at most a page; uevent too.  Bound generously, never more. */
#define SYSDEV_ATTR_MAX (64 * 1024)

struct sysdev {
	unsigned n_ref;
	int root_fd;
	char *root; /* as given, trailing slashes removed ("/" stays "/") */
	bool live;  /* the root is the running system's /sys */
	bool sysfs; /* the root is a sysfs mount (kernfs fills getdents fully) */
	struct name_set classes;
	struct name_set buses;
	/* udev's database (udev-db.c): its directory, or -1 and NULL for none */
	int udev_db_fd;
	int udev_data_fd; /* its data/, opened on first use, or -1 */
	char *udev_db;
	int devnum_fd[2]; /* S/dev/block and S/dev/char, opened on first use, or -1 */
};

/* context.c: the database of the root, as found at open (S/run/udev, else S/../run/udev) */
int context_find_udev_db(struct sysdev *ctx);

/*
 * resolve.c: resolve @path (relative to the root, leading slash) physically,
 * following links, never leaving the root (-EXDEV).  *@out is malloc'd.
 */
int resolve_in_root(struct sysdev *ctx, const char *path, char **out);

/* Open the directory at @devpath (relative to the root) one component at a
 * time, never following symlinks.  Returns an fd or a negative errno. */
int open_devpath(const struct sysdev *ctx, const char *devpath);

/* uevent.c */
struct uevent {
	char *buf; /* the file, with '\n' turned into '\0' */
	size_t len;
	size_t cap;
	const char **keys; /* pointers into buf */
	const char **values;
	size_t n, keys_cap;
	char devnum[32]; /* "MAJOR:MINOR" or "" */
};
/* Parse @len bytes already in u->buf. */
int uevent_parse(struct uevent *u, size_t len);
int uevent_read_at(struct uevent *u, int dirfd);
/* The same from file @name of @dirfd (a path below it: "CHILD/uevent"). */
int uevent_read_name(struct uevent *u, int dirfd, const char *name);
const char *uevent_get(const struct uevent *u, const char *key);
/* A parsed copy of @src (its own buffer). */
int uevent_copy(struct uevent *dst, const struct uevent *src);
void uevent_clear(struct uevent *u);
void uevent_free(struct uevent *u);

/* udev-db.c: one file data/ID of udev's database, as udev writes it */
#define UDEV_DB_FILE_MAX (1024 * 1024)
struct udev_db {
	char *buf; /* the file, lines NUL-terminated */
	size_t len, cap;
	const char **links; /* S: (relative to /dev), sorted, each once */
	size_t n_links, links_cap;
	const char **tags; /* G:, sorted, each once */
	size_t n_tags, tags_cap;
	const char **current_tags; /* Q:, sorted, each once */
	size_t n_current_tags, current_tags_cap;
	const char **keys, **values; /* E: in the file's order */
	size_t n_props, props_cap;
	bool has_usec; /* I: */
	uint64_t usec;
	bool has_version; /* V: */
	unsigned version;
	bool has_priority; /* L: */
	int priority;
};
/* Parse @len bytes already in db->buf (which holds @len + 1). 0 or -ENOMEM. */
int udev_db_parse(struct udev_db *db, size_t len);
/* Read data file @id of the data directory @datafd: 0, -ENOENT (no such file),
 * -EFBIG (more than UDEV_DB_FILE_MAX), -EBADFD (not a regular file), an errno. */
int udev_db_read_at(struct udev_db *db, int datafd, const char *id);
/* The value of the last E: line of @key, or NULL. */
const char *udev_db_get(const struct udev_db *db, const char *key);
/* Whether @tag is in the sorted list @v. */
bool udev_db_has(const char *const *v, size_t n, const char *tag);
void udev_db_clear(struct udev_db *db);
void udev_db_free(struct udev_db *db);

/* uevent-message.c: a kernel uevent from netlink ("add@/devices/...\0KEY=VALUE\0...") */
#define UEVENT_MESSAGE_MAX 8192 /* the kernel's UEVENT_BUFFER_SIZE is 2048 */
struct uevent_message {
	char *buf;
	size_t len;
	const char **keys, **values; /* point into buf */
	size_t n, cap;
	const char *action, *devpath, *subsystem; /* from the properties */
	unsigned long long seqnum;
};
/* 0, -EBADMSG (not a whole, consistent kernel message), -ENOMEM */
int uevent_message_parse(struct uevent_message *m, const char *data, size_t len);
const char *uevent_message_get(const struct uevent_message *m, const char *key);
void uevent_message_free(struct uevent_message *m);

/* attributes.c: bounded reads below a directory fd ("power/control") */
int attribute_dir_at(int dirfd, const char *name, const char **base);
ssize_t attribute_read_at(int dirfd, const char *name, char *buf, size_t size);

/* power.c: parse the power/ group of the device directory @dirfd */
int power_read_at(int dirfd, struct sysdev_power **ret);
int latency_tolerance_read_at(int dirfd, int32_t *us);
/* The same; with -EBADMSG, @text receives what the file holds (cut to @size). */
int latency_tolerance_read_text_at(int dirfd, int32_t *us, char *text, size_t size);

/* Placement of a devpath below /devices. */
enum sysdev_placement placement_of(const char *devpath);

#endif
