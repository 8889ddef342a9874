/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SipHash-2-4, a keyed hash: without the key nobody can choose inputs that
 * collide, so a hash table of names from outside keeps O(1) probes whatever
 * the names are.  siphash_random_key() fills a key from getrandom(2).
 */
#ifndef SYSDEV_SHARED_SIPHASH_H
#define SYSDEV_SHARED_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

struct siphash_key {
	uint64_t k0, k1;
};

void siphash_random_key(struct siphash_key *key);
uint64_t siphash24(const struct siphash_key *key, const void *data, size_t len);

#endif
