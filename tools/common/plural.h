/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Words for counts and kinds in messages: "1 link", "2 links", "an attr-group". */
#ifndef SYSDEV_TOOLS_PLURAL_H
#define SYSDEV_TOOLS_PLURAL_H

#include <string.h>

/* @one when @n is 1, @many otherwise (0 devices, 1 device, 2 devices) */
static inline const char *plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "an" before a vowel (an attr-group, an unknown), "a" before the others */
static inline const char *indefinite_article(const char *word)
{
	return word[0] && strchr("aeiou", word[0]) ? "an" : "a";
}

#endif
