/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev-fixture capture --sanitize: identifiers become stable placeholders (sanitize.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "dir-list.h"
#include "sanitize-match.h"
#include "sanitize.h"

#define FILE_MAX (16 * 1024 * 1024)
#define DEPTH_MAX 4096
#define KNOWN_MIN 6 /* shorter learned values are replaced only as whole values */

struct mapping {
	char *key; /* normalized: "mac:HEX", "eui:HEX", "ip4:..", "val:lowercase", ... */
	size_t keylen;
	char *placeholder;
};

struct sanitizer {
	struct mapping *m;
	size_t n, cap;
	size_t *slot; /* index + 1 into m, open addressing on the keyed hash */
	size_t nslot;
	const char **known; /* the placeholder of each value of the match set, by id */
	size_t nk, capk;
	struct match_set *set;
	unsigned long count[SANITIZE_KINDS];
};

const char *sanitize_kind_name(enum sanitize_kind kind, unsigned long n)
{
	static const char *const names[SANITIZE_KINDS][2] = {
	    [SANITIZE_MAC] = {"MAC address", "MAC addresses"},
	    [SANITIZE_EUI64] = {"EUI-64", "EUI-64s"},
	    [SANITIZE_UUID] = {"UUID", "UUIDs"},
	    [SANITIZE_GUID] = {"InfiniBand GUID", "InfiniBand GUIDs"},
	    [SANITIZE_W1] = {"1-Wire id", "1-Wire ids"},
	    [SANITIZE_IPV4] = {"IPv4 address", "IPv4 addresses"},
	    [SANITIZE_IPV6] = {"IPv6 address", "IPv6 addresses"},
	    [SANITIZE_OTHER] = {"other identifier", "other identifiers"},
	};

	return kind < SANITIZE_KINDS ? names[kind][n != 1] : "?";
}

struct sanitizer *sanitizer_new(void)
{
	struct sanitizer *s = calloc(1, sizeof(struct sanitizer));

	if (s && !(s->set = match_set_new())) {
		free(s);
		return NULL;
	}
	return s;
}

void sanitizer_free(struct sanitizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->m[i].key);
		free(s->m[i].placeholder);
	}
	free(s->m);
	free(s->slot);
	free(s->known);
	match_set_free(s->set);
	free(s);
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static unsigned hexval(char c)
{
	return is_digit(c) ? (unsigned)(c - '0') : (unsigned)(lower(c) - 'a' + 10);
}

static bool name_in(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

bool sanitize_is_id_file(const char *name)
{
	static const char *const names[] = {
	    "serial",
	    "serial_number",
	    "product_serial",
	    "board_serial",
	    "chassis_serial",
	    "product_uuid",
	    "board_asset_tag",
	    "chassis_asset_tag",
	    "uniq",
	    "wwid",
	    "wwn",
	    "eui",
	    "nguid",
	    "uuid",
	    "unique_id",
	    "port_name",
	    "node_name",
	    "fabric_name",
	    "sas_address",
	    "phys_port_id",
	    "phys_switch_id",
	    "subsysnqn",
	    "hostnqn",
	    "device_uuid",
	    "duid",
	    "perm_addr",
	    "address",
	    "iserial",
	    "cid",
	    "node_guid",
	    "sys_image_guid",
	    "port_guid",
	    "guid",
	    "enclosure_identifier",
	    "soc_uid",
	    "initiatorname",
	    "targetname",
	    "ipaddress",
	    "persistent_address",
	    "hwaddress",
	};

	return name_in(name, names, sizeof(names) / sizeof(names[0]));
}

static bool key_is(const char *key, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(key, word, len) == 0;
}

static bool key_has(const char *key, size_t len, const char *word)
{
	size_t wl = strlen(word);

	for (size_t i = 0; i + wl <= len; i++)
		if (memcmp(key + i, word, wl) == 0)
			return true;
	return false;
}

static bool key_ends(const char *key, size_t len, const char *word)
{
	size_t wl = strlen(word);

	return len >= wl && memcmp(key + len - wl, word, wl) == 0;
}

bool sanitize_is_id_property(const char *key, size_t len)
{
	static const char *const keys[] = {
	    "ID_FS_LABEL", "ID_FS_LABEL_ENC", "ID_NET_NAME_MAC", "ID_PART_ENTRY_NAME",
	    "DM_NAME",	   "PARTNAME",	      "W1_SLAVE_ID"};

	/* any length: a key longer than a buffer is no less an identifier's */
	if (key_has(key, len, "SERIAL") || key_has(key, len, "UUID") || key_has(key, len, "WWN") ||
	    key_has(key, len, "GUID") || key_has(key, len, "TRADDR") ||
	    key_ends(key, len, "UNIQ") || key_ends(key, len, "PHYS"))
		return true;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (key_is(key, len, keys[i]))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Shapes of identifiers                                               */
/* ------------------------------------------------------------------ */

/* Octets of two hex digits separated by ':' or '-' (one kind): @n octets at @p, or 0. */
static size_t match_octets(const char *p, size_t len, size_t n)
{
	size_t need = n * 3 - 1;
	char sep;

	if (len < need || !is_hex(p[0]) || !is_hex(p[1]))
		return 0;
	sep = p[2];
	if (sep != ':' && sep != '-')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_hex(p[i * 3]) || !is_hex(p[i * 3 + 1]))
			return 0;
		if (i + 1 < n && p[i * 3 + 2] != sep)
			return 0;
	}
	return need;
}

