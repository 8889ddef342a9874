/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers of the tools (grow_array() and strdup_or_null() come from the basic
 * layer, alloc-util.h). */
#ifndef SYSDEV_TOOLS_UTIL_H
#define SYSDEV_TOOLS_UTIL_H

#include <stdbool.h>

bool str_eq_or_null(const char *a, const char *b); /* NULL equals only NULL */

#endif
