/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * umockdev recordings: export a tree as one, and lay one out as a tree.
 *
 * A recording (umockdev-record's output, read by umockdev-run -d) holds one
 * block per device, blocks separated by a blank line:
 *
 *   P: /devices/...          the devpath, first
 *   N: NAME[=HEX]            the device node below /dev (and its contents)
 *   S: LINK                  a symlink to it below /dev
 *   E: KEY=VALUE             a udev property
 *   A: NAME=VALUE            an attribute, C escapes (\n, \\, \NNN octal)
 *   H: NAME=HEX              a binary attribute, hex digits
 *   L: NAME=TARGET           a symbolic link of the device directory
 *
 * umockdev makes each device's directory, its "subsystem" link (to its
 * class, or to its bus when the name is on umockdev's own list of buses)
 * and its uevent file (from the E: lines) by itself, and aborts when the
 * recording lists the subsystem link too; so the export leaves it out.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <search.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "dir-list.h"
#include "fd-util.h"
#include "umockdev.h"
#include "hex-util.h"
#include "utf8-util.h"

#define ATTR_MAX (1024 * 1024)
#define GROUP_DEPTH_MAX 64

/* ------------------------------------------------------------------ */
/* The archive's rules, which both directions keep                     */
/* ------------------------------------------------------------------ */

/*
 * sysdev-archive(5): a relative path of components that are not empty, "."
 * or "..", at most NAME_MAX bytes each, at most 4096 of them, 64 KiB in
 * all; no NUL.
 */
#define PATH_LEN_MAX 65536
#define PATH_DEPTH_MAX 4096
#define COMPONENT_MAX 255

static bool component_ok(const char *p, size_t len)
{
	return len && len <= COMPONENT_MAX && !(len == 1 && p[0] == '.') &&
	       !(len == 2 && p[0] == '.' && p[1] == '.') && !memchr(p, '\0', len);
}

static size_t count_slashes(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/*
 * Whether link @target, in a directory @depth components below the top, is
 * one the archive keeps: leading ".." components only, then names (none
 * empty, "." or longer than NAME_MAX), never absolute, never climbing above
 * the top.  *@up (when not NULL) is the number of ".." components.
 */
static bool target_inside(size_t depth, const char *target, size_t *up)
{
	size_t len = strlen(target), start = 0, ups = 0;
	bool names = false;

	if (!len || len > PATH_LEN_MAX || target[0] == '/')
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && target[i] != '/')
			continue;
		size_t cl = i - start;

		if (cl == 0 || cl > COMPONENT_MAX || (cl == 1 && target[start] == '.'))
			return false;
		if (cl == 2 && target[start] == '.' && target[start + 1] == '.') {
			if (names || ++ups > depth)
				return false;
		} else {
			names = true;
		}
		start = i + 1;
	}
	if (up)
		*up = ups;
	return true;
}

/* ------------------------------------------------------------------ */
/* Export                                                              */
/* ------------------------------------------------------------------ */

/*
 * Text a recording can hold as it is: umockdev reads it with GLib, which
 * refuses the whole file when one byte is not valid UTF-8 (tried), and ends
 * a line at a newline, and also at U+0085 (NEL), U+2028 and U+2029 (tried:
 * such a path makes umockdev-run refuse the whole file).
 */
static bool line_safe(const char *s)
{
	return utf8_valid(s, strlen(s)) && !strchr(s, '\n') && !strstr(s, "\xc2\x85") &&
	       !strstr(s, "\xe2\x80\xa8") && !strstr(s, "\xe2\x80\xa9");
}

/*
 * A device node name umockdev can take: it creates N: below the testbed's
 * /dev as it is, so an absolute name or a ".." component would put (and
 * truncate, and chmod) a file outside the testbed; and it reads what
 * follows a '=' as the node's contents.
 */
static bool devname_inside(const char *name)
{
	size_t len = strlen(name), start = 0;

	if (!len || name[0] == '/' || strchr(name, '='))
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && name[i] != '/')
			continue;
		if (i - start == 2 && name[start] == '.' && name[start + 1] == '.')
			return false;
		start = i + 1;
	}
	return true;
}

/* A key of the format: not empty, no '=', on one line (the line's grammar). */
static bool key_ok(const char *s)
{
	return *s && !strchr(s, '=') && line_safe(s);
}

static void put_escaped(FILE *f, const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(f, "\\%03o", c);
			else
				fputc(c, f);
		}
	}
}