static size_t match_uuid(const char *p, size_t len)
{
	static const int groups[] = {8, 4, 4, 4, 12};
	size_t o = 0;

	if (len < 36)
		return 0;
	for (int g = 0; g < 5; g++) {
		for (int i = 0; i < groups[g]; i++)
			if (!is_hex(p[o++]))
				return 0;
		if (g < 4 && p[o++] != '-')
			return 0;
	}
	return 36;
}

/* Four groups of four hex digits: an InfiniBand GUID (0002:c903:0010:1234). */
static size_t match_guid(const char *p, size_t len)
{
	if (len < 19)
		return 0;
	for (size_t i = 0; i < 19; i++)
		if (i % 5 == 4 ? p[i] != ':' : !is_hex(p[i]))
			return 0;
	return 19;
}

/* A 1-Wire slave's name: family, '-', 48-bit id (28-000005e2fdc3). */
static size_t match_w1(const char *p, size_t len)
{
	if (len < 15 || p[2] != '-')
		return 0;
	for (size_t i = 0; i < 15; i++)
		if (i != 2 && !is_hex(p[i]))
			return 0;
	return 15;
}

/* A dotted quad, each part 0..255: @n bytes into @oct, or 0. */
static size_t match_ipv4(const char *p, size_t len, unsigned oct[4])
{
	size_t o = 0;

	for (int k = 0; k < 4; k++) {
		size_t d = 0;
		unsigned v = 0;

		while (o + d < len && d < 4 && is_digit(p[o + d]))
			v = v * 10 + (unsigned)(p[o + d++] - '0');
		if (d == 0 || d > 3 || v > 255)
			return 0;
		oct[k] = v;
		o += d;
		if (k < 3) {
			if (o >= len || p[o] != '.')
				return 0;
			o++;
		}
	}
	return o;
}

/* An IPv6 address (RFC 4291 text forms, a dotted quad at the end too): bytes, or 0. */
static size_t match_ipv6(const char *p, size_t len, unsigned g[8])
{
	unsigned head[8], tail[8];
	size_t nh = 0, nt = 0, o = 0;
	bool dbl = false;

	if (len >= 2 && p[0] == ':' && p[1] == ':') {
		dbl = true;
		o = 2;
	}
	for (;;) {
		size_t d = 0;
		unsigned v = 0, oct[4];
		size_t n4;

		if (nh + nt >= 8)
			break;
		if (nh + nt <= 6 && (n4 = match_ipv4(p + o, len - o, oct)) &&
		    (o + n4 >= len || (!is_alnum(p[o + n4]) && p[o + n4] != '.'))) {
			unsigned *dst = dbl ? tail : head;
			size_t *nd = dbl ? &nt : &nh;

			dst[(*nd)++] = oct[0] << 8 | oct[1];
			dst[(*nd)++] = oct[2] << 8 | oct[3];
			o += n4;
			break;
		}
		while (o + d < len && d < 5 && is_hex(p[o + d]))
			v = v << 4 | hexval(p[o + d++]);
		if (d == 0)
			break;
		if (d > 4)
			return 0;
		if (dbl)
			tail[nt++] = v;
		else
			head[nh++] = v;
		o += d;
		if (o + 1 < len && p[o] == ':' && p[o + 1] == ':') {
			if (dbl)
				return 0;
			dbl = true;
			o += 2;
		} else if (o + 1 < len && p[o] == ':' && is_hex(p[o + 1])) {
			o++;
		} else {
			break;
		}
	}
	if (dbl ? nh + nt > 7 || nh + nt == 0 : nh != 8)
		return 0;
	for (size_t i = 0; i < 8; i++)
		g[i] = 0;
	for (size_t i = 0; i < nh; i++)
		g[i] = head[i];
	for (size_t i = 0; i < nt; i++)
		g[8 - nt + i] = tail[i];
	return o;
}

static bool all_zero_hex(const char *hex)
{
	for (; *hex; hex++)
		if (*hex != '0')
			return false;
	return true;
}

static bool ipv4_says_nothing(const unsigned oct[4])
{
	bool zero = !oct[0] && !oct[1] && !oct[2] && !oct[3];
	bool bcast = oct[0] == 255 && oct[1] == 255 && oct[2] == 255 && oct[3] == 255;

	return zero || bcast || oct[0] == 127;
}

static bool ipv6_says_nothing(const unsigned g[8])
{
	for (int i = 0; i < 7; i++)
		if (g[i])
			return false;
	return g[7] <= 1; /* :: and ::1 */
}

/* ------------------------------------------------------------------ */
/* The table of values and placeholders                                */
/* ------------------------------------------------------------------ */

static struct mapping *lookup(struct sanitizer *s, const char *key, size_t keylen)
{
	size_t mask, i;

	if (!s->nslot)
		return NULL;
	mask = s->nslot - 1;
	for (i = (size_t)sanitize_hash(key, keylen) & mask; s->slot[i]; i = (i + 1) & mask) {
		struct mapping *m = &s->m[s->slot[i] - 1];

		if (m->keylen == keylen && memcmp(m->key, key, keylen) == 0)
			return m;
	}
	return NULL;
}

