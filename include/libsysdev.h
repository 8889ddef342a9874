/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsysdev - walk and classify a sysfs tree (/sys/devices).
 *
 * Conventions (libsysdev(3) says more):
 *  - A call that can fail returns 0 (or a documented non-negative value) or a
 *    negative errno, and hands its result back through its last argument
 *    ("ret").  The library never prints and never exits.
 *  - One errno for one condition: -ENOENT the thing asked for is absent (no
 *    such field, property, link, attribute; past the end of an _at()
 *    iteration); -ENODEV a directory that exists but is not a device;
 *    -EBADFD a file that is not a regular file where one should be; -EINVAL
 *    a bad argument (NULL where a pointer is needed, a value out of range:
 *    checked at every public entry, never an abort); -ENOMEM; any other
 *    value is the errno of a system call that failed (-EACCES, -EISDIR, ...).
 *  - Objects are reference counted (NAME_ref(), NAME_unref(), both accept
 *    NULL; unref always returns NULL).  A getter that returns an object or a
 *    string lends it: it lives as long as the object it came from.
 *  - Iteration is one style: NAME_get_X_at(obj, i, &ret) returns -ENOENT
 *    past the end; the SYSDEV_FOREACH_*() macros below wrap it.
 *  - Nothing is thread safe; an object belongs to one thread at a time.
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
 * no process state.  Returns 0 and a context with one reference in *@ret, or
 * -ENOENT / -ENOTDIR / -EACCES / -ENOMEM; -EINVAL: @ret is NULL.
 * Since: 1.0
 */
int sysdev_new(const char *root, struct sysdev **ret);
/* Since: 1.0 */
struct sysdev *sysdev_ref(struct sysdev *ctx);
/* Drops one reference; frees on the last.  Always returns NULL.  Since: 1.0 */
struct sysdev *sysdev_unref(struct sysdev *ctx);

/* The root as given to sysdev_new() (without trailing slashes; with "/sys"
 * appended for a system root).  Lives as long as the context; NULL for a
 * NULL context.  Since: 1.0 */
const char *sysdev_get_root(const struct sysdev *ctx);
/* A directory descriptor for the root, owned by the context: never close it.
 * -EINVAL for a NULL context.  Since: 1.0 */
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
 * Returns 0 and a malloc'd string in *@ret, or -ENOENT (nothing
 * there), -ENOTDIR (a file on the way), -EXDEV (outside the root), -ELOOP,
 * -ENAMETOOLONG, -EINVAL (empty, or a NULL argument), -ENOMEM.
 * Since: 1.0
 */
int sysdev_resolve_path(struct sysdev *ctx, const char *path, char **ret);

/*
 * udev's database (the directory systemd-udevd keeps in /run/udev), read for
 * the links, tags, properties and initialization of each device.  At open
 * the context takes ROOT/run/udev when that directory exists (a captured or
 * imported tree keeps it there), else the directory run/udev beside the
 * root (/sys gives /run/udev, a system root R gives R/run/udev); without
 * either there is none, and every answer comes from sysfs alone.
 * sysdev_set_udev_db() names another directory, or none with NULL; set it
 * before devices are looked up (a device reads its file once, on first
 * use).  Returns 0, or the errno of opening @dir (-ENOENT, -ENOTDIR,
 * -EACCES), -EINVAL for an empty @dir.
 * Since: 1.1
 */
int sysdev_set_udev_db(struct sysdev *ctx, const char *dir);
/* The database's directory as found or given, or NULL for none.  Since: 1.1 */
const char *sysdev_get_udev_db(const struct sysdev *ctx);

/* Whether @name is an entry of S/class or of S/bus (read once at open); false
 * for a NULL argument.  Since: 1.0 */
bool sysdev_is_class_name(const struct sysdev *ctx, const char *name);
/* Since: 1.0 */
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
 * NULL for a value out of range, as for every *_to_string() below).  Since: 1.0 */
const char *sysdev_kind_to_string(enum sysdev_kind kind);

enum sysdev_subsystem_kind {
	SYSDEV_SUBSYSTEM_NONE = 0, /* the subsystem link points neither under S/bus nor S/class */
	SYSDEV_SUBSYSTEM_BUS,	   /* the link's target lies under S/bus */
	SYSDEV_SUBSYSTEM_CLASS,	   /* the link's target lies under S/class */
};
/* "bus", "class", or NULL for NONE.  Since: 1.0 */
const char *sysdev_subsystem_kind_to_string(enum sysdev_subsystem_kind kind);

enum sysdev_placement {
	SYSDEV_PLACEMENT_DEVICES = 0, /* anywhere else below S/devices */
	SYSDEV_PLACEMENT_VIRTUAL,     /* below S/devices/virtual */
	SYSDEV_PLACEMENT_SYSTEM,      /* below S/devices/system */
};
/* "devices", "virtual", "system".  Since: 1.0 */
const char *sysdev_placement_to_string(enum sysdev_placement placement);

/* ------------------------------------------------------------------ */
/* Devices                                                             */
/* ------------------------------------------------------------------ */

/*
 * A device: a directory of S/devices that holds a uevent file, as a lookup,
 * an enumerator, a walk node or a monitor found it.  An event of the monitor
 * is a device too, with an action and a sequence number.
 *
 * Every field has one getter, of the form
 *     int sysdev_device_get_X(struct sysdev_device *dev, T *ret);
 * returning 0 and the value in *@ret, -ENOENT when the device has no such
 * field, -EINVAL for a NULL argument, or the negative errno that kept the
 * field from being read (the device's directory or its uevent file could not
 * be opened or read: -EACCES, -EISDIR, -ENODEV when the directory is gone,
 * ...).  Fields are read on first use and kept: a device answers the same
 * way each time.  Strings live until the device's last reference is dropped.
 */
