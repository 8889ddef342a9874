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
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "dir-list.h"
#include "umockdev.h"
#include "hex-util.h"

#define ATTR_MAX (1024 * 1024)
#define GROUP_DEPTH_MAX 64

/* ------------------------------------------------------------------ */
/* Export                                                              */
/* ------------------------------------------------------------------ */

/*
 * Text that stays on one line of a recording: umockdev reads it with GLib,
 * which ends a line at a newline, and also at U+0085 (NEL), U+2028 and
 * U+2029 (tried: such a path makes umockdev-run refuse the whole file).
 */
static bool line_safe(const char *s)
{
	return !strchr(s, '\n') && !strstr(s, "\xc2\x85") && !strstr(s, "\xe2\x80\xa8") &&
	       !strstr(s, "\xe2\x80\xa9");
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
static int export_dir(FILE *f, int dirfd, const char *prefix, int depth, struct umockdev_stats *st)
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
			char target[4096];
			ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);

			if (n > 0) {
				target[n] = '\0';
				if (!line_safe(target))
					st->skipped_names++;
				else
					fprintf(f, "L: %s=%s\n", rel, target);
			}
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
						err = export_dir(f, cfd, sub, depth + 1, st);
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

static int export_node(const struct sysdev_node *node, void *data)
{
	struct export_state *s = data;
	const char *sub = sysdev_node_get_subsystem(node), *devpath = sysdev_node_get_devpath(node);
	const char *key, *value, *devname = sysdev_node_get_devname(node);
	struct sysdev_device *dev;
	FILE *f = s->out;
	int err;

	if (sysdev_node_get_kind(node) != SYSDEV_KIND_DEVICE)
		return 0;
	if (!sub) {
		s->st->no_subsystem++;
		return 0;
	}
	if (!line_safe(devpath) || !line_safe(sub) || (devname && !line_safe(devname))) {
		s->st->skipped_names++;
		return 0;
	}
	err = sysdev_device_new_from_devpath(s->ctx, devpath, &dev);
	if (err < 0)
		return err == -ENOMEM ? err : 0;
	fprintf(f, "P: %s\n", devpath);
	if (devname)
		fprintf(f, "N: %s\n", devname);
	for (size_t i = 0; sysdev_device_get_property_at(dev, i, &key, &value); i++) {
		if (strcmp(key, "SUBSYSTEM") == 0 || strcmp(key, "DEVPATH") == 0 || !key_ok(key) ||
		    !line_safe(value))
			continue;
		/* udev's DEVNAME is the node's path; umockdev makes it relative again */
		if (strcmp(key, "DEVNAME") == 0 && value[0] != '/')
			fprintf(f, "E: DEVNAME=/dev/%s\n", value);
		else
			fprintf(f, "E: %s=%s\n", key, value);
	}
	fprintf(f, "E: SUBSYSTEM=%s\n", sub);
	sysdev_device_unref(dev);
	err = export_dir(f, sysdev_node_get_dirfd(node), "", 0, s->st);
	fputc('\n', f);
	s->st->devices++;
	return err;
}

int umockdev_export(struct sysdev *ctx, FILE *out, struct umockdev_stats *st)
{
	struct export_state s = {.ctx = ctx, .out = out, .st = st};

	return sysdev_walk(ctx, NULL, SYSDEV_WALK_UEVENT, -1, export_node, NULL, &s, NULL);
}

/* ------------------------------------------------------------------ */
/* Import                                                              */
/* ------------------------------------------------------------------ */

struct ent {
	char *path; /* relative to the tree's top */
	char type;  /* 'd', 'f', 'l' */
	char *data; /* contents or link target */
	size_t len;
	size_t seq; /* order of addition: the later of two wins */
	size_t line;
};

struct ents {
	struct ent *v;
	size_t n, cap;
};

