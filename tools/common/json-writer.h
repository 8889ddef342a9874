/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small streaming JSON writer: it writes each value as it is given and
 * keeps only the nesting (one flag per open container), so documents of any
 * size cost no memory.  It writes the commas and the ": " after keys;
 * members and elements are separated by ", " unless the caller asks for a
 * line break (jw_break) before the next one.  Strings are escaped by
 * escape.c (invalid UTF-8 as \udcNN).  Out of memory for the nesting, it
 * says so and ends the program (exit_out_of_memory()).
 */
#ifndef SYSDEV_TREE_JSON_WRITER_H
#define SYSDEV_TREE_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct jw {
	FILE *f;
	unsigned char *first; /* per open container: nothing written in it yet, an array */
	size_t depth, cap;
	int brk; /* -1, or the spaces after the newline of a pending break */
	bool after_key;
};

void jw_init(struct jw *w, FILE *f);
void jw_done(struct jw *w); /* frees the nesting; does not close anything */
/*
 * The end of a document laid out a member a line: every open container
 * closed, each bracket on a line of its own at its level's indent (two
 * spaces a level; "[]" and "{}" stay as they are), then a newline; the
 * nesting is freed.
 */
void jw_end_document(struct jw *w);

/*
 * Before the next member, element or closing bracket: a newline and @indent
 * times two spaces instead of ", ".  Not written before the closing bracket
 * of an empty container ("[]" stays "[]").
 */
void jw_break(struct jw *w, unsigned indent);
/* The same with a newline and @spaces spaces. */
void jw_break_spaces(struct jw *w, unsigned spaces);

void jw_begin_object(struct jw *w);
void jw_end_object(struct jw *w);
void jw_begin_array(struct jw *w);
void jw_end_array(struct jw *w);
/* The key of the next member of the open object. */
void jw_key(struct jw *w, const char *key);

void jw_string(struct jw *w, const char *s);		     /* null when s is NULL */
void jw_string_len(struct jw *w, const char *s, size_t len); /* may hold NULs */
void jw_int(struct jw *w, int64_t v);
void jw_uint(struct jw *w, uint64_t v);
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);

/* key and value in one call */
void jw_member_string(struct jw *w, const char *key, const char *s);
void jw_member_uint(struct jw *w, const char *key, uint64_t v);

/* Open containers (0 at the top level). */
static inline size_t jw_depth(const struct jw *w)
{
	return w->depth;
}

#endif
