/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rules of sysdev(7), in one place: the facts about a directory below
 * S/devices are gathered by rules_gather() and the kind they make is decided
 * by rules_decide().  The walk, single lookups (classify, explain, ancestry),
 * attribute groups and everything built on the walk (capture, stats) ask
 * these two.
 */
#ifndef SYSDEV_RULES_H
#define SYSDEV_RULES_H

#include <stdbool.h>

#include "libsysdev.h"

struct sysdev;
struct dir_list;

struct dir_facts {
	bool is_root;	    /* S/devices itself */
	bool has_uevent;    /* a regular file named uevent */
	bool name_is_class; /* named after an entry of S/class */
	bool parent_is_device;
	bool parent_is_virtual; /* parent is S/devices/virtual */
	bool below_device;	/* some ancestor is a device */
	bool empty;		/* no entries at all */
	bool has_device_child;	/* only looked at for class-dir candidates */
	bool unreadable;	/* the directory could not be listed */
};

/* Where a directory sits: from the levels of a walk above it, or from ancestry_get(). */
struct dir_place {
	bool is_root;
	bool parent_is_device;
	bool parent_is_virtual;
	bool below_device;
};

/* A directory to gather the facts of. */
struct dir_probe {
	const char *name; /* its last component */
	struct dir_place place;
	int parent_fd;	       /* the directory that holds it, or -1 */
	int fd;		       /* open on it, or -1: looked at through @parent_fd */
	struct dir_list *list; /* its entries when already read (through @fd), or NULL */
	int error;	       /* negative errno: it could not be read, 0 */
	unsigned list_flags;   /* the lister's flags, for listing it when a rule needs to */
};

/*
 * Gather the facts about @d.  The entries are looked at only when a rule
 * needs them (a class-dir candidate).  0, or the negative errno of listing
 * the directory for that (then empty and has_device_child stay false).
 */
int rules_gather(const struct sysdev *ctx, const struct dir_probe *d, struct dir_facts *f);
/* The rule that decides, trying them in the order sysdev(7) gives. */
enum sysdev_rule rules_rule(const struct dir_facts *f);
/* The kind the facts make: the kind of rules_rule(). */
enum sysdev_kind rules_decide(const struct dir_facts *f);
/* Not a device, named after a class, below a device or in S/devices/virtual. */
bool rules_class_candidate(const struct dir_facts *f);

/* Whether directory @fd holds a regular file named uevent: it is a device. */
bool dir_has_uevent(int fd);
/* The same for child @name of @dirfd (@name is known to be a directory, or absent). */
bool child_has_uevent(int dirfd, const char *name);

/*
 * Facts about the ancestors of @devpath, gathered by opening each component
 * from the root (no symlink followed).
 */
struct ancestry {
	int fd;			  /* open fd of devpath itself (caller closes) */
	struct dir_place place;	  /* of devpath */
	bool parent_is_class_dir; /* the parent directory is a class grouping dir */
	char *parent_devpath;	  /* nearest device above, or NULL */
	char *parent_dirname;	  /* name of the parent directory */
};
int ancestry_get(struct sysdev *ctx, const char *devpath, struct ancestry *a);
void ancestry_free(struct ancestry *a);
/* Move the nearest device above to *@parent_devpath and, when the parent is a class
 * grouping directory, its name to *@class_dir (left alone otherwise). */
void ancestry_take(struct ancestry *a, char **parent_devpath, char **class_dir);
/*
 * sysdev_classify() that keeps what it found on the way down: the kind, and
 * in @a the ancestry (the caller frees it), or a negative errno (@a freed).
 */
int classify_with_ancestry(struct sysdev *ctx, const char *devpath, struct ancestry *a);

#endif