struct sysdev_device;

/*
 * Look up a device by any form sysdev-tree(1) accepts: a syspath ("/sys/devices/.."
 * or the context's root followed by "/devices/.."), a devpath
 * ("/devices/..."), "SUBSYSTEM:NAME", a device node ("/dev/vda"), or udev's
 * device id: "b254:0" (block device 254:0), "c1:3" (character device 1:3),
 * "n2" (the network interface whose ifindex is 2), "+SUBSYSTEM:SYSNAME"
 * ("+pci:0000:00:02.0"; a '/' in SYSNAME stands for '!').
 * Symbolic links inside the root are resolved ("/sys/class/net/lo" works).
 * Returns 0 and a new reference in *@ret, -ENOENT (nothing there), -ENODEV
 * (exists but is not a device), -EXDEV (a path outside the root), -EINVAL
 * (not a device spec; a spec longer than 64 KiB is none), -ENOMEM.
 * Since: 1.0
 */
int sysdev_device_new(struct sysdev *ctx, const char *spec, struct sysdev_device **ret);
/* By devpath ("/devices/..."); errors as sysdev_device_new().  Since: 1.0 */
int sysdev_device_new_from_devpath(struct sysdev *ctx, const char *devpath,
				   struct sysdev_device **ret);
/*
 * By device number, through S/dev/block (@type 'b') or S/dev/char ('c'), as
 * sd_device_new_from_devnum().  -EINVAL: another @type.  Since: 1.0
 */
int sysdev_device_new_from_devnum(struct sysdev *ctx, char type, dev_t devnum,
				  struct sysdev_device **ret);
/* By SUBSYSTEM:NAME, through S/class/SUBSYSTEM/NAME or S/bus/SUBSYSTEM/devices/NAME.
 * Since: 1.0 */
int sysdev_device_new_from_subsystem_sysname(struct sysdev *ctx, const char *subsystem,
					     const char *sysname, struct sysdev_device **ret);
/* By udev's device id ("b8:0", "c1:3", "n2", "+pci:0000:00:02.0"), as
 * sd_device_new_from_device_id(); -EINVAL: not a device id.  Since: 1.1 */
int sysdev_device_new_from_device_id(struct sysdev *ctx, const char *id,
				     struct sysdev_device **ret);
/* The network interface of index @ifindex (its S/class/net entry whose
 * "ifindex" attribute says so); -EINVAL: @ifindex below 1.  Since: 1.1 */
int sysdev_device_new_from_ifindex(struct sysdev *ctx, int ifindex, struct sysdev_device **ret);
/* The network interface named @ifname (S/class/net/IFNAME).  Since: 1.1 */
int sysdev_device_new_from_ifname(struct sysdev *ctx, const char *ifname,
				  struct sysdev_device **ret);
/* Since: 1.0 */
struct sysdev_device *sysdev_device_ref(struct sysdev_device *dev);
/* Since: 1.0 */
struct sysdev_device *sysdev_device_unref(struct sysdev_device *dev);

/* The devpath ("/devices/pci0000:00/0000:00:02.0"; for an event, as the kernel sent
 * it: "/module/loop" too).  Since: 1.0 */
int sysdev_device_get_devpath(struct sysdev_device *dev, const char **ret);
/* The last component of the devpath (the kernel's sysname).  Since: 1.0 */
int sysdev_device_get_name(struct sysdev_device *dev, const char **ret);
/* SYSDEV_KIND_DEVICE; for an event, the kind of its directory when it was
 * received: -ENOENT when it was gone by then, a remove, or outside S/devices.
 * Since: 1.0 */
int sysdev_device_get_kind(struct sysdev_device *dev, enum sysdev_kind *ret);
/* The last component of the subsystem link's target; -ENOENT: no such link.
 * An event's is its SUBSYSTEM.  Since: 1.0 */
int sysdev_device_get_subsystem(struct sysdev_device *dev, const char **ret);
/* Where the subsystem link points; -ENOENT: no subsystem link.  Since: 1.0 */
int sysdev_device_get_subsystem_kind(struct sysdev_device *dev, enum sysdev_subsystem_kind *ret);
/* The last component of the driver link's target; -ENOENT: no driver bound.
 * An event's is its DRIVER.  Since: 1.0 */
int sysdev_device_get_driver(struct sysdev_device *dev, const char **ret);
/*
 * The nearest device above: 0 and the parent in *@ret, lent by @dev (it
 * lives as long as @dev; take a reference to keep it longer), -ENOENT when
 * the device has no parent device, or the errno of looking it up.
 * Since: 1.0
 */
int sysdev_device_get_parent(struct sysdev_device *dev, struct sysdev_device **ret);
/* The name of the class grouping directory the device sits in; -ENOENT: none.
 * Since: 1.0 */
int sysdev_device_get_class_dir(struct sysdev_device *dev, const char **ret);
/*
 * The parent's devpath without making the parent: 0, -ENOENT (none), or the
 * lookup's error.  A remove event has it from when the device was last seen.
 * Since: 1.1
 */
int sysdev_device_get_parent_devpath(struct sysdev_device *dev, const char **ret);
/* Where below S/devices it sits; -ENOENT: outside S/devices (an event's
 * "/module/..." path).  Since: 1.0 */
int sysdev_device_get_placement(struct sysdev_device *dev, enum sysdev_placement *ret);
/*
 * From the uevent file: the device number (MAJOR, MINOR), DEVTYPE and
 * DEVNAME.  The device number and DEVNAME belong to devices with a "dev"
 * attribute only (the kernel writes both exactly when it gives a device a
 * number): a uevent that names them without one is not believed.  An
 * event's come from its message.
 * Since: 1.0
 */