static void slot_put(size_t *slot, size_t nslot, const struct mapping *m, size_t idx1)
{
	size_t mask = nslot - 1, i = (size_t)sanitize_hash(m->key, m->keylen) & mask;

	while (slot[i])
		i = (i + 1) & mask;
	slot[i] = idx1;
}

static struct mapping *add_mapping(struct sanitizer *s, const char *key, size_t keylen,
				   char *placeholder)
{
	struct mapping *m;

	if (!placeholder)
		return NULL;
	if ((s->n + 1) * 2 > s->nslot) {
		/* at most half full: probes stay short */
		size_t nslot = s->nslot ? s->nslot * 2 : 64;
		size_t *slot = nslot > s->nslot ? calloc(nslot, sizeof(*slot)) : NULL;

		if (!slot) {
			free(placeholder);
			return NULL;
		}
		for (size_t i = 0; i < s->n; i++)
			slot_put(slot, nslot, &s->m[i], i + 1);
		free(s->slot);
		s->slot = slot;
		s->nslot = nslot;
	}
	if (GROW(s->m, s->cap, s->n + 1) < 0) {
		free(placeholder);
		return NULL;
	}
	m = &s->m[s->n];
	m->key = malloc(keylen + 1);
	if (!m->key) {
		free(placeholder);
		return NULL;
	}
	memcpy(m->key, key, keylen);
	m->key[keylen] = '\0';
	m->keylen = keylen;
	m->placeholder = placeholder;
	slot_put(s->slot, s->nslot, m, s->n + 1);
	s->n++;
	return m;
}

/* The placeholder of @key, made by @fmt from the kind's next counter the first time. */
static const char *placeholder_of(struct sanitizer *s, const char *key, enum sanitize_kind kind)
{
	size_t keylen = strlen(key);
	struct mapping *m = lookup(s, key, keylen);
	unsigned long n;
	char *ph = NULL;
	int r = -1;

	if (m)
		return m->placeholder;
	n = ++s->count[kind];
	switch (kind) {
	case SANITIZE_MAC:
		r = asprintf(&ph, "02:00:00:%02lx:%02lx:%02lx", (n >> 16) & 0xff, (n >> 8) & 0xff,
			     n & 0xff);
		break;
	case SANITIZE_EUI64:
		r = asprintf(&ph, "02:00:00:ff:fe:%02lx:%02lx:%02lx", (n >> 16) & 0xff,
			     (n >> 8) & 0xff, n & 0xff);
		break;
	case SANITIZE_UUID:
		r = asprintf(&ph, "00000000-0000-4000-8000-%012lx", n);
		break;
	case SANITIZE_GUID:
		r = asprintf(&ph, "0200:00ff:fe%02lx:%04lx", (n >> 16) & 0xff, n & 0xffff);
		break;
	case SANITIZE_W1:
		r = asprintf(&ph, "%012lx", n);
		break;
	case SANITIZE_IPV4:
		/* the documentation networks, then 10/8 */
		if (n <= 254)
			r = asprintf(&ph, "192.0.2.%lu", n);
		else
			r = asprintf(&ph, "10.%lu.%lu.%lu", (n >> 16) & 0xff, (n >> 8) & 0xff,
				     n & 0xff);
		break;
	case SANITIZE_IPV6:
		r = asprintf(&ph, "2001:db8::%lx", n);
		break;
	default:
		break;
	}
	if (r < 0)
		return NULL;
	m = add_mapping(s, key, keylen, ph);
	return m ? m->placeholder : NULL;
}

/* The normalized key of a hex identifier: kind, then its lowercase hex digits. */
static void hex_key(char *key, size_t size, const char *kind, const char *p, size_t n)
{
	size_t o = strlen(kind);

	memcpy(key, kind, o);
	for (size_t i = 0; i < n && o + 1 < size; i++)
		if (is_hex(p[i]))
			key[o++] = lower(p[i]);
	key[o] = '\0';
}

static const char *ipv4_placeholder(struct sanitizer *s, const unsigned oct[4])
{
	char key[32];

	snprintf(key, sizeof(key), "ip4:%u.%u.%u.%u", oct[0], oct[1], oct[2], oct[3]);
	return placeholder_of(s, key, SANITIZE_IPV4);
}

static const char *ipv6_placeholder(struct sanitizer *s, const unsigned g[8])
{
	char key[64];

	snprintf(key, sizeof(key), "ip6:%x:%x:%x:%x:%x:%x:%x:%x", g[0], g[1], g[2], g[3], g[4],
		 g[5], g[6], g[7]);
	return placeholder_of(s, key, SANITIZE_IPV6);
}

