/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --capture DIR [START]: not written yet (issue: capture, diff, check-udev). */
#include "cli.h"

int cmd_capture(struct sysdev *ctx, const struct options *o)
{
	(void)ctx;
	warnx_("--capture", "not implemented in this build");
	(void)o;
	return EXIT_RUNTIME;
}
