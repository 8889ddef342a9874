/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --properties --export: KEY='VALUE' as `udevadm info -x` writes it.  udevadm
 * puts the value between single quotes as it is; so do we, except where
 * that would break the line or the quoting: a single quote is written '\''
 * (the shell then reads the value back exactly), and the bytes text output
 * escapes everywhere (control bytes, invalid UTF-8) are written \xHH, so one
 * property stays one line.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void fput_export_value(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc('\'', f);
	while (*s) {
		const unsigned char *run = s;

		/* printable ASCII, backslash included: single quotes keep it as it is */
		while (*s >= 0x20 && *s < 0x7f && *s != '\'')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (!*s)
			break;
		if (*s == '\'') {
			fputs("'\\''", f);
			s++;
			continue;
		}
		/* controls and bytes >= 0x80: a run of them, escaped as text output does
		 * (the byte after the run is never a UTF-8 continuation byte) */
		run = s;
		while (*s && (*s < 0x20 || *s >= 0x7f))
			s++;
		fput_text_len(f, (const char *)run, (size_t)(s - run));
	}
	putc('\'', f);
}