int sysdev_device_get_devnum(struct sysdev_device *dev, dev_t *ret);
/* Since: 1.0 */
int sysdev_device_get_devtype(struct sysdev_device *dev, const char **ret);
/* DEVNAME as the uevent file says it ("vda", not "/dev/vda").  Since: 1.0 */
int sysdev_device_get_devname(struct sysdev_device *dev, const char **ret);
/* Any key of the uevent file (of an event: of its message).  Since: 1.0 */
int sysdev_device_get_property(struct sysdev_device *dev, const char *key, const char **ret);
/*
 * A property as udev holds it (udev_device_get_property_value(), and what
 * sysdev-tree --properties prints): the uevent file's key, with DEVNAME as
 * the node's path ("/dev/vda" where the file says "vda"); where the file
 * lacks them, DEVPATH, SUBSYSTEM and DRIVER (the names of the links), MAJOR
 * and MINOR (from the "dev" attribute).
 * Since: 1.0
 */
int sysdev_device_get_udev_property(struct sysdev_device *dev, const char *key, const char **ret);
/*
 * Every property as `udevadm info -q property` shows it, one at a time: the
 * uevent file's (as sysdev_device_get_udev_property() gives them), the keys
 * udev computes, the database's E: lines (which win over the file's), and
 * the keys udev makes of the database: USEC_INITIALIZED, DEVLINKS (the links,
 * separated by spaces), TAGS and CURRENT_TAGS (":a:b:").  Each key once, in
 * the order of its first appearance.  0, -ENOENT past the end, or the error
 * of reading the database file (-EFBIG, -EBADFD, -EACCES, ...).
 * With a database, sysdev_device_get_udev_property() answers from this list.
 * Since: 1.1
 */
int sysdev_device_get_udev_property_at(struct sysdev_device *dev, size_t i, const char **ret_key,
				       const char **ret_value);
/*
 * udev's device id: "bMAJOR:MINOR" (a block device), "cMAJOR:MINOR" (a
 * character device), "nIFINDEX" (a network interface), "+SUBSYSTEM:SYSNAME"
 * otherwise, as udev names the device's database file.  -ENOENT: a device
 * without a subsystem has none.  Since: 1.1
 */
int sysdev_device_get_udev_id(struct sysdev_device *dev, const char **ret);
/*
 * From udev's database (sysdev_set_udev_db()), read once, on first use.  A
 * device is initialized when its database file is there, as
 * udev_device_get_is_initialized() says (without a database, none is).  The
 * links are paths below /dev ("/dev/disk/by-id/..."), the tags and current
 * tags names, each sorted bytewise and listed once; a database written before
 * current tags existed (no V: line) counts every tag as current, as libudev
 * does.  Each returns 0 and its answer, -ENOENT (past the end; no time, no
 * priority), or the error of reading the file, which names nothing by itself:
 * the file is DB/data/ID (sysdev_get_udev_db(), sysdev_device_get_udev_id()):
 * -EFBIG (more than a megabyte), -EBADFD (not a regular file), -EACCES, ....
 * A file that is absent means not initialized, never an error.
 * Since: 1.1
 */
int sysdev_device_get_is_initialized(struct sysdev_device *dev, bool *ret);
/* When udev initialized it, in microseconds of CLOCK_MONOTONIC (I:).  Since: 1.1 */
int sysdev_device_get_usec_initialized(struct sysdev_device *dev, uint64_t *ret);
/* Since: 1.1 */
int sysdev_device_get_devlink_at(struct sysdev_device *dev, size_t i, const char **ret);
/* The links' priority (L:).  Since: 1.1 */
int sysdev_device_get_devlink_priority(struct sysdev_device *dev, int *ret);
/* Since: 1.1 */
int sysdev_device_get_tag_at(struct sysdev_device *dev, size_t i, const char **ret);
/* Since: 1.1 */
int sysdev_device_get_current_tag_at(struct sysdev_device *dev, size_t i, const char **ret);
/* 1 the device has the tag, 0 not, or the error of reading the file.  Since: 1.1 */
int sysdev_device_has_tag(struct sysdev_device *dev, const char *tag);
/* Since: 1.1 */
int sysdev_device_has_current_tag(struct sysdev_device *dev, const char *tag);
/* The uevent file's property @i, in the file's order: 0 with *@ret_key and
 * *@ret_value (either may be NULL), -ENOENT past the end.  Since: 1.0 */
int sysdev_device_get_property_at(struct sysdev_device *dev, size_t i, const char **ret_key,
				  const char **ret_value);
/*
 * Attribute names (the regular files of the device directory, "uevent"
 * excepted) and attribute-group names (subdirectories that are neither
 * devices nor class grouping directories), sorted bytewise.  The directory
 * is listed on the first call.  Returns 0 and name @i in *@ret, -ENOENT past
 * the end, -ENODEV when the device's directory is gone, or the negative errno
 * that kept the directory from being listed (-EACCES, -ENOMEM, ...).
 * Since: 1.0
 */
int sysdev_device_get_attribute_at(struct sysdev_device *dev, size_t i, const char **ret);
/* Since: 1.0 */
int sysdev_device_get_group_at(struct sysdev_device *dev, size_t i, const char **ret);
/*
 * An event's action ("add", "remove", "change", "bind", ...) and sequence
 * number: -ENOENT for a device that did not come from a monitor.
 * Since: 1.0
 */
int sysdev_device_get_action(struct sysdev_device *dev, const char **ret);
/* Since: 1.0 */
int sysdev_device_get_seqnum(struct sysdev_device *dev, uint64_t *ret);
/*
 * Target of link @name of the device ("of_node", "firmware_node", "device",
 * "subsystem", "driver"), as a devpath-like path relative to the root when it
 * lies inside the tree, or the raw link text otherwise.  Returns 0 and a
 * malloc'd string in *@ret that the caller frees, -ENOENT (no link of that
 * name), -EINVAL (@name is not one component), -ENODEV when the device's
 * directory is gone, or another negative errno.
 * Since: 1.0
 */
