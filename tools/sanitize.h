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
 *   other values of identifier files and properties (serial, wwid, ...)
 *                          -> the same prefix (eui., naa., 0x, ...) and
 *                             hex digits, or SERIAL0001-style text
 *
 * Files that hold identifiers in binary (vpd_pg80, vpd_pg83, vpd, eeprom,
 * nvmem, edid) are emptied; a PCI config space is cut to its first 256
 * bytes (the extended space holds the Device Serial Number).
 */
struct sanitizer;

struct sanitize_stats {
	unsigned long values;  /* distinct identifiers replaced */
	unsigned long files;   /* files rewritten */
	unsigned long emptied; /* binary identifier files emptied or cut */
	unsigned long renamed; /* directories, files and links renamed */
	unsigned long links;   /* link targets rewritten */
};

struct sanitizer *sanitizer_new(void);
void sanitizer_free(struct sanitizer *s);

/* Whether a file of this name holds an identifier as its whole value. */
bool sanitize_is_id_file(const char *name);
/* Whether a uevent property of this key holds one. */
bool sanitize_is_id_property(const char *key);

/* Note a whole value (of an identifier file or property) to replace everywhere. */
int sanitizer_learn(struct sanitizer *s, const char *value, size_t len);
/* The placeholder of a whole value (learning it first); NUL-terminated, owned by @s. */
const char *sanitizer_whole(struct sanitizer *s, const char *value, size_t len);

/*
 * Rewrite @len bytes of text: learned values, MACs, EUI-64s, UUIDs and
 * enx/wlx/wwx names become their placeholders.  Returns 0 and a malloc'd
 * NUL-terminated *@out of *@outlen bytes, or -ENOMEM.
 */
int sanitizer_text(struct sanitizer *s, const char *in, size_t len, char **out, size_t *outlen);

/* Sanitize the tree below directory @dirfd in place (two passes). */
int sanitize_tree(int dirfd, struct sanitize_stats *st);

#endif