static bool has_uevent(int dirfd)
{
	struct stat st;

	return fstatat(dirfd, "uevent", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

static int export_file(FILE *f, int dirfd, const char *name, const char *rel,
		       struct umockdev_stats *st)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	unsigned char *buf;
	size_t len = 0;
	bool binary = false;
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		st->unreadable++;
		return 0;
	}
	buf = malloc(ATTR_MAX);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r = read(fd, buf + len, ATTR_MAX - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			st->unreadable++;
			free(buf);
			close(fd);
			return 0;
		}
		if (r == 0 || (len += (size_t)r) == ATTR_MAX)
			break;
	}
	close(fd);
	binary = memchr(buf, '\0', len) != NULL;
	if (binary) {
		fprintf(f, "H: %s=", rel);
		for (size_t i = 0; i < len; i++)
			fprintf(f, "%02X", buf[i]);
	} else {
		fprintf(f, "A: %s=", rel);
		put_escaped(f, buf, len);
	}
	fputc('\n', f);
	free(buf);
	return 0;
}

/* Files and links of a device directory and of its attribute groups (not of child devices). */
static int export_dir(FILE *f, int dirfd, const char *devrel, const char *prefix, int depth,
		      struct umockdev_stats *st)
{
	struct dir_list l = {0};
	int err = 0;

