/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CLI's escaping of hostile names (tools/common/escape.c): any bytes in, and
 *  - text: valid UTF-8 out, no control character (C0, DEL, C1, U+2028/9),
 *    and unescaping (\\ \n \t \xHH) gives back the input exactly;
 *  - JSON: a string literal of valid UTF-8 with no raw control character,
 *    which a JSON reader with Python's surrogateescape (\udcHH -> byte HH)
 *    turns back into the input exactly.
 */
#include "fuzz-common.h"
#include "cli.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* Length of the valid UTF-8 sequence at s[0..n), 0 if invalid; sets *cp. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80)
		return *cp = s[0], 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static void check_clean_utf8(const unsigned char *s, size_t n, bool text)
{
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t l = utf8_decode(s + i, n - i, &cp);

		FUZZ_ASSERT(l > 0);
		FUZZ_ASSERT(cp >= 0x20 && cp != 0x7f);
		if (text)
			FUZZ_ASSERT(!(cp >= 0x80 && cp <= 0x9f) && cp != 0x2028 && cp != 0x2029);
		i += l;
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void check_text(const char *in, size_t inlen)
{
	char *out = NULL, *back;
	size_t outlen = 0, b = 0;
	FILE *f = open_memstream(&out, &outlen);

	FUZZ_ASSERT(f);
	if (memchr(in, '\0', inlen))
		fput_text_len(f, in, inlen);
	else
		fput_text(f, in);
	FUZZ_ASSERT(fclose(f) == 0);
	check_clean_utf8((const unsigned char *)out, outlen, true);
	back = malloc(outlen + 1);
	FUZZ_ASSERT(back);
	for (size_t i = 0; i < outlen;) {
		if (out[i] != '\\') {
			back[b++] = out[i++];
			continue;
		}
		FUZZ_ASSERT(i + 1 < outlen);
		switch (out[i + 1]) {
		case '\\':
			back[b++] = '\\';
			i += 2;
			break;
		case 'n':
			back[b++] = '\n';
			i += 2;
			break;
		case 't':
			back[b++] = '\t';
			i += 2;
			break;
		case 'x':
			FUZZ_ASSERT(i + 3 < outlen && hexval(out[i + 2]) >= 0 &&
				    hexval(out[i + 3]) >= 0);
			back[b++] = (char)(hexval(out[i + 2]) << 4 | hexval(out[i + 3]));
			i += 4;
			break;
		default:
			FUZZ_ASSERT(!"unknown escape in text output");
		}
	}
	FUZZ_ASSERT(b == inlen && memcmp(back, in, inlen) == 0);
	free(back);
	free(out);
}

static void check_json(const char *in, size_t inlen)
{
	char *out = NULL, *back;
	size_t outlen = 0, b = 0;
	FILE *f = open_memstream(&out, &outlen);

	FUZZ_ASSERT(f);
	if (memchr(in, '\0', inlen))
		fput_json_string_len(f, in, inlen);
	else
		fput_json_string(f, in);
	FUZZ_ASSERT(fclose(f) == 0);
	FUZZ_ASSERT(outlen >= 2 && out[0] == '"' && out[outlen - 1] == '"');
	check_clean_utf8((const unsigned char *)out, outlen, false);
	back = malloc(outlen * 4 + 1);
	FUZZ_ASSERT(back);
	for (size_t i = 1; i < outlen - 1;) {
		uint32_t cp = 0;

		if (out[i] == '"')
			FUZZ_ASSERT(!"unescaped quote inside a JSON string");
		if (out[i] != '\\') {
			back[b++] = out[i++];
			continue;
		}
		FUZZ_ASSERT(i + 1 < outlen - 1);
		switch (out[i + 1]) {
		case '"':
			back[b++] = '"';
			i += 2;
			continue;
		case '\\':
			back[b++] = '\\';
			i += 2;
			continue;
		case '/':
			back[b++] = '/';
			i += 2;
			continue;
		case 'n':
			back[b++] = '\n';
			i += 2;
			continue;
		case 't':
			back[b++] = '\t';
			i += 2;
			continue;
		case 'r':
			back[b++] = '\r';
			i += 2;
			continue;
		case 'b':
			back[b++] = '\b';
			i += 2;
			continue;
		case 'f':
			back[b++] = '\f';
			i += 2;
			continue;
		case 'u':
			FUZZ_ASSERT(i + 5 < outlen - 1 + 1);
			for (int k = 2; k < 6; k++) {
				int h = hexval(out[i + k]);

				FUZZ_ASSERT(h >= 0);
				cp = cp << 4 | (uint32_t)h;
			}
			i += 6;
			if (cp >= 0xdc80 && cp <= 0xdcff) {
				back[b++] = (char)(cp - 0xdc00); /* surrogateescape */
			} else {
				/* the writer escapes only controls, which are ASCII */
				FUZZ_ASSERT(cp < 0x80);
				back[b++] = (char)cp;
			}
			continue;
		default:
			FUZZ_ASSERT(!"invalid escape in JSON output");
		}
	}
	FUZZ_ASSERT(b == inlen && memcmp(back, in, inlen) == 0);
	free(back);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size > 4096)
		return 0;
	s = fuzz_strndup(data, size);
	/* names are C strings: the part before a NUL is what the CLI sees */
	check_text(s, strlen(s));
	check_json(s, strlen(s));
	/* attribute values are bytes: every one, NULs included (binary attributes) */
	check_text(s, size);
	check_json(s, size);
	free(s);
	return 0;
}
