/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UTF-8 as GLib's g_utf8_validate takes it (RFC 3629). */
#ifndef SYSDEV_SHARED_UTF8_UTIL_H
#define SYSDEV_SHARED_UTF8_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at @s (1..4) within @n bytes, or 0:
 * a stray continuation byte, a cut sequence, an overlong form, a surrogate
 * or a code point above U+10FFFF.
 */
static inline size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xf0 && s[1] < 0x90))
		return 0; /* overlong */
	if (s[0] == 0xed && s[1] >= 0xa0)
		return 0; /* surrogate */
	if (s[0] == 0xf4 && s[1] >= 0x90)
		return 0; /* above U+10FFFF */
	return len;
}

/* Whether the @n bytes at @s are valid UTF-8. */
static inline bool utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		size_t l = utf8_seq_len(p + i, n - i);

		if (l == 0)
			return false;
		i += l;
	}
	return true;
}

#endif
