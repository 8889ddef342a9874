/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_DEVICE_ID_H
#define LIBSYSDEV_DEVICE_ID_H

#include <stdbool.h>
#include <stddef.h>

/*
 * udev's device ids, as `udevadm info` and the udev database name devices:
 * b8:0 (block device 8:0), c1:3 (character device 1:3), n2 (the network
 * interface of index 2), +SUBSYSTEM:SYSNAME (+pci:0000:00:02.0, +net:lo).
 * One parser for the library's sysdev_device_new() and sysdev-tree's
 * DEVICE arguments.
 */
enum device_id_kind {
	DEVICE_ID_DEVNUM,
	DEVICE_ID_IFINDEX,
	DEVICE_ID_SUBSYSTEM_SYSNAME,
};

struct device_id {
	enum device_id_kind kind;
	char type;	       /* DEVNUM: 'b' or 'c' */
	unsigned major, minor; /* DEVNUM */
	unsigned ifindex;      /* IFINDEX: 1 or more */
	const char *subsystem; /* SUBSYSTEM_SYSNAME: points into the string, */
	size_t subsystem_len;  /* not NUL-terminated there */
	const char *sysname;   /* the rest of the string */
};

/* Whether @s is one of the forms, whole (no sign, no blank, no trailing
 * byte, numbers that fit); fills *@id when it is. */
bool device_id_parse(const char *s, struct device_id *id);

#endif
