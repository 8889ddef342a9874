/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers shared by the tools. */
#include <string.h>

#include "util.h"

bool str_eq_or_null(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}
