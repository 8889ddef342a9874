/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_SANITIZE_H
#define SYSDEV_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Identifiers out of a captured tree: serial numbers, MAC, EUI-64 and WWN
 * addresses, UUIDs and the like become placeholders.  One table maps each
 * value found to its placeholder, so the same value becomes the same
 * placeholder everywhere (file contents, uevent properties, names of
 * directories, files and links, link targets), and links stay consistent.
 *
 *   MAC 0a:1b:2c:3d:4e:5f  -> 02:00:00:00:00:01 (locally administered; the
 *                             enx0a1b2c3d4e5f name form -> enx020000000001)
 *   EUI-64 (8 octets)      -> 02:00:00:ff:fe:00:00:01
 *   UUID                   -> 00000000-0000-4000-8000-000000000001
 *   InfiniBand GUID        -> 0200:00ff:fe00:0001
 *   1-Wire 28-000005e2fdc3 -> 28-000000000001 (W1_SLAVE_ID in its 24-digit form)
 *   IPv4 address           -> 192.0.2.1 (the documentation network)
 *   IPv6 address           -> 2001:db8::1 (the documentation prefix)
 *   other values of identifier files and properties (serial, wwid, ...)
 *                          -> the same prefix (eui., naa., 0x, ...) and
 *                             hex digits, or SANITIZED0001-style text
 *
 * Values that say nothing about a machine stay: the all-zero and broadcast
 * MACs, all-zero EUI-64s, GUIDs and UUIDs, 0.0.0.0, 127.x.x.x,
 * 255.255.255.255, :: and ::1.
 *
 * Files that hold identifiers in binary or as dumps (vpd_pg80, vpd_pg83,
 * vpd, eeprom, nvmem, edid, TPM pubek, an id longer than 64 bytes or not text)
 * are emptied; a PCI config space is cut to its first 256 bytes (the
 * extended space holds the Device Serial Number); in other binary files a
 * learned value is overwritten in place by its placeholder, cut or padded
 * with blanks to the value's length.
 */
struct sanitizer;

/* The kinds of identifier counted apart in the summary. */
enum sanitize_kind {
	SANITIZE_MAC,
	SANITIZE_EUI64,
	SANITIZE_UUID,
	SANITIZE_GUID,
	SANITIZE_W1,
	SANITIZE_IPV4,
	SANITIZE_IPV6,
	SANITIZE_OTHER, /* serials, WWNs, labels, names, ... */
	SANITIZE_KINDS,
};

/* "MAC address" or "MAC addresses" as @n says. */
const char *sanitize_kind_name(enum sanitize_kind kind, unsigned long n);

struct sanitize_stats {
	unsigned long values;		     /* distinct identifiers replaced */
	unsigned long kinds[SANITIZE_KINDS]; /* of which, per kind */
	unsigned long files;		     /* files rewritten */
	unsigned long emptied;		     /* binary identifier files emptied or cut */
	unsigned long renamed;		     /* directories, files and links renamed */
	unsigned long links;		     /* link targets rewritten */
};

struct sanitizer *sanitizer_new(void);
void sanitizer_free(struct sanitizer *s);

/* Whether a file of this name holds an identifier as its whole value. */
bool sanitize_is_id_file(const char *name);
/* Whether a uevent property of this key (@len bytes, any length) holds one. */
bool sanitize_is_id_property(const char *key, size_t len);

/* Note a whole value (of an identifier file or property) to replace everywhere. */
int sanitizer_learn(struct sanitizer *s, const char *value, size_t len);
/* The placeholder of a whole value (learning it first); NUL-terminated, owned by @s. */
const char *sanitizer_whole(struct sanitizer *s, const char *value, size_t len);

/*
 * Note the serial numbers in a name or link target that no identifier file
 * or property carries: a run of ten or more upper-case letters and digits
 * holding four digits in a row (lower case is a kernel name's or a chip
 * model's: nvme0n1p12, hi3516cv300), or of twelve or more digits.
 */
int sanitizer_learn_name(struct sanitizer *s, const char *name, size_t len);

/*
 * Rewrite @len bytes of text: learned values (in any letter case), MACs,
 * EUI-64s, UUIDs, InfiniBand GUIDs, 1-Wire ids, IPv4 and IPv6 addresses and
 * enx/wlx/wwx names become their placeholders.  Returns 0 and a malloc'd
 * NUL-terminated *@out of *@outlen bytes, or -ENOMEM.
 */
int sanitizer_text(struct sanitizer *s, const char *in, size_t len, char **out, size_t *outlen);

/* Sanitize the tree below directory @dirfd in place (two passes). */
int sanitize_tree(int dirfd, struct sanitize_stats *st);

#endif
