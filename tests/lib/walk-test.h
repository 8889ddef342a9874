/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For the C tests: a walker set up and run in one call, and its counters. */
#ifndef SYSDEV_TEST_WALK_TEST_H
#define SYSDEV_TEST_WALK_TEST_H

#include "libsysdev.h"

/* The walker's counters, as the tests read them. */
struct walk_stats {
	unsigned long directories, devices, vanished, unreadable, too_deep;
};

/* A walker set up and run in one call; its counters in *@st (may be NULL). */
static inline int walk(struct sysdev *ctx, const char *start, unsigned flags, int max_depth,
		       sysdev_walk_fn enter, sysdev_walk_fn leave, void *userdata,
		       struct walk_stats *st)
{
	struct sysdev_walker *w = NULL;
	int err;

	err = sysdev_walker_new(ctx, start, &w);
	if (err >= 0)
		err = sysdev_walker_set_flags(w, flags);
	if (err >= 0 && max_depth >= 0)
		err = sysdev_walker_set_max_depth(w, (unsigned)max_depth);
	if (err >= 0)
		err = sysdev_walker_set_callbacks(w, enter, leave, userdata);
	if (err >= 0)
		err = sysdev_walker_run(w);
	if (st)
		*st = (struct walk_stats){
		    .directories = sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_DIRECTORIES),
		    .devices = sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_DEVICES),
		    .vanished = sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_VANISHED),
		    .unreadable = sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_UNREADABLE),
		    .too_deep = sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_TOO_DEEP),
		};
	sysdev_walker_unref(w);
	return err;
}

#endif