/* A whole value's placeholder: prefixes (eui., naa., ...) kept, then hex digits or text. */
static char *generic_placeholder(struct sanitizer *s, const char *v, size_t len)
{
	static const char *const prefixes[] = {"eui.", "naa.", "t10.", "nvme.",
					       "nqn.", "iqn.", "0x"};
	size_t plen = 0, rest;
	bool hex = true;
	char *ph;
	unsigned long n = ++s->count[SANITIZE_OTHER];

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t l = strlen(prefixes[i]);

		if (len > l && strncasecmp(v, prefixes[i], l) == 0) {
			plen = l;
			break;
		}
	}
	rest = len - plen;
	for (size_t i = plen; i < len; i++)
		hex = hex && is_hex(v[i]);
	if (hex && rest >= 8) {
		ph = malloc(len + 1);
		if (!ph)
			return NULL;
		memcpy(ph, v, plen);
		/* zeros, then the counter, as wide as the value */
		snprintf(ph + plen, rest + 1, "%0*lx", (int)rest, n);
		return ph;
	}
	if (asprintf(&ph, "%.*sSANITIZED%04lu", (int)plen, v, n) < 0)
		return NULL;
	return ph;
}

/* Whether a whole value is one that says nothing about a machine. */
static bool says_nothing(const char *value, size_t len)
{
	char key[64];
	unsigned oct[4], g[8];

	if ((len == 17 && match_octets(value, len, 6)) ||
	    (len == 23 && match_octets(value, len, 8)) || (len == 36 && match_uuid(value, len)) ||
	    (len == 19 && match_guid(value, len))) {
		hex_key(key, sizeof(key), "", value, len);
		return all_zero_hex(key) || (len == 17 && strcmp(key, "ffffffffffff") == 0);
	}
	if (match_ipv4(value, len, oct) == len)
		return ipv4_says_nothing(oct);
	if (match_ipv6(value, len, g) == len)
		return ipv6_says_nothing(g);
	return false;
}

const char *sanitizer_whole(struct sanitizer *s, const char *value, size_t len)
{
	char key[64];
	struct mapping *m;
	char *vkey;
	size_t klen;
	unsigned oct[4], g[8];

	if (says_nothing(value, len)) {
		/* kept as it is: a mapping to itself, counted nowhere */
		klen = len + 5;
		vkey = malloc(klen + 1);
		if (!vkey)
			return NULL;
		memcpy(vkey, "keep:", 5);
		memcpy(vkey + 5, value, len);
		vkey[klen] = '\0';
		m = lookup(s, vkey, klen);
		if (!m)
			m = add_mapping(s, vkey, klen, strndup(value, len));
		free(vkey);
		return m ? m->placeholder : NULL;
	}
	if (len == 36 && match_uuid(value, len)) {
		hex_key(key, sizeof(key), "uuid:", value, len);
		return placeholder_of(s, key, SANITIZE_UUID);
	}
	if (len == 17 && match_octets(value, len, 6)) {
		hex_key(key, sizeof(key), "mac:", value, len);
		return placeholder_of(s, key, SANITIZE_MAC);
	}
	if (len == 23 && match_octets(value, len, 8)) {
		hex_key(key, sizeof(key), "eui:", value, len);
		return placeholder_of(s, key, SANITIZE_EUI64);
	}
	if (len == 19 && match_guid(value, len)) {
		hex_key(key, sizeof(key), "guid:", value, len);
		return placeholder_of(s, key, SANITIZE_GUID);
	}
	if (match_ipv4(value, len, oct) == len)
		return ipv4_placeholder(s, oct);
	if (match_ipv6(value, len, g) == len)
		return ipv6_placeholder(s, g);
	if (len == 24 && strspn(value, "0") >= 12 &&
	    strspn(value, "0123456789abcdefABCDEF") >= 24) {
		/* W1_SLAVE_ID: the 48-bit id of a 1-Wire name, zero-padded to 24 digits */
		const char *id;

		hex_key(key, sizeof(key), "w1:", value + 12, 12);
		id = placeholder_of(s, key, SANITIZE_W1);
		if (!id)
			return NULL;
		snprintf(key, sizeof(key), "w1long:%s", id);
		m = lookup(s, key, strlen(key));
		if (!m) {
			char *ph;

			if (asprintf(&ph, "000000000000%s", id) < 0)
				return NULL;
			for (char *p = ph; *p; p++)
				*p = (char)(*p >= 'a' && *p <= 'f' ? *p - 'a' + 'A' : *p);
			m = add_mapping(s, key, strlen(key), ph);
		}
		return m ? m->placeholder : NULL;
	}
	/* any case: SN4711 and sn4711 are one value */
	klen = len + 4;
	vkey = malloc(klen + 1);
	if (!vkey)
		return NULL;
	memcpy(vkey, "val:", 4);
	for (size_t i = 0; i < len; i++)
		vkey[4 + i] = lower(value[i]);
	vkey[klen] = '\0';
	m = lookup(s, vkey, klen);
	if (!m)
		m = add_mapping(s, vkey, klen, generic_placeholder(s, value, len));
	free(vkey);
	return m ? m->placeholder : NULL;
}

int sanitizer_learn(struct sanitizer *s, const char *value, size_t len)
{
	const char *ph;
	int r;

	if (!len)
		return 0;
	ph = sanitizer_whole(s, value, len);
	if (!ph)
		return -ENOMEM;
	if (len < KNOWN_MIN || says_nothing(value, len))
		return 0;
	if (GROW_MIN(s->known, s->capk, s->nk + 1, 32) < 0)
		return -ENOMEM;
	r = match_set_add(s->set, value, len, s->nk);
	if (r < 0)
		return r;
	if (r == 0)
		s->known[s->nk++] = ph;
	return 0;
}

