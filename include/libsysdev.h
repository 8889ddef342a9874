/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsysdev - walk and classify a sysfs tree (/sys/devices).
 *
 * Every call that can fail returns a negative errno value (or NULL where it
 * returns a pointer and says so).  The library never prints and never exits.
 *
 * Paths inside the tree are "devpaths": relative to the sysfs root, with a
 * leading slash, exactly as udev's DEVPATH ("/devices/platform/serial8250").
 */
#ifndef LIBSYSDEV_H
#define LIBSYSDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Context                                                             */
/* ------------------------------------------------------------------ */

/* An opened sysfs root: reference counted, not thread safe. */
struct sysdev;

/*
 * Open the sysfs tree rooted at @root (NULL means "/sys").  The root must be
 * a directory that holds a "devices" directory, or a system root (the "/" of
 * another system, as lsblk --sysroot takes) whose "sys" directory holds one:
 * then @root + "/sys" is the root.  Installs no signal handlers and changes
 * no process state.  Returns 0 and a context with one reference in *@ctx, or
 * -ENOENT / -ENOTDIR / -EACCES / -ENOMEM.
 */
int sysdev_new(const char *root, struct sysdev **ctx);
struct sysdev *sysdev_ref(struct sysdev *ctx);
/* Drops one reference; frees on the last.  Always returns NULL. */
struct sysdev *sysdev_unref(struct sysdev *ctx);

/* The root as given to sysdev_new() (without trailing slashes; with "/sys"
 * appended for a system root).  Lives as long as the context. */
const char *sysdev_get_root(const struct sysdev *ctx);
/* A directory descriptor for the root, owned by the context: never close it. */
int sysdev_get_root_fd(const struct sysdev *ctx);
/*
 * Resolve a path that a person typed to a path inside the tree, relative to
 * the root with a leading slash ("/devices/virtual/net/lo", "/bus/pci", "/"
 * for the root itself).  @path is a devpath ("/devices/..."), an absolute
 * path through the root (however the root was spelled: "/sys/class/net/lo",
 * "/tmp//x/devices/..."), a path relative to the current directory, or, for
 * a captured tree, a syspath of the system it came from ("/sys/...").
 * Resolved as realpath(1) does: symbolic links followed, ".." applied to
 * what they point to; a link or ".." that leaves the root is refused.
 * Returns 0 and a malloc'd string in *@resolved, or -ENOENT (nothing
 * there), -ENOTDIR (a file on the way), -EXDEV (outside the root), -ELOOP,
 * -ENAMETOOLONG, -EINVAL (empty), -ENOMEM.
 */
int sysdev_resolve_path(struct sysdev *ctx, const char *path, char **resolved);

/* Whether @name is an entry of S/class or of S/bus (read once at open). */
bool sysdev_is_class_name(const struct sysdev *ctx, const char *name);
bool sysdev_is_bus_name(const struct sysdev *ctx, const char *name);

/* ------------------------------------------------------------------ */
/* Kinds and enums                                                     */
/* ------------------------------------------------------------------ */

/* What a directory under S/devices is (sysdev(7)). */
enum sysdev_kind {
	SYSDEV_KIND_ROOT = 0,	/* S/devices itself */
	SYSDEV_KIND_CONTAINER,	/* not below a device: devices/virtual, ... */
	SYSDEV_KIND_DEVICE,	/* holds a regular file "uevent" */
	SYSDEV_KIND_CLASS_DIR,	/* class grouping directory */
	SYSDEV_KIND_ATTR_GROUP, /* any other directory below a device */
	SYSDEV_KIND_UNKNOWN,	/* could not be read, and no uevent file seen: undecidable */
	_SYSDEV_KIND_MAX,
};
/* "root", "container", "device", "class-dir", "attr-group", "unknown" (static strings;
 * NULL for a value out of range, as for every *_to_string() below) */
const char *sysdev_kind_to_string(enum sysdev_kind kind);

enum sysdev_subsystem_kind {
	SYSDEV_SUBSYSTEM_NONE = 0, /* no subsystem link, or it points elsewhere */
	SYSDEV_SUBSYSTEM_BUS,	   /* the link's target lies under S/bus */
	SYSDEV_SUBSYSTEM_CLASS,	   /* the link's target lies under S/class */
};
/* "bus", "class", or NULL for NONE */
const char *sysdev_subsystem_kind_to_string(enum sysdev_subsystem_kind kind);

