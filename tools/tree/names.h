/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Names a person recognises: VENDOR and MODEL from udev's hardware database
 * (the host's, also for a captured root), MODULE from the driver's `module`
 * link.  Never prints; every call returns 0 or a negative errno.
 */
#ifndef SYSDEV_TREE_NAMES_H
#define SYSDEV_TREE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "libsysdev.h"

struct names;

/* A cache of names for the devices of @ctx (takes a reference).  The
 * database is opened on the first lookup. */
int names_new(struct sysdev *ctx, struct names **ret);
void names_free(struct names *n);

/*
 * ID_VENDOR_FROM_DATABASE and ID_MODEL_FROM_DATABASE for the device's
 * modalias: its MODALIAS uevent property, or else its `modalias` file, or
 * for a USB device (devtype usb_device) without either the key udev's hwdb
 * builtin composes from idVendor, idProduct and product.  0 with NULL where
 * there is no modalias or the database has no name (or there is no
 * database).  Cached per modalias: at most one database lookup for each
 * distinct one; asked twice in a row about the same device (VENDOR, then
 * MODEL), the second answer is the first's, so a device costs at most one
 * modalias read.  The strings live until names_free().
 */
int names_vendor_model(struct names *n, struct sysdev_device *dev, const char **vendor,
		       const char **model);
/* The same for a modalias string itself. */
int names_vendor_model_modalias(struct names *n, const char *modalias, const char **vendor,
				const char **model);

/*
 * The kernel module of the device's driver: the last component of the
 * target of S/bus/SUBSYSTEM/drivers/DRIVER/module.  0 with NULL when the
 * device has no driver or the driver no module link (built in).  Cached per
 * subsystem and driver.
 */
int names_module(struct names *n, struct sysdev_device *dev, const char **module);
int names_module_of(struct names *n, const char *subsystem, const char *driver,
		    const char **module);

/*
 * MODULES: the kernel modules whose modules.alias entries match the device's
 * modalias (its MODALIAS property, else its modalias file), space-separated
 * and sorted (module-aliases.h says where the file is found and how it is
 * matched).  0 with NULL when there is none, or no modules.alias (see
 * names_modules_source()).  Cached per modalias; the file is read on the
 * first lookup.
 */
int names_modules(struct names *n, struct sysdev_device *dev, const char **modules);
int names_modules_of_modalias(struct names *n, const char *modalias, const char **modules);
/*
 * After a lookup: the modules.alias read or looked for (*@path, may be NULL),
 * and 0 or why it could not be read (-ENOENT: none found; -E2BIG: a limit,
 * *@bad_line naming the line when it was a line's); *@over_limit counts the
 * modaliases whose lookup passed its step limit (left empty).
 */
int names_modules_source(const struct names *n, const char **path, size_t *bad_line,
			 unsigned long *over_limit);

/* After a lookup: whether a hardware database could be opened.  A missing
 * one is no error (the names are then empty); a caller may say so once. */
bool names_have_database(const struct names *n);

struct names_stats {
	unsigned long modalias_reads; /* modalias (or idVendor...) files read */
	unsigned long modaliases;     /* distinct modaliases seen */
	unsigned long lookups;	      /* database lookups made */
	unsigned long module_links;   /* module links read */
};
void names_get_stats(const struct names *n, struct names_stats *stats);
/* The sums over every names object of the process so far. */
void names_get_total_stats(struct names_stats *stats);

/*
 * udev's hwdb key for a USB device without a modalias: "usb:vVVVVpPPPP:NAME"
 * from idVendor and idProduct (hexadecimal, at most 0xffff, an optional
 * trailing newline) and the product string (may be NULL).  Returns the
 * length written to @buf (NUL-terminated, cut to @size), or -EINVAL when
 * an id is not such a number.
 */
int names_usb_modalias(const char *id_vendor, const char *id_product, const char *product,
		       char *buf, size_t size);

#endif
