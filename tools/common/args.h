/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* DEVICE and START arguments, resolved in a sysfs root; each says why it failed. */
#ifndef SYSDEV_TOOLS_ARGS_H
#define SYSDEV_TOOLS_ARGS_H

#include "libsysdev.h"

/*
 * Resolve an argument that names a place in the tree (a DEVICE form, or a
 * path: absolute, relative to the current directory, a devpath) to a
 * devpath under /devices.  On failure, says why in one line and returns < 0.
 */
int resolve_arg(struct sysdev *ctx, const char *arg, char **devpath);
/* The same for START: any directory under S/devices.  Says why on failure. */
int resolve_start(struct sysdev *ctx, const char *start, char **devpath);
/* Why sysdev_new(@root) failed, in words. */
void warn_root(const char *root, int err);
/* The walk's start from @arg (*@start NULL when @arg is); warns and returns < 0 on failure. */
int start_or_warn(struct sysdev *ctx, const char *arg, char **start);
/* The root as messages and outputs name it: an unpacked archive as typed (root_shown()). */
const char *root_named(struct sysdev *ctx);
/* A syspath for messages: root + devpath. */
const char *syspath_of(struct sysdev *ctx, const char *devpath);
/* Open a device named on the command line, printing a clear error; NULL on failure. */
struct sysdev_device *open_device_or_warn(struct sysdev *ctx, const char *spec);

#endif