enum sysdev_placement {
	SYSDEV_PLACEMENT_DEVICES = 0, /* anywhere else below S/devices */
	SYSDEV_PLACEMENT_VIRTUAL,     /* below S/devices/virtual */
	SYSDEV_PLACEMENT_SYSTEM,      /* below S/devices/system */
};
/* "devices", "virtual", "system" */
const char *sysdev_placement_to_string(enum sysdev_placement placement);

/* ------------------------------------------------------------------ */
/* Walk                                                                */
/* ------------------------------------------------------------------ */

/*
 * A node of the walk.  Valid only during the callback that receives it.
 * Lifetime: every string a sysdev_node_get_*() call returns belongs to the
 * node and dies when the callback returns (copy it, or take the node's device
 * with sysdev_node_get_device(), to keep it).  Device fields are NULL (or
 * NONE) on nodes that are not devices.
 */
struct sysdev_node;
struct sysdev_device;

const char *sysdev_node_get_devpath(const struct sysdev_node *node);
const char *sysdev_node_get_name(const struct sysdev_node *node);
enum sysdev_kind sysdev_node_get_kind(const struct sysdev_node *node);
/* Depth below the start of the walk (the start is 0). */
unsigned sysdev_node_get_depth(const struct sysdev_node *node);
/* An open descriptor of the directory (read-only, O_DIRECTORY), or -1.  The walk
 * owns it and closes it after the node's leave callback: never close it. */
int sysdev_node_get_dirfd(const struct sysdev_node *node);
/*
 * 0, or the negative errno that kept the directory from being read.  Such a
 * node is SYSDEV_KIND_UNKNOWN, unless a regular uevent file could still be
 * seen in it (search permission without read): then it is a device.
 */
int sysdev_node_get_error(const struct sysdev_node *node);
/*
 * Whether the node has subdirectories that the walk would have reported but
 * did not enter: @max_depth (or SYSDEV_MAX_DEPTH) stopped it there.
 */
bool sysdev_node_is_truncated(const struct sysdev_node *node);
/*
 * With SYSDEV_WALK_SIBLINGS: false when no later sibling will be reported
 * (for drawing trees).  Without the flag, false only for the last directory
 * entry of the parent.
 */
bool sysdev_node_has_next_sibling(const struct sysdev_node *node);

const char *sysdev_node_get_subsystem(const struct sysdev_node *node);
enum sysdev_subsystem_kind sysdev_node_get_subsystem_kind(const struct sysdev_node *node);
const char *sysdev_node_get_driver(const struct sysdev_node *node);
/* devpath of the nearest ancestor device, NULL if none */
const char *sysdev_node_get_parent(const struct sysdev_node *node);
/* name of the class grouping directory the device sits in, or NULL */
const char *sysdev_node_get_class_dir(const struct sysdev_node *node);
enum sysdev_placement sysdev_node_get_placement(const struct sysdev_node *node);
/*
 * From the uevent file: "MAJOR:MINOR", DEVTYPE, DEVNAME, or NULL.  The file
 * is read for every device with SYSDEV_WALK_UEVENT, otherwise only for
 * devices that have a "dev" attribute.  The device number and DEVNAME
 * belong to devices with a "dev" attribute only (the kernel writes both
 * exactly when it gives a device a number): a uevent that names them
 * without one is not believed, so every output shows the same fields.
 */
const char *sysdev_node_get_devnum(const struct sysdev_node *node);
const char *sysdev_node_get_devtype(const struct sysdev_node *node);
const char *sysdev_node_get_devname(const struct sysdev_node *node);
/* Any uevent key (only when the uevent file was read), or NULL. */
const char *sysdev_node_get_property(const struct sysdev_node *node, const char *key);
/* Whether the directory holds an entry of that name (from getdents). */
bool sysdev_node_has_entry(const struct sysdev_node *node, const char *name);
/*
 * The directory's entries, sorted bytewise, with their d_type (DT_REG,
 * DT_DIR, DT_LNK, ...; DT_UNKNOWN where the filesystem did not say).
 * NULL past the end.  The name lives as long as the node.
 */
const char *sysdev_node_get_entry_at(const struct sysdev_node *node, size_t i,
				     unsigned char *d_type);
/*
 * The node's device, as a device object of its own: 0 and a new reference in
 * *@ret (drop it with sysdev_device_unref(); it outlives the callback and
 * the walk), -ENODEV when the node is no device, or -ENOMEM.  What the walk
 * read is copied; no descriptor is held until one is needed.
 */
int sysdev_node_get_device(const struct sysdev_node *node, struct sysdev_device **ret);
/* Bounded read of an attribute below the node, as sysdev_device_read_attribute(). */
ssize_t sysdev_node_read_attribute(const struct sysdev_node *node, const char *name, char *buf,
				   size_t size);

