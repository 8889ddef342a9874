/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * VENDOR, MODEL and MODULE (sysdev-tree(1)).  The names come from udev's
 * hardware database through libudev's hwdb API, looked up with the key
 * udev's hwdb builtin uses: the device's MODALIAS, or for a USB device
 * without one "usb:vVVVVpPPPP:PRODUCT".  The database is the host's, also
 * for a captured root.  Each distinct key is looked up once.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libudev.h>

#include "cli.h"
#include "fd-util.h"
#include "module-aliases.h"
#include "names.h"
#include "path-util.h"

struct entry {
	char *key;	/* a modalias, or "SUBSYSTEM/DRIVER" for modules */
	char *value[2]; /* vendor and model, or the module and NULL */
};

struct table {
	struct entry *v;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

struct names {
	struct sysdev *ctx;
	struct udev *udev;
	struct udev_hwdb *hwdb;
	bool hwdb_tried;
	struct table modaliases;
	struct table modules;
	/* MODULES: modules.alias, read on the first lookup; the answers per modalias */
	struct module_aliases *aliases;
	bool aliases_tried;
	int aliases_err;
	char *aliases_path;
	size_t aliases_bad_line;
	unsigned long aliases_over_limit;
	struct table modules_of_modalias;
	/* the last device asked about: VENDOR and MODEL columns ask twice a row */
	char *last_devpath;
	const char *last_vendor, *last_model;
	struct names_stats stats;
};

/* the counters of every names object of the process (SYSDEV_NAMES_STATS) */
static struct names_stats total;

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ull & SIZE_MAX;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (sizeof(size_t) > 4 ? 1099511628211ull : 16777619u);
	return h;
}

/* The entry for @key, or the empty slot where it belongs. */
static struct entry *table_slot(struct table *t, const char *key)
{
	size_t i = hash(key) & (t->cap - 1);

	while (t->v[i].key && strcmp(t->v[i].key, key) != 0)
		i = (i + 1) & (t->cap - 1);
	return &t->v[i];
}

static struct entry *table_find(struct table *t, const char *key)
{
	struct entry *e;

	if (!t->cap)
		return NULL;
	e = table_slot(t, key);
	return e->key ? e : NULL;
}

/* A new entry for @key (not in the table), its values NULL. */
static struct entry *table_add(struct table *t, const char *key)
{
	struct entry *e;

	if ((t->n + 1) * 2 > t->cap) {
		struct table bigger = {.cap = t->cap ? t->cap * 2 : 64, .n = t->n};

		if (bigger.cap > SIZE_MAX / sizeof(struct entry))
			return NULL;
		bigger.v = calloc(bigger.cap, sizeof(struct entry));
		if (!bigger.v)
			return NULL;
		for (size_t i = 0; i < t->cap; i++)
			if (t->v[i].key)
				*table_slot(&bigger, t->v[i].key) = t->v[i];
		free(t->v);
		*t = bigger;
	}
	e = table_slot(t, key);
	e->key = strdup(key);
	if (!e->key)
		return NULL;
	t->n++;
	return e;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->v[i].key);
		free(t->v[i].value[0]);
		free(t->v[i].value[1]);
	}
	free(t->v);
	*t = (struct table){0};
}

int names_new(struct sysdev *ctx, struct names **ret)
{
	struct names *n = calloc(1, sizeof(*n));

	*ret = NULL;
	if (!n)
		return -ENOMEM;
	n->ctx = sysdev_ref(ctx);
	*ret = n;
	return 0;
}

void names_free(struct names *n)
{
	if (!n)
		return;
	if (n->hwdb)
		udev_hwdb_unref(n->hwdb);
	if (n->udev)
		udev_unref(n->udev);
	table_free(&n->modaliases);
	table_free(&n->modules);
	table_free(&n->modules_of_modalias);
	module_aliases_free(n->aliases);
	free(n->aliases_path);
	free(n->last_devpath);
	sysdev_unref(n->ctx);
	free(n);
}

bool names_have_database(const struct names *n)
{
	return n->hwdb != NULL;
}

void names_get_stats(const struct names *n, struct names_stats *stats)
{
	*stats = n->stats;
}

void names_get_total_stats(struct names_stats *stats)
{
	*stats = total;
}

/* One hexadecimal number up to 0xffff, as udev's safe_atoux16 reads a
 * sysfs value: blanks before it, "0x" allowed, one trailing newline. */
static int parse_hex16(const char *s, unsigned *out)
{
	unsigned long v = 0;
	size_t digits = 0;

	if (!s)
		return -EINVAL;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++, digits++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		v = v * 16 + (unsigned long)d;
		if (v > 0xffff)
			return -EINVAL;
	}
	if (*s == '\n')
		s++;
	if (!digits || *s)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

