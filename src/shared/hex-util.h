/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hex digits, as the archive's and umockdev's escapes write them. */
#ifndef SYSDEV_SHARED_HEX_UTIL_H
#define SYSDEV_SHARED_HEX_UTIL_H

/* The value of one hex digit (either case), or -1 when @c is none. */
static inline int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