enum sysdev_walk_flags {
	SYSDEV_WALK_ATTR_GROUPS = 1u << 0, /* report attr-group nodes too */
	SYSDEV_WALK_UEVENT = 1u << 1,	   /* read uevent of every device */
	SYSDEV_WALK_SIBLINGS = 1u << 2,	   /* exact has_next_sibling (costs a probe) */
	SYSDEV_WALK_NO_LINKS = 1u << 3,	   /* skip subsystem/driver readlink */
	SYSDEV_WALK_ERRORS = 1u << 4,	   /* report unreadable nodes even when hidden */
};

/* Returned by an enter callback: do not descend into this node. */
#define SYSDEV_WALK_SKIP 1

/*
 * enter is called before a node's children, leave after them (either may be
 * NULL).  A callback returns 0 to go on, SYSDEV_WALK_SKIP (enter only) to
 * skip the node's subtree, or a negative errno to stop the walk, which then
 * returns that value.
 */
typedef int (*sysdev_walk_fn)(const struct sysdev_node *node, void *userdata);

struct sysdev_walk_stats {
	unsigned long directories; /* directories read */
	unsigned long devices;	   /* device nodes found */
	unsigned long vanished;	   /* gone between listing and opening (hotplug) */
	unsigned long unreadable;  /* could not be opened or read (error set on node) */
	unsigned long too_deep;	   /* not descended: max_depth, descriptor or stack limit */
	unsigned long reserved[8];
};

/*
 * Walk the subtree at devpath @start (NULL means "/devices"), depth first,
 * children in bytewise order of their names.  Symbolic links are never
 * followed.  @max_depth < 0 means no limit (bounded by SYSDEV_MAX_DEPTH).
 * Returns 0, a callback's negative value, or -ENOENT/-ENOTDIR/-EACCES/-EINVAL
 * when the start itself is unusable.  @stats may be NULL.
 */
#define SYSDEV_MAX_DEPTH 8192
int sysdev_walk(struct sysdev *ctx, const char *start, unsigned flags, int max_depth,
		sysdev_walk_fn enter, sysdev_walk_fn leave, void *userdata,
		struct sysdev_walk_stats *stats);

/*
 * Classify one directory (devpath under /devices) by the rules of sysdev(7).
 * Returns a kind (>= 0) or a negative errno.
 */
int sysdev_classify(struct sysdev *ctx, const char *devpath);

/* The rules of sysdev(7), in the order they are tried; the first that holds decides. */
enum sysdev_rule {
	SYSDEV_RULE_ROOT = 0,	     /* S/devices itself: root */
	SYSDEV_RULE_UEVENT,	     /* holds a regular file named uevent: device */
	SYSDEV_RULE_UNREADABLE,	     /* could not be listed, no uevent seen: unknown */
	SYSDEV_RULE_CLASS_DIR,	     /* named after a class, its parent a device or
				      * S/devices/virtual, empty or holding device
				      * directories: class-dir */
	SYSDEV_RULE_BELOW_DEVICE,    /* any other directory below a device: attr-group */
	SYSDEV_RULE_NO_DEVICE_ABOVE, /* any other directory: container */
	_SYSDEV_RULE_MAX,
};
/* "root", "uevent", "unreadable", "class-dir", "below-device", "no-device-above" */
const char *sysdev_rule_to_string(enum sysdev_rule rule);

/* Why a directory is of its kind: the rule that decided and the facts it looked at. */
struct sysdev_reason {
	enum sysdev_kind kind;
	enum sysdev_rule rule;
	bool has_uevent;	/* it holds a regular file named uevent */
	bool name_is_class;	/* its name is an entry of S/class */
	bool parent_is_device;	/* the directory above is a device */
	bool parent_is_virtual; /* the directory above is S/devices/virtual */
	bool below_device;	/* some directory above is a device */
	bool empty;		/* it has no entries (looked at for class names only) */
	bool has_device_child;	/* a subdirectory is a device (class names only) */
	bool unreadable;	/* it could not be listed */
	/* The nearest device above, or NULL.  Owned by the reason: freed by
	 * sysdev_reason_clear(). */
	char *parent_devpath;
};

/*
 * Explain the classification of @devpath: fills *@reason (clear it with
 * sysdev_reason_clear() when done).  Returns the kind or a negative errno
 * (then *@reason holds nothing to clear).
 */
