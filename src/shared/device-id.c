/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* udev's device ids (b8:0, c1:3, n2, +SUBSYSTEM:SYSNAME): see device-id.h. */
#include <limits.h>
#include <string.h>

#include "device-id.h"

/* A decimal number of digits only, up to UINT_MAX; *@end past its last digit. */
static bool parse_uint(const char *s, unsigned *out, const char **end)
{
	unsigned long long v = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned)(*s - '0');
		if (v > UINT_MAX)
			return false;
	}
	*out = (unsigned)v;
	*end = s;
	return true;
}

bool device_id_parse(const char *s, struct device_id *id)
{
	const char *end, *colon;

	memset(id, 0, sizeof(*id));
	if (s[0] == 'b' || s[0] == 'c') {
		if (!parse_uint(s + 1, &id->major, &end) || *end != ':' ||
		    !parse_uint(end + 1, &id->minor, &end) || *end)
			return false;
		id->kind = DEVICE_ID_DEVNUM;
		id->type = s[0];
		return true;
	}
	if (s[0] == 'n') {
		if (!parse_uint(s + 1, &id->ifindex, &end) || *end || id->ifindex == 0)
			return false;
		id->kind = DEVICE_ID_IFINDEX;
		return true;
	}
	if (s[0] == '+') {
		colon = strchr(s + 1, ':');
		if (!colon || colon == s + 1 || !colon[1] ||
		    memchr(s + 1, '/', (size_t)(colon - s - 1)))
			return false;
		id->kind = DEVICE_ID_SUBSYSTEM_SYSNAME;
		id->subsystem = s + 1;
		id->subsystem_len = (size_t)(colon - s - 1);
		id->sysname = colon + 1;
		return true;
	}
	return false;
}