int names_usb_modalias(const char *id_vendor, const char *id_product, const char *product,
		       char *buf, size_t size)
{
	unsigned v, p;
	int len;

	if (parse_hex16(id_vendor, &v) < 0 || parse_hex16(id_product, &p) < 0)
		return -EINVAL;
	len = snprintf(buf, size, "usb:v%04Xp%04X:%s", v, p, product ? product : "");
	if (len < 0)
		return -EINVAL;
	return len;
}

static void open_database(struct names *n)
{
	n->hwdb_tried = true;
	errno = 0;
	n->udev = udev_new();
	if (!n->udev && errno == ENOMEM)
		exit_out_of_memory();
	if (!n->udev)
		return;
	/* NULL when neither /etc/udev/hwdb.bin nor the system's one exists
	 * (libudev sets errno); no memory is not "no database" */
	errno = 0;
	n->hwdb = udev_hwdb_new(n->udev);
	if (!n->hwdb && errno == ENOMEM)
		exit_out_of_memory();
}

int names_vendor_model_modalias(struct names *n, const char *modalias, const char **vendor,
				const char **model)
{
	struct udev_list_entry *le;
	struct entry *e;

	*vendor = *model = NULL;
	if (!modalias || !*modalias)
		return 0;
	e = table_find(&n->modaliases, modalias);
	if (e) {
		*vendor = e->value[0];
		*model = e->value[1];
		return 0;
	}
	e = table_add(&n->modaliases, modalias);
	if (!e)
		return -ENOMEM;
	n->stats.modaliases++;
	total.modaliases++;
	if (!n->hwdb_tried)
		open_database(n);
	if (!n->hwdb)
		return 0;
	n->stats.lookups++;
	total.lookups++;
	udev_list_entry_foreach(le, udev_hwdb_get_properties_list_entry(n->hwdb, modalias, 0))
	{
		const char *name = udev_list_entry_get_name(le), *value;
		int which;

		if (strcmp(name, "ID_VENDOR_FROM_DATABASE") == 0)
			which = 0;
		else if (strcmp(name, "ID_MODEL_FROM_DATABASE") == 0)
			which = 1;
		else
			continue;
		value = udev_list_entry_get_value(le);
		if (!value || !*value)
			continue;
		free(e->value[which]);
		e->value[which] = strdup(value);
		if (!e->value[which])
			return -ENOMEM;
	}
	*vendor = e->value[0];
	*model = e->value[1];
	return 0;
}

/* What the lookup needs of a device. */
struct source {
	const char *modalias_property;
	const char *subsystem;
	const char *devtype;
	struct sysdev_device *dev;
};

/* sysfs attributes are at most a page; a modalias longer than this is not one */
#define ATTR_MAX 4096

static int lookup_source(struct names *n, const struct source *src, const char **vendor,
			 const char **model)
{
	char buf[ATTR_MAX + 1];
	ssize_t len;

	*vendor = *model = NULL;
	if (src->modalias_property && *src->modalias_property)
		return names_vendor_model_modalias(n, src->modalias_property, vendor, model);
	n->stats.modalias_reads++;
	total.modalias_reads++;
	len = sysdev_device_read_attribute(src->dev, "modalias", buf, sizeof(buf));
	if (len > 0 && strlen(buf) == (size_t)len)
		return names_vendor_model_modalias(n, buf, vendor, model);
	if (len == -ENOMEM)
		return len;
	if (src->subsystem && strcmp(src->subsystem, "usb") == 0 && src->devtype &&
	    strcmp(src->devtype, "usb_device") == 0) {
		char id_vendor[16], id_product[16], product[ATTR_MAX + 1];
		char key[sizeof(product) + 32];
		ssize_t plen;

		if (sysdev_device_read_attribute(src->dev, "idVendor", id_vendor,
						 sizeof(id_vendor)) <= 0 ||
		    sysdev_device_read_attribute(src->dev, "idProduct", id_product,
						 sizeof(id_product)) <= 0)
			return 0;
		plen = sysdev_device_read_attribute(src->dev, "product", product, sizeof(product));
		/* udev writes the product as it reads it; a NUL inside ends it */
		if (plen < 0)
			product[0] = '\0';
		if (names_usb_modalias(id_vendor, id_product, product, key, sizeof(key)) < 0)
			return 0;
		return names_vendor_model_modalias(n, key, vendor, model);
	}
	return 0;
}