int sysdev_explain(struct sysdev *ctx, const char *devpath, struct sysdev_reason *reason);
/* Frees what *@reason owns and zeroes it. */
void sysdev_reason_clear(struct sysdev_reason *reason);

/* ------------------------------------------------------------------ */
/* Devices                                                             */
/* ------------------------------------------------------------------ */

struct sysdev_device;

/*
 * Look up a device by any form sysdev-tree(1) accepts: a syspath ("/sys/devices/.."
 * or the context's root followed by "/devices/.."), a devpath
 * ("/devices/..."), "SUBSYSTEM:NAME", a device node ("/dev/vda"), or udev's
 * device id: "b254:0" (block device 254:0), "c1:3" (character device 1:3),
 * "n2" (the network interface whose ifindex is 2), "+SUBSYSTEM:SYSNAME"
 * ("+pci:0000:00:02.0"; a '/' in SYSNAME stands for '!').
 * Symbolic links inside the root are resolved ("/sys/class/net/lo" works).
 * Returns 0, -ENOENT (nothing there), -ENODEV (exists but is not a device),
 * -EXDEV (a path outside the root), -EINVAL (not a device spec), -ENOMEM.
 */
int sysdev_device_new(struct sysdev *ctx, const char *spec, struct sysdev_device **dev);
int sysdev_device_new_from_devpath(struct sysdev *ctx, const char *devpath,
				   struct sysdev_device **dev);
/* By device number, through S/dev/block (@type 'b') or S/dev/char ('c'). */
int sysdev_device_new_from_devnum(struct sysdev *ctx, char type, unsigned major, unsigned minor,
				  struct sysdev_device **dev);
/* By SUBSYSTEM:NAME, through S/class/SUBSYSTEM/NAME or S/bus/SUBSYSTEM/devices/NAME. */
int sysdev_device_new_from_subsystem_sysname(struct sysdev *ctx, const char *subsystem,
					     const char *sysname, struct sysdev_device **dev);
struct sysdev_device *sysdev_device_ref(struct sysdev_device *dev);
struct sysdev_device *sysdev_device_unref(struct sysdev_device *dev);

/*
 * Lifetime: every string a sysdev_device_get_*() call returns (names,
 * properties, attribute and group names) belongs to the device and lives
 * until its last reference is dropped; no later call changes it.  The one
 * exception is sysdev_device_get_link(), whose string is the caller's.
 * NULL means absent: the device has no such link, property or field.
 */
const char *sysdev_device_get_devpath(const struct sysdev_device *dev);
const char *sysdev_device_get_name(const struct sysdev_device *dev);
const char *sysdev_device_get_subsystem(const struct sysdev_device *dev);
enum sysdev_subsystem_kind sysdev_device_get_subsystem_kind(const struct sysdev_device *dev);
const char *sysdev_device_get_driver(const struct sysdev_device *dev);
const char *sysdev_device_get_parent_devpath(const struct sysdev_device *dev);
const char *sysdev_device_get_class_dir(const struct sysdev_device *dev);
enum sysdev_placement sysdev_device_get_placement(const struct sysdev_device *dev);
const char *sysdev_device_get_devnum(const struct sysdev_device *dev);
const char *sysdev_device_get_devtype(const struct sysdev_device *dev);
const char *sysdev_device_get_devname(const struct sysdev_device *dev);
/* Any key of the uevent file, or NULL (lives as long as the device). */
const char *sysdev_device_get_property(const struct sysdev_device *dev, const char *key);
/*
 * A property as udev holds it (udev_device_get_property_value(), and what
 * sysdev-tree --properties prints): the uevent file's key, with DEVNAME as
 * the node's path ("/dev/vda" where the file says "vda"); where the file
 * lacks them, DEVPATH, SUBSYSTEM and DRIVER (the names of the links), MAJOR
 * and MINOR (from the "dev" attribute).  NULL when the device has no such
 * property.  Lives as long as the device.
 */
const char *sysdev_device_get_udev_property(const struct sysdev_device *dev, const char *key);
/* Iterate uevent properties: returns false past the end.  *@key and *@value
 * live as long as the device. */
bool sysdev_device_get_property_at(const struct sysdev_device *dev, size_t i, const char **key,
				   const char **value);
/*
 * Target of link @name of the device ("of_node", "firmware_node", "device",
 * "subsystem", "driver"), as a devpath-like path relative to the root when it
 * lies inside the tree, or the raw link text otherwise.  Returns 0 and a
 * malloc'd string in *@ret that the caller frees, -ENOENT (no link of that
 * name), -EINVAL (@name is not one component), or another negative errno.
 */
