/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Growth helpers: one way to grow an array, and small string helpers. */
#ifndef SYSDEV_SHARED_ALLOC_UTIL_H
#define SYSDEV_SHARED_ALLOC_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Make room for @need elements of @elem bytes in *@v, whose capacity is
 * *@cap elements: doubled from @min (or from the capacity there is) until it
 * is enough.  The array keeps its contents; the new room is not cleared.
 * 0, or -ENOMEM (the array is left as it was).
 */
int grow_array_min(void **v, size_t *cap, size_t need, size_t elem, size_t min);
/* The same, starting at 64 elements. */
int grow_array(void **v, size_t *cap, size_t need, size_t elem);

/* grow_array() for a typed pointer: GROW(p, cap, need) */
#define GROW(p, cap, need) grow_array((void **)&(p), &(cap), (need), sizeof(*(p)))
#define GROW_MIN(p, cap, need, min)                                                                \
	grow_array_min((void **)&(p), &(cap), (need), sizeof(*(p)), (min))

/* strdup(), with NULL for NULL */
char *strdup_or_null(const char *s);
/* strcmp() of two char * for qsort() and bsearch() */
int cmp_strp(const void *a, const void *b);

#endif
