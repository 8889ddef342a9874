/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A keyed hash and a one-pass matcher of learned values (sanitize-match.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"
#include "sanitize-match.h"
#include "siphash.h"

/* The shared SipHash, keyed once per process from getrandom(2). */
uint64_t sanitize_hash(const void *data, size_t len)
{
	static struct siphash_key key;
	static bool keyed;

	if (!keyed) {
		siphash_random_key(&key);
		keyed = true;
	}
	return siphash24(&key, data, len);
}

/* ------------------------------------------------------------------ */
/* Aho-Corasick over case-folded bytes                                 */
/* ------------------------------------------------------------------ */

struct node {
	size_t fail;	 /* the longest proper suffix that is a trie node */
	size_t dict;	 /* the next node along fail links that ends a value, or 0 */
	size_t term;	 /* id + 1 of the value ending here, or 0 */
	size_t depth;	 /* bytes from the root */
	size_t child;	 /* first child, 0 for none (the root is nobody's child) */
	size_t sibling;	 /* next child of the same parent */
	unsigned char c; /* the byte leading here */
};

struct edge {
	size_t from; /* (size_t)-1: free */
	size_t to;
	unsigned char c;
};

struct match_set {
	struct node *n;
	size_t nn, capn;
	struct edge *e; /* transitions, open addressing, keyed hash */
	size_t ne, cape;
	bool built;
};

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

struct match_set *match_set_new(void)
{
	struct match_set *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->n = calloc(1, sizeof(*m->n));
	if (!m->n) {
		free(m);
		return NULL;
	}
	m->nn = m->capn = 1;
	return m;
}

void match_set_free(struct match_set *m)
{
	if (!m)
		return;
	free(m->n);
	free(m->e);
	free(m);
}

static size_t edge_slot(const struct match_set *m, size_t from, unsigned char c)
{
	uint64_t key[2] = {from, c};
	size_t mask = m->cape - 1, i = (size_t)sanitize_hash(key, sizeof(key)) & mask;

	while (m->e[i].from != (size_t)-1 && (m->e[i].from != from || m->e[i].c != c))
		i = (i + 1) & mask;
	return i;
}

/* The child of @from by byte @c, or 0. */
static size_t go(const struct match_set *m, size_t from, unsigned char c)
{
	size_t i;

	if (!m->cape)
		return 0;
	i = edge_slot(m, from, c);
	return m->e[i].from == (size_t)-1 ? 0 : m->e[i].to;
}

static int edges_grow(struct match_set *m)
{
	struct edge *old = m->e;
	size_t oldcap = m->cape, cap = oldcap ? oldcap * 2 : 64;

	if (cap < oldcap || cap > SIZE_MAX / sizeof(*m->e))
		return -ENOMEM;
	m->e = malloc(cap * sizeof(*m->e));
	if (!m->e) {
		m->e = old;
		return -ENOMEM;
	}
	m->cape = cap;
	for (size_t i = 0; i < cap; i++)
		m->e[i].from = (size_t)-1;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].from != (size_t)-1)
			m->e[edge_slot(m, old[i].from, old[i].c)] = old[i];
	free(old);
	return 0;
}

int match_set_add(struct match_set *m, const char *value, size_t len, size_t id)
{
	size_t cur = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = fold((unsigned char)value[i]);
		size_t next = go(m, cur, c), slot;

		if (next) {
			cur = next;
			continue;
		}
		/* the table at most half full: probes stay short */
		if ((m->ne + 1) * 2 > m->cape && edges_grow(m) < 0)
			return -ENOMEM;
		if (GROW(m->n, m->capn, m->nn + 1) < 0)
			return -ENOMEM;
		next = m->nn++;
		m->n[next] =
		    (struct node){.depth = m->n[cur].depth + 1, .c = c, .sibling = m->n[cur].child};
		m->n[cur].child = next;
		slot = edge_slot(m, cur, c);
		m->e[slot] = (struct edge){.from = cur, .to = next, .c = c};
		m->ne++;
		cur = next;
	}
	if (!len || m->n[cur].term)
		return len ? 1 : 0;
	m->n[cur].term = id + 1;
	m->built = false;
	return 0;
}

/* Fail and dictionary links, breadth first (a node's fail link is shallower). */
static int build(struct match_set *m)
{
	size_t *queue = malloc(m->nn * sizeof(*queue)), head = 0, tail = 0;

	if (!queue)
		return -ENOMEM;
	for (size_t c = m->n[0].child; c; c = m->n[c].sibling) {
		m->n[c].fail = 0;
		m->n[c].dict = 0;
		queue[tail++] = c;
	}
	while (head < tail) {
		size_t u = queue[head++];

		for (size_t c = m->n[u].child; c; c = m->n[c].sibling) {
			size_t f = m->n[u].fail, g;

			while (f && !go(m, f, m->n[c].c))
				f = m->n[f].fail;
			g = go(m, f, m->n[c].c);
			m->n[c].fail = g && g != c ? g : 0;
			g = m->n[c].fail;
			m->n[c].dict = m->n[g].term ? g : m->n[g].dict;
			queue[tail++] = c;
		}
	}
	free(queue);
	m->built = true;
	return 0;
}

int match_set_scan(struct match_set *m, const char *text, size_t len, size_t *at, size_t *atlen)
{
	size_t state = 0;

	memset(at, 0, len * sizeof(*at));
	memset(atlen, 0, len * sizeof(*atlen));
	if (m->nn == 1)
		return 0;
	if (!m->built && build(m) < 0)
		return -ENOMEM;
	for (size_t j = 0; j < len; j++) {
		unsigned char c = fold((unsigned char)text[j]);
		size_t next = 0;

		while (state && !(next = go(m, state, c)))
			state = m->n[state].fail;
		if (!state)
			next = go(m, 0, c);
		state = next;
		/* the values ending here, the longest first */
		for (size_t t = m->n[state].term ? state : m->n[state].dict, k = 0;
		     t && k < MATCH_CHAIN_MAX; t = m->n[t].dict, k++) {
			size_t l = m->n[t].depth, start = j + 1 - l;

			if (l > atlen[start]) {
				at[start] = m->n[t].term;
				atlen[start] = l;
			}
		}
	}
	return 0;
}
