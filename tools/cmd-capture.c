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
	struct sysdev_capture_stats *st = NULL;
	unsigned long files, dirs, links;
	uint64_t bytes;
	char *devpath = NULL;
	int fd, err;

	if (o->start && resolve_start(ctx, o->start, &devpath) < 0)
		return EXIT_RUNTIME;
	if (mkdir(o->capture_dir, 0755) < 0 && errno != EEXIST) {
		warnx_(o->capture_dir, "cannot create the directory: %s", strerror(errno));
		free(devpath);
		return EXIT_RUNTIME;
	}
	fd = open(o->capture_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		warnx_(o->capture_dir, "cannot open the directory: %s", strerror(errno));
		free(devpath);
		return EXIT_RUNTIME;
	}
	err = sysdev_capture_stats_new(&st);
	if (err >= 0)
		err = sysdev_capture(ctx, devpath, fd, 0, st);
	close(fd);
	if (err == -ENOTEMPTY) {
		warnx_(o->capture_dir, "not empty: a capture needs an empty directory (ENOTEMPTY)");
		free(devpath);
		sysdev_capture_stats_unref(st);
		return EXIT_RUNTIME;
	}
	if (err < 0) {
		warnx_(o->capture_dir, "capture of %s failed: %s",
		       syspath_of(ctx, devpath ? devpath : "/devices"), error_words(err));
		free(devpath);
		sysdev_capture_stats_unref(st);
		return EXIT_RUNTIME;
	}
	files = sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_FILES);
	dirs = sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_DIRS);
	links = sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_LINKS);
	bytes = sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_BYTES);
	warnx_(o->capture_dir,
	       "captured %s: %lu %s, %lu %s, %lu %s, %lu skipped "
	       "(%lu truncated, %lu write-only, %lu unreadable, %llu %s)",
	       syspath_of(ctx, devpath ? devpath : "/devices"), files,
	       plural(files, "file", "files"), dirs, plural(dirs, "directory", "directories"),
	       links, plural(links, "link", "links"),
	       (unsigned long)sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_SKIPPED),
	       (unsigned long)sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_TRUNCATED),
	       (unsigned long)sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_WRITE_ONLY),
	       (unsigned long)sysdev_capture_stats_get(st, SYSDEV_CAPTURE_COUNT_UNREADABLE),
	       (unsigned long long)bytes, plural(bytes, "byte", "bytes"));
	free(devpath);
	sysdev_capture_stats_unref(st);
	return 0;
}