	if (dir_list_read(&l, dirfd, DIR_LIST_REOPEN) < 0) {
		dir_list_free(&l);
		st->unreadable++;
		return 0;
	}
	for (size_t i = 0; i < l.n && err == 0; i++) {
		const char *name = l.v[i].name;
		struct stat sb;
		char *rel;

		if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* umockdev writes these two itself */
		if (!*prefix && (strcmp(name, "subsystem") == 0 || strcmp(name, "uevent") == 0))
			continue;
		if (asprintf(&rel, "%s%s", prefix, name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (!key_ok(rel)) {
			st->skipped_names++;
		} else if (S_ISLNK(sb.st_mode)) {
			/* the link's directory, counted from the tree's top */
			size_t link_depth = 1 + count_slashes(devrel) + count_slashes(prefix);
			char *target = NULL;

			if (readlink_alloc(dirfd, name, &target) < 0) {
				st->unreadable++;
			} else if (!line_safe(target)) {
				st->skipped_names++;
			} else if (!target_inside(link_depth, target, NULL)) {
				/* umockdev-run would make it as it is: out of the testbed */
				st->skipped_links++;
			} else {
				fprintf(f, "L: %s=%s\n", rel, target);
			}
			free(target);
		} else if (S_ISREG(sb.st_mode)) {
			err = export_file(f, dirfd, name, rel, st);
		} else if (S_ISDIR(sb.st_mode) && depth < GROUP_DEPTH_MAX) {
			int cfd =
			    openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (cfd < 0) {
				st->unreadable++;
			} else {
				char *sub;

				/* a child device is a block of its own */
				if (!has_uevent(cfd)) {
					if (asprintf(&sub, "%s/", rel) < 0) {
						err = -ENOMEM;
					} else {
						err =
						    export_dir(f, cfd, devrel, sub, depth + 1, st);
						free(sub);
					}
				}
				close(cfd);
			}
		}
		free(rel);
	}
	dir_list_free(&l);
	return err;
}

struct export_state {
	struct sysdev *ctx;
	FILE *out;
	struct umockdev_stats *st;
};

static int export_node(struct sysdev_node *node, void *data)
{
	struct export_state *s = data;
	const char *sub = NULL, *devpath = sysdev_node_get_devpath(node);
	const char *key, *value, *devname = NULL;
	struct sysdev_device *dev;
	FILE *f = s->out;
	int err;

	if (sysdev_node_get_device(node, &dev) < 0)
		return 0;
	(void)sysdev_device_get_subsystem(dev, &sub);
	(void)sysdev_device_get_devname(dev, &devname);
	if (!sub) {
		s->st->no_subsystem++;
		return 0;
	}
	if (!line_safe(devpath) || !line_safe(sub) ||
	    (devname && (!line_safe(devname) || !devname_inside(devname)))) {
		s->st->skipped_names++;
		return 0;
	}
	fprintf(f, "P: %s\n", devpath);
	if (devname)
		fprintf(f, "N: %s\n", devname);
	SYSDEV_DEVICE_FOREACH_PROPERTY(dev, key, value)
	{
		if (strcmp(key, "SUBSYSTEM") == 0 || strcmp(key, "DEVPATH") == 0)
			continue;
		if (!key_ok(key) || !line_safe(value)) {
			s->st->skipped_names++;
			continue;
		}
		/* udev's DEVNAME is the node's path; umockdev makes it relative again */
		if (strcmp(key, "DEVNAME") == 0 && value[0] != '/')
			fprintf(f, "E: DEVNAME=/dev/%s\n", value);
		else
			fprintf(f, "E: %s=%s\n", key, value);
	}
	fprintf(f, "E: SUBSYSTEM=%s\n", sub);
	err = export_dir(f, sysdev_node_get_dirfd(node), devpath + 1, "", 0, s->st);
	fputc('\n', f);
	s->st->devices++;
	return err;
}

int umockdev_export(struct sysdev *ctx, FILE *out, struct umockdev_stats *st)
{
	struct export_state s = {.ctx = ctx, .out = out, .st = st};

	struct sysdev_walker *w = NULL;
	int err;

	err = sysdev_walker_new(ctx, NULL, &w);
	if (err >= 0)
		err = sysdev_walker_set_flags(w, SYSDEV_WALK_UEVENT);
	if (err >= 0)
		err = sysdev_walker_set_callbacks(w, export_node, NULL, &s);
	if (err >= 0)
		err = sysdev_walker_run(w);
	sysdev_walker_unref(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* Import                                                              */
/* ------------------------------------------------------------------ */

/*
 * The tree is built as nodes, one per path component, each found by its
 * parent and name in a balanced tree (tsearch): a line costs its own
 * length times log n, never the length of the paths above it, so any
 * recording takes n log n work and linear memory (copying every prefix of
 * every path took 2.3 GB for a 245 KB recording of four deep paths).
 */
#define ANCESTORS 4 /* enough to tell bus/NAME/drivers/X in a link's target */

struct node {
	struct node *parent;
	char *name; /* one component, NUL-terminated */
	size_t name_len;
	char type;  /* 'd', 'f', 'l' */
	char *data; /* contents or link target, NUL-terminated; NULL for 'd' */
	size_t len;
	size_t line;			   /* the line to blame for it */
	size_t depth;			   /* components below the top (the top is 0) */
	size_t path_len;		   /* bytes of its path from the top */
	const struct node *anc[ANCESTORS]; /* its ancestors at depth 1, 2, ... (itself too) */
	struct node **children;		   /* sorted by name, once the recording is read */
	size_t n_children;
};

struct umockdev_tree {
	struct node top;
	void *index; /* tsearch tree of every node but the top, by parent and name */
	struct node **all;
	size_t n, cap;
};

static int cmp_name(const struct node *a, const struct node *b)
{
	int r = memcmp(a->name, b->name, a->name_len < b->name_len ? a->name_len : b->name_len);

	if (r)
		return r;
	return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

static int cmp_node(const void *pa, const void *pb)
{
	const struct node *a = pa, *b = pb;
	uintptr_t x = (uintptr_t)a->parent, y = (uintptr_t)b->parent;

	if (x != y)
		return x < y ? -1 : 1;
	return cmp_name(a, b);
}

static int cmp_child(const void *pa, const void *pb)
{
	return cmp_name(*(const struct node *const *)pa, *(const struct node *const *)pb);
}

static int set_data(struct node *x, const char *data, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, data, len);
	copy[len] = '\0';
	free(x->data);
	x->data = copy;
	x->len = len;
	return 0;
}

/*
 * Entry @name (@len bytes, a checked component) of directory @dir, made
 * when missing.  A directory merges with one of the same path; a file or a
 * link replaces a file or a link (the later line wins); a directory and a
 * file or link at one path is -EEXIST, *@bad_line the later of the lines.
 */
static int tree_child(struct umockdev_tree *t, struct node *dir, const char *name, size_t len,
		      char type, const char *data, size_t dlen, size_t line, struct node **out,
		      size_t *bad_line)
{
	struct node key = {.parent = dir, .name = (char *)name, .name_len = len}, *x;
	void *found = tfind(&key, &t->index, cmp_node);

	if (found) {
		x = *(struct node **)found;
		if ((x->type == 'd') != (type == 'd')) {
			*bad_line = x->line > line ? x->line : line;
			return -EEXIST;
		}
		if (type != 'd') {
			if (set_data(x, data, dlen) < 0)
				return -ENOMEM;
			x->type = type;
			x->line = line;
		} else if (line > x->line) {
			x->line = line;
		}
		*out = x;
		return 0;
	}
	if (GROW_MIN(t->all, t->cap, t->n + 1, 256) < 0 || !(x = calloc(1, sizeof(*x))))
		return -ENOMEM;
	*x = (struct node){.parent = dir,
			   .name_len = len,
			   .type = type,
			   .line = line,
			   .depth = dir->depth + 1,
			   .path_len = dir->path_len + (dir->depth ? 1 : 0) + len};
	memcpy(x->anc, dir->anc, sizeof(x->anc));
	if (x->depth <= ANCESTORS)
		x->anc[x->depth - 1] = x;
	x->name = strndup(name, len);
	if (!x->name || (type != 'd' && set_data(x, data, dlen) < 0) ||
	    !tsearch(x, &t->index, cmp_node)) {
		free(x->name);
		free(x->data);
		free(x);
		return -ENOMEM;
	}
	t->all[t->n++] = x;
	*out = x;
	return 0;
}

/*
 * Entry @path (@plen bytes, relative to @base) and the directories above
 * it.  The whole path from the top must keep the archive's rules: -EINVAL
 * otherwise, before anything is made.  *@out (when not NULL) is the entry.
 */
static int tree_add(struct umockdev_tree *t, struct node *base, const char *path, size_t plen,
		    char type, const char *data, size_t dlen, size_t line, struct node **out,
		    size_t *bad_line)
{
	size_t depth = base->depth, start = 0;
	struct node *at = base;
	int err;

	if (!plen || base->path_len + (base->depth ? 1 : 0) + plen > PATH_LEN_MAX)
		return -EINVAL;
	for (size_t i = 0; i <= plen; i++) {
		if (i < plen && path[i] != '/')
			continue;
		if (!component_ok(path + start, i - start) || ++depth > PATH_DEPTH_MAX)
			return -EINVAL;
		start = i + 1;
	}
	start = 0;
	for (size_t i = 0; i <= plen; i++) {
		if (i < plen && path[i] != '/')
			continue;
		if (i < plen)
			err = tree_child(t, at, path + start, i - start, 'd', NULL, 0, line, &at,
					 bad_line);
		else
			err = tree_child(t, at, path + start, i - start, type, data, dlen, line,
					 &at, bad_line);
		if (err < 0)
			return err;
		start = i + 1;
	}
	if (out)
		*out = at;
	return 0;
}

/* tree_add() of a NUL-terminated path */
static int tree_add_str(struct umockdev_tree *t, struct node *base, const char *path, char type,
			const char *data, size_t dlen, size_t line, size_t *bad_line)
{
	return tree_add(t, base, path, strlen(path), type, data, dlen, line, NULL, bad_line);
}

/*
 * A link of the tree, unless its target is longer than symlink(2) takes
 * (PATH_MAX - 1 bytes: the archive's 64 KiB could never be laid out): such
 * a link is left out and counted.
 */
static int tree_add_link(struct umockdev_tree *t, struct node *base, const char *path, size_t plen,
			 const char *target, size_t line, struct umockdev_stats *st,
			 size_t *bad_line)
{
	size_t tlen = strlen(target);

	if (tlen >= PATH_MAX) {
		st->long_links++;
		return 0;
	}
	return tree_add(t, base, path, plen, 'l', target, tlen, line, NULL, bad_line);
}

static void tree_noop_free(void *p)
{
	(void)p;
}

void umockdev_tree_free(struct umockdev_tree *t)
{
	if (!t)
		return;
	tdestroy(t->index, tree_noop_free);
	for (size_t i = 0; i < t->n; i++) {
		free(t->all[i]->name);
		free(t->all[i]->data);
		free(t->all[i]->children);
		free(t->all[i]);
	}
	free(t->top.children);
	free(t->all);
	free(t);
}

/* Each directory's entries, sorted by name: the same recording, the same tree, the same order. */
static int tree_sort(struct umockdev_tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->all[i]->parent->n_children++;
	for (size_t i = 0; i <= t->n; i++) {
		struct node *x = i < t->n ? t->all[i] : &t->top;

		if (x->n_children && !(x->children = calloc(x->n_children, sizeof(*x->children))))
			return -ENOMEM;
		x->n_children = 0;
	}
	for (size_t i = 0; i < t->n; i++) {
		struct node *p = t->all[i]->parent;

		p->children[p->n_children++] = t->all[i];
	}
	for (size_t i = 0; i <= t->n; i++) {
		struct node *x = i < t->n ? t->all[i] : &t->top;

		if (x->n_children > 1)
			qsort(x->children, x->n_children, sizeof(*x->children), cmp_child);
	}
	return 0;
}

/* g_strcompress: \b \f \n \r \t \v \\ \" \NNN (octal), any other \C is C. In place. */
static size_t uncompress(char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\' || i + 1 == len) {
			s[o++] = s[i];
			continue;
		}
		i++;
		if (s[i] >= '0' && s[i] <= '7') {
			unsigned v = 0;
			int k = 0;

			while (k < 3 && i < len && s[i] >= '0' && s[i] <= '7') {
				v = v * 8 + (unsigned)(s[i] - '0');
				i++;
				k++;
			}
			i--;
			s[o++] = (char)(v & 0xff);
			continue;
		}
		switch (s[i]) {
		case 'b':
			s[o++] = '\b';
			break;
		case 'f':
			s[o++] = '\f';
			break;
		case 'n':
			s[o++] = '\n';
			break;
		case 'r':
			s[o++] = '\r';
			break;
		case 't':
			s[o++] = '\t';
			break;
		case 'v':
			s[o++] = '\v';
			break;
		default:
			s[o++] = s[i];
		}
	}
	return o;
}

/* Hex digits to bytes, in place; -1 when odd or not hex. */
static long unhex(char *s, size_t len)
{
	if (len % 2)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		int hi = hexval(s[i]), lo = hexval(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		s[i / 2] = (char)(hi << 4 | lo);
	}
	return (long)(len / 2);
}

/* Kernel bus names (bus_register / subsys_system_register): the rest are classes. */
static bool known_bus(const char *name)
{
	static const char *const buses[] = {
	    "ac97",	    "acpi",
	    "amba",	    "auxiliary",
	    "bcma",	    "ccwgroup",
	    "cec",	    "clockevents",
	    "clocksource",  "container",
	    "cpu",	    "css",
	    "cxl",	    "dax",
	    "edac",	    "eisa",
	    "event_source", "firewire",
	    "gameport",	    "gpio",
	    "greybus",	    "hdaudio",
	    "hid",	    "host1x",
	    "i2c",	    "i3c",
	    "iio",	    "ishtp",
	    "isa",	    "machinecheck",
	    "mdio_bus",	    "mei",
	    "memory",	    "memory_tiering",
	    "mhi",	    "mipi-dsi",
	    "mmc",	    "mmc_rpmb",
	    "most",	    "nd",
	    "node",	    "nvmem",
	    "parport",	    "pci",
	    "pci-epf",	    "pci_express",
	    "pcmcia",	    "platform",
	    "pnp",	    "rapidio",
	    "rpmsg",	    "scsi",
	    "sdio",	    "serial",
	    "serial-base",  "serio",
	    "slimbus",	    "snd_seq",
	    "soundwire",    "spi",
	    "spmi",	    "thunderbolt",
	    "tee",	    "typec",
	    "ulpi",	    "usb",
	    "usb-serial",   "vdpa",
	    "vfio_mdev",    "virtio",
	    "vmbus",	    "w1",
	    "wmi",	    "workqueue",
	    "xen",	    "xen-backend",
	    "zorro",
	};

	for (size_t i = 0; i < sizeof(buses) / sizeof(buses[0]); i++)
		if (strcmp(buses[i], name) == 0)
			return true;
	return false;
}

struct dev_block {
	struct node *node; /* the device's directory */
	char *rel;	   /* devpath without the leading '/' */
	char *subsystem;
	char *driver;	   /* DRIVER property */
	char *dev;	   /* the dev attribute, MAJOR:MINOR */
	char *bus_by_link; /* the bus the driver link points into */
	int kind_by_link;  /* 1 bus, 2 class from a recorded subsystem link; 0 none */
	bool driver_link;  /* the recording holds the driver link */
	char *uevent;
	size_t uevent_len, uevent_cap;
	size_t line;
};

static int uevent_add(struct dev_block *d, const char *key, size_t klen, const char *val,
		      size_t vlen)
{
	size_t need = d->uevent_len + klen + vlen + 2;

	if (GROW_MIN(d->uevent, d->uevent_cap, need, 256) < 0)
		return -ENOMEM;
	memcpy(d->uevent + d->uevent_len, key, klen);
	d->uevent[d->uevent_len + klen] = '=';
	memcpy(d->uevent + d->uevent_len + klen + 1, val, vlen);
	d->uevent[need - 1] = '\n';
	d->uevent_len = need;
	return 0;
}

static void block_free(struct dev_block *d)
{
	free(d->rel);
	free(d->subsystem);
	free(d->driver);
	free(d->dev);
	free(d->bus_by_link);
	free(d->uevent);
	memset(d, 0, sizeof(*d));
}

/*
 * The first components (up to ANCESTORS) of the path that link @target of
 * directory @dir resolves to; @target passed target_inside() with @ups
 * leading "..".  Each in @comp and @clen; returns how many.  Costs the
 * target's length, not the directory's: its ancestors are kept in @dir.
 */
static size_t resolve_head(const struct node *dir, const char *target, size_t ups,
			   const char *comp[ANCESTORS], size_t clen[ANCESTORS])
{
	size_t kept = dir->depth - ups, n = 0;
	const char *p = target;

	for (size_t i = 0; i < ups; i++)
		p += p[2] == '/' ? 3 : 2;
	for (; n < kept && n < ANCESTORS; n++) {
		comp[n] = dir->anc[n]->name;
		clen[n] = dir->anc[n]->name_len;
	}
	while (n < ANCESTORS && *p) {
		const char *slash = strchr(p, '/');
		size_t cl = slash ? (size_t)(slash - p) : strlen(p);

		comp[n] = p;
		clen[n++] = cl;
		p += cl + (slash ? 1 : 0);
	}
	return n;
}

static bool comp_is(const char *comp, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(comp, word, len) == 0;
}

/* "../" @depth times, then @then. */
static char *up_to_top(size_t depth, const char *then)
{
	char *out = malloc(depth * 3 + strlen(then) + 1), *o;

	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < depth; i++, o += 3)
		memcpy(o, "../", 3);
	strcpy(o, then);
	return out;
}

/* The links a device has in sysfs besides its own: subsystem, class/bus, dev/. */
static int finish_block(struct umockdev_tree *t, struct dev_block *d, struct umockdev_stats *st,
			size_t *bad_line)
{
	char *target = NULL, *path = NULL;
	const char *name;
	size_t depth;
	bool bus;
	int err = 0;

	if (!d->node)
		return 0;
	if (!d->subsystem)
		return -EBADMSG;
	if (!component_ok(d->subsystem, strlen(d->subsystem)) || strchr(d->subsystem, '/'))
		return -EINVAL;
	name = d->node->name;
	depth = d->node->depth;
	if (d->kind_by_link)
		bus = d->kind_by_link == 1;
	else if (d->bus_by_link)
		bus = strcmp(d->bus_by_link, d->subsystem) == 0 || known_bus(d->subsystem);
	else
		bus = known_bus(d->subsystem);
	err = tree_add_str(t, d->node, "uevent", 'f', d->uevent ? d->uevent : "", d->uevent_len,
			   d->line, bad_line);
	if (err == 0 && !d->kind_by_link) {
		if (asprintf(&path, "%s/%s", bus ? "bus" : "class", d->subsystem) < 0 ||
		    !(target = up_to_top(depth, path)))
			err = -ENOMEM;
		else
			err = tree_add_link(t, d->node, "subsystem", strlen("subsystem"), target,
					    d->line, st, bad_line);
		free(path);
		free(target);
		target = path = NULL;
	}
	if (err == 0) {
		if (bus) {
			if (asprintf(&path, "bus/%s/devices/%s", d->subsystem, name) < 0 ||
			    asprintf(&target, "../../../%s", d->rel) < 0)
				err = -ENOMEM;
		} else if (asprintf(&path, "class/%s/%s", d->subsystem, name) < 0 ||
			   asprintf(&target, "../../%s", d->rel) < 0) {
			err = -ENOMEM;
		}
		if (err == 0)
			err = tree_add_link(t, &t->top, path, strlen(path), target, d->line, st,
					    bad_line);
		free(path);
		free(target);
		path = target = NULL;
	}
	if (err == 0 && bus && d->driver && component_ok(d->driver, strlen(d->driver)) &&
	    !strchr(d->driver, '/')) {
		if (asprintf(&path, "bus/%s/drivers/%s", d->subsystem, d->driver) < 0)
			err = -ENOMEM;
		else
			err = tree_add_str(t, &t->top, path, 'd', NULL, 0, d->line, bad_line);
		/* older recordings name the driver only as a property: the link sysfs has */
		if (err == 0 && !d->driver_link) {
			target = up_to_top(depth, path);
			if (!target)
				err = -ENOMEM;
			else
				err = tree_add_link(t, d->node, "driver", strlen("driver"), target,
						    d->line, st, bad_line);
			free(target);
			target = NULL;
		}
		free(path);
		path = NULL;
	}
	if (err == 0 && d->dev) {
		size_t n = strlen(d->dev), colon = strspn(d->dev, "0123456789");

		while (n && (d->dev[n - 1] == '\n' || d->dev[n - 1] == ' '))
			d->dev[--n] = '\0';
		if (colon > 0 && d->dev[colon] == ':' && colon + 1 < n &&
		    strspn(d->dev + colon + 1, "0123456789") == n - colon - 1) {
			if (asprintf(&path, "dev/%s/%s",
				     strcmp(d->subsystem, "block") ? "char" : "block",
				     d->dev) < 0 ||
			    asprintf(&target, "../../%s", d->rel) < 0)
				err = -ENOMEM;
			else
				err = tree_add_link(t, &t->top, path, strlen(path), target, d->line,
						    st, bad_line);
			free(path);
			free(target);
		}
	}
	return err;
}

/* An L: line of device @d: the link, and what a subsystem or driver link tells. */
static int add_link(struct umockdev_tree *t, struct dev_block *d, const char *key, size_t klen,
		    const char *val, size_t line, struct umockdev_stats *st, size_t *bad_line)
{
	const char *comp[ANCESTORS];
	size_t clen[ANCESTORS], n, ups = 0;
	bool subsystem = strcmp(key, "subsystem") == 0, driver = strcmp(key, "driver") == 0;
	int err;

	/* the link's directory is the device's, or one of its groups */
	if (!target_inside(d->node->depth + count_slashes(key), val, &ups)) {
		st->skipped_links++;
		return 0;
	}
	err = tree_add_link(t, d->node, key, klen, val, line, st, bad_line);
	if (err < 0 || !(subsystem || driver))
		return err;
	if (driver)
		d->driver_link = true;
	n = resolve_head(d->node, val, ups, comp, clen);
	if (subsystem) {
		d->kind_by_link = n >= 2 && comp_is(comp[0], clen[0], "bus") ? 1 : 2;
	} else if (n == ANCESTORS && comp_is(comp[0], clen[0], "bus") &&
		   comp_is(comp[2], clen[2], "drivers")) {
		free(d->bus_by_link);
		d->bus_by_link = strndup(comp[1], clen[1]);
		if (!d->bus_by_link)
			return -ENOMEM;
	}
	return 0;
}

int umockdev_parse(const char *buf, size_t len, struct umockdev_tree **tree, size_t *bad_line,
		   struct umockdev_stats *st)
{
	struct umockdev_tree *t = calloc(1, sizeof(*t));
	struct dev_block d = {0};
	size_t pos = 0, lineno = 0;
	char *line = NULL;
	int err = 0;