int sysdev_device_get_link(struct sysdev_device *dev, const char *name, char **ret);

/* The parent device: 0 and a new reference in *@parent (the caller drops it),
 * or -ENOENT when the device has no parent, or another negative errno. */
int sysdev_device_get_parent(struct sysdev_device *dev, struct sysdev_device **parent);

/*
 * Attribute names (the regular files of the device directory, "uevent"
 * excepted) and attribute-group names (subdirectories that are neither
 * devices nor class grouping directories), sorted bytewise.  The directory
 * is listed on the first call.  Returns 0 and name @i in *@ret, -ENOENT past
 * the end, -ENODEV when the device's directory is gone, or the negative errno
 * that kept the directory from being listed (-EACCES, -ENOMEM, ...).  The names live as long as the
 * device.
 */
int sysdev_device_get_attribute_at(struct sysdev_device *dev, size_t i, const char **ret);
int sysdev_device_get_group_at(struct sysdev_device *dev, size_t i, const char **ret);

/*
 * Read attribute @name (may name a file in a group: "power/control") into
 * @buf, at most @size - 1 bytes, NUL-terminated, one trailing newline
 * removed.  Never blocks (FIFOs and other non-regular files are refused with
 * -EINVAL), never follows a symlink.  As libudev does, the links "driver",
 * "subsystem" and "module" read as the last component of their text
 * ("virtio-pci"); any other link is refused with -EINVAL.  Returns the length
 * or a negative errno (-ENOENT absent, -EACCES unreadable, -EFBIG larger than
 * @size - 1: @buf then holds the first @size - 1 bytes as read, NUL-terminated).
 */
ssize_t sysdev_device_read_attribute(struct sysdev_device *dev, const char *name, char *buf,
				     size_t size);

/* ------------------------------------------------------------------ */
/* Enumerator                                                          */
/* ------------------------------------------------------------------ */

/*
 * The devices that match, as libudev's udev_enumerate and systemd's
 * sd_device_enumerator find them (see libsysdev(3) for a porting table):
 * with no match at all, every device that has a subsystem link.
 * Several subsystems, sysnames, drivers, devtypes or properties: any one
 * matches; several attributes: all must hold; different kinds of match
 * combine as AND.  Globs are fnmatch(3) patterns.
 */
struct sysdev_enumerator;

int sysdev_enumerator_new(struct sysdev *ctx, struct sysdev_enumerator **enumerator);
struct sysdev_enumerator *sysdev_enumerator_ref(struct sysdev_enumerator *enumerator);
struct sysdev_enumerator *sysdev_enumerator_unref(struct sysdev_enumerator *enumerator);
/* @match false: devices of this subsystem are left out */
int sysdev_enumerator_add_match_subsystem(struct sysdev_enumerator *enumerator,
					  const char *subsystem, bool match);
int sysdev_enumerator_add_match_sysname(struct sysdev_enumerator *enumerator, const char *glob);
int sysdev_enumerator_add_match_driver(struct sysdev_enumerator *enumerator, const char *glob);
int sysdev_enumerator_add_match_devtype(struct sysdev_enumerator *enumerator, const char *devtype);
/* a property KEY as udev holds it (sysdev_device_get_udev_property(): DEVNAME
 * "/dev/vda", DEVPATH, SUBSYSTEM, DRIVER, MAJOR, MINOR, and every uevent key)
 * matching @glob (NULL: any value) */
int sysdev_enumerator_add_match_property(struct sysdev_enumerator *enumerator, const char *key,
					 const char *glob);
/* attribute @name (may be "power/control") whose value without its trailing
 * newline matches @glob (NULL: the attribute exists and can be read) */
int sysdev_enumerator_add_match_sysattr(struct sysdev_enumerator *enumerator, const char *name,
					const char *glob);
/* a property KEY as udev holds it, or where the device has none, its attribute
 * KEY (read as sysdev_device_read_attribute() reads it), matching @glob;
 * several: all must hold */
int sysdev_enumerator_add_match_value(struct sysdev_enumerator *enumerator, const char *key,
				      const char *glob);
/* the device at @devpath and every device below it */
int sysdev_enumerator_add_match_parent(struct sysdev_enumerator *enumerator, const char *devpath);
int sysdev_enumerator_add_match_placement(struct sysdev_enumerator *enumerator,
					  enum sysdev_placement placement);
