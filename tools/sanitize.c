/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev-fixture capture --sanitize: identifiers become stable placeholders (sanitize.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "dir-list.h"
#include "sanitize.h"

#define FILE_MAX (16 * 1024 * 1024)
#define DEPTH_MAX 4096
#define KNOWN_MIN 6 /* shorter learned values are replaced only as whole values */

struct mapping {
	char *key; /* normalized: "mac:HEX", "eui:HEX", "uuid:HEX", "val:RAW" */
	size_t keylen;
	char *placeholder;
};

struct known {
	char *value; /* a learned raw value, replaced wherever it occurs */
	size_t len;
	const char *placeholder;
};

struct sanitizer {
	struct mapping *m;
	size_t n, cap;
	struct known *k;
	size_t nk, capk;
	bool sorted;
	unsigned long n_mac, n_eui, n_uuid, n_other;
};

struct sanitizer *sanitizer_new(void)
{
	return calloc(1, sizeof(struct sanitizer));
}

void sanitizer_free(struct sanitizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->m[i].key);
		free(s->m[i].placeholder);
	}
	for (size_t i = 0; i < s->nk; i++)
		free(s->k[i].value);
	free(s->m);
	free(s->k);
	free(s);
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
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
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

bool sanitize_is_id_property(const char *key)
{
	static const char *const keys[] = {"UNIQ",
					   "ID_FS_LABEL",
					   "ID_FS_LABEL_ENC",
					   "ID_NET_NAME_MAC",
					   "ID_PART_ENTRY_NAME",
					   "DM_NAME",
					   "SERIAL",
					   "PHYS"};

	if (strstr(key, "SERIAL") || strstr(key, "UUID") || strstr(key, "WWN"))
		return true;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

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

static bool after_ok(const char *p, size_t len, size_t j)
{
	if (j >= len)
		return true;
	if (is_alnum(p[j]))
		return false;
	/* the first octets of a longer run are not an address of their own */
	return !((p[j] == ':' || p[j] == '-') && j + 1 < len && is_hex(p[j + 1]));
}

static bool has_upper_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'F')
			return true;
	return false;
}

static void upcase(char *p)
{
	for (; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 'a' + 'A');
}

static struct mapping *lookup(struct sanitizer *s, const char *key, size_t keylen)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->m[i].keylen == keylen && memcmp(s->m[i].key, key, keylen) == 0)
			return &s->m[i];
	return NULL;
}

static struct mapping *add_mapping(struct sanitizer *s, const char *key, size_t keylen,
				   char *placeholder)
{
	struct mapping *m;

	if (!placeholder)
		return NULL;
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
	s->n++;
	return m;
}

/* The normalized key of a MAC/EUI/UUID: kind ':' lowercase hex digits. */
static size_t hex_key(char *key, const char *kind, const char *p, size_t n)
{
	size_t o = strlen(kind);

	memcpy(key, kind, o);
	for (size_t i = 0; i < n; i++)
		if (is_hex(p[i]))
			key[o++] = lower(p[i]);
	return o;
}

/* MAC placeholder, colon form (the separator is applied by the caller). */
static const char *mac_placeholder(struct sanitizer *s, const char *hex12)
{
	char key[32];
	struct mapping *m;

	memcpy(key, "mac:", 4);
	memcpy(key + 4, hex12, 12);
	m = lookup(s, key, 16);
	if (!m) {
		char *ph;
		unsigned long n = ++s->n_mac;

		if (asprintf(&ph, "02:00:00:%02lx:%02lx:%02lx", (n >> 16) & 0xff, (n >> 8) & 0xff,
			     n & 0xff) < 0)
			return NULL;
		m = add_mapping(s, key, 16, ph);
	}
	return m ? m->placeholder : NULL;
}

static const char *eui_placeholder(struct sanitizer *s, const char *hex16)
{
	char key[32];
	struct mapping *m;

	memcpy(key, "eui:", 4);
	memcpy(key + 4, hex16, 16);
	m = lookup(s, key, 20);
	if (!m) {
		char *ph;
		unsigned long n = ++s->n_eui;

		if (asprintf(&ph, "02:00:00:ff:fe:%02lx:%02lx:%02lx", (n >> 16) & 0xff,
			     (n >> 8) & 0xff, n & 0xff) < 0)
			return NULL;
		m = add_mapping(s, key, 20, ph);
	}
	return m ? m->placeholder : NULL;
}