static int ent_add(struct ents *e, const char *path, size_t plen, char type, const char *data,
		   size_t len, size_t line)
{
	struct ent *x;

	if (GROW_MIN(e->v, e->cap, e->n + 1, 256) < 0)
		return -ENOMEM;
	x = &e->v[e->n];
	*x = (struct ent){.type = type, .len = len, .seq = e->n, .line = line};
	x->path = strndup(path, plen);
	x->data = malloc(len + 1);
	if (!x->path || !x->data) {
		free(x->path);
		free(x->data);
		return -ENOMEM;
	}
	if (len)
		memcpy(x->data, data, len);
	x->data[len] = '\0';
	e->n++;
	return 0;
}

/*
 * The archive's rules (sysdev-archive): a relative path of components that
 * are not empty, "." or "..", at most NAME_MAX bytes each, at most 4096 of
 * them, 64 KiB in all; no NUL.
 */
#define PATH_LEN_MAX 65536
#define PATH_DEPTH_MAX 4096
#define COMPONENT_MAX 255

static bool path_ok(const char *p, size_t len)
{
	size_t start = 0, n = 0;

	if (!len || len > PATH_LEN_MAX || memchr(p, '\0', len))
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && p[i] != '/')
			continue;
		size_t cl = i - start;

		if (cl == 0 || cl > COMPONENT_MAX || (cl == 1 && p[start] == '.') ||
		    (cl == 2 && p[start] == '.' && p[start + 1] == '.') || ++n > PATH_DEPTH_MAX)
			return false;
		start = i + 1;
	}
	return true;
}

/* An entry and the directories above it. */
static int ent_add_path(struct ents *e, const char *path, char type, const char *data, size_t len,
			size_t line)
{
	size_t plen = strlen(path);
	int err;

	if (!path_ok(path, plen))
		return -EINVAL;
	for (size_t i = 0; i < plen; i++) {
		if (path[i] == '/' && (err = ent_add(e, path, i, 'd', "", 0, line)) < 0)
			return err;
	}
	return ent_add(e, path, plen, type, data, len, line);
}

/*
 * Whether link @target, in directory @dir (relative to the top), is one the
 * archive keeps: leading ".." components only, then names (none empty, "."
 * or longer than NAME_MAX), never absolute, never climbing above the top.
 */
static bool target_inside(const char *dir, const char *target)
{
	size_t len = strlen(target), start = 0;
	long depth = *dir ? 1 : 0, up = 0;
	bool names = false;

	if (!len || len > PATH_LEN_MAX || target[0] == '/')
		return false;
	for (const char *p = dir; *p; p++)
		depth += *p == '/';
	for (size_t i = 0; i <= len; i++) {
		if (i < len && target[i] != '/')
			continue;
		size_t cl = i - start;

		if (cl == 0 || cl > COMPONENT_MAX || (cl == 1 && target[start] == '.'))
			return false;
		if (cl == 2 && target[start] == '.' && target[start + 1] == '.') {
			if (names || ++up > depth)
				return false;
		} else {
			names = true;
		}
		start = i + 1;
	}
	return true;
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
	char *rel; /* devpath without the leading '/' */
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

/* Where a relative link target in @dir resolves, normalized (for subsystem and driver links). */
static char *resolve_rel(const char *dir, const char *target)
{
	size_t cap = strlen(dir) + strlen(target) + 2, n;
	char *out = malloc(cap);
	const char *p = target;

	if (!out)
		return NULL;
	strcpy(out, dir);
	n = strlen(out);
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t cl = slash ? (size_t)(slash - p) : strlen(p);

		if (cl == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			out[n] = '\0';
		} else if (cl && !(cl == 1 && p[0] == '.')) {
			if (n)
				out[n++] = '/';
			memcpy(out + n, p, cl);
			n += cl;
			out[n] = '\0';
		}
		p += cl;
		if (*p == '/')
			p++;
	}
	return out;
}

static char *up_to_top(const char *rel, const char *then)
{
	size_t depth = 1;
	char *out, *o;

	for (const char *p = rel; *p; p++)
		depth += *p == '/';
	out = malloc(depth * 3 + strlen(then) + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < depth; i++, o += 3)
		memcpy(o, "../", 3);
	strcpy(o, then);
	return out;
}

