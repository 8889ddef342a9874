/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A walk from the tools (walk-run.h). */
#include "walk-run.h"

void walk_counts_of(const struct sysdev_walker *w, struct walk_counts *c)
{
	for (unsigned i = 0; i < _SYSDEV_WALK_COUNT_MAX; i++)
		c->v[i] = w ? sysdev_walker_get_count(w, (enum sysdev_walk_count)i) : 0;
}

int walk_run(struct sysdev *ctx, const char *start, unsigned flags, int max_depth,
	     sysdev_walk_fn enter, sysdev_walk_fn leave, void *userdata, struct walk_counts *counts)
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
	if (counts)
		walk_counts_of(w, counts);
	sysdev_walker_unref(w);
	return err;
}
