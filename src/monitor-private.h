/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_MONITOR_PRIVATE_H
#define LIBSYSDEV_MONITOR_PRIVATE_H

#include "device-private.h"
#include "siphash.h"

/*
 * What the monitor knows of a device: enough to annotate its remove event
 * (by then the directory is gone) and to tell, on a resync, what changed.
 */
struct known_device {
	char *devpath;
	char *subsystem, *devtype, *driver; /* NULL: none */
	char *parent, *class_dir;	    /* NULL: none */
	bool selected;		   /* its last event or scan passed the monitor's filters */
	uint64_t hash;		   /* of the devpath, under its set's key */
	struct known_device *next; /* in its bucket */
};

/*
 * The devices the monitor knows, by devpath, in a hash table: a lookup
 * costs one hash and, on average, one comparison (a storm's devpaths share
 * long prefixes, which made every step of a search tree compare them
 * whole).  SipHash under a random key: no sender can choose devpaths that
 * fall into one bucket.  The set holds what exists (a remove prunes it),
 * not every devpath ever heard.
 */
struct known_set {
	struct known_device **buckets;
	size_t nbuckets, n; /* nbuckets: 0 or a power of two */
	struct siphash_key key;
};

struct known_device *known_find(const struct known_set *s, const char *devpath);
/* The entry of @devpath, made empty if it was not there: NULL on -ENOMEM. */
struct known_device *known_get(struct known_set *s, const char *devpath);
/* Replace the field at *@field with a copy of @value (NULL: none): 0 or -ENOMEM. */
int known_set_field(char **field, const char *value);
void known_remove(struct known_set *s, const char *devpath);
/* Remove @d, an entry of @s (NULL: nothing). */
void known_remove_entry(struct known_set *s, struct known_device *d);
void known_clear(struct known_set *s);
/* Call @fn for every entry, in devpath order: 0, or -ENOMEM (no call made). */
int known_foreach(const struct known_set *s, void (*fn)(struct known_device *d, void *userdata),
		  void *userdata);

struct sysdev_monitor;

/* A monitor with no socket, fed by monitor_handle_message() (the unit tests). */
int monitor_new_detached(struct sysdev *ctx, struct sysdev_monitor **ret);
/*
 * One message of the kernel, as received: parsed, checked against the last
 * seqnum (a gap queues a loss notice first), filtered, its device
 * remembered, and its event queued for sysdev_monitor_receive().  0,
 * -EBADMSG (dropped and counted), -ENOMEM.
 */
int monitor_handle_message(struct sysdev_monitor *m, const char *buf, size_t len);
/* What recvmsg() reported as ENOBUFS: the socket dropped messages. */
void monitor_note_overflow(struct sysdev_monitor *m);
/* The devices the monitor knows now (for the tests). */
const struct known_set *monitor_known(const struct sysdev_monitor *m);

#endif