/* A serial-looking run of letters and digits (sanitize.h). */
static bool looks_like_serial(const char *p, size_t n)
{
	size_t digits = 0, run = 0, longest = 0;
	bool upper = false;

	for (size_t i = 0; i < n; i++) {
		if (is_digit(p[i])) {
			digits++;
			if (++run > longest)
				longest = run;
			continue;
		}
		run = 0;
		/* lower case is a kernel name's or a chip model's (nvme0n1p12, hi3516cv300) */
		if (p[i] >= 'a' && p[i] <= 'z')
			return false;
		upper = true;
	}
	if (!upper)
		return n >= 12;
	return n >= 10 && longest >= 4;
}

int sanitizer_learn_name(struct sanitizer *s, const char *name, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t j = i;

		/* a UUID's last group (a WMI GUID's) is the UUID's, replaced with it */
		if (match_uuid(name + i, len - i)) {
			i += 36;
			continue;
		}
		while (j < len && is_alnum(name[j]))
			j++;
		if (j > i && looks_like_serial(name + i, j - i)) {
			int r = sanitizer_learn(s, name + i, j - i);

			if (r < 0)
				return r;
		}
		i = j + 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

struct out {
	char *s;
	size_t n, cap;
	bool failed;
};

static void put(struct out *o, const char *p, size_t n)
{
	if (o->failed)
		return;
	if (GROW_MIN(o->s, o->cap, o->n + n + 1, 256) < 0) {
		o->failed = true;
		return;
	}
	memcpy(o->s + o->n, p, n);
	o->n += n;
	o->s[o->n] = '\0';
}

static bool has_upper_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'F')
			return true;
	return false;
}

/* Put a placeholder, its ':' as @sep (none when @bare), upper case when @upper. */
static void put_shaped(struct out *o, const char *ph, char sep, bool upper, bool bare)
{
	char buf[64];
	size_t n = 0;

	if (!ph) {
		o->failed = true;
		return;
	}
	for (const char *p = ph; *p && n < sizeof(buf) - 1; p++) {
		if (*p == ':' && bare)
			continue;
		buf[n++] = *p == ':' ? sep : upper && *p >= 'a' && *p <= 'f' ? *p - 'a' + 'A' : *p;
	}
	put(o, buf, n);
}

/* Whether byte @j of @p may follow an identifier: not a letter or digit, and no more octets. */
static bool after_ok(const char *p, size_t len, size_t j, char sep)
{
	if (j >= len)
		return true;
	if (is_alnum(p[j]))
		return false;
	/* the first octets of a longer run are not an address of their own; a MAC then
	 * "-b" (bt-c0:ff:ee:..-b) is */
	return !(p[j] == sep && j + 2 < len && is_hex(p[j + 1]) && is_hex(p[j + 2]) &&
		 (j + 3 >= len || !is_alnum(p[j + 3])));
}

/* The identifier standing at @i (no learned value starts there): its bytes, put; or 0. */
static size_t put_shape(struct sanitizer *s, struct out *o, const char *in, size_t len, size_t i)
{
	char prev = i ? in[i - 1] : '\0';
	bool before = i == 0 || !is_alnum(prev);
	const char *p = in + i;
	size_t n, rest = len - i;
	char key[64];
	unsigned oct[4], g[8];

	if (!before)
		return 0;
	if ((n = match_uuid(p, rest)) && after_ok(in, len, i + n, '-')) {
		hex_key(key, sizeof(key), "uuid:", p, n);
		if (all_zero_hex(key + 5))
			return put(o, p, n), n;
		put_shaped(o, placeholder_of(s, key, SANITIZE_UUID), '-', has_upper_hex(p, n),
			   false);
		return n;
	}
	if ((n = match_octets(p, rest, 8)) && after_ok(in, len, i + n, p[2])) {
		hex_key(key, sizeof(key), "eui:", p, n);
		if (all_zero_hex(key + 4))
			return put(o, p, n), n;
		put_shaped(o, placeholder_of(s, key, SANITIZE_EUI64), p[2], has_upper_hex(p, n),
			   false);
		return n;
	}
	if (prev != ':' && prev != '.' && (n = match_ipv6(p, rest, g)) && n > 2 &&
	    (i + n >= len || (!is_alnum(in[i + n]) && in[i + n] != ':' && in[i + n] != '.'))) {
		if (ipv6_says_nothing(g))
			return put(o, p, n), n;
		put_shaped(o, ipv6_placeholder(s, g), ':', false, false);
		return n;
	}
	if (prev != ':' && (n = match_guid(p, rest)) && after_ok(in, len, i + n, ':') &&
	    !(i + n < len && in[i + n] == ':')) {
		hex_key(key, sizeof(key), "guid:", p, n);
		if (all_zero_hex(key + 5))
			return put(o, p, n), n;
		put_shaped(o, placeholder_of(s, key, SANITIZE_GUID), ':', has_upper_hex(p, n),
			   false);
		return n;
	}
	if ((n = match_octets(p, rest, 6)) && after_ok(in, len, i + n, p[2])) {
		hex_key(key, sizeof(key), "mac:", p, n);
		/* the all-zero and broadcast addresses say nothing about a machine */
		if (all_zero_hex(key + 4) || strcmp(key + 4, "ffffffffffff") == 0) {
			put(o, p, n);
			return n;
		}
		put_shaped(o, placeholder_of(s, key, SANITIZE_MAC), p[2], has_upper_hex(p, n),
			   false);
		return n;
	}
	if (prev != '-' && prev != ':' && (n = match_w1(p, rest)) &&
	    (i + n >= len || (!is_alnum(in[i + n]) && in[i + n] != ':'))) {
		hex_key(key, sizeof(key), "w1:", p + 3, 12);
		if (all_zero_hex(key + 3))
			return put(o, p, n), n;
		put(o, p, 3);
		put_shaped(o, placeholder_of(s, key, SANITIZE_W1), ':', has_upper_hex(p + 3, 12),
			   false);
		return n;
	}
	if (prev != '.' && prev != '-' && prev != '_' && (n = match_ipv4(p, rest, oct)) &&
	    (i + n >= len || (!is_alnum(in[i + n]) &&
			      !(in[i + n] == '.' && i + n + 1 < len && is_digit(in[i + n + 1]))))) {
		if (ipv4_says_nothing(oct)) {
			put(o, p, n);
			return n;
		}
		put_shaped(o, ipv4_placeholder(s, oct), ':', false, false);
		return n;
	}
	/* interface names made from the MAC: enx001122334455 */
	if (rest >= 15 &&
	    (strncmp(p, "enx", 3) == 0 || strncmp(p, "wlx", 3) == 0 || strncmp(p, "wwx", 3) == 0)) {
		bool hex = true;

		for (size_t j = 3; j < 15; j++)
			hex = hex && is_hex(p[j]);
		if (hex && (rest == 15 || !is_alnum(p[15]))) {
			hex_key(key, sizeof(key), "mac:", p + 3, 12);
			put(o, p, 3);
			put_shaped(o, placeholder_of(s, key, SANITIZE_MAC), ':',
				   has_upper_hex(p + 3, 12), true);
			return 15;
		}
	}
	return 0;
}