/* The links a device has in sysfs besides its own: subsystem, class/bus, dev/. */
static int finish_block(struct ents *e, struct dev_block *d)
{
	char *target = NULL, *path = NULL, *name;
	bool bus;
	int err = 0;

	if (!d->rel)
		return 0;
	if (!d->subsystem)
		return -EBADMSG;
	if (!path_ok(d->subsystem, strlen(d->subsystem)) || strchr(d->subsystem, '/'))
		return -EINVAL;
	name = strrchr(d->rel, '/') + 1;
	if (d->kind_by_link)
		bus = d->kind_by_link == 1;
	else if (d->bus_by_link)
		bus = strcmp(d->bus_by_link, d->subsystem) == 0 || known_bus(d->subsystem);
	else
		bus = known_bus(d->subsystem);
	err = ent_add_path(e, d->rel, 'd', "", 0, d->line);
	if (err == 0)
		err = ent_add_path(e, "devices", 'd', "", 0, d->line);
	if (err == 0 && asprintf(&path, "%s/uevent", d->rel) < 0)
		err = -ENOMEM;
	if (err == 0)
		err =
		    ent_add_path(e, path, 'f', d->uevent ? d->uevent : "", d->uevent_len, d->line);
	free(path);
	path = NULL;
	if (err == 0 && !d->kind_by_link) {
		char *where = NULL;

		if (asprintf(&where, "%s/%s", bus ? "bus" : "class", d->subsystem) < 0 ||
		    !(target = up_to_top(d->rel, where)) ||
		    asprintf(&path, "%s/subsystem", d->rel) < 0)
			err = -ENOMEM;
		else
			err = ent_add_path(e, path, 'l', target, strlen(target), d->line);
		free(where);
		free(target);
		free(path);
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
			err = ent_add_path(e, path, 'l', target, strlen(target), d->line);
		free(path);
		free(target);
		path = target = NULL;
	}
	if (err == 0 && bus && d->driver && path_ok(d->driver, strlen(d->driver)) &&
	    !strchr(d->driver, '/')) {
		if (asprintf(&path, "bus/%s/drivers/%s", d->subsystem, d->driver) < 0)
			err = -ENOMEM;
		else
			err = ent_add_path(e, path, 'd', "", 0, d->line);
		/* older recordings name the driver only as a property: the link sysfs has */
		if (err == 0 && !d->driver_link) {
			char *link = NULL;

			target = up_to_top(d->rel, path);
			if (!target || asprintf(&link, "%s/driver", d->rel) < 0)
				err = -ENOMEM;
			else
				err = ent_add_path(e, link, 'l', target, strlen(target), d->line);
			free(link);
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
				err = ent_add_path(e, path, 'l', target, strlen(target), d->line);
			free(path);
			free(target);
		}
	}
	return err;
}

