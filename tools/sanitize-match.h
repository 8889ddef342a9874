/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_SANITIZE_MATCH_H
#define SYSDEV_SANITIZE_MATCH_H

#include <stddef.h>
#include <stdint.h>

/*
 * The matching under capture --sanitize: a keyed hash (SipHash-1-3 with a
 * key drawn once per process, so no input can be made to collide on
 * purpose) and a set of learned values found in a text in one pass
 * (Aho-Corasick over ASCII-case-folded bytes), so the work is linear in
 * the text and in the learned bytes, never text times values.
 */
uint64_t sanitize_hash(const void *data, size_t len);

struct match_set;

struct match_set *match_set_new(void);
void match_set_free(struct match_set *m);

/* Add @len bytes (any case) as value @id; 0, 1 when already there, or -ENOMEM. */
int match_set_add(struct match_set *m, const char *value, size_t len, size_t id);

/*
 * For each position of @text, the id + 1 of the longest value starting there
 * (0 where none does) and its length, in @at and @atlen (@len entries each).
 * At most MATCH_CHAIN_MAX values ending at one position are looked at (the
 * longest first), which bounds the work when values are suffixes of others.
 */
#define MATCH_CHAIN_MAX 64
int match_set_scan(struct match_set *m, const char *text, size_t len, size_t *at, size_t *atlen);

#endif
