/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Escaping for text and JSON output. */
#ifndef SYSDEV_TOOLS_ESCAPE_H
#define SYSDEV_TOOLS_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

void fput_text(FILE *f, const char *s);	       /* one line stays one line */
void fput_json_string(FILE *f, const char *s); /* "..." or null when s is NULL */
/* The same for @len bytes that may hold NULs (binary attributes): \x00, \u0000. */
void fput_text_len(FILE *f, const char *s, size_t len);
void fput_json_string_len(FILE *f, const char *s, size_t len);
/* For the lists: a control byte, a backslash, a byte of invalid UTF-8 and each
 * byte of @also as \xHH; everything else as it is. */
void fput_hex_escaped(FILE *f, const char *s, const char *also);

#endif