/* Where each learned value starts in @in: @at (id + 1) and @atlen, or -ENOMEM. */
static int find_known(struct sanitizer *s, const char *in, size_t len, size_t **at, size_t **atlen)
{
	*at = *atlen = NULL;
	if (!s->nk || !len)
		return 0;
	*at = malloc(len * sizeof(**at));
	*atlen = malloc(len * sizeof(**atlen));
	if (!*at || !*atlen || match_set_scan(s->set, in, len, *at, *atlen) < 0) {
		free(*at);
		free(*atlen);
		*at = *atlen = NULL;
		return -ENOMEM;
	}
	return 0;
}

int sanitizer_text(struct sanitizer *s, const char *in, size_t len, char **outp, size_t *outlen)
{
	struct out o = {0};
	size_t *at, *atlen;

	if (find_known(s, in, len, &at, &atlen) < 0)
		return -ENOMEM;
	put(&o, "", 0);
	for (size_t i = 0; i < len && !o.failed;) {
		size_t n;

		/* a learned value first, the longest starting here, in any case */
		if (at && at[i]) {
			const char *ph = s->known[at[i] - 1];

			put(&o, ph, strlen(ph));
			i += atlen[i];
			continue;
		}
		n = put_shape(s, &o, in, len, i);
		if (n) {
			i += n;
			continue;
		}
		put(&o, in + i, 1);
		i++;
	}
	free(at);
	free(atlen);
	if (o.failed) {
		free(o.s);
		return -ENOMEM;
	}
	*outp = o.s;
	*outlen = o.n;
	return 0;
}

/*
 * A binary file's learned values, overwritten in place by their placeholders
 * cut or padded with blanks to the same length (offsets inside stay): whether
 * any was, or -ENOMEM.
 */
static int sanitizer_binary(struct sanitizer *s, char *buf, size_t len)
{
	size_t *at, *atlen;
	bool changed = false;

	if (find_known(s, buf, len, &at, &atlen) < 0)
		return -ENOMEM;
	for (size_t i = 0; at && i < len;) {
		if (at[i]) {
			const char *ph = s->known[at[i] - 1];
			size_t pl = strlen(ph), n = atlen[i];

			for (size_t k = 0; k < n; k++)
				buf[i + k] = k < pl ? ph[k] : ' ';
			changed = true;
			i += n;
		} else {
			i++;
		}
	}
	free(at);
	free(atlen);
	return changed;
}

/* ------------------------------------------------------------------ */
/* The tree                                                            */
/* ------------------------------------------------------------------ */

/*
 * Files emptied whole: binary identifiers and dumps that hold one (a TPM's
 * public endorsement key; as "id", an ATA IDENTIFY page or a 1-Wire ROM,
 * where other ids are short words or numbers that stay: "Intel", "0").
 */
static bool is_blank_file(const char *name, const char *buf, size_t len)
{
	static const char *const names[] = {"vpd_pg80", "vpd_pg83", "vpd_pg89", "vpd",
					    "eeprom",	"nvmem",    "edid",	"pubek"};

	if (strcmp(name, "id") == 0) {
		bool text = len <= 64;

		for (size_t i = 0; i < len && text; i++)
			text = buf[i] == '\n' || (buf[i] >= 0x20 && buf[i] < 0x7f);
		return !text;
	}
	return name_in(name, names, sizeof(names) / sizeof(names[0]));
}