int sysdev_device_get_link(struct sysdev_device *dev, const char *name, char **ret);
/*
 * Read attribute @name (may name a file in a group: "power/control") into
 * @buf, at most @size - 1 bytes, NUL-terminated, one trailing newline
 * removed.  Never blocks, never follows a symlink.  As libudev does, the
 * links "driver", "subsystem" and "module" read as the last component of
 * their text ("virtio-pci"); any other link, and a directory, FIFO or device
 * node, is refused with -EBADFD.  Returns the length or a negative errno
 * (-ENOENT absent, -EACCES unreadable, -EINVAL a bad name, -EFBIG larger
 * than @size - 1: @buf then holds the first @size - 1 bytes as read,
 * NUL-terminated).
 * Since: 1.0
 */
ssize_t sysdev_device_read_attribute(struct sysdev_device *dev, const char *name, char *buf,
				     size_t size);

/* Every property of @dev: const char *key, *value set in turn. */
#define SYSDEV_DEVICE_FOREACH_PROPERTY(dev, key, value)                                            \
	for (size_t _sysdev_i_ = 0;                                                                \
	     sysdev_device_get_property_at((dev), _sysdev_i_, &(key), &(value)) >= 0;              \
	     _sysdev_i_++)
/* Every property as udevadm shows it (sysdev_device_get_udev_property_at()). */
#define SYSDEV_DEVICE_FOREACH_UDEV_PROPERTY(dev, key, value)                                       \
	for (size_t _sysdev_i_ = 0;                                                                \
	     sysdev_device_get_udev_property_at((dev), _sysdev_i_, &(key), &(value)) >= 0;         \
	     _sysdev_i_++)
/* Every link of @dev below /dev. */
#define SYSDEV_DEVICE_FOREACH_DEVLINK(dev, link)                                                   \
	for (size_t _sysdev_i_ = 0; sysdev_device_get_devlink_at((dev), _sysdev_i_, &(link)) >= 0; \
	     _sysdev_i_++)
/* Every tag of @dev. */
#define SYSDEV_DEVICE_FOREACH_TAG(dev, tag)                                                        \
	for (size_t _sysdev_i_ = 0; sysdev_device_get_tag_at((dev), _sysdev_i_, &(tag)) >= 0;      \
	     _sysdev_i_++)
/* Every attribute name of @dev. */
#define SYSDEV_DEVICE_FOREACH_ATTRIBUTE(dev, name)                                                 \
	for (size_t _sysdev_i_ = 0;                                                                \
	     sysdev_device_get_attribute_at((dev), _sysdev_i_, &(name)) >= 0; _sysdev_i_++)
/* Every attribute-group name of @dev. */
#define SYSDEV_DEVICE_FOREACH_GROUP(dev, name)                                                     \
	for (size_t _sysdev_i_ = 0; sysdev_device_get_group_at((dev), _sysdev_i_, &(name)) >= 0;   \
	     _sysdev_i_++)

/* ------------------------------------------------------------------ */
/* Walk                                                                */
/* ------------------------------------------------------------------ */

/*
 * A node of the walk: one directory, with the facts of the walk about it.
 * Valid only during the callback that receives it; the strings it returns
 * die when the callback returns.  These facts cannot fail and are plain
 * values.  A node that is a device lends its device
 * (sysdev_node_get_device()): every device field is read there.
 */
struct sysdev_node;

/* Since: 1.0 */
const char *sysdev_node_get_devpath(const struct sysdev_node *node);
/* Since: 1.0 */
const char *sysdev_node_get_name(const struct sysdev_node *node);
/* Since: 1.0 */
enum sysdev_kind sysdev_node_get_kind(const struct sysdev_node *node);
/* Depth below the start of the walk (the start is 0).  Since: 1.0 */
unsigned sysdev_node_get_depth(const struct sysdev_node *node);
/* An open descriptor of the directory (read-only, O_DIRECTORY), or -1.  The walk
 * owns it and closes it after the node's leave callback: never close it.
 * Since: 1.0 */
int sysdev_node_get_dirfd(const struct sysdev_node *node);
/*
 * 0, or the negative errno that kept the directory from being read.  Such a
 * node is SYSDEV_KIND_UNKNOWN, unless a regular uevent file could still be
 * seen in it (search permission without read): then it is a device.
 * Since: 1.0
 */
int sysdev_node_get_error(const struct sysdev_node *node);
/*
 * Whether the node has subdirectories that the walk would have reported but
 * did not enter: the depth limit (or SYSDEV_MAX_DEPTH) stopped it there.
 * Since: 1.0
 */
bool sysdev_node_is_truncated(const struct sysdev_node *node);
/*
 * With SYSDEV_WALK_SIBLINGS: false when no later sibling will be reported
 * (for drawing trees).  Without the flag, false only for the last directory
 * entry of the parent.
 * Since: 1.0
 */
bool sysdev_node_has_next_sibling(const struct sysdev_node *node);
/* Whether the directory holds an entry of that name (from getdents).  Since: 1.0 */
bool sysdev_node_has_entry(const struct sysdev_node *node, const char *name);
/*
 * The directory's entries, sorted bytewise: 0 with entry @i's name in
 * *@ret_name and its d_type (DT_REG, DT_DIR, DT_LNK, ...; DT_UNKNOWN where
 * the filesystem did not say) in *@ret_type (may be NULL), -ENOENT past the
 * end.  The name lives as long as the node.
 * Since: 1.0
 */
int sysdev_node_get_entry_at(struct sysdev_node *node, size_t i, const char **ret_name,
			     unsigned char *ret_type);
