/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Build small sysfs trees in a temporary directory for the unit tests. */
#ifndef SYSDEV_TEST_TREE_H
#define SYSDEV_TEST_TREE_H

#include <stdbool.h>

/* A fresh empty temp dir; returns its path (static storage per call site is not kept). */
char *tree_new(void);
void tree_free(char *root);
/* Create path (relative to root) with parents; "dir/" makes a directory. */
void tree_dir(const char *root, const char *path);
void tree_file(const char *root, const char *path, const char *content);
void tree_link(const char *root, const char *path, const char *target);
char *tree_read(const char *root, const char *path);
/*
 * Lay out a device: DEVPATH/uevent (with @uevent content), power/runtime_status,
 * and subsystem link to bus/NAME or class/NAME when @subsystem is "bus:NAME" or
 * "class:NAME" (NULL: none), driver link when @driver is given.
 */
void tree_device(const char *root, const char *devpath, const char *subsystem, const char *driver,
		 const char *uevent);
/* The article's tree (omap_i2c.2 ... gta04:green:power) and friends. */
void tree_article(const char *root);

#endif