/* devices that no entry of S/bus/&ast;/devices or S/class/&ast; links to */
int sysdev_enumerator_add_match_unlinked(struct sysdev_enumerator *enumerator);
/*
 * By default the scan finds the devices libudev finds: those with a
 * subsystem link (libudev looks only through S/bus and S/class).  @allow
 * true also finds the devices without one (/devices/pci0000:00,
 * cpu/cpu0/cache/index0), which a walk shows.
 */
int sysdev_enumerator_allow_no_subsystem(struct sysdev_enumerator *enumerator, bool allow);
/*
 * With a subsystem match the scan reads the kernel's indexes (S/class/NAME,
 * S/bus/NAME/devices); @full_walk makes it walk the whole tree instead.  On
 * a tree the kernel made the two agree; on a hand-made or damaged one, a
 * device whose subsystem link and index entry disagree is found by one only.
 */
int sysdev_enumerator_set_full_walk(struct sysdev_enumerator *enumerator, bool full_walk);
/*
 * Find the matching devices, in the walk's order (parents before children,
 * each directory's entries bytewise).  Drops the results of an earlier scan.
 * Returns 0 or a negative errno.
 */
int sysdev_enumerator_scan(struct sysdev_enumerator *enumerator);
size_t sysdev_enumerator_get_count(const struct sysdev_enumerator *enumerator);
/*
 * The same matches, each device handed to @fn as it is found (in the same
 * order) and kept by no one unless @fn takes a reference: memory stays flat
 * however many devices match.  @fn returns 0 to go on or a negative errno to
 * stop, which is returned.  Drops the results of an earlier scan.
 */
typedef int (*sysdev_enumerator_fn)(struct sysdev_device *device, void *userdata);
int sysdev_enumerator_foreach(struct sysdev_enumerator *enumerator, sysdev_enumerator_fn fn,
			      void *userdata);
/*
 * The @i-th device found, or NULL past the end (no scan yet, or fewer found).  The enumerator keeps
 * the reference: take one with sysdev_device_ref() to keep the device after the next scan or the
 * enumerator's end.
 */
struct sysdev_device *sysdev_enumerator_get_device_at(const struct sysdev_enumerator *enumerator,
						      size_t i);

/* ------------------------------------------------------------------ */
/* Monitor                                                             */
/* ------------------------------------------------------------------ */

/*
 * The kernel's uevents (NETLINK_KOBJECT_UEVENT, the kernel's group) as they
 * happen.  Poll sysdev_monitor_get_fd() for input, then call
 * sysdev_monitor_receive() until it returns -EAGAIN.  Messages not sent by
 * the kernel, cut short or malformed are dropped and counted.  No thread,
 * no signal handler.  The root given to sysdev_new() is where each event's
 * device is looked up: the live /sys for live events.
 */
struct sysdev_monitor;
struct sysdev_event;

int sysdev_monitor_new(struct sysdev *ctx, struct sysdev_monitor **monitor);
/*
 * udevd's processed events instead, through libudev's monitor (udevd must
 * run); subsystem filters then apply in the kernel, with a socket filter.
 */
int sysdev_monitor_new_udev(struct sysdev *ctx, struct sysdev_monitor **monitor);
struct sysdev_monitor *sysdev_monitor_ref(struct sysdev_monitor *monitor);
struct sysdev_monitor *sysdev_monitor_unref(struct sysdev_monitor *monitor);
int sysdev_monitor_get_fd(const struct sysdev_monitor *monitor);
/* Only events of @subsystem (and @devtype, unless NULL); several: any one. */
int sysdev_monitor_add_match_subsystem_devtype(struct sysdev_monitor *monitor,
					       const char *subsystem, const char *devtype);
/* 0 and an event (free it with sysdev_event_unref()), -EAGAIN: none pending. */
int sysdev_monitor_receive(struct sysdev_monitor *monitor, struct sysdev_event **event);
/* Messages dropped so far: not the kernel's, cut short or malformed. */
unsigned long sysdev_monitor_get_dropped(const struct sysdev_monitor *monitor);

struct sysdev_event *sysdev_event_unref(struct sysdev_event *event);
/* Lifetime: every string a sysdev_event_get_*() call returns (action, devpath,
 * subsystem, properties, parent, class directory) lives as long as the event. */
const char *sysdev_event_get_action(const struct sysdev_event *event);
const char *sysdev_event_get_devpath(const struct sysdev_event *event);
const char *sysdev_event_get_subsystem(const struct sysdev_event *event);
unsigned long long sysdev_event_get_seqnum(const struct sysdev_event *event);
const char *sysdev_event_get_property(const struct sysdev_event *event, const char *key);
bool sysdev_event_get_property_at(const struct sysdev_event *event, size_t i, const char **key,
				  const char **value);
