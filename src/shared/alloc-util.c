/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"

int grow_array_min(void **v, size_t *cap, size_t need, size_t elem, size_t min)
{
	size_t ncap;
	void *nv;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : (min ? min : 1);
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		ncap *= 2;
	}
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

int grow_array(void **v, size_t *cap, size_t need, size_t elem)
{
	return grow_array_min(v, cap, need, elem, 64);
}

char *strdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