	*tree = NULL;
	*bad_line = 0;
	if (!t)
		return -ENOMEM;
	t->top.type = 'd';
	err = tree_add_str(t, &t->top, "devices", 'd', NULL, 0, 0, bad_line);
	if (err == 0)
		err = tree_add_str(t, &t->top, "class", 'd', NULL, 0, 0, bad_line);
	if (err == 0)
		err = tree_add_str(t, &t->top, "bus", 'd', NULL, 0, 0, bad_line);
	while (err == 0 && pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char *key, *val, *eq;
		size_t klen, vlen;

		lineno++;
		free(line);
		line = malloc(ll + 1);
		if (!line) {
			err = -ENOMEM;
			break;
		}
		memcpy(line, buf + pos, ll);
		line[ll] = '\0';
		pos += ll + (nl ? 1 : 0);
		if (ll == 0) {
			err = finish_block(t, &d, st, bad_line);
			if (err < 0 && !*bad_line)
				*bad_line = d.line;
			block_free(&d);
			continue;
		}
		if (ll < 3 || line[1] != ':' || line[2] != ' ' || memchr(line, '\0', ll)) {
			err = -EBADMSG;
			break;
		}
		key = line + 3;
		if (line[0] == 'P') {
			if (d.node) {
				/* a new device without a blank line first */
				err = -EBADMSG;
				break;
			}
			if (strncmp(key, "/devices/", 9) != 0) {
				err = -EINVAL;
				break;
			}
			err = tree_add(t, &t->top, key + 1, ll - 4, 'd', NULL, 0, lineno, &d.node,
				       bad_line);
			if (err < 0)
				break;
			d.rel = strdup(key + 1);
			d.line = lineno;
			if (!d.rel)
				err = -ENOMEM;
			st->devices++;
			continue;
		}
		if (!d.node) {
			err = -EBADMSG; /* a block must start with P: */
			break;
		}
		if (line[0] == 'N' || line[0] == 'S')
			continue; /* /dev is not part of a sysfs tree */
		eq = strchr(key, '=');
		if (!eq || eq == key || !strchr("EAHL", line[0])) {
			err = -EBADMSG;
			break;
		}
		*eq = '\0';
		klen = (size_t)(eq - key);
		val = eq + 1;
		vlen = ll - (size_t)(val - line);
		if (line[0] == 'E') {
			if (strcmp(key, "SUBSYSTEM") == 0) {
				if (d.subsystem) {
					err = -EBADMSG;
					break;
				}
				d.subsystem = strdup(val);
				err = d.subsystem ? 0 : -ENOMEM;
			} else if (strcmp(key, "DEVPATH") == 0 ||
				   strcmp(key, "__DEVCONTEXT") == 0) {
				;
			} else if (strcmp(key, "DEVNAME") == 0 && strncmp(val, "/dev/", 5) == 0) {
				err = uevent_add(&d, key, klen, val + 5, vlen - 5);
			} else {
				if (strcmp(key, "DRIVER") == 0) {
					free(d.driver);
					d.driver = strdup(val);
				}
				err = uevent_add(&d, key, klen, val, vlen);
			}
			continue;
		}
		if (line[0] == 'A') {
			vlen = uncompress(val, vlen);
			if (strcmp(key, "dev") == 0) {
				free(d.dev);
				d.dev = strndup(val, vlen);
			}
			err =
			    tree_add(t, d.node, key, klen, 'f', val, vlen, lineno, NULL, bad_line);
		} else if (line[0] == 'H') {
			long n = unhex(val, vlen);

			err = n < 0 ? -EBADMSG
				    : tree_add(t, d.node, key, klen, 'f', val, (size_t)n, lineno,
					       NULL, bad_line);
		} else {
			err = add_link(t, &d, key, klen, val, lineno, st, bad_line);
		}
	}
	if (err == 0) {
		err = finish_block(t, &d, st, bad_line);
		if (err < 0 && !*bad_line)
			*bad_line = d.line;
	} else if (!*bad_line) {
		*bad_line = lineno;
	}
	block_free(&d);
	free(line);
	if (err == 0)
		err = tree_sort(t);
	if (err < 0) {
		umockdev_tree_free(t);
		return err;
	}
	*tree = t;
	return 0;
}

struct sbuf {
	char *s;
	size_t n, cap;
};

static int sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (GROW_MIN(b->s, b->cap, b->n + n + 1, 256) < 0)
		return -ENOMEM;
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
	return 0;
}

