/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one front end of a capture (capture-front.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "capture-front.h"
#include "messages.h"
#include "plural.h"

int capture_to_dir(struct sysdev *ctx, const char *start, int dfd, unsigned flags, const char *what,
		   struct tree_counts *st, const char **syspath)
{
	char *devpath = NULL;
	int err;

	if (start && resolve_start(ctx, start, &devpath) < 0)
		return -1;
	err = tree_capture(ctx, devpath, dfd, flags, st);
	if (err == -ENOTEMPTY)
		warnx_(what, "not empty: a capture needs an empty directory (ENOTEMPTY)");
	else if (err < 0)
		warnx_(what, "capture of %s failed: %s",
		       syspath_of(ctx, devpath ? devpath : "/devices"), error_words(err));
	else if (syspath)
		*syspath = syspath_of(ctx, devpath ? devpath : "/devices");
	free(devpath);
	return err < 0 ? -1 : 0;
}

void capture_summary(const char *what, const char *verb, const struct tree_counts *st)
{
	warnx_(what,
	       "%s %lu %s, %lu %s, %lu %s, %lu skipped "
	       "(%lu truncated, %lu write-only, %lu unreadable, %lu emptied, %llu %s)",
	       verb, st->files, plural(st->files, "file", "files"), st->dirs,
	       plural(st->dirs, "directory", "directories"), st->links,
	       plural(st->links, "link", "links"), st->skipped, st->truncated, st->write_only,
	       st->unreadable, st->emptied, st->bytes, plural(st->bytes, "byte", "bytes"));
}

void capture_report_left_out(const char *what, const struct tree_counts *st)
{
	if (st->too_deep)
		warnx_(what,
		       "%lu %s left out: deeper than 4096 directories or a path longer than 65536 "
		       "bytes, the limits of an archive",
		       st->too_deep,
		       plural(st->too_deep, "directory's entries", "directories' entries"));
	if (st->unsafe_links)
		warnx_(what,
		       "%lu %s left out: %s absolute or %s above the top of the tree, which a "
		       "reader refuses",
		       st->unsafe_links, plural(st->unsafe_links, "link", "links"),
		       plural(st->unsafe_links, "its target is", "their targets are"),
		       plural(st->unsafe_links, "climbs", "climb"));
}
