/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef LIBSYSDEV_DEVICE_PRIVATE_H
#define LIBSYSDEV_DEVICE_PRIVATE_H

#include "libsysdev-private.h"

/*
 * One device model: a device found by a lookup, by the enumerator, lent by a
 * walk's node, or received from the monitor (an event: action and seqnum).
 * Strings live in buffers the device owns (struct sbuf), so that a walk can
 * refill the same device for the next node without allocating.
 */
struct sysdev_device {
	unsigned n_ref;
	struct sysdev *ctx;
	int fd; /* the device directory, or -1 until needed */
	bool
	    fd_lent; /* fd is a walk node's: never closed here, forgotten when the walk leaves it */

	struct sbuf devpath;
	const char *name; /* last component of devpath */
	struct sbuf parent_devpath;
	struct sbuf class_dir;
	struct sbuf subsystem;
	struct sbuf driver;
	bool has_parent, has_class_dir, has_subsystem, has_driver;
	enum sysdev_subsystem_kind subsystem_kind;
	bool has_dev; /* a regular "dev" attribute: the device has a number */
	/* the parent device, made when first asked (a reference, or lent by a walk's level) */
	struct sysdev_device *parent;

	/* looked up on first use where the maker did not know them */
	bool ancestry_pending; /* parent_devpath and class_dir */
	int ancestry_error;    /* why they could not be looked up, or 0 */
	bool links_pending;    /* subsystem and driver (a walk with SYSDEV_WALK_NO_LINKS) */
	int links_error;
	bool uevent_pending; /* the uevent file */
	int uevent_error;    /* why it could not be read, or 0 */
	struct uevent uevent;

	/* an event of the monitor */
	bool is_event;
	bool has_kind;
	enum sysdev_kind kind;
	char *action;
	uint64_t seqnum;
	bool synthesized; /* made by a resync, not heard: no seqnum */
	/* a loss notice (action "lost"): no device, what was lost */
	bool is_loss;
	bool lost_count_known, lost_first_known, lost_last_known;
	uint64_t lost_count, lost_first, lost_last;
	const char *lost_evidence; /* "enobufs" or "seqnum" */

	/* udev's view of the properties, made on first use */
	bool udev_ready;
	char *udev_devname;		     /* DEVNAME as /dev/NAME */
	char udev_major[12], udev_minor[12]; /* from the dev attribute */
	/* udev-db.c: udev's device id and database file, read on first use */
	bool db_read;
	int db_error;	 /* why the file could not be read (not its absence), or 0 */
	bool db_present; /* the file is there: udev initialized the device */
	struct sbuf udev_id;
	bool has_udev_id;
	struct udev_db db;
	char *db_strings; /* "/dev/LINK" each, DEVLINKS, TAGS, CURRENT_TAGS, USEC_INITIALIZED */
	const char **devlinks;
	const char *devlinks_prop, *tags_prop, *current_tags_prop, *usec_prop;
	/* every property as udevadm info shows it, made on first use */
	bool props_ready;
	struct udev_prop *props;	/* in the order of first appearance */
	struct udev_prop *props_sorted; /* the same, sorted by key */
	size_t n_props;
	/* attributes.c, filled on first use */
	bool listed;
	struct name_set attrs;
	struct name_set groups;
};

struct udev_prop {
	const char *key, *value;
	size_t first;
};

void attributes_free(struct sysdev_device *dev);
/* udev-db.c: forget the database's part (a device reset or freed) */
void device_db_free(struct sysdev_device *dev);
/* udev-db.c: the database's file of @dev read once: 0 or the error of its read */
int device_db(struct sysdev_device *dev);
/* udev-db.c: udev's device id of @dev ("b8:0", "n2", "+pci:0000:00:02.0"); -ENOENT: none */
int device_udev_id(struct sysdev_device *dev, const char **ret);
/* udev-db.c: a property as udev holds it, the database's included */
int device_db_property(struct sysdev_device *dev, const char *key, const char **ret);
/* device.c: the properties udev computes (DEVNAME as a path, MAJOR and MINOR from dev) */
int device_udev_properties(struct sysdev_device *dev);
/* device.c: a udev property from the uevent file and the links only (no database) */
int device_sysfs_udev_property(struct sysdev_device *dev, const char *key, const char **ret);
/* device.c: the uevent file read (once) */
int device_uevent(struct sysdev_device *dev);
int device_links(struct sysdev_device *dev);
/* The device directory, opened on first use.  A descriptor or a negative errno. */
int device_fd(struct sysdev_device *dev);
/* A device with only its devpath, every other field still to be read. */
int device_alloc(struct sysdev *ctx, const char *devpath, size_t len, struct sysdev_device **ret);
/* A device from a devpath found through S/class or S/bus (its ancestry looked up when asked). */
int device_new_indexed(struct sysdev *ctx, const char *devpath, struct sysdev_device **out);
/* Forget what was read on first use (the walk refills a lent device for its next node). */
void device_reset_cache(struct sysdev_device *dev);
/*
 * Whether @devpath is a device directory now (it holds a uevent file; false:
 * not, or gone), without classifying it: a class directory of thousands of
 * devices is not listed.  Opening a devpath allocates nothing, either way.
 */
bool devpath_is_device(struct sysdev *ctx, const char *devpath);
/* Whether the directory @devpath is there now (false: gone). */
bool devpath_exists(struct sysdev *ctx, const char *devpath);
/* The parent's devpath without making the parent: 0, -ENOENT (none), or the lookup's error. */
int device_get_parent_devpath(struct sysdev_device *dev, const char **ret);
/*
 * A monitor's event (monitor.c): the message's fields, the directory's place
 * while it is there; with @look false the directory is known to be gone and
 * is not looked at.
 */
int device_new_from_message(struct sysdev *ctx, const struct uevent_message *msg, bool look,
			    struct sysdev_device **ret);

#endif
