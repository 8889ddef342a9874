/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --check-udev: not written yet. */
#include "cli.h"

int cmd_check_udev(struct sysdev *ctx, const struct options *o)
{
	(void)ctx;
	(void)o;
	warnx_("--check-udev", "not implemented in this build");
	return EXIT_RUNTIME;
}