/*
 * The node's device, lent: 0 and the device in *@ret, valid during the
 * callback (take a reference with sysdev_device_ref() to keep it: it then
 * outlives the callback and the walk), or -ENODEV when the node is no
 * device.  What the walk read is the device's; what it did not read is read
 * when asked.
 * Since: 1.0
 */
int sysdev_node_get_device(struct sysdev_node *node, struct sysdev_device **ret);

/* Every entry of @node: const char *name and unsigned char type set in turn. */
#define SYSDEV_NODE_FOREACH_ENTRY(node, name, type)                                                \
	for (size_t _sysdev_i_ = 0;                                                                \
	     sysdev_node_get_entry_at((node), _sysdev_i_, &(name), &(type)) >= 0; _sysdev_i_++)

enum sysdev_walk_flags {
	SYSDEV_WALK_ATTR_GROUPS = 1u << 0, /* report attr-group nodes too */
	SYSDEV_WALK_UEVENT = 1u << 1,	   /* read uevent of every device during the walk */
	SYSDEV_WALK_SIBLINGS = 1u << 2,	   /* exact has_next_sibling (costs a probe) */
	SYSDEV_WALK_NO_LINKS = 1u << 3,	   /* skip subsystem/driver readlink */
	SYSDEV_WALK_ERRORS = 1u << 4,	   /* report unreadable nodes even when hidden */
	_SYSDEV_WALK_FLAGS_ALL = (1u << 5) - 1,
};

/* Returned by an enter callback: do not descend into this node. */
#define SYSDEV_WALK_SKIP 1
/* The deepest a walk goes, whatever its limit. */
#define SYSDEV_MAX_DEPTH 8192

/*
 * enter is called before a node's children, leave after them (either may be
 * NULL).  A callback returns 0 to go on, SYSDEV_WALK_SKIP (enter only) to
 * skip the node's subtree, or a negative errno to stop the walk, which then
 * returns that value.
 */
typedef int (*sysdev_walk_fn)(struct sysdev_node *node, void *userdata);

/* The walker's counters (sysdev_walker_get_count()). */
enum sysdev_walk_count {
	SYSDEV_WALK_COUNT_DIRECTORIES = 0, /* directories read */
	SYSDEV_WALK_COUNT_DEVICES,	   /* device nodes found */
	SYSDEV_WALK_COUNT_VANISHED,	   /* gone between listing and opening (hotplug) */
	SYSDEV_WALK_COUNT_UNREADABLE,	   /* could not be opened or read (error set on node) */
	SYSDEV_WALK_COUNT_TOO_DEEP,	   /* not descended: depth, descriptor or stack limit */
	_SYSDEV_WALK_COUNT_MAX,
};

/*
 * A walk of the subtree at devpath @start (NULL means "/devices"), depth
 * first, children in bytewise order of their names; symbolic links are
 * never followed.  Set it up with the setters, then sysdev_walker_run().
 */
struct sysdev_walker;

/* 0 and a new walker in *@ret; -EINVAL: @start is no devpath.  Since: 1.0 */
int sysdev_walker_new(struct sysdev *ctx, const char *start, struct sysdev_walker **ret);
/* Since: 1.0 */
struct sysdev_walker *sysdev_walker_ref(struct sysdev_walker *walker);
/* Since: 1.0 */
struct sysdev_walker *sysdev_walker_unref(struct sysdev_walker *walker);
/* A set of enum sysdev_walk_flags (default 0); -EINVAL: an unknown flag.  Since: 1.0 */
int sysdev_walker_set_flags(struct sysdev_walker *walker, unsigned flags);
/* Do not descend below @max_depth (the start is depth 0); the default and any
 * larger value is SYSDEV_MAX_DEPTH.  Since: 1.0 */
int sysdev_walker_set_max_depth(struct sysdev_walker *walker, unsigned max_depth);
/* The callbacks and their userdata (all may be NULL).  Since: 1.0 */
int sysdev_walker_set_callbacks(struct sysdev_walker *walker, sysdev_walk_fn enter,
				sysdev_walk_fn leave, void *userdata);
/*
 * Walk.  Returns 0, a callback's negative value, or -ENOENT/-ENOTDIR/
 * -EACCES/-EINVAL when the start itself is unusable, -ENOMEM.  The counters
 * start from zero at each run.
 * Since: 1.0
 */
int sysdev_walker_run(struct sysdev_walker *walker);
/* The counter @which of the last run (0 for an unknown one).  Since: 1.0 */
unsigned long sysdev_walker_get_count(const struct sysdev_walker *walker,
				      enum sysdev_walk_count which);

/*
 * Classify one directory (devpath under /devices) by the rules of sysdev(7).
 * Returns a kind (>= 0) or a negative errno.
 * Since: 1.0
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
/* "root", "uevent", "unreadable", "class-dir", "below-device", "no-device-above".
 * Since: 1.0 */
const char *sysdev_rule_to_string(enum sysdev_rule rule);

/* The facts a rule looks at (sysdev_reason_has_fact()). */
enum sysdev_fact {
	SYSDEV_FACT_HAS_UEVENT = 0,    /* it holds a regular file named uevent */
	SYSDEV_FACT_NAME_IS_CLASS,     /* its name is an entry of S/class */
	SYSDEV_FACT_PARENT_IS_DEVICE,  /* the directory above is a device */
	SYSDEV_FACT_PARENT_IS_VIRTUAL, /* the directory above is S/devices/virtual */
	SYSDEV_FACT_BELOW_DEVICE,      /* some directory above is a device */
	SYSDEV_FACT_EMPTY,	       /* it has no entries (looked at for class names only) */
	SYSDEV_FACT_HAS_DEVICE_CHILD,  /* a subdirectory is a device (class names only) */
	SYSDEV_FACT_UNREADABLE,	       /* it could not be listed */
	_SYSDEV_FACT_MAX,
};

