/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Escaping.  Sysfs names are bytes: they may hold newlines or invalid UTF-8.
 * Text output escapes them C-style so one node stays one line; JSON output
 * keeps valid UTF-8 as is and maps each invalid byte 0xNN to the lone
 * surrogate \udcNN (Python's "surrogateescape"), which keeps the document
 * valid and the name recoverable.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (s[0] == 0xe0 && s[1] < 0xa0)
			return 0; /* overlong */
		if (s[0] == 0xed && s[1] >= 0xa0)
			return 0; /* surrogate */
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if (s[0] == 0xf0 && s[1] < 0x90)
			return 0;
		if (s[0] == 0xf4 && s[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

/*
 * Valid UTF-8 that text output must still escape: the C1 controls
 * U+0080..U+009F (U+0085 NEL ends a line for many readers, U+009B is CSI on
 * some terminals) and the line and paragraph separators U+2028, U+2029.
 */
static bool is_line_breaking_or_control(const unsigned char *s, size_t n)
{
	if (n == 2)
		return s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f;
	if (n == 3)
		return s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9);
	return false;
}

void fput_text(FILE *f, const char *str)
{
	fput_text_len(f, str, strlen(str));
}

/*
 * @len bytes, NULs included (binary attributes): a NUL is written \x00.
 * utf8_len() may look past a lead byte; the bytes it inspects stop at a
 * continuation mismatch, and the caller's buffer is NUL-terminated after
 * @len, so it never reads past that terminator.
 */
void fput_text_len(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	while (s < end) {
		const unsigned char *run = s;
		size_t n;

		/* copy plain runs in one go */
		while (s < end && *s >= 0x20 && *s < 0x7f && *s != '\\')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (s == end)
			break;
		if (*s == '\\') {
			fputs("\\\\", f);
			s++;
		} else if (*s == '\n') {
			fputs("\\n", f);
			s++;
		} else if (*s == '\t') {
			fputs("\\t", f);
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\x%02x", *s);
			s++;
		} else if ((n = utf8_len(s)) > 1 && n <= (size_t)(end - s) &&
			   !is_line_breaking_or_control(s, n)) {
			fwrite(s, 1, n, f);
			s += n;
		} else if (n > 1 && n <= (size_t)(end - s)) {
			/* C1 controls and U+2028/9: a terminal or a line reader would act on them
			 */
			for (size_t i = 0; i < n; i++)
				fprintf(f, "\\x%02x", s[i]);
			s += n;
		} else {
			fprintf(f, "\\x%02x", *s);
			s++;
		}
	}
}

void fput_json_string(FILE *f, const char *str)
{
	if (!str) {
		fputs("null", f);
		return;
	}
	fput_json_string_len(f, str, strlen(str));
}

/* @len bytes, NULs included (written \u0000). */
void fput_json_string_len(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	putc('"', f);
	while (s < end) {
		const unsigned char *run = s;
		size_t n;

		while (s < end && *s >= 0x20 && *s < 0x7f && *s != '\\' && *s != '"')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (s == end)
			break;
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			s++;
			continue;
		case '\\':
			fputs("\\\\", f);
			s++;
			continue;
		case '\n':
			fputs("\\n", f);
			s++;
			continue;
		case '\t':
			fputs("\\t", f);
			s++;
			continue;
		case '\r':
			fputs("\\r", f);
			s++;
			continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
		} else if ((n = utf8_len(s)) > 1 && n <= (size_t)(end - s)) {
			fwrite(s, 1, n, f);
			s += n;
		} else {
			fprintf(f, "\\udc%02x", *s);
			s++;
		}
	}
	putc('"', f);
}

void fput_hex_escaped(FILE *f, const char *str, const char *also)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n;

		if (*s < 0x20 || *s == 0x7f || *s == '\\' || strchr(also, *s)) {
			fprintf(f, "\\x%02x", *s);
			s++;
		} else if (*s < 0x80) {
			putc(*s, f);
			s++;
		} else if ((n = utf8_len(s)) > 1 && !is_line_breaking_or_control(s, n)) {
			fwrite(s, 1, n, f);
			s += n;
		} else {
			/* invalid, or a C1 control or line separator: each byte */
			if (n < 1)
				n = 1;
			for (size_t i = 0; i < n; i++)
				fprintf(f, "\\x%02x", s[i]);
			s += n;
		}
	}
}
