/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The column table (columns.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "columns.h"
#include "json-writer.h"
#include "module-aliases.h"
#include "names.h"

/* The walk's facts (devpath, name, kind) are a node's; every other field is the device's. */
static const char *get_devpath(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return r->dev ? dev_str(r->dev, sysdev_device_get_devpath)
		      : sysdev_node_get_devpath(r->node);
}

static const char *get_name(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return r->dev ? dev_str(r->dev, sysdev_device_get_name) : sysdev_node_get_name(r->node);
}

static const char *get_kind(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return sysdev_kind_to_string(r->dev ? SYSDEV_KIND_DEVICE : sysdev_node_get_kind(r->node));
}

static const char *get_subsystem(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_str(r->dev, sysdev_device_get_subsystem);
}

static const char *get_subsystem_kind(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_subsystem_kind(r->dev);
}

static const char *get_driver(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_str(r->dev, sysdev_device_get_driver);
}

static const char *get_parent(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_parent_devpath(r->dev);
}

static const char *get_class_dir(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_str(r->dev, sysdev_device_get_class_dir);
}

static const char *get_placement(const struct row *r, char *buf, size_t size)
{
	enum sysdev_placement placement;

	(void)buf, (void)size;
	if (!r->dev || sysdev_device_get_placement(r->dev, &placement) < 0)
		return NULL;
	return sysdev_placement_to_string(placement);
}

static const char *get_devnum(const struct row *r, char *buf, size_t size)
{
	return dev_devnum(r->dev, buf, size);
}

/* udev's device id: b or c (block or char) and the device number */
static const char *get_devid(const struct row *r, char *buf, size_t size)
{
	const char *sub = get_subsystem(r, NULL, 0);
	char num[32];

	if (!get_devnum(r, num, sizeof(num)))
		return NULL;
	snprintf(buf, size, "%c%s", sub && strcmp(sub, "block") == 0 ? 'b' : 'c', num);
	return buf;
}

static const char *get_devname(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_str(r->dev, sysdev_device_get_devname);
}

static const char *get_devtype(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return dev_str(r->dev, sysdev_device_get_devtype);
}

/* An attribute of a device, without its trailing newline; NULL when it cannot be read. */
static const char *read_attr(const struct row *r, const char *name, char *buf, size_t size)
{
	/* a value is text: one that holds a NUL ends there */
	return r->dev && sysdev_device_read_attribute(r->dev, name, buf, size) >= 0 ? buf : NULL;
}

static const char *get_modalias(const struct row *r, char *buf, size_t size)
{
	const char *v = read_attr(r, "modalias", buf, size);

	/* an empty file (a capture keeps only what the walk reads) says nothing */
	return v && *v ? v : dev_property(r->dev, "MODALIAS");
}

static const char *get_runtime_status(const struct row *r, char *buf, size_t size)
{
	return read_attr(r, "power/runtime_status", buf, size);
}

static const char *get_latency_tolerance(const struct row *r, char *buf, size_t size)
{
	return read_attr(r, "power/pm_qos_latency_tolerance_us", buf, size);
}

/* How far up VENDOR, MODEL and PARENT_DRIVER look: a bound on a hostile chain. */
#define ANCESTORS_MAX 32

/*
 * udev's hwdb names, looked up (and cached) per modalias; where the device has
 * none, the nearest ancestor's that has one (a network interface: its card's,
 * as udev's ID_VENDOR_FROM_DATABASE)
 */
static const char *get_vendor_model(const struct row *r, bool model)
{
	struct sysdev_device *dev = r->dev;

	if (!r->names)
		return NULL;
	for (unsigned i = 0; dev && i <= ANCESTORS_MAX; i++) {
		const char *vendor = NULL, *mdl = NULL;

		oom_check(names_vendor_model(r->names, dev, &vendor, &mdl));
		if (vendor || mdl)
			return model ? mdl : vendor;
		if (oom_check(sysdev_device_get_parent(dev, &dev)) < 0)
			break;
	}
	return NULL;
}

/* the driver of the nearest ancestor that has one: the card that serves a disk */
static const char *get_parent_driver(const struct row *r, char *buf, size_t size)
{
	struct sysdev_device *dev = r->dev;

	(void)buf, (void)size;
	for (unsigned i = 0; dev && i < ANCESTORS_MAX; i++) {
		const char *drv;

		if (oom_check(sysdev_device_get_parent(dev, &dev)) < 0)
			break;
		drv = dev_str(dev, sysdev_device_get_driver);
		if (drv)
			return drv;
	}
	return NULL;
}

static const char *get_vendor(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return get_vendor_model(r, false);
}

static const char *get_model(const struct row *r, char *buf, size_t size)
{
	(void)buf, (void)size;
	return get_vendor_model(r, true);
}

static const char *get_module(const struct row *r, char *buf, size_t size)
{
	const char *module = NULL;

	(void)buf, (void)size;
	if (!r->names || !r->dev)
		return NULL;
	oom_check(names_module(r->names, r->dev, &module));
	return module;
}

/* modules.alias's answer; where none could be read, said once */
static const char *get_modules(const struct row *r, char *buf, size_t size)
{
	static bool said;
	const char *modules = NULL, *path;
	unsigned long over;
	size_t line;
	int err;

	(void)buf, (void)size;
	if (!r->names || !r->dev)
		return NULL;
	oom_check(names_modules(r->names, r->dev, &modules));
	err = names_modules_source(r->names, &path, &line, &over);
	if (said || (err == 0 && !over))
		return modules;
	said = true;
	if (err == -E2BIG && line)
		warnx_(path, "line %zu is longer than %u bytes: MODULES is empty", line,
		       MODULE_ALIASES_MAX_LINE);
	else if (err == -E2BIG)
		warnx_(path, "larger than %u bytes: MODULES is empty", MODULE_ALIASES_MAX_FILE);
	else if (err < 0)
		warnx_(path, "no modules.alias: %s: MODULES is empty", error_words(err));
	else
		warnx_(path, "matching a modalias took more than %lu steps: its MODULES is empty",
		       (unsigned long)MODULE_ALIASES_MAX_STEPS);
	return modules;
}

/* udev's database: the first of @keys the device has as a udev property (lsblk's order) */
static const char *udev_first(const struct row *r, const char *const *keys)
{
	const char *v = NULL;

	for (; !v && *keys; keys++)
		v = dev_udev_property(r->dev, *keys);
	return v;
}

#define UDEV_COLUMN(fn, ...)                                                                       \
	static const char *fn(const struct row *r, char *buf, size_t size)                         \
	{                                                                                          \
		static const char *const keys[] = {__VA_ARGS__, NULL};                             \
		(void)buf, (void)size;                                                             \
		return udev_first(r, keys);                                                        \
	}
UDEV_COLUMN(get_symlinks, "DEVLINKS")
UDEV_COLUMN(get_tags, "TAGS")
UDEV_COLUMN(get_serial, "ID_SCSI_SERIAL", "ID_SERIAL_SHORT", "ID_SERIAL")
UDEV_COLUMN(get_wwn, "ID_WWN_WITH_EXTENSION", "ID_WWN")
UDEV_COLUMN(get_id_path, "ID_PATH")
UDEV_COLUMN(get_fstype, "ID_FS_TYPE")
UDEV_COLUMN(get_uuid, "ID_FS_UUID")
UDEV_COLUMN(get_label, "ID_FS_LABEL")
UDEV_COLUMN(get_partlabel, "ID_PART_ENTRY_NAME")

static const char *get_initialized(const struct row *r, char *buf, size_t size)
{
	bool init;

	(void)buf, (void)size;
	if (!r->dev || sysdev_device_get_is_initialized(r->dev, &init) < 0)
		return NULL;
	return init ? "1" : "0";
}

const struct column columns[] = {
    {"DEVPATH", "devpath", "path below the sysfs root, as udev's DEVPATH", 0, get_devpath},
    {"NAME", "name", "the directory's name (the kernel's sysname)", 0, get_name},
    {"KIND", "kind", "root, container, device, class-dir, attr-group or unknown", 0, get_kind},
    {"SUBSYSTEM", "subsystem", "target of the subsystem link (a bus or a class)", 0, get_subsystem},
    {"SUBSYSTEM_KIND", "subsystem_kind", "bus or class: where the subsystem link points", 0,
     get_subsystem_kind},
    {"DRIVER", "driver", "the bound driver (target of the driver link)", 0, get_driver},
    {"MODULE", "module", "kernel module of the driver (its module link), empty when built in",
     COL_NAMES, get_module},
    {"MODULES", "modules",
     "modules whose modules.alias entries match the modalias, as modprobe resolves it (JSON: an "
     "array)",
     COL_UEVENT | COL_NAMES | COL_WORDS, get_modules},
    {"PARENT", "parent", "devpath of the nearest ancestor device", 0, get_parent},
    {"PARENT_DRIVER", "parent_driver", "the driver of the nearest ancestor that has one", 0,
     get_parent_driver},
    {"CLASS_DIR", "class_dir", "the class grouping directory the device sits in", 0, get_class_dir},
    {"PLACEMENT", "placement", "devices, virtual or system", 0, get_placement},
    {"DEVNUM", "devnum", "device number, MAJOR:MINOR", 0, get_devnum},
    {"DEVID", "devid", "udev's device id: b or c (block or char) and MAJOR:MINOR", 0, get_devid},
    {"DEVNAME", "devname", "device node name below /dev", 0, get_devname},
    {"DEVTYPE", "devtype", "DEVTYPE from the uevent file", COL_UEVENT, get_devtype},
    {"MODALIAS", "modalias", "the modalias attribute, or else the MODALIAS property", COL_UEVENT,
     get_modalias},
    {"VENDOR", "vendor",
     "vendor name from udev's hardware database, by modalias (or the nearest ancestor's)",
     COL_UEVENT | COL_NAMES, get_vendor},
    {"MODEL", "model",
     "model name from udev's hardware database, by modalias (or the nearest ancestor's)",
     COL_UEVENT | COL_NAMES, get_model},
    {"RUNTIME_STATUS", "runtime_status", "power/runtime_status as it reads", 0, get_runtime_status},
    {"LATENCY_TOLERANCE", "latency_tolerance",
     "power/pm_qos_latency_tolerance_us as it reads: auto, any or microseconds", 0,
     get_latency_tolerance},
    /* from udev's database (sysdev-tree --udev-db) */
    {"SYMLINKS", "symlinks", "udev's links below /dev (JSON: an array)", COL_LINKS, get_symlinks},
    {"TAGS", "tags", "udev's tags, as its TAGS property (:a:b:)", 0, get_tags},
    {"INITIALIZED", "initialized", "1 when udev has initialized the device, else 0", 0,
     get_initialized},
    {"SERIAL", "serial", "ID_SCSI_SERIAL, ID_SERIAL_SHORT or ID_SERIAL, as lsblk reads it", 0,
     get_serial},
    {"WWN", "wwn", "ID_WWN_WITH_EXTENSION or ID_WWN", 0, get_wwn},
    {"ID_PATH", "id_path", "ID_PATH: udev's persistent path of the device", 0, get_id_path},
    {"FSTYPE", "fstype", "ID_FS_TYPE: the file system (or other content) type", 0, get_fstype},
    {"UUID", "uuid", "ID_FS_UUID: the file system's UUID", 0, get_uuid},
    {"LABEL", "label", "ID_FS_LABEL: the file system's label", 0, get_label},
    {"PARTLABEL", "partlabel", "ID_PART_ENTRY_NAME: the partition's name", 0, get_partlabel},
};
const size_t n_columns = sizeof(columns) / sizeof(columns[0]);

static const char *get_attr_arg(const struct row *r, const char *arg, char *buf, size_t size)
{
	return read_attr(r, arg, buf, size);
}

/* a property as udev holds it, as --match reads it */
static const char *get_prop_arg(const struct row *r, const char *arg, char *buf, size_t size)
{
	const char *v = NULL;

	(void)buf, (void)size;
	return r->dev && sysdev_device_get_udev_property(r->dev, arg, &v) >= 0 ? v : NULL;
}

struct generic_column {
	struct column c; /* first: a struct column * of one is its address */
	const char *(*get_arg)(const struct row *r, const char *arg, char *buf, size_t size);
	const char *arg;
	char *pairs;
};

const char *column_value(const struct column *c, const struct row *r, char *buf, size_t size)
{
	const struct generic_column *g = (const struct generic_column *)c;

	return c->get ? c->get(r, buf, size) : g->get_arg(r, g->arg, buf, size);
}

const char *column_pairs_name(const struct column *c)
{
	return c->get ? c->name : ((const struct generic_column *)c)->pairs;
}

/*
 * ATTR:NAME or PROP:KEY (the prefix in any case): a column of its own, named as
 * given, freed by column_free().
 */
static const struct column *column_generic(const char *name, size_t len)
{
	struct generic_column *c;
	char *s, *pairs;
	bool attr = len > 5 && strncasecmp(name, "ATTR:", 5) == 0;

	if (!attr && !(len > 5 && strncasecmp(name, "PROP:", 5) == 0))
		return NULL;
	c = calloc(1, sizeof(*c));
	s = strndup(name, len);
	pairs = strndup(name, len);
	if (!c || !s || !pairs) {
		free(c), free(s), free(pairs);
		return NULL;
	}
	for (char *p = pairs; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	c->c.name = c->c.key = s;
	c->c.help = attr ? "an attribute" : "a property";
	c->c.flags = attr ? 0 : COL_UEVENT;
	c->get_arg = attr ? get_attr_arg : get_prop_arg;
	c->arg = s + 5;
	c->pairs = pairs;
	return &c->c;
}

static const struct column *column_find(const char *name, size_t len)
{
	for (size_t i = 0; i < n_columns; i++)
		if (strlen(columns[i].name) == len && strncasecmp(columns[i].name, name, len) == 0)
			return &columns[i];
	return NULL;
}

static int add_list(const char *list, const struct column ***cols, size_t *n, size_t *cap)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");
		const struct column *c = column_find(p, len) ?: column_generic(p, len);

		if (!c) {
			warnx_("--output",
			       "unknown column '%.*s' (--list-columns names them; ATTR:NAME and "
			       "PROP:KEY show an attribute and a property)",
			       (int)len, p);
			return -EINVAL;
		}
		if (grow_array((void **)cols, cap, *n + 1, sizeof(**cols)) < 0) {
			column_free(c);
			return -ENOMEM;
		}
		(*cols)[(*n)++] = c;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int columns_parse(const char *list, const char *defaults, const struct column ***cols, size_t *n)
{
	size_t cap = 0;
	int err = 0;

	*cols = NULL;
	*n = 0;
	if (!list && !defaults) {
		/* -O: every column of the table */
		*cols = calloc(n_columns, sizeof(**cols));
		if (!*cols)
			return -ENOMEM;
		for (size_t i = 0; i < n_columns; i++)
			(*cols)[i] = &columns[i];
		*n = n_columns;
		return 0;
	}
	if (list && list[0] == '+')
		err = add_list(defaults, cols, n, &cap);
	if (err >= 0)
		err = add_list(list ? list + (list[0] == '+') : defaults, cols, n, &cap);
	if (err < 0) {
		columns_free(*cols, *n);
		*cols = NULL;
		*n = 0;
	}
	return err;
}

void column_free(const struct column *c)
{
	struct generic_column *g = (struct generic_column *)c;

	/* only ATTR:NAME and PROP:KEY were allocated; the table's columns are static */
	if (!c || c->get)
		return;
	free((char *)g->c.name);
	free(g->pairs);
	free(g);
}

void columns_free(const struct column **cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		column_free(cols[i]);
	free(cols);
}

bool columns_need(const struct column *const *cols, size_t n, unsigned flag)
{
	for (size_t i = 0; i < n; i++)
		if (cols[i]->flags & flag)
			return true;
	return false;
}

int cmd_list_columns(struct sysdev *ctx, const struct options *o)
{
	struct jw w;

	(void)ctx;
	if (!o->json) {
		for (size_t i = 0; i < n_columns; i++)
			printf("%-18s %s\n", columns[i].name, columns[i].help);
		return 0;
	}
	/* as lsblk --list-columns --json: one object a column, in an array */
	jw_init(&w, stdout);
	jw_begin_object(&w);
	jw_key(&w, "columns");
	jw_begin_array(&w);
	for (size_t i = 0; i < n_columns; i++) {
		jw_break(&w, 1);
		jw_begin_object(&w);
		jw_member_string(&w, "name", columns[i].name);
		jw_member_string(&w, "key", columns[i].key);
		jw_member_string(&w, "description", columns[i].help);
		jw_end_object(&w);
	}
	jw_break(&w, 0);
	jw_end_array(&w);
	jw_end_object(&w);
	putchar('\n');
	jw_done(&w);
	return 0;
}

int column_value_cmp(const char *a, const char *b)
{
	char *ea, *eb;
	unsigned long long na, nb;

	if (!a || !b)
		return !!a - !!b;
	errno = 0;
	na = strtoull(a, &ea, 10);
	nb = strtoull(b, &eb, 10);
	if (errno == 0 && *a >= '0' && *a <= '9' && *b >= '0' && *b <= '9' && !*ea && !*eb &&
	    na != nb)
		return na < nb ? -1 : 1;
	return strcmp(a, b);
}