/* Why a directory is of its kind: the rule that decided and the facts it looked at. */
struct sysdev_reason;

/*
 * Explain the classification of @devpath: returns its kind (>= 0) and a new
 * reason in *@ret, or a negative errno.
 * Since: 1.0
 */
int sysdev_explain(struct sysdev *ctx, const char *devpath, struct sysdev_reason **ret);
/* Since: 1.0 */
struct sysdev_reason *sysdev_reason_ref(struct sysdev_reason *reason);
/* Since: 1.0 */
struct sysdev_reason *sysdev_reason_unref(struct sysdev_reason *reason);
/* Since: 1.0 */
enum sysdev_kind sysdev_reason_get_kind(const struct sysdev_reason *reason);
/* Since: 1.0 */
enum sysdev_rule sysdev_reason_get_rule(const struct sysdev_reason *reason);
/* Whether fact @fact holds (false for an unknown one).  Since: 1.0 */
bool sysdev_reason_has_fact(const struct sysdev_reason *reason, enum sysdev_fact fact);
/* The nearest device above, lent by the reason; -ENOENT: none.  Since: 1.0 */
int sysdev_reason_get_parent(struct sysdev_reason *reason, struct sysdev_device **ret);

/* ------------------------------------------------------------------ */
/* Enumerator                                                          */
/* ------------------------------------------------------------------ */

/*
 * The devices that match, as libudev's udev_enumerate and systemd's
 * sd_device_enumerator find them (see libsysdev(3) for a porting table):
 * with no match at all, every device that has a subsystem link.
 * Several subsystems, sysnames, drivers, devtypes or properties: any one
 * matches; several attributes: all must hold; different kinds of match
 * combine as AND.  Globs are fnmatch(3) patterns.  Every add_match and
 * setter returns 0, -EINVAL for a bad argument, or -ENOMEM.
 */
struct sysdev_enumerator;

/* Since: 1.0 */
int sysdev_enumerator_new(struct sysdev *ctx, struct sysdev_enumerator **ret);
/* Since: 1.0 */
struct sysdev_enumerator *sysdev_enumerator_ref(struct sysdev_enumerator *enumerator);
/* Since: 1.0 */
struct sysdev_enumerator *sysdev_enumerator_unref(struct sysdev_enumerator *enumerator);
/* @match false: devices of this subsystem are left out.  Since: 1.0 */
int sysdev_enumerator_add_match_subsystem(struct sysdev_enumerator *enumerator,
					  const char *subsystem, bool match);
/* Since: 1.0 */
int sysdev_enumerator_add_match_sysname(struct sysdev_enumerator *enumerator, const char *glob);
/* devices whose name matches @glob are left out; several: any one leaves a
 * device out (sd-device's add_nomatch_sysname).  Since: 1.1 */
int sysdev_enumerator_add_nomatch_sysname(struct sysdev_enumerator *enumerator, const char *glob);
/* Since: 1.0 */
int sysdev_enumerator_add_match_driver(struct sysdev_enumerator *enumerator, const char *glob);
/* Since: 1.0 */
int sysdev_enumerator_add_match_devtype(struct sysdev_enumerator *enumerator, const char *devtype);
/* a property KEY as udev holds it (sysdev_device_get_udev_property(): DEVNAME
 * "/dev/vda", DEVPATH, SUBSYSTEM, DRIVER, MAJOR, MINOR, every uevent key, and
 * with a database its properties too)
 * matching @glob (NULL: any value).  Since: 1.0 */
int sysdev_enumerator_add_match_property(struct sysdev_enumerator *enumerator, const char *key,
					 const char *glob);
/* attribute @name (may be "power/control") whose value without its trailing
 * newline matches @glob (NULL: the attribute exists and can be read).  Since: 1.0 */
int sysdev_enumerator_add_match_sysattr(struct sysdev_enumerator *enumerator, const char *name,
					const char *glob);
/* libudev's udev_enumerate_add_nomatch_sysattr(): devices whose attribute
 * @name can be read and matches @glob (NULL: can be read at all) are left
 * out; several: any one leaves a device out.  Since: 1.1 */
int sysdev_enumerator_add_nomatch_sysattr(struct sysdev_enumerator *enumerator, const char *name,
					  const char *glob);
/* a property KEY as udev holds it, or where the device has none, its attribute
 * KEY (read as sysdev_device_read_attribute() reads it), matching @glob;
 * several: all must hold.  Since: 1.0 */
int sysdev_enumerator_add_match_value(struct sysdev_enumerator *enumerator, const char *key,
				      const char *glob);
/* devices with tag @tag in udev's database, found through its index
 * tags/TAG/; several: any one, as libudev.  Since: 1.1 */
int sysdev_enumerator_add_match_tag(struct sysdev_enumerator *enumerator, const char *tag);
/* libudev's udev_enumerate_add_match_is_initialized(): the devices udev has
 * initialized, and those it gives neither a device node nor a network
 * interface (whether it has seen them or not).  Since: 1.1 */
int sysdev_enumerator_add_match_is_initialized(struct sysdev_enumerator *enumerator);
/* @initialized true: only the devices udev has initialized; false: only
 * those it has not (as udevadm trigger --initialized-match and
 * --initialized-nomatch); a device whose database file cannot be read
 * matches neither.  Since: 1.1 */
int sysdev_enumerator_add_match_initialized(struct sysdev_enumerator *enumerator, bool initialized);
/* the device at @devpath and every device below it.  Since: 1.0 */
int sysdev_enumerator_add_match_parent(struct sysdev_enumerator *enumerator, const char *devpath);
/* Since: 1.0 */
int sysdev_enumerator_add_match_placement(struct sysdev_enumerator *enumerator,
					  enum sysdev_placement placement);