static const char *uuid_placeholder(struct sanitizer *s, const char *hex32)
{
	char key[48];
	struct mapping *m;

	memcpy(key, "uuid:", 5);
	memcpy(key + 5, hex32, 32);
	m = lookup(s, key, 37);
	if (!m) {
		char *ph;

		if (asprintf(&ph, "00000000-0000-4000-8000-%012lx", ++s->n_uuid) < 0)
			return NULL;
		m = add_mapping(s, key, 37, ph);
	}
	return m ? m->placeholder : NULL;
}

/* A whole value's placeholder: MAC, EUI-64 and UUID keep their shape; others a prefix and digits.
 */
static char *generic_placeholder(struct sanitizer *s, const char *v, size_t len)
{
	static const char *const prefixes[] = {"eui.", "naa.", "t10.", "nvme.", "nqn.", "0x"};
	size_t plen = 0, rest;
	bool hex = true;
	char *ph;
	unsigned long n = ++s->n_other;

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
		snprintf(ph + plen, rest + 1, "%0*lx", (int)rest, n);
		/* a value longer than the counter's digits: zeros, then the counter */
		return ph;
	}
	if (asprintf(&ph, "%.*sSANITIZED%04lu", (int)plen, v, n) < 0)
		return NULL;
	return ph;
}

const char *sanitizer_whole(struct sanitizer *s, const char *value, size_t len)
{
	char key[64];
	struct mapping *m;
	char *vkey;
	size_t klen;

	if (len == 36 && match_uuid(value, len)) {
		hex_key(key, "", value, len);
		return uuid_placeholder(s, key);
	}
	if (len == 17 && match_octets(value, len, 6)) {
		hex_key(key, "", value, len);
		return mac_placeholder(s, key);
	}
	if (len == 23 && match_octets(value, len, 8)) {
		hex_key(key, "", value, len);
		return eui_placeholder(s, key);
	}
	klen = len + 4;
	vkey = malloc(klen + 1);
	if (!vkey)
		return NULL;
	memcpy(vkey, "val:", 4);
	memcpy(vkey + 4, value, len);
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

	if (!len)
		return 0;
	ph = sanitizer_whole(s, value, len);
	if (!ph)
		return -ENOMEM;
	if (len < KNOWN_MIN)
		return 0;
	for (size_t i = 0; i < s->nk; i++)
		if (s->k[i].len == len && memcmp(s->k[i].value, value, len) == 0)
			return 0;
	if (GROW_MIN(s->k, s->capk, s->nk + 1, 32) < 0)
		return -ENOMEM;
	s->k[s->nk].value = malloc(len);
	if (!s->k[s->nk].value)
		return -ENOMEM;
	memcpy(s->k[s->nk].value, value, len);
	s->k[s->nk].len = len;
	s->k[s->nk].placeholder = ph;
	s->nk++;
	s->sorted = false;
	return 0;
}

static int cmp_known(const void *pa, const void *pb)
{
	const struct known *a = pa, *b = pb;

	return a->len < b->len ? 1 : a->len > b->len ? -1 : memcmp(a->value, b->value, a->len);
}

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

