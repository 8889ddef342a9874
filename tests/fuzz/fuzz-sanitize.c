/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * capture --sanitize's text scanner (tools/fixture/sanitize.c): any bytes in, and
 *  - the input's first half is learned as an identifier's whole value
 *    (as a serial file's contents are), and the serial-looking runs of the
 *    input as a name's; after sanitizing the whole input, that value (when
 *    6 bytes or longer) is nowhere in the output, in any letter case;
 *  - no MAC address (six colon-separated octets, other than the all-zero
 *    and broadcast ones) of the input standing on its own survives;
 *  - the same input gives the same output (a stable mapping), and a value
 *    gets the same placeholder every time it is asked for.
 */
#include "fuzz-common.h"
#include <ctype.h>
#include <strings.h>

#include "sanitize.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* What placeholders are made of, in either case: hex digits, separators, SANITIZED, kept prefixes.
 */
#define PLACEHOLDER_BYTES "0123456789abcdefABCDEF:.-xXSANITZEDsanitzedeuinvmqtlwEUINVMQTLW"

static size_t strspn_len(const char *s, size_t n, const char *set)
{
	size_t i = 0;

	while (i < n && s[i] && strchr(set, s[i]))
		i++;
	return i;
}

/* @needle in @hay, in any ASCII letter case (NUL bytes included). */
static bool contains(const char *hay, size_t n, const char *needle, size_t m)
{
	if (m == 0 || m > n)
		return false;
	for (size_t i = 0; i + m <= n; i++) {
		size_t k = 0;

		while (k < m &&
		       tolower((unsigned char)hay[i + k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == m)
			return true;
	}
	return false;
}

/* @needle in @hay with no letter, digit, ':' or '-' on either side. */
static bool contains_standalone(const char *hay, size_t n, const char *needle, size_t m)
{
	for (size_t i = 0; i + m <= n; i++) {
		if (memcmp(hay + i, needle, m) != 0)
			continue;
		/* a tail of a longer run (an EUI-64 placeholder's last six octets) is no address */
		if (i > 0 &&
		    (isalnum((unsigned char)hay[i - 1]) || hay[i - 1] == ':' || hay[i - 1] == '-'))
			continue;
		if (i + m < n &&
		    (isalnum((unsigned char)hay[i + m]) || hay[i + m] == ':' || hay[i + m] == '-'))
			continue;
		return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct sanitizer *s, *t;
	char *out = NULL, *out2 = NULL;
	size_t olen = 0, olen2 = 0, half = size / 2;
	const char *p1, *p2;

	if (size > 8192)
		return 0;
	s = sanitizer_new();
	t = sanitizer_new();
	if (!s || !t)
		goto done;
	if (sanitizer_learn(s, in, half) < 0 || sanitizer_learn(t, in, half) < 0)
		goto done;
	if (sanitizer_learn_name(s, in, size) < 0 || sanitizer_learn_name(t, in, size) < 0)
		goto done;
	if (sanitizer_text(s, in, size, &out, &olen) < 0 ||
	    sanitizer_text(t, in, size, &out2, &olen2) < 0)
		goto done;
	FUZZ_ASSERT(olen == olen2 && memcmp(out, out2, olen) == 0);
	FUZZ_ASSERT(out[olen] == '\0');
	/* a learned value of six bytes or more is replaced wherever it stands (unless
	 * a placeholder could make it again: 000001 may be one, and a value whose
	 * first or last byte a placeholder may end or start with may be remade
	 * across a placeholder's edge, as "1" + "PLANT" after "SANITIZED0001") */
	if (half >= 6 && strspn_len(in, half, PLACEHOLDER_BYTES) < half &&
	    !strchr(PLACEHOLDER_BYTES, in[0]) && !strchr(PLACEHOLDER_BYTES, in[half - 1]))
		FUZZ_ASSERT(!contains(out, olen, in, half));
	p1 = sanitizer_whole(s, in, half);
	p2 = sanitizer_whole(s, in, half);
	FUZZ_ASSERT(half == 0 || (p1 && p2 && strcmp(p1, p2) == 0));
	/* a MAC on its own in the input is not in the output */
	for (size_t i = 0; i + 17 <= size; i++) {
		bool mac = (i == 0 || !isalnum((unsigned char)in[i - 1]));

		for (size_t k = 0; k < 17 && mac; k++)
			mac = k % 3 == 2 ? in[i + k] == ':' : isxdigit((unsigned char)in[i + k]);
		if (mac && i + 17 < size &&
		    (isalnum((unsigned char)in[i + 17]) || in[i + 17] == ':' || in[i + 17] == '-'))
			mac = false;
		if (mac && (strncasecmp(in + i, "00:00:00:00:00:00", 17) == 0 ||
			    strncasecmp(in + i, "ff:ff:ff:ff:ff:ff", 17) == 0 ||
			    strncmp(in + i, "02:00:00", 8) == 0))
			mac = false;
		/* as an address on its own (part of a longer run it is not one) */
		if (mac)
			FUZZ_ASSERT(!contains_standalone(out, olen, in + i, 17));
	}
done:
	free(out);
	free(out2);
	sanitizer_free(s);
	sanitizer_free(t);
	return 0;
}
