/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --capture DIR [START]: copy the tree into the empty DIR (sysdev(7)). */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture-front.h"
#include "cli.h"

int cmd_capture(struct sysdev *ctx, const struct options *o)
{
	struct tree_counts st;
	char verb[PATH_MAX * 2 + 16];
	const char *syspath;
	bool created;
	int fd, err;

	created = mkdir(o->capture_dir, 0755) == 0;
	if (!created && errno != EEXIST) {
		warnx_(o->capture_dir, "cannot create the directory: %s", error_words(-errno));
		return EXIT_RUNTIME;
	}
	fd = open(o->capture_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		warnx_(o->capture_dir, "cannot open the directory: %s", error_words(-errno));
		return EXIT_RUNTIME;
	}
	err = capture_to_dir(ctx, o->start, fd, 0, o->capture_dir, &st, &syspath);
	close(fd);
	if (err < 0) {
		/* a directory made for nothing is not left behind */
		if (created)
			rmdir(o->capture_dir);
		return EXIT_RUNTIME;
	}
	snprintf(verb, sizeof(verb), "captured %s:", syspath);
	capture_summary(o->capture_dir, verb, &st);
	return 0;
}