/* Put a colon-form placeholder with the separator and case of the original. */
static void put_shaped(struct out *o, const char *ph, char sep, bool upper, bool bare)
{
	char buf[64];
	size_t n = 0;

	if (!ph) {
		o->failed = true;
		return;
	}
	for (const char *p = ph; *p && n < sizeof(buf) - 1; p++) {
		if (*p == ':') {
			if (!bare)
				buf[n++] = sep;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	if (upper)
		upcase(buf);
	put(o, buf, n);
}

int sanitizer_text(struct sanitizer *s, const char *in, size_t len, char **outp, size_t *outlen)
{
	struct out o = {0};

	if (!s->sorted && s->nk) {
		/* the longest first: a value that holds another is replaced whole */
		qsort(s->k, s->nk, sizeof(*s->k), cmp_known);
		s->sorted = true;
	}
	put(&o, "", 0);
	for (size_t i = 0; i < len && !o.failed;) {
		bool before = i == 0 || !is_alnum(in[i - 1]);
		size_t n;
		char key[40];
		bool done = false;

		for (size_t k = 0; k < s->nk; k++) {
			if (s->k[k].len <= len - i && in[i] == s->k[k].value[0] &&
			    memcmp(in + i, s->k[k].value, s->k[k].len) == 0) {
				put(&o, s->k[k].placeholder, strlen(s->k[k].placeholder));
				i += s->k[k].len;
				done = true;
				break;
			}
		}
		if (done)
			continue;
		if (before && (n = match_uuid(in + i, len - i)) && after_ok(in, len, i + n)) {
			const char *ph;

			hex_key(key, "", in + i, n);
			ph = uuid_placeholder(s, key);
			if (!ph)
				o.failed = true;
			else {
				char buf[40];

				snprintf(buf, sizeof(buf), "%s", ph);
				if (has_upper_hex(in + i, n))
					upcase(buf);
				put(&o, buf, strlen(buf));
			}
			i += n;
			continue;
		}
		if (before && (n = match_octets(in + i, len - i, 8)) && after_ok(in, len, i + n)) {
			hex_key(key, "", in + i, n);
			put_shaped(&o, eui_placeholder(s, key), in[i + 2], has_upper_hex(in + i, n),
				   false);
			i += n;
			continue;
		}
		if (before && (n = match_octets(in + i, len - i, 6)) && after_ok(in, len, i + n)) {
			hex_key(key, "", in + i, n);
			/* the all-zero and broadcast addresses say nothing about a machine */
			if (strcmp(key, "000000000000") != 0 && strcmp(key, "ffffffffffff") != 0) {
				put_shaped(&o, mac_placeholder(s, key), in[i + 2],
					   has_upper_hex(in + i, n), false);
				i += n;
				continue;
			}
		}
		/* interface names made from the MAC: enx001122334455 */
		if (before && len - i >= 15 &&
		    (strncmp(in + i, "enx", 3) == 0 || strncmp(in + i, "wlx", 3) == 0 ||
		     strncmp(in + i, "wwx", 3) == 0)) {
			bool hex = true;

			for (size_t j = 3; j < 15; j++)
				hex = hex && is_hex(in[i + j]);
			if (hex && (i + 15 == len || !is_alnum(in[i + 15]))) {
				hex_key(key, "", in + i + 3, 12);
				put(&o, in + i, 3);
				put_shaped(&o, mac_placeholder(s, key), ':',
					   has_upper_hex(in + i + 3, 12), true);
				i += 15;
				continue;
			}
		}
		put(&o, in + i, 1);
		i++;
	}
	if (o.failed) {
		free(o.s);
		return -ENOMEM;
	}
	*outp = o.s;
	*outlen = o.n;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The tree                                                            */
/* ------------------------------------------------------------------ */

static bool is_blank_file(const char *name)
{
	static const char *const names[] = {"vpd_pg80", "vpd_pg83", "vpd_pg89", "vpd",
					    "eeprom",	"nvmem",    "edid"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
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

/* A value without its trailing blanks and newlines, and without surrounding quotes. */
static void trim(const char *v, size_t len, size_t *start, size_t *n)
{
	*start = 0;
	while (len && (v[len - 1] == '\n' || v[len - 1] == ' ' || v[len - 1] == '\t' ||
		       v[len - 1] == '\r' || v[len - 1] == '\0'))
		len--;
	if (len >= 2 && v[0] == '"' && v[len - 1] == '"') {
		*start = 1;
		len -= 2;
	}
	*n = len;
}

static int learn_uevent(struct sanitizer *s, const char *buf, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (buf + i)) : len - i;
		const char *eq = memchr(buf + i, '=', ll);

		if (eq) {
			char key[128];
			size_t kl = (size_t)(eq - (buf + i)), st, n;

			if (kl < sizeof(key)) {
				memcpy(key, buf + i, kl);
				key[kl] = '\0';
				if (sanitize_is_id_property(key)) {
					trim(eq + 1, ll - kl - 1, &st, &n);
					if (sanitizer_learn(s, eq + 1 + st, n) < 0)
						return -ENOMEM;
				}
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
		char key[128];
		size_t kl = eq ? (size_t)(eq - (buf + i)) : 0, st, n;
		char *t;
		size_t tl;

		if (eq && kl < sizeof(key)) {
			memcpy(key, buf + i, kl);
			key[kl] = '\0';
		}
		if (eq && kl < sizeof(key) && sanitize_is_id_property(key)) {
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

		if (is_blank_file(name)) {
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
	st->values = s->n;
	sanitizer_free(s);
	return err;
}