static int read_all(int dirfd, const char *name, char **buf, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	size_t cap = 4096;
	struct stat st;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	*buf = malloc(cap + 1);
	if (!*buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (*len == cap) {
			char *nb;

			if (cap >= FILE_MAX) {
				close(fd);
				return -EFBIG;
			}
			cap *= 2;
			nb = realloc(*buf, cap + 1);
			if (!nb) {
				close(fd);
				return -ENOMEM;
			}
			*buf = nb;
		}
		r = read(fd, *buf + *len, cap - *len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (r == 0)
			break;
		*len += (size_t)r;
	}
	(*buf)[*len] = '\0';
	close(fd);
	return 0;
}

static int write_all(int dirfd, const char *name, const char *buf, size_t len)
{
	struct stat st;
	int fd, err = 0;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	/* captures keep modes: a read-only file is made writable for the rewrite */
	fchmodat(dirfd, name, (st.st_mode & 07777) | S_IWUSR, 0);
	fd = openat(dirfd, name, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
	} else {
		for (size_t o = 0; o < len;) {
			ssize_t w = write(fd, buf + o, len - o);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				err = -errno;
				break;
			}
			o += (size_t)w;
		}
		if (close(fd) < 0 && !err)
			err = -errno;
	}
	fchmodat(dirfd, name, st.st_mode & 07777, 0);
	return err;
}

static bool is_blank(char c)
{
	return c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\0';
}

/*
 * A value without its blanks and newlines at either end (an ATA serial is
 * padded in front: learned with them it would not match the serial
 * elsewhere) and without surrounding quotes: from *@start, *@n bytes.
 */
static void trim(const char *v, size_t len, size_t *start, size_t *n)
{
	size_t b = 0;

	while (len && is_blank(v[len - 1]))
		len--;
	while (b < len && is_blank(v[b]))
		b++;
	if (len - b >= 2 && v[b] == '"' && v[len - 1] == '"') {
		b++;
		len--;
	}
	while (b < len && is_blank(v[b]))
		b++;
	*start = b;
	*n = len - b;
}

static int learn_uevent(struct sanitizer *s, const char *buf, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (buf + i)) : len - i;
		const char *eq = memchr(buf + i, '=', ll);

		if (eq) {
			size_t kl = (size_t)(eq - (buf + i)), st, n;

			if (sanitize_is_id_property(buf + i, kl)) {
				trim(eq + 1, ll - kl - 1, &st, &n);
				if (sanitizer_learn(s, eq + 1 + st, n) < 0)
					return -ENOMEM;
			}
		}
		i += ll + 1;
	}
	return 0;
}

/* A rewritten uevent: identifier properties whole, the others as text. */
static int rewrite_uevent(struct sanitizer *s, const char *buf, size_t len, char **out,
			  size_t *outlen)
{
	struct out o = {0};

	put(&o, "", 0);
	for (size_t i = 0; i < len && !o.failed;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (buf + i)) : len - i;
		const char *eq = memchr(buf + i, '=', ll);
		size_t kl = eq ? (size_t)(eq - (buf + i)) : 0, st, n;
		char *t;
		size_t tl;

		if (eq && sanitize_is_id_property(buf + i, kl)) {
			const char *ph;

			put(&o, buf + i, kl + 1);
			trim(eq + 1, ll - kl - 1, &st, &n);
			put(&o, eq + 1, st);
			if (n) {
				ph = sanitizer_whole(s, eq + 1 + st, n);
				if (!ph)
					o.failed = true;
				else
					put(&o, ph, strlen(ph));
			}
			put(&o, eq + 1 + st + n, ll - kl - 1 - st - n);
		} else if (sanitizer_text(s, buf + i, ll, &t, &tl) == 0) {
			put(&o, t, tl);
			free(t);
		} else {
			o.failed = true;
		}
		if (nl)
			put(&o, "\n", 1);
		i += ll + 1;
	}
	if (o.failed) {
		free(o.s);
		return -ENOMEM;
	}
	*out = o.s;
	*outlen = o.n;
	return 0;
}

typedef int (*entry_fn)(struct sanitizer *s, int dirfd, const char *name, const struct stat *st,
			struct sanitize_stats *stats);

static int each_entry(struct sanitizer *s, int dirfd, int depth, entry_fn fn,
		      struct sanitize_stats *stats)
{
	struct dir_list l = {0};
	int err;

	if (depth > DEPTH_MAX)
		return -ELOOP;
	/* the names first: renames must not disturb the listing */
	err = dir_list_read(&l, dirfd, DIR_LIST_REOPEN | DIR_LIST_UNSORTED);
	for (size_t i = 0; i < l.n && err == 0; i++) {
		const char *name = l.v[i].name;
		struct stat st;

		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int cfd;

			fchmodat(dirfd, name, (st.st_mode & 07777) | S_IRWXU, 0);
			cfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd < 0) {
				err = -errno;
			} else {
				err = each_entry(s, cfd, depth + 1, fn, stats);
				close(cfd);
			}
			fchmodat(dirfd, name, st.st_mode & 07777, 0);
		}
		if (err == 0)
			err = fn(s, dirfd, name, &st, stats);
	}
	dir_list_free(&l);
	return err;
}

