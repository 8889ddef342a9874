/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The article's measurements (sysdev(7)) for --stats and --format
 * openmetrics: one walk of the tree, the runtime_status counts of
 * S/class and S/bus, the names that are both a bus and a class.
 */
#ifndef SYSDEV_TREE_STATS_H
#define SYSDEV_TREE_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "libsysdev.h"

struct tree_stats;

/* Walk the tree and count: 0 and a new object in *@ret, or a negative errno
 * (-EINVAL: @ctx or @ret is NULL). */
int tree_stats_new(struct sysdev *ctx, struct tree_stats **ret);
/* Frees @stats (NULL is fine). */
void tree_stats_free(struct tree_stats *stats);

/* Names both in S/bus and S/class, sorted: 0 and name @i, -ENOENT past the end. */
int tree_stats_get_bus_class_name_at(struct tree_stats *stats, size_t i, const char **ret);
/*
 * runtime_status counts, sorted by status: @from_class true for
 * S/class/&lowast;/&lowast;/power/runtime_status, false for
 * S/bus/&lowast;/devices/&lowast;/power/runtime_status.  0 with the status
 * and its count, -ENOENT past the end.
 */
int tree_stats_get_runtime_status_at(struct tree_stats *stats, bool from_class, size_t i,
				     const char **ret_status, unsigned long *ret_count);
/* Directories of each kind under S/devices (0 for a kind out of range). */
unsigned long tree_stats_get_kind_count(const struct tree_stats *stats, enum sysdev_kind kind);
/* Devices per subsystem, sorted by name (devices without a subsystem link are
 * not listed): 0 with name and count, -ENOENT past the end. */
int tree_stats_get_subsystem_at(struct tree_stats *stats, size_t i, const char **ret_name,
				unsigned long *ret_count);
/* The walk's own counters (vanished, unreadable, ...; 0 out of range). */
unsigned long tree_stats_get_walk_count(const struct tree_stats *stats,
					enum sysdev_walk_count which);

#endif
