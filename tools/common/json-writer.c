/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The streaming JSON writer (json-writer.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "alloc-util.h"
#include "escape.h"
#include "json-writer.h"
#include "messages.h"

/* the flags of an open container */
enum { FIRST = 1, ARRAY = 2 }; /* nothing written in it yet; an array, not an object */

void jw_init(struct jw *w, FILE *f)
{
	*w = (struct jw){.f = f, .brk = -1};
}

void jw_done(struct jw *w)
{
	free(w->first);
	w->first = NULL;
	w->depth = w->cap = 0;
}

void jw_break(struct jw *w, unsigned indent)
{
	w->brk = (int)indent * 2;
}

void jw_break_spaces(struct jw *w, unsigned spaces)
{
	w->brk = (int)spaces;
}

static void write_break(struct jw *w)
{
	static const char spaces[] =
	    "                                                                ";
	size_t n = (size_t)w->brk;

	fputc('\n', w->f);
	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		fwrite(spaces, 1, k, w->f);
		n -= k;
	}
	w->brk = -1;
}

/* What comes before a value: nothing after a key, else a separator. */
static void before_value(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (!(w->first[w->depth - 1] & FIRST))
			fputc(',', w->f);
		if (w->brk >= 0)
			write_break(w);
		else if (!(w->first[w->depth - 1] & FIRST))
			fputc(' ', w->f);
		w->first[w->depth - 1] &= (unsigned char)~FIRST;
	}
}

static void open_container(struct jw *w, char c)
{
	before_value(w);
	/* the tools' rule: no memory is said and ends the program, never a document cut short */
	if (GROW(w->first, w->cap, w->depth + 1) < 0)
		exit_out_of_memory();
	fputc(c, w->f);
	w->first[w->depth++] = FIRST | (c == '[' ? ARRAY : 0);
}

static void close_container(struct jw *w, char c)
{
	if (w->depth == 0)
		return;
	if (w->brk >= 0 && !(w->first[w->depth - 1] & FIRST))
		write_break(w);
	w->brk = -1;
	w->depth--;
	fputc(c, w->f);
}

void jw_begin_object(struct jw *w)
{
	open_container(w, '{');
}

void jw_end_object(struct jw *w)
{
	close_container(w, '}');
}

void jw_begin_array(struct jw *w)
{
	open_container(w, '[');
}

void jw_end_array(struct jw *w)
{
	close_container(w, ']');
}

void jw_key(struct jw *w, const char *key)
{
	before_value(w);
	fput_json_string(w->f, key);
	fputs(": ", w->f);
	w->after_key = true;
}

void jw_string(struct jw *w, const char *s)
{
	before_value(w);
	fput_json_string(w->f, s);
}

void jw_string_len(struct jw *w, const char *s, size_t len)
{
	before_value(w);
	fput_json_string_len(w->f, s, len);
}

void jw_int(struct jw *w, int64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRId64, v);
}

void jw_uint(struct jw *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_bool(struct jw *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w)
{
	before_value(w);
	fputs("null", w->f);
}

void jw_member_string(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_member_uint(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_uint(w, v);
}

void jw_end_document(struct jw *w)
{
	while (w->depth > 0) {
		bool array = w->first[w->depth - 1] & ARRAY;

		jw_break(w, (unsigned)w->depth - 1);
		close_container(w, array ? ']' : '}');
	}
	fputc('\n', w->f);
	jw_done(w);
}
