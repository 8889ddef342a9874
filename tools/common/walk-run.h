/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A walk from the tools: a walker set up, run and its counters kept. */
#ifndef SYSDEV_TOOLS_WALK_RUN_H
#define SYSDEV_TOOLS_WALK_RUN_H

#include "libsysdev.h"

/* The counters of a walk (a walker's, or the statistics'). */
struct walk_counts {
	unsigned long v[_SYSDEV_WALK_COUNT_MAX];
};
void walk_counts_of(const struct sysdev_walker *w, struct walk_counts *c);
/*
 * Walk @start (NULL: /devices) with @flags and the callbacks, up to
 * @max_depth (< 0: no limit); the counters in *@counts (may be NULL).
 * Returns what sysdev_walker_run() returns.
 */
int walk_run(struct sysdev *ctx, const char *start, unsigned flags, int max_depth,
	     sysdev_walk_fn enter, sysdev_walk_fn leave, void *userdata,
	     struct walk_counts *counts);

#endif
