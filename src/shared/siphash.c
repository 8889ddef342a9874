/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SipHash-2-4 (Aumasson and Bernstein), written from the paper's description. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND                                                                                   \
	do {                                                                                       \
		v0 += v1;                                                                          \
		v1 = ROTL(v1, 13);                                                                 \
		v1 ^= v0;                                                                          \
		v0 = ROTL(v0, 32);                                                                 \
		v2 += v3;                                                                          \
		v3 = ROTL(v3, 16);                                                                 \
		v3 ^= v2;                                                                          \
		v0 += v3;                                                                          \
		v3 = ROTL(v3, 21);                                                                 \
		v3 ^= v0;                                                                          \
		v2 += v1;                                                                          \
		v1 = ROTL(v1, 17);                                                                 \
		v1 ^= v2;                                                                          \
		v2 = ROTL(v2, 32);                                                                 \
	} while (0)

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

uint64_t siphash24(const struct siphash_key *key, const void *data, size_t len)
{
	const unsigned char *p = data, *end = p + (len & ~(size_t)7);
	uint64_t v0 = 0x736f6d6570736575ull ^ key->k0;
	uint64_t v1 = 0x646f72616e646f6dull ^ key->k1;
	uint64_t v2 = 0x6c7967656e657261ull ^ key->k0;
	uint64_t v3 = 0x7465646279746573ull ^ key->k1;
	uint64_t m, last = (uint64_t)len << 56;

	for (; p < end; p += 8) {
		m = load_le64(p);
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	for (size_t i = 0; i < (len & 7); i++)
		last |= (uint64_t)p[i] << (8 * i);
	v3 ^= last;
	SIPROUND;
	SIPROUND;
	v0 ^= last;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

void siphash_random_key(struct siphash_key *key)
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, GRND_NONBLOCK);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got < sizeof(b)) {
		/* no entropy yet (early boot): a key nobody outside can predict well */
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		key->k0 = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
		key->k1 = (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)key;
		return;
	}
	key->k0 = load_le64(b);
	key->k1 = load_le64(b + 8);
}
