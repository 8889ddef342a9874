/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What tools/tree/names.c and tools/tree/shell-quote.c build from file contents:
 *  - names_usb_modalias(): udev's hwdb key for a USB device from idVendor,
 *    idProduct and product; accepts exactly the hexadecimal numbers up to
 *    0xffff (as udev's safe_atoux16 reads a sysfs value), writes
 *    "usb:vVVVVpPPPP:PRODUCT" cut to the buffer, always NUL-terminated;
 *  - fput_export_value(): one line, no control byte, one shell word that
 *    sh unquotes to the value (its control bytes and invalid UTF-8 written as
 *    text output writes them);
 *  - export_key_ok(): a key --export writes is a shell name
 *    ([A-Za-z_][A-Za-z0-9_]*), never a variable that takes over the caller
 *    (PATH, IFS, LD_*, BASH*).
 * Input: byte 0 picks the buffer size, then three NUL-separated strings.
 */
#include "fuzz-common.h"
#include "cli.h"
#include "names.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* The reference reader of an id: 0..0xffff or -1. */
static long ref_hex16(const char *s)
{
	long v = 0;
	int digits = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		const char *hex = "0123456789abcdef0123456789ABCDEF";
		const char *p = strchr(hex, *s);

		if (!p)
			break;
		v = v * 16 + (p - hex) % 16;
		digits++;
		if (v > 0xffff)
			return -1;
	}
	if (*s == '\n')
		s++;
	return digits && !*s ? v : -1;
}

static void check_usb(const char *v, const char *p, const char *prod, size_t size)
{
	char *buf = malloc(size ? size : 1), want[16384 + 64];
	long rv = ref_hex16(v), rp = ref_hex16(p);
	int len;

	FUZZ_ASSERT(buf);
	memset(buf, 'X', size ? size : 1);
	len = names_usb_modalias(v, p, prod, buf, size);
	if (rv < 0 || rp < 0) {
		FUZZ_ASSERT(len == -EINVAL);
		free(buf);
		return;
	}
	FUZZ_ASSERT(len >= 0);
	snprintf(want, sizeof(want), "usb:v%04lXp%04lX:%s", rv, rp, prod);
	FUZZ_ASSERT((size_t)len == strlen(want));
	if (size) {
		size_t n = (size_t)len < size - 1 ? (size_t)len : size - 1;

		FUZZ_ASSERT(memcmp(buf, want, n) == 0 && buf[n] == '\0');
	}
	free(buf);
}

/* What the value must read as after sh's unquoting. */
static char *expected_export(const char *s, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	FUZZ_ASSERT(f);
	while (*s) {
		const unsigned char *u = (const unsigned char *)s;

		if (*u >= 0x20 && *u < 0x7f) {
			fputc(*s++, f);
			continue;
		}
		const char *run = s;

		while (*s && ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f))
			s++;
		fput_text_len(f, run, (size_t)(s - run));
	}
	fclose(f);
	return out;
}

static void check_export(const char *s)
{
	char *out = NULL, *want, *back;
	size_t outlen = 0, wantlen, b = 0;
	FILE *f = open_memstream(&out, &outlen);
	bool quoted = false;

	FUZZ_ASSERT(f);
	fput_export_value(f, s);
	fclose(f);
	back = malloc(outlen + 1);
	FUZZ_ASSERT(back);
	for (size_t i = 0; i < outlen; i++) {
		unsigned char c = (unsigned char)out[i];

		FUZZ_ASSERT(c >= 0x20 && c != 0x7f);
		if (quoted) {
			if (c == '\'')
				quoted = false;
			else
				back[b++] = (char)c;
		} else if (c == '\'') {
			quoted = true;
		} else {
			/* outside the quotes only \' may stand */
			FUZZ_ASSERT(c == '\\' && i + 1 < outlen && out[i + 1] == '\'');
			back[b++] = '\'';
			i++;
		}
	}
	FUZZ_ASSERT(!quoted && outlen >= 2 && out[0] == '\'' && out[outlen - 1] == '\'');
	want = expected_export(s, &wantlen);
	FUZZ_ASSERT(b == wantlen && memcmp(back, want, b) == 0);
	free(want);
	free(back);
	free(out);
}

static void check_export_key(const char *k)
{
	static const char *const hazards[] = {"PATH",	"IFS", "ENV",	    "BASH_ENV",
					      "CDPATH", "PS4", "SHELLOPTS", "UID"};
	bool name = (*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') || *k == '_';

	for (const char *c = k; name && *c; c++)
		name = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
		       (*c >= '0' && *c <= '9') || *c == '_';
	if (!export_key_ok(k))
		return;
	FUZZ_ASSERT(name);
	FUZZ_ASSERT(strncmp(k, "LD_", 3) != 0 && strncmp(k, "BASH", 4) != 0);
	for (size_t i = 0; i < sizeof(hazards) / sizeof(hazards[0]); i++)
		FUZZ_ASSERT(strcmp(k, hazards[i]) != 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *part[3] = {"", "", ""};
	size_t bufsize;
	char *s;

	if (size < 1 || size > 16384)
		return 0;
	bufsize = data[0] < 0x80 ? data[0] : 4096;
	s = fuzz_strndup(data + 1, size - 1);
	/* three strings: NUL-separated */
	part[0] = s;
	for (size_t i = 0, k = 1; i < size - 1 && k < 3; i++)
		if (s[i] == '\0')
			part[k++] = s + i + 1;
	check_usb(part[0], part[1], part[2], bufsize);
	check_export(part[0]);
	check_export(part[2]);
	check_export_key(part[1]);
	check_export_key(part[0]);
	free(s);
	return 0;
}