static int learn_entry(struct sanitizer *s, int dirfd, const char *name, const struct stat *st,
		       struct sanitize_stats *stats)
{
	char *buf;
	size_t len, start, n;
	int err = 0;

	(void)stats;
	/* serials that only names carry (a HID battery's, say) */
	err = sanitizer_learn_name(s, name, strlen(name));
	if (err == 0 && S_ISLNK(st->st_mode)) {
		char target[4096];
		ssize_t tl = readlinkat(dirfd, name, target, sizeof(target));

		if (tl > 0)
			err = sanitizer_learn_name(s, target, (size_t)tl);
	}
	if (err < 0)
		return err;
	if (!S_ISREG(st->st_mode) || st->st_size == 0)
		return 0;
	if (!sanitize_is_id_file(name) && strcmp(name, "uevent") != 0)
		return 0;
	if (read_all(dirfd, name, &buf, &len) < 0) {
		free(buf);
		return 0;
	}
	if (strcmp(name, "uevent") == 0) {
		err = learn_uevent(s, buf, len);
	} else if (!memchr(buf, '\0', len)) {
		trim(buf, len, &start, &n);
		/* "address" also names other things than MACs: only an address is learned */
		if (strcmp(name, "address") != 0 || (n == 17 && match_octets(buf + start, n, 6)))
			err = sanitizer_learn(s, buf + start, n);
	}
	free(buf);
	return err;
}

static int rewrite_entry(struct sanitizer *s, int dirfd, const char *name, const struct stat *st,
			 struct sanitize_stats *stats)
{
	char *buf = NULL, *out = NULL, *newname = NULL;
	size_t len = 0, outlen = 0, nlen;
	int err = 0;

	if (S_ISREG(st->st_mode) && st->st_size > 0 && read_all(dirfd, name, &buf, &len) == 0) {
		bool binary = memchr(buf, '\0', len) != NULL;

		if (is_blank_file(name, buf, len)) {
			err = write_all(dirfd, name, "", 0);
			stats->emptied++;
		} else if (strcmp(name, "config") == 0 && binary && len > 256) {
			err = write_all(dirfd, name, buf, 256);
			stats->emptied++;
		} else if (!binary) {
			if (strcmp(name, "uevent") == 0) {
				err = rewrite_uevent(s, buf, len, &out, &outlen);
			} else if (sanitize_is_id_file(name) &&
				   (strcmp(name, "address") != 0 || len >= 17)) {
				size_t start, n;
				const char *ph;

				trim(buf, len, &start, &n);
				ph = n ? sanitizer_whole(s, buf + start, n) : "";
				if (!ph) {
					err = -ENOMEM;
				} else if (asprintf(&out, "%.*s%s%.*s", (int)start, buf, ph,
						    (int)(len - start - n), buf + start + n) < 0) {
					out = NULL;
					err = -ENOMEM;
				} else {
					outlen = strlen(out);
				}
			} else {
				err = sanitizer_text(s, buf, len, &out, &outlen);
			}
			if (err == 0 && out && (outlen != len || memcmp(out, buf, len) != 0)) {
				err = write_all(dirfd, name, out, outlen);
				stats->files++;
			}
		} else {
			/* a kept binary file (a SCSI inquiry page) may hold a learned serial */
			err = sanitizer_binary(s, buf, len);
			if (err > 0) {
				err = write_all(dirfd, name, buf, len);
				stats->files++;
			}
		}
	} else if (S_ISLNK(st->st_mode)) {
		char target[4096];
		ssize_t tl = readlinkat(dirfd, name, target, sizeof(target) - 1);

		if (tl > 0) {
			target[tl] = '\0';
			err = sanitizer_text(s, target, (size_t)tl, &out, &outlen);
			if (err == 0 && strcmp(out, target) != 0) {
				if (unlinkat(dirfd, name, 0) < 0 || symlinkat(out, dirfd, name) < 0)
					err = -errno;
				stats->links++;
			}
		}
	}
	free(buf);
	free(out);
	if (err < 0)
		return err;
	err = sanitizer_text(s, name, strlen(name), &newname, &nlen);
	if (err < 0)
		return err;
	if (strcmp(newname, name) != 0) {
		struct stat ex;

		if (memchr(newname, '/', nlen) ||
		    fstatat(dirfd, newname, &ex, AT_SYMLINK_NOFOLLOW) == 0)
			err = -EEXIST;
		else if (renameat(dirfd, name, dirfd, newname) < 0)
			err = -errno;
		else
			stats->renamed++;
	}
	free(newname);
	return err;
}

int sanitize_tree(int dirfd, struct sanitize_stats *st)
{
	struct sanitizer *s = sanitizer_new();
	int err;

	if (!s)
		return -ENOMEM;
	err = each_entry(s, dirfd, 0, learn_entry, st);
	if (err == 0)
		err = each_entry(s, dirfd, 0, rewrite_entry, st);
	st->values = 0;
	for (int k = 0; k < SANITIZE_KINDS; k++) {
		st->kinds[k] = s->count[k];
		st->values += s->count[k];
	}
	sanitizer_free(s);
	return err;
}