/*
 * The directory's kind (enum sysdev_kind), decided when the event was
 * received, or -1: gone by then, a remove, or outside S/devices (modules,
 * drivers).  Parent and class directory as for a device, or NULL.
 */
int sysdev_event_get_kind(const struct sysdev_event *event);
const char *sysdev_event_get_parent(const struct sysdev_event *event);
const char *sysdev_event_get_class_dir(const struct sysdev_event *event);
/* enum sysdev_placement, or -ENODEV outside S/devices */
int sysdev_event_get_placement(const struct sysdev_event *event);

/* ------------------------------------------------------------------ */
/* Power                                                               */
/* ------------------------------------------------------------------ */

enum sysdev_latency_tolerance_kind {
	SYSDEV_LT_ABSENT = 0, /* the device has no pm_qos_latency_tolerance_us */
	SYSDEV_LT_AUTO,	      /* "auto": the hardware may choose */
	SYSDEV_LT_ANY,	      /* "any": no requirement, hardware must not choose */
	SYSDEV_LT_VALUE,      /* a number of microseconds */
	SYSDEV_LT_INVALID,    /* present, but unreadable or not auto, any or a number */
};

/* The largest value the kernel accepts (S32_MAX, also PM_QOS_LATENCY_ANY). */
#define SYSDEV_LT_MAX_US 2147483647

/*
 * Parse a latency tolerance as the kernel reads it or accepts it: "auto",
 * "any" or a decimal number 0..SYSDEV_LT_MAX_US; one trailing newline is
 * allowed.  Returns the kind (AUTO/ANY/VALUE) and the microseconds in *@us
 * (-1 for auto, SYSDEV_LT_MAX_US for any), or -EINVAL (nothing else).
 */
int sysdev_parse_latency_tolerance(const char *text, int32_t *us);

struct sysdev_power {
	char runtime_status[32];   /* "" when absent */
	char control[16];	   /* "auto"/"on", "" when absent */
	char wakeup[16];	   /* "enabled"/"disabled", "" when absent */
	int64_t resume_latency_us; /* -1 absent, -2 "n/a" (no constraint), else us */
	int no_power_off;	   /* -1 absent, else 0/1 */
	enum sysdev_latency_tolerance_kind lt_kind;
	int32_t lt_us;	  /* with SYSDEV_LT_VALUE */
	int lt_error;	  /* with SYSDEV_LT_INVALID: -EBADMSG (unparseable),
			     -EBADFD (not a regular file), -EACCES, ... */
	char lt_text[24]; /* with -EBADMSG: what the file holds (cut) */
	unsigned char reserved[32];
};

/* Parse the device's power/ group.  Returns 0, -ENOENT if no power/ at all. */
int sysdev_device_get_power(struct sysdev_device *dev, struct sysdev_power *power);
/* The same for a node of a walk (a device node). */
int sysdev_node_get_power(const struct sysdev_node *node, struct sysdev_power *power);

/*
 * Read the latency tolerance alone: returns SYSDEV_LT_AUTO/ANY/VALUE with
 * *@us set, or -EOPNOTSUPP when the device lacks the attribute, -EBADFD when
 * it is not a regular file (a directory, a FIFO), -EBADMSG when it holds
 * neither auto, any nor a number, or the errno of the read.
 */
int sysdev_device_get_latency_tolerance(struct sysdev_device *dev, int32_t *us);

/*
 * Set the user latency-tolerance request: "auto", "any" or microseconds.
 * Refuses invalid values before writing (-EINVAL).  -EOPNOTSUPP: the device
 * has no pm_qos_latency_tolerance_us; -EBADFD: it is not a regular file;
 * -EACCES/-EPERM: not allowed; other negative errno values come from the
 * kernel's write.
 */
int sysdev_device_set_latency_tolerance(struct sysdev_device *dev, const char *value);

/* ------------------------------------------------------------------ */
/* The article's measurements (sysdev(7))                              */
/* ------------------------------------------------------------------ */

struct sysdev_stats;

int sysdev_stats_new(struct sysdev *ctx, struct sysdev_stats **stats);
struct sysdev_stats *sysdev_stats_free(struct sysdev_stats *stats);

/*
 * Lifetime: the strings the sysdev_stats_get_*() calls return, and the walk
 * counters, belong to the statistics and live until sysdev_stats_free().
 */