/* The same device twice in a row: the answer of the first time, without a read. */
static int vendor_model_of(struct names *n, const char *devpath, const struct source *src,
			   const char **vendor, const char **model)
{
	int err;

	if (devpath && n->last_devpath && strcmp(devpath, n->last_devpath) == 0) {
		*vendor = n->last_vendor;
		*model = n->last_model;
		return 0;
	}
	err = lookup_source(n, src, vendor, model);
	free(n->last_devpath);
	n->last_devpath = err == 0 && devpath ? strdup(devpath) : NULL;
	n->last_vendor = *vendor;
	n->last_model = *model;
	return err;
}

int names_vendor_model(struct names *n, struct sysdev_device *dev, const char **vendor,
		       const char **model)
{
	struct source src = {
	    .modalias_property = dev_property(dev, "MODALIAS"),
	    .subsystem = dev_str(dev, sysdev_device_get_subsystem),
	    .devtype = dev_str(dev, sysdev_device_get_devtype),
	    .dev = dev,
	};

	return vendor_model_of(n, dev_str(dev, sysdev_device_get_devpath), &src, vendor, model);
}

/* A name that is one path component. */
int names_module_of(struct names *n, const char *subsystem, const char *driver, const char **module)
{
	char key[2 * NAME_MAX + 2], path[2 * NAME_MAX + 32], target[PATH_MAX];
	const char *last = NULL;
	struct entry *e;
	ssize_t len;
	int pfd;

	*module = NULL;
	if (!name_is_single_component(subsystem) || !name_is_single_component(driver) ||
	    strlen(subsystem) > NAME_MAX || strlen(driver) > NAME_MAX)
		return 0;
	snprintf(key, sizeof(key), "%s/%s", subsystem, driver);
	e = table_find(&n->modules, key);
	if (e) {
		*module = e->value[0];
		return 0;
	}
	e = table_add(&n->modules, key);
	if (!e)
		return -ENOMEM;
	n->stats.module_links++;
	total.module_links++;
	snprintf(path, sizeof(path), "bus/%s/drivers/%s/module", subsystem, driver);
	/* the tree's own bus/S/drivers/D directories: no link followed on the way */
	pfd = open_below(sysdev_get_root_fd(n->ctx), path, &last);
	if (pfd < 0)
		return 0;
	len = readlinkat(pfd, last, target, sizeof(target) - 1);
	close(pfd);
	if (len <= 0 || (size_t)len >= sizeof(target) - 1)
		return 0;
	target[len] = '\0';
	while (len > 1 && target[len - 1] == '/')
		target[--len] = '\0';
	const char *base = strrchr(target, '/');

	base = base ? base + 1 : target;
	if (!name_is_single_component(base))
		return 0;
	e->value[0] = strdup(base);
	if (!e->value[0])
		return -ENOMEM;
	*module = e->value[0];
	return 0;
}

int names_module(struct names *n, struct sysdev_device *dev, const char **module)
{
	return names_module_of(n, dev_str(dev, sysdev_device_get_subsystem),
			       dev_str(dev, sysdev_device_get_driver), module);
}

int names_modules_of_modalias(struct names *n, const char *modalias, const char **modules)
{
	struct entry *e;
	int err;

	*modules = NULL;
	if (!modalias || !*modalias)
		return 0;
	if (!n->aliases_tried) {
		n->aliases_tried = true;
		n->aliases_err = module_aliases_load(n->ctx, &n->aliases, &n->aliases_path,
						     &n->aliases_bad_line);
		if (n->aliases_err == -ENOMEM)
			return -ENOMEM;
	}
	if (!n->aliases)
		return 0;
	e = table_find(&n->modules_of_modalias, modalias);
	if (e) {
		*modules = e->value[0];
		return 0;
	}
	e = table_add(&n->modules_of_modalias, modalias);
	if (!e)
		return -ENOMEM;
	err = module_aliases_lookup(n->aliases, modalias, &e->value[0], NULL);
	if (err == -E2BIG) {
		n->aliases_over_limit++;
		return 0;
	}
	if (err < 0)
		return err;
	*modules = e->value[0];
	return 0;
}

int names_modules(struct names *n, struct sysdev_device *dev, const char **modules)
{
	const char *modalias = dev_property(dev, "MODALIAS");
	char buf[ATTR_MAX + 1];
	ssize_t len;

	*modules = NULL;
	if (!modalias || !*modalias) {
		len = sysdev_device_read_attribute(dev, "modalias", buf, sizeof(buf));
		if (len == -ENOMEM)
			return -ENOMEM;
		if (len <= 0 || strlen(buf) != (size_t)len)
			return 0;
		modalias = buf;
	}
	return names_modules_of_modalias(n, modalias, modules);
}

int names_modules_source(const struct names *n, const char **path, size_t *bad_line,
			 unsigned long *over_limit)
{
	*path = n->aliases_path;
	*bad_line = n->aliases_bad_line;
	*over_limit = n->aliases_over_limit;
	return n->aliases_tried ? n->aliases_err : 0;
}