static int sb_quoted(struct sbuf *b, const char *s, size_t n)
{
	int err = sb_put(b, " \"", 2);

	for (size_t i = 0; i < n && err == 0; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[5];

		if (c == '\\')
			err = sb_put(b, "\\\\", 2);
		else if (c == '"')
			err = sb_put(b, "\\\"", 2);
		else if (c == '\n')
			err = sb_put(b, "\\n", 2);
		else if (c == '\t')
			err = sb_put(b, "\\t", 2);
		else if (c == '\r')
			err = sb_put(b, "\\r", 2);
		else if (c < 0x20 || c > 0x7e) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			err = sb_put(b, tmp, 4);
		} else {
			err = sb_put(b, (const char *)&c, 1);
		}
	}
	return err ? err : sb_put(b, "\"", 1);
}

/* A directory being walked: the next of its entries, its path's length or its descriptor. */
struct frame {
	const struct node *dir;
	size_t next;
	size_t path_len;
	int fd;
};

int umockdev_tree_to_archive(const struct umockdev_tree *t, char **archive, size_t *archive_len)
{
	struct sbuf out = {0};
	struct frame *stack = NULL;
	size_t sp = 0, cap = 0;
	char *path = malloc(PATH_LEN_MAX + 1);
	int err = path ? sb_put(&out, "sysdev-archive 1\n", 17) : -ENOMEM;

	*archive = NULL;
	*archive_len = 0;
	if (err == 0 && GROW_MIN(stack, cap, 1, 64) < 0)
		err = -ENOMEM;
	if (err == 0)
		stack[sp++] = (struct frame){.dir = &t->top};
	/* depth first, a directory before its entries, as the archive wants */
	while (err == 0 && sp > 0) {
		struct frame *f = &stack[sp - 1];
		const struct node *x;
		size_t plen = f->path_len;

		if (f->next == f->dir->n_children) {
			sp--;
			continue;
		}
		x = f->dir->children[f->next++];
		if (plen)
			path[plen++] = '/';
		memcpy(path + plen, x->name, x->name_len);
		plen += x->name_len;
		err = sb_put(&out,
			     x->type == 'd'   ? "d 0755"
			     : x->type == 'f' ? "f 0644"
					      : "l 0777",
			     6);
		if (err == 0)
			err = sb_quoted(&out, path, plen);
		if (err == 0 && x->type != 'd')
			err = sb_quoted(&out, x->data, x->len);
		if (err == 0)
			err = sb_put(&out, "\n", 1);
		if (err == 0 && x->type == 'd') {
			if (GROW_MIN(stack, cap, sp + 1, 64) < 0)
				err = -ENOMEM;
			else
				stack[sp++] = (struct frame){.dir = x, .path_len = plen};
		}
	}
	free(stack);
	free(path);
	if (err < 0) {
		free(out.s);
		return err;
	}
	*archive = out.s;
	*archive_len = out.n;
	return 0;
}