/* devices that no entry of S/bus/&ast;/devices or S/class/&ast; links to.  Since: 1.0 */
int sysdev_enumerator_add_match_unlinked(struct sysdev_enumerator *enumerator);
/*
 * By default the scan finds the devices libudev finds: those with a
 * subsystem link (libudev looks only through S/bus and S/class).  @allow
 * true also finds the devices without one (/devices/pci0000:00,
 * cpu/cpu0/cache/index0), which a walk shows, and with a subsystem match read
 * through the indexes, the roots of that bus (S/devices/system/NAME,
 * S/devices/virtual/NAME) where they link to it, though no index names them.
 * Since: 1.0
 */
int sysdev_enumerator_allow_no_subsystem(struct sysdev_enumerator *enumerator, bool allow);
/*
 * With a subsystem match the scan reads the kernel's indexes (S/class/NAME,
 * S/bus/NAME/devices); @full_walk makes it walk the whole tree instead.  On
 * a tree the kernel made the two agree; on a hand-made or damaged one, a
 * device whose subsystem link and index entry disagree is found by one only.
 * Since: 1.0
 */
int sysdev_enumerator_set_full_walk(struct sysdev_enumerator *enumerator, bool full_walk);
/*
 * Find the matching devices, in the walk's order (parents before children,
 * each directory's entries bytewise).  Drops the results of an earlier scan.
 * Returns 0 or a negative errno.
 * Since: 1.0
 */
int sysdev_enumerator_scan(struct sysdev_enumerator *enumerator);
/* How many devices the last scan found (0 before one).  Since: 1.0 */
size_t sysdev_enumerator_get_count(const struct sysdev_enumerator *enumerator);
/*
 * The @i-th device found: 0 and the device in *@ret, lent by the enumerator
 * until its next scan or its end (take a reference to keep it), -ENOENT past
 * the end (no scan yet, or fewer found).
 * Since: 1.0
 */
int sysdev_enumerator_get_device_at(struct sysdev_enumerator *enumerator, size_t i,
				    struct sysdev_device **ret);

/* Every device the last scan of @enumerator found: struct sysdev_device *dev set in turn. */
#define SYSDEV_FOREACH_DEVICE(enumerator, dev)                                                     \
	for (size_t _sysdev_i_ = 0;                                                                \
	     sysdev_enumerator_get_device_at((enumerator), _sysdev_i_, &(dev)) >= 0; _sysdev_i_++)

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

/* Since: 1.0 */
int sysdev_monitor_new(struct sysdev *ctx, struct sysdev_monitor **ret);
/*
 * udevd's processed events instead, through libudev's monitor (udevd must
 * run); subsystem filters then apply in the kernel, with a socket filter.
 * Since: 1.0
 */
int sysdev_monitor_new_udev(struct sysdev *ctx, struct sysdev_monitor **ret);
/* Since: 1.0 */
struct sysdev_monitor *sysdev_monitor_ref(struct sysdev_monitor *monitor);
/* Since: 1.0 */
struct sysdev_monitor *sysdev_monitor_unref(struct sysdev_monitor *monitor);
/* The descriptor to poll; -EINVAL for a NULL monitor.  Since: 1.0 */
int sysdev_monitor_get_fd(const struct sysdev_monitor *monitor);
/* Only events of @subsystem (and @devtype, unless NULL); several: any one.  Since: 1.0 */
int sysdev_monitor_add_match_subsystem_devtype(struct sysdev_monitor *monitor,
					       const char *subsystem, const char *devtype);
/*
 * 0 and the next event, a device with an action and a sequence number (a new
 * reference: drop it with sysdev_device_unref()), or -EAGAIN: none pending.
 * Its kind, parent and class directory are looked up on receipt, while the
 * directory is there; every other field comes from the message.
 * Since: 1.0
 */
int sysdev_monitor_receive(struct sysdev_monitor *monitor, struct sysdev_device **ret);
/* Messages dropped so far: not the kernel's, cut short or malformed.  Since: 1.0 */
unsigned long sysdev_monitor_get_dropped(const struct sysdev_monitor *monitor);

/*
 * Loss is never silent.  The kernel's socket asks for a 128 MiB receive
 * buffer (SO_RCVBUFFORCE where permitted, else SO_RCVBUF, which the system
 * caps at net.core.rmem_max).  Where messages were lost all the same (the
 * socket overflowed: ENOBUFS, or the kernel's SEQNUM skipped numbers),
 * sysdev_monitor_receive() hands a loss notice in the stream, before the
 * next event: an event with the action "lost" and no device
 * (sysdev_device_get_devpath() is -ENOENT), with its evidence ("enobufs" or
 * "seqnum"), and the count and seqnum range where known.  An overflow with
 * no message after it has an unknown count; the gap the next message shows
 * is then reported too.  A gap can be spurious where devices live in another
 * network namespace: their events are numbered but not sent here.
 *
 * After a loss, sysdev_monitor_resync() compares the devices that exist now
 * with those the monitor knows (those that existed at its first receive,
 * which should come after the filters are set, as its events changed them
 * since) and queues what changed as synthesized events:
 * "remove" (children first), "add" (parents first), "bind" and "unbind"
 * where the driver changed; sysdev_device_get_is_synthesized() is 1 for
 * them and they have no seqnum (-ENODATA).  The filters apply to them too.
 */

/*
 * Ask for @size bytes of receive buffer (the kernel doubles it for its
 * bookkeeping).  Since: 1.1
 */
int sysdev_monitor_set_receive_buffer_size(struct sysdev_monitor *monitor, size_t size);
/* The receive buffer the kernel granted, as SO_RCVBUF reports it.  Since: 1.1 */
int sysdev_monitor_get_receive_buffer_size(const struct sysdev_monitor *monitor, size_t *ret);
/*
 * Only events of devices with @tag (udevd's events carry TAGS; the kernel's
 * carry none, so on the kernel source a tag filter passes nothing).  Several:
 * any one.  Since: 1.1
 */
