/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --diff OLD NEW: not written yet. */
#include "cli.h"

int cmd_diff(const struct options *o)
{
	(void)o;
	warnx_("--diff", "not implemented in this build");
	return EXIT_USAGE;
}
