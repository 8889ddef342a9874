/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --capture DIR [START]: copy the tree into the empty DIR (sysdev(7)). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "plural.h"

int cmd_capture(struct sysdev *ctx, const struct options *o)
{
	struct sysdev_capture_stats st;
	char *devpath = NULL;
	int fd, err;

	if (o->start && resolve_start(ctx, o->start, &devpath) < 0)
		return EXIT_RUNTIME;
	if (mkdir(o->capture_dir, 0755) < 0 && errno != EEXIST) {
		warnx_(o->capture_dir, "cannot create the directory: %s", error_words(-errno));
		free(devpath);
		return EXIT_RUNTIME;
	}
	fd = open(o->capture_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		warnx_(o->capture_dir, "cannot open the directory: %s", error_words(-errno));
		free(devpath);
		return EXIT_RUNTIME;
	}
	err = sysdev_capture(ctx, devpath, fd, 0, &st);
	close(fd);
	if (err == -ENOTEMPTY) {
		warnx_(o->capture_dir, "not empty: a capture needs an empty directory (ENOTEMPTY)");
		free(devpath);
		return EXIT_RUNTIME;
	}
	if (err < 0) {
		warnx_(o->capture_dir, "capture of %s failed: %s",
		       syspath_of(ctx, devpath ? devpath : "/devices"), error_words(err));
		free(devpath);
		return EXIT_RUNTIME;
	}
	warnx_(o->capture_dir,
	       "captured %s: %lu %s, %lu %s, %lu %s, %lu skipped "
	       "(%lu truncated, %lu write-only, %lu unreadable, %llu %s)",
	       syspath_of(ctx, devpath ? devpath : "/devices"), st.files,
	       plural(st.files, "file", "files"), st.dirs,
	       plural(st.dirs, "directory", "directories"), st.links,
	       plural(st.links, "link", "links"), st.skipped, st.truncated, st.write_only,
	       st.unreadable, st.bytes, plural(st.bytes, "byte", "bytes"));
	free(devpath);
	return 0;
}