int sysdev_monitor_add_match_tag(struct sysdev_monitor *monitor, const char *tag);
/*
 * Only events with property @key matching the fnmatch(3) @glob.  Several:
 * any one.  Each kind of filter (subsystem, tag, property) that has any must
 * pass.  Since: 1.1
 */
int sysdev_monitor_add_match_property(struct sysdev_monitor *monitor, const char *key,
				      const char *glob);
/*
 * Rescan and queue what changed since the devices the monitor knows: the
 * number of synthesized events queued, or a negative errno.  Since: 1.1
 */
int sysdev_monitor_resync(struct sysdev_monitor *monitor);
/* 1 for an event made by a resync, 0 for one heard.  Since: 1.1 */
int sysdev_device_get_is_synthesized(struct sysdev_device *dev);
/*
 * A loss notice's count of lost events, first and last lost seqnum: 0 and
 * the number, -ENODATA where unknown, -EINVAL for an event that is no loss
 * notice.  Since: 1.1
 */
int sysdev_device_get_lost_count(struct sysdev_device *dev, uint64_t *ret);
/* Since: 1.1 */
int sysdev_device_get_lost_first(struct sysdev_device *dev, uint64_t *ret);
/* Since: 1.1 */
int sysdev_device_get_lost_last(struct sysdev_device *dev, uint64_t *ret);
/* A loss notice's evidence: "enobufs" or "seqnum".  Since: 1.1 */
int sysdev_device_get_lost_evidence(struct sysdev_device *dev, const char **ret);

/* ------------------------------------------------------------------ */
/* Power                                                               */
/* ------------------------------------------------------------------ */

enum sysdev_latency_tolerance_kind {
	SYSDEV_LT_AUTO = 1, /* "auto": the hardware may choose */
	SYSDEV_LT_ANY,	    /* "any": no requirement, hardware must not choose */
	SYSDEV_LT_VALUE,    /* a number of microseconds */
};

/* The largest value the kernel accepts (S32_MAX, also PM_QOS_LATENCY_ANY). */
#define SYSDEV_LT_MAX_US 2147483647

/*
 * Parse a latency tolerance as the kernel reads it or accepts it: "auto",
 * "any" or a decimal number 0..SYSDEV_LT_MAX_US; one trailing newline is
 * allowed.  Returns the kind (AUTO/ANY/VALUE) and the microseconds in *@us
 * (may be NULL; -1 for auto, SYSDEV_LT_MAX_US for any), or -EINVAL (nothing
 * else, or a NULL @text).
 * Since: 1.0
 */
int sysdev_parse_latency_tolerance(const char *text, int32_t *us);

/* The power/ group of a device, as read once. */
struct sysdev_power;

/* Read the device's power/ group: 0 and a new object in *@ret, -ENOENT: no
 * power/ group, or the errno of opening it.  Since: 1.0 */
int sysdev_device_get_power(struct sysdev_device *dev, struct sysdev_power **ret);
/* Since: 1.0 */
struct sysdev_power *sysdev_power_ref(struct sysdev_power *power);
/* Since: 1.0 */
struct sysdev_power *sysdev_power_unref(struct sysdev_power *power);
/* runtime_status, control ("auto"/"on"), wakeup ("enabled"/"disabled") as
 * they read; -ENOENT: absent or unreadable.  Since: 1.0 */
int sysdev_power_get_runtime_status(struct sysdev_power *power, const char **ret);
/* Since: 1.0 */
int sysdev_power_get_control(struct sysdev_power *power, const char **ret);
/* Since: 1.0 */
int sysdev_power_get_wakeup(struct sysdev_power *power, const char **ret);
/* pm_qos_resume_latency_us: 0 and microseconds, -ERANGE when it reads "n/a"
 * (no constraint), -ENOENT absent or not a number.  Since: 1.0 */
int sysdev_power_get_resume_latency_us(struct sysdev_power *power, int64_t *ret);
/* pm_qos_no_power_off (0 or 1); -ENOENT absent.  Since: 1.0 */
int sysdev_power_get_no_power_off(struct sysdev_power *power, bool *ret);
/*
 * The latency tolerance: the kind (> 0) with *@ret_us as
 * sysdev_parse_latency_tolerance() sets it, or -ENOENT when the device has
 * no pm_qos_latency_tolerance_us, -EBADFD when it is not a regular file (a
 * directory, a FIFO), -EBADMSG when it holds neither auto, any nor a number,
 * or the errno of the read (-EACCES, ...).
 * Since: 1.0
 */
int sysdev_power_get_latency_tolerance(struct sysdev_power *power, int32_t *ret_us);
/* With -EBADMSG above: what the file holds (cut to 23 bytes); -ENOENT otherwise.
 * Since: 1.0 */
int sysdev_power_get_latency_tolerance_text(struct sysdev_power *power, const char **ret);

/* The latency tolerance alone, as sysdev_power_get_latency_tolerance().  Since: 1.0 */
int sysdev_device_get_latency_tolerance(struct sysdev_device *dev, int32_t *ret_us);

/*
 * Set the user latency-tolerance request: "auto", "any" or microseconds.
 * Refuses invalid values before writing (-EINVAL).  -ENOENT: the device has
 * no pm_qos_latency_tolerance_us; -EBADFD: it is not a regular file;
 * -EMLINK: it has a second name; -EACCES/-EPERM: not allowed; other negative
 * errno values come from the kernel's write.
 * Since: 1.0
 */
int sysdev_device_set_latency_tolerance(struct sysdev_device *dev, const char *value);

#ifdef __cplusplus
}
#endif

#endif
