/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The MODULES column: the kernel modules whose `modules.alias` entries match
 * a device's modalias, as kmod resolves an alias (`modprobe --resolve-alias`,
 * lspci's "Kernel modules").  The file is depmod's text: lines
 * "alias PATTERN MODULE"; anything else is ignored.  Patterns are fnmatch(3)
 * globs (`*`, `?`, `[...]`, `\`), and as kmod does, a `-` outside brackets
 * counts as `_` in both the pattern and the modalias; a pattern with an
 * unmatched bracket is left out, as depmod leaves it out of its index.
 *
 * Work is bounded (sysdev(7)): the entries are sorted by their literal
 * prefix, so a lookup tries only the patterns whose prefix the modalias
 * starts with; one match costs at most the product of the two lengths, and
 * one lookup at most MODULE_ALIASES_MAX_STEPS steps (-E2BIG beyond).
 */
#ifndef SYSDEV_TREE_MODULE_ALIASES_H
#define SYSDEV_TREE_MODULE_ALIASES_H

#include <stdbool.h>
#include <stddef.h>

#include "libsysdev.h"

/* The limits, each said by name when exceeded. */
#define MODULE_ALIASES_MAX_FILE (64u << 20)  /* bytes of modules.alias */
#define MODULE_ALIASES_MAX_LINE 4096u	     /* bytes of one line */
#define MODULE_ALIASES_MAX_STEPS (1ul << 24) /* match steps of one lookup */

struct module_aliases;

/*
 * Parse @len bytes of modules.alias text (NUL bytes end a line's use: such a
 * line is ignored).  -E2BIG for more than MODULE_ALIASES_MAX_FILE bytes or a
 * line longer than MODULE_ALIASES_MAX_LINE (*@bad_line, when non-NULL, says
 * which, from 1), -ENOMEM.
 */
int module_aliases_parse(const char *text, size_t len, struct module_aliases **ret,
			 size_t *bad_line);
void module_aliases_free(struct module_aliases *a);
/* How many entries were kept. */
size_t module_aliases_count(const struct module_aliases *a);

/*
 * The modules whose patterns match @modalias: sorted bytewise, each once,
 * separated by one space, in a malloc'd string (*@ret NULL when none).
 * *@steps, when non-NULL, gets the match steps taken.  0, -E2BIG past
 * MODULE_ALIASES_MAX_STEPS, -ENOMEM.
 */
int module_aliases_lookup(const struct module_aliases *a, const char *modalias, char **ret,
			  unsigned long *steps);

/*
 * fnmatch(@pattern, @s, 0) in the C locale, for the patterns modules.alias
 * holds (no named classes `[:alpha:]`), in at most (strlen(@pattern) + 1) *
 * (strlen(@s) + 1) steps; each step is added to *@steps.
 */
bool alias_glob_match(const char *pattern, const char *s, unsigned long *steps);

/*
 * Find and read modules.alias for @ctx's root: for the live /sys, the running
 * kernel's (/lib/modules/`uname -r`, else /usr/lib/modules/`uname -r`); for
 * another root S, in R/lib/modules or R/usr/lib/modules with R = S, else
 * R = S/.. (as udev's database is found), the only or newest (version order)
 * directory that holds one, resolved inside R.  *@path gets where it was
 * looked for or read (malloc'd, may be NULL).  -ENOENT when there is none.
 */
int module_aliases_load(struct sysdev *ctx, struct module_aliases **ret, char **path,
			size_t *bad_line);

#endif