/* Names both in S/bus and S/class, sorted; NULL past the end. */
const char *sysdev_stats_get_bus_class_name(const struct sysdev_stats *stats, size_t i);
/*
 * runtime_status counts, sorted by status: @from_class true for
 * S/class/&lowast;/&lowast;/power/runtime_status, false for
 * S/bus/&lowast;/devices/&lowast;/power/runtime_status.  Returns false past
 * the end.
 */
bool sysdev_stats_get_runtime_status(const struct sysdev_stats *stats, bool from_class, size_t i,
				     const char **status, unsigned long *count);
/* Directories of each kind under S/devices. */
unsigned long sysdev_stats_get_kind_count(const struct sysdev_stats *stats, enum sysdev_kind kind);
/* Devices per subsystem, sorted by name; devices without a subsystem link are not listed. */
bool sysdev_stats_get_subsystem(const struct sysdev_stats *stats, size_t i, const char **name,
				unsigned long *count);
/* The walk's own counters (vanished, unreadable, ...). */
const struct sysdev_walk_stats *sysdev_stats_get_walk(const struct sysdev_stats *stats);

/* ------------------------------------------------------------------ */
/* Capture                                                             */
/* ------------------------------------------------------------------ */

/* What a capture (or an archive pack) copied and what it left out. */
struct sysdev_capture_stats {
	unsigned long files;	  /* regular files written */
	unsigned long dirs;	  /* directories created */
	unsigned long links;	  /* symbolic links created (their text as it is) */
	unsigned long skipped;	  /* source trouble: unreadable (written empty), vanished,
				     FIFO/socket/device node (not written), too deep */
	unsigned long truncated;  /* files cut at their bound */
	unsigned long write_only; /* files without any read bit: written empty, never opened */
	unsigned long emptied;	  /* contents left out on purpose (SLIM, PUBLIC) */
	unsigned long long bytes; /* bytes of file contents written */
	/* the tools' archive packer: directories whose entries lie deeper than 4096
	 * levels, or paths longer than 65536 bytes, the archive's limits (also
	 * counted in skipped) */
	unsigned long too_deep;
	/* the tools' archive packer: links left out because a reader refuses their
	 * target (absolute, or climbing above the top); not counted in skipped */
	unsigned long unsafe_links;
	/* sysdev_capture(): files with read bits that could not be read: written
	 * empty without their read bits, so they read back as unreadable (also
	 * counted in skipped) */
	unsigned long unreadable;
	unsigned long reserved[5];
};

enum sysdev_capture_flags {
	/* Contents only of what the walk, the statistics and the lookups read:
	 * "uevent", "dev" and the files of a device's power/ group.  Every other
	 * file is created empty (name and mode kept). */
	SYSDEV_CAPTURE_SLIM = 1u << 0,
	/* Never read a file that others may not read (no S_IROTH): serial
	 * numbers and the like stay out of fixtures.  Created empty. */
	SYSDEV_CAPTURE_PUBLIC = 1u << 1,
};

/* Bounds of a file's contents: text attributes, and larger (binary) ones. */
#define SYSDEV_CAPTURE_TEXT_MAX (64 * 1024)
#define SYSDEV_CAPTURE_BIN_MAX (1024 * 1024)

/*
 * Copy the tree at devpath @start (NULL: "/devices"; a deeper start brings
 * its ancestors as directories with their files and links) into the EMPTY
 * directory @dest_dirfd, plus the entries of S/class/&ast;/&ast;,
 * S/bus/&ast;/devices/&ast;, S/bus/&ast;/drivers/&ast; (names only) and
 * S/dev/{block,char}/&ast; that the walk and the device lookups read (with a
 * start below /devices, only the links that point into its subtree).
 * Directories (empty ones too), symbolic links (their text, as it is) and
 * regular files (read without blocking, at most SYSDEV_CAPTURE_TEXT_MAX
 * bytes, or SYSDEV_CAPTURE_BIN_MAX for files sysfs sizes above a page) keep
 * their modes.  FIFOs, sockets, device nodes and write-only files are never
 * opened.  What cannot be read is skipped and counted in @stats (may be
 * NULL); a file with read bits that cannot be read is written empty
 * without its read bits (unreadable, not empty, when read back).  With a
 * start, the links of S/bus and S/class to its ancestors are copied too.  Nothing is ever written
 * outside @dest_dirfd.  @flags: a set of enum sysdev_capture_flags.  Returns 0, -ENOTEMPTY when the
 * destination is not empty, -ENOTDIR, -ENOENT/-EINVAL for a bad start, or the negative errno of a
 * write into the destination.
 */
int sysdev_capture(struct sysdev *ctx, const char *start, int dest_dirfd, unsigned flags,
		   struct sysdev_capture_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