int umockdev_tree_lay_out(const struct umockdev_tree *t, int dirfd, size_t *bad_line)
{
	struct frame *stack = NULL;
	size_t sp = 0, cap = 0;
	int err = 0;

	*bad_line = 0;
	if (GROW_MIN(stack, cap, 1, 64) < 0)
		return -ENOMEM;
	stack[sp++] = (struct frame){.dir = &t->top, .fd = dirfd};
	/* each entry made once, in the open directory above it: no path is looked up again */
	while (err == 0 && sp > 0) {
		struct frame *f = &stack[sp - 1];
		const struct node *x;
		int fd;

		if (f->next == f->dir->n_children) {
			/* made 0700, so that nothing is made in it by others meanwhile */
			if (sp > 1) {
				if (fchmod(f->fd, 0755) < 0)
					err = -errno;
				close(f->fd);
			}
			sp--;
			continue;
		}
		x = f->dir->children[f->next++];
		if (x->type == 'f') {
			err = create_file_excl(f->fd, x->name, x->data, x->len, 0644);
		} else if (x->type == 'l') {
			err = symlinkat(x->data, f->fd, x->name) < 0 ? -errno : 0;
		} else if (mkdirat(f->fd, x->name, 0700) < 0) {
			err = -errno;
		} else if ((fd = openat(f->fd, x->name,
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			err = -errno;
		} else if (GROW_MIN(stack, cap, sp + 1, 64) < 0) {
			close(fd);
			err = -ENOMEM;
		} else {
			stack[sp++] = (struct frame){.dir = x, .fd = fd};
		}
		if (err < 0)
			*bad_line = x->line;
	}
	while (sp > 1)
		close(stack[--sp].fd);
	free(stack);
	return err;
}

int umockdev_to_archive(const char *buf, size_t len, char **archive, size_t *archive_len,
			size_t *bad_line, struct umockdev_stats *st)
{
	struct umockdev_tree *t;
	int err;

	*archive = NULL;
	*archive_len = 0;
	err = umockdev_parse(buf, len, &t, bad_line, st);
	if (err < 0)
		return err;
	err = umockdev_tree_to_archive(t, archive, archive_len);
	umockdev_tree_free(t);
	return err;
}
