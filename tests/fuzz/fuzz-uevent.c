/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uevent_parse(): the KEY=VALUE lines of a uevent file, any bytes.
 * Invariants: every key is non-empty and holds no '=' or newline, every
 * value holds no newline, all strings lie inside the buffer, uevent_get()
 * finds the first of equal keys, and devnum is "DIGITS:DIGITS" taken from
 * MAJOR and MINOR exactly when both are decimal.
 */
#include "fuzz-common.h"
#include "libsysdev-private.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static bool decimal(const char *s)
{
	if (!*s || strlen(s) > 10)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uevent u = {0};
	const char *major, *minor;

	if (size > SYSDEV_ATTR_MAX + 1)
		return 0; /* the reader never hands more to the parser */
	/* as uevent_read_at() leaves it: the bytes, one spare byte for a NUL */
	u.cap = size + 1;
	u.buf = malloc(u.cap);
	FUZZ_ASSERT(u.buf);
	memcpy(u.buf, data, size);
	u.buf[size] = '\0';
	FUZZ_ASSERT(uevent_parse(&u, size) == 0);
	for (size_t i = 0; i < u.n; i++) {
		const char *k = u.keys[i], *v = u.values[i];

		FUZZ_ASSERT(k >= u.buf && k < u.buf + size);
		FUZZ_ASSERT(v > u.buf && v <= u.buf + size);
		FUZZ_ASSERT(*k != '\0');
		FUZZ_ASSERT(!strchr(k, '=') && !strchr(k, '\n'));
		FUZZ_ASSERT(!strchr(v, '\n'));
		FUZZ_ASSERT(v + strlen(v) <= u.buf + size);
		/* the first of equal keys wins */
		const char *got = uevent_get(&u, k);

		FUZZ_ASSERT(got);
		for (size_t j = 0; j < i; j++)
			if (strcmp(u.keys[j], k) == 0) {
				FUZZ_ASSERT(got == u.values[j]);
				break;
			}
	}
	major = uevent_get(&u, "MAJOR");
	minor = uevent_get(&u, "MINOR");
	if (major && minor && decimal(major) && decimal(minor)) {
		char want[32];

		snprintf(want, sizeof(want), "%s:%s", major, minor);
		FUZZ_ASSERT(strcmp(u.devnum, want) == 0);
	} else {
		FUZZ_ASSERT(u.devnum[0] == '\0');
	}
	/* parsing again (a reused buffer, as the walk does) is harmless */
	uevent_clear(&u);
	FUZZ_ASSERT(u.n == 0 && u.devnum[0] == '\0');
	uevent_free(&u);
	return 0;
}
