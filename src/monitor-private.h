/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_MONITOR_PRIVATE_H
#define LIBSYSDEV_MONITOR_PRIVATE_H

#include "device-private.h"

/*
 * What the monitor knows of a device: enough to annotate its remove event
 * (by then the directory is gone) and to tell, on a resync, what changed.
 */
struct known_device {
	char *devpath;
	char *subsystem, *devtype, *driver; /* NULL: none */
	char *parent, *class_dir;	    /* NULL: none */
	bool selected; /* its last event or scan passed the monitor's filters */
	bool marked;   /* seen by the resync in progress */
};

/*
 * The devices the monitor knows, by devpath, in a balanced tree (tsearch):
 * a lookup costs log n, and the set holds what exists (a remove prunes it),
 * not every devpath ever heard.
 */
struct known_set {
	void *root;
	size_t n;
};

struct known_device *known_find(const struct known_set *s, const char *devpath);
/* The entry of @devpath, made empty if it was not there: NULL on -ENOMEM. */
struct known_device *known_get(struct known_set *s, const char *devpath);
/* Replace the field at *@field with a copy of @value (NULL: none): 0 or -ENOMEM. */
int known_set_field(char **field, const char *value);
void known_remove(struct known_set *s, const char *devpath);
void known_clear(struct known_set *s);
/* Call @fn for every entry, in devpath order. */
void known_foreach(const struct known_set *s, void (*fn)(struct known_device *d, void *userdata),
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