static int cmp_ent(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;
	int r = strcmp(a->path, b->path);

	if (r)
		return r;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
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

static int emit(struct ents *e, struct sbuf *b, size_t *bad_line)
{
	int err = sb_put(b, "sysdev-archive 1\n", 17);

	if (e->n)
		qsort(e->v, e->n, sizeof(*e->v), cmp_ent);
	for (size_t i = 0; i < e->n && err == 0; i++) {
		struct ent *x = &e->v[i];
		size_t j = i;

		/* the same path again: directories merge; otherwise the last one wins */
		while (j + 1 < e->n && strcmp(e->v[j + 1].path, x->path) == 0)
			j++;
		for (size_t k = i; k <= j; k++) {
			if ((e->v[k].type == 'd') != (e->v[j].type == 'd')) {
				*bad_line =
				    e->v[k].line > e->v[j].line ? e->v[k].line : e->v[j].line;
				return -EEXIST;
			}
		}
		x = &e->v[j];
		i = j;
		if (x->type == 'd') {
			err = sb_put(b, "d 0755", 6);
			if (err == 0)
				err = sb_quoted(b, x->path, strlen(x->path));
		} else {
			err = sb_put(b, x->type == 'f' ? "f 0644" : "l 0777", 6);
			if (err == 0)
				err = sb_quoted(b, x->path, strlen(x->path));
			if (err == 0)
				err = sb_quoted(b, x->data, x->len);
		}
		if (err == 0)
			err = sb_put(b, "\n", 1);
	}
	return err;
}

int umockdev_to_archive(const char *buf, size_t len, char **archive, size_t *archive_len,
			size_t *bad_line, struct umockdev_stats *st)
{
	struct ents e = {0};
	struct dev_block d = {0};
	struct sbuf out = {0};
	size_t pos = 0, lineno = 0;
	char *line = NULL;
	int err = 0;

	*archive = NULL;
	*archive_len = 0;
	*bad_line = 0;
	err = ent_add_path(&e, "devices", 'd', "", 0, 0);
	if (err == 0)
		err = ent_add_path(&e, "class", 'd', "", 0, 0);
	if (err == 0)
		err = ent_add_path(&e, "bus", 'd', "", 0, 0);
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
			err = finish_block(&e, &d);
			if (err < 0)
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
			if (d.rel) {
				/* a new device without a blank line first */
				err = -EBADMSG;
				break;
			}
			if (strncmp(key, "/devices/", 9) != 0 ||
			    !path_ok(key + 1, strlen(key + 1))) {
				err = -EINVAL;
				break;
			}
			d.rel = strdup(key + 1);
			d.line = lineno;
			if (!d.rel)
				err = -ENOMEM;
			st->devices++;
			continue;
		}
		if (!d.rel) {
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
		{
			char *path;

			if (asprintf(&path, "%s/%s", d.rel, key) < 0) {
				err = -ENOMEM;
				break;
			}
			if (line[0] == 'A') {
				vlen = uncompress(val, vlen);
				if (strcmp(key, "dev") == 0) {
					free(d.dev);
					d.dev = strndup(val, vlen);
				}
				err = ent_add_path(&e, path, 'f', val, vlen, lineno);
			} else if (line[0] == 'H') {
				long n = unhex(val, vlen);

				err = n < 0 ? -EBADMSG
					    : ent_add_path(&e, path, 'f', val, (size_t)n, lineno);
			} else {
				char *dir = strdup(path), *slash;

				if (!dir) {
					err = -ENOMEM;
				} else {
					slash = strrchr(dir, '/');
					*slash = '\0';
					if (!target_inside(dir, val)) {
						st->skipped_links++;
					} else {
						err =
						    ent_add_path(&e, path, 'l', val, vlen, lineno);
						if (strcmp(key, "driver") == 0)
							d.driver_link = true;
						if (err == 0 && (strcmp(key, "subsystem") == 0 ||
								 strcmp(key, "driver") == 0)) {
							char *to = resolve_rel(dir, val);

							if (!to)
								err = -ENOMEM;
							else if (strcmp(key, "subsystem") == 0)
								d.kind_by_link =
								    strncmp(to, "bus/", 4) == 0 ? 1
												: 2;
							else if (strncmp(to, "bus/", 4) == 0) {
								char *end = strchr(to + 4, '/');

								if (end && strncmp(end, "/drivers/",
										   9) == 0) {
									free(d.bus_by_link);
									d.bus_by_link = strndup(
									    to + 4,
									    (size_t)(end - to - 4));
								}
							}
							free(to);
						}
					}
					free(dir);
				}
			}
			free(path);
		}
	}
	if (err == 0) {
		err = finish_block(&e, &d);
		if (err < 0)
			*bad_line = d.line;
	} else if (!*bad_line) {
		*bad_line = lineno;
	}
	block_free(&d);
	free(line);
	if (err == 0)
		err = emit(&e, &out, bad_line);
	for (size_t i = 0; i < e.n; i++) {
		free(e.v[i].path);
		free(e.v[i].data);
	}
	free(e.v);
	if (err < 0) {
		free(out.s);
		return err;
	}
	*archive = out.s;
	*archive_len = out.n;
	return 0;
}
