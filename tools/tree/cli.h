/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_TREE_CLI_H
#define SYSDEV_TREE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "alloc-util.h"
#include "args.h"
#include "device-fields.h"
#include "escape.h"
#include "libsysdev.h"
#include "messages.h"
#include "root-archive.h"
#include "util.h"
#include "walk-run.h"

struct column;
struct jw;

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	const char *root;
	const char *start; /* positional START, any DEVICE form or devpath */
	bool json;
	bool all;
	bool attrs;
	bool power;
	int depth; /* -1: unlimited */
	/* filters: any one of each list (OR), every --match (AND), options combined by AND */
	const char **subsystems;
	size_t n_subsystems;
	const char **drivers;
	size_t n_drivers;
	const char **sysnames;
	size_t n_sysnames;
	const char **matches; /* KEY=GLOB */
	size_t n_matches;
	bool unlinked;
	/* udev's database: --udev-db DIR|none, --tag (every one), --initialized-(no)match */
	const char *udev_db;
	const char **tags;
	size_t n_tags;
	int initialized; /* 1 initialized only, -1 not initialized only, 0 any */
	/* negations, as udevadm's: any one matching drops the device; a device that
	 * lacks the field is kept */
	const char **nomatch_subsystems, **nomatch_sysnames, **nomatch_drivers;
	const char **nomatches; /* KEY=GLOB */
	size_t n_nomatch_subsystems, n_nomatch_sysnames, n_nomatch_drivers, n_nomatches;
	/* columns and formats */
	const struct column **cols;
	size_t n_cols;
	const struct column *sort; /* -x: the lists by it */
	size_t width;		   /* -w, or the terminal's with -l; 0: no limit */
	enum { FORMAT_TREE, FORMAT_LIST, FORMAT_RAW, FORMAT_PAIRS } list_format;
	bool noheadings;
	bool ascii;
	bool color;
	bool stats;
	bool check_udev;
	bool watch;
	bool watch_properties; /* --watch --properties */
	bool udev;	       /* --watch --udev: udevd's events */
	size_t receive_buffer; /* --receive-buffer, 0: the library's default */
	const char *parents;
	const char *explain;
	const char *properties;	      /* --properties DEVICE (the first of them) */
	const char **properties_more; /* the other DEVICEs */
	size_t n_properties_more;
	bool export_values;  /* --export: KEY='VALUE' */
	char **more_devices; /* --parents, --explain: the DEVICEs after the first */
	size_t n_more_devices;
	const char **property_keys; /* --property KEY[,KEY...]: only these */
	size_t n_property_keys;
	bool value_only; /* --value: the values alone */
	const char *set_lt_value;
	const char *lt_device; /* --set- or --get-latency-tolerance */
	bool get_lt;
	const char *capture_dir;
	const char *diff_old, *diff_new;
	const char *diff_old_label, *diff_new_label; /* as typed (an archive's name) */
	const char *format; /* --format: text, json, openmetrics (--stats), jsonl (--diff) */
};

/* out-tree.c, out-json.c, cmd-*.c: each returns an exit status */
int cmd_tree(struct sysdev *ctx, const struct options *o);
int cmd_json(struct sysdev *ctx, const struct options *o);
/* out-dot.c: the tree as a Graphviz graph (--format=dot) */
int cmd_dot(struct sysdev *ctx, const struct options *o);
int cmd_list(struct sysdev *ctx, const struct options *o);
/* every column and its description (JSON with --json); needs no root */
int cmd_list_columns(struct sysdev *ctx, const struct options *o);
int cmd_stats(struct sysdev *ctx, const struct options *o);
int cmd_parents(struct sysdev *ctx, const struct options *o);
int cmd_explain(struct sysdev *ctx, const struct options *o);
int cmd_properties(struct sysdev *ctx, const struct options *o);
/* shell-quote.c: a value as `udevadm info -x` quotes it, one line: 'VALUE' */
void fput_export_value(FILE *f, const char *s);
/* --export: whether a property of this key is written (a shell name the shell,
 * bash and the loader give no meaning of their own) */
bool export_key_ok(const char *key);
int cmd_latency_tolerance(struct sysdev *ctx, const struct options *o);
int cmd_capture(struct sysdev *ctx, const struct options *o);
/* --diff opens OLD and NEW itself: @ctx is NULL */
int cmd_diff(struct sysdev *ctx, const struct options *o);
/* cmd-diff.c: whether the kernel numbers this device name in order (wakeup7, device:02) */
bool name_is_kernel_numbered(const char *name);
int cmd_check_udev(struct sysdev *ctx, const struct options *o);
int cmd_watch(struct sysdev *ctx, const struct options *o);
/* out-openmetrics.c: --stats --format=openmetrics */
int cmd_stats_openmetrics(struct sysdev *ctx, const struct options *o);
/* A Prometheus label value in double quotes, escaped; stays UTF-8. */
void fput_label_value(FILE *f, const char *s);

/*
 * Directories a walk could not read: the first is named at the end, the
 * others counted, so a run says what went wrong in one line.
 */
struct walk_errors {
	char *first; /* syspath of the first unreadable directory */
	int first_err;
	unsigned long n;
};
void walk_error_note(struct walk_errors *e, struct sysdev *ctx, const struct sysdev_node *node);
/* out-tree.c: warn about what a walk skipped (one line); returns the exit status */
int report_walk(struct sysdev *ctx, const char *start, int err, const struct walk_counts *st,
		struct walk_errors *e);

/* select.c: the devices the filters select, and their ancestors, in walk order */
struct selection {
	char **paths;	       /* devpaths, walk order, no duplicates */
	unsigned char *next;   /* the path has a later sibling in paths */
	unsigned char *chosen; /* the filters chose it (not only an ancestor) */
	size_t n;
};
bool filters_given(const struct options *o);
/* -s NAME/DEVTYPE: whether a device of @subsystem and @devtype passes the -s list
 * (any one; a DEVTYPE never passes a device without one); true without -s */
bool subsystem_selected(const struct options *o, const char *subsystem, const char *devtype);
/* The negations: whether a device with these fields is kept; @value gives a
 * property or attribute KEY (NULL: it has none), into @buf where it must */
bool negations_pass(const struct options *o, const char *subsystem, const char *sysname,
		    const char *driver,
		    const char *(*value)(void *data, const char *key, char *buf, size_t size),
		    void *data);
/* What the enumerator cannot hold of the filters (DEVTYPE, the negations), for
 * each device it found: whether @dev is kept */
bool filter_keep(const struct options *o, struct sysdev_device *dev);
/* An enumerator holding the filters (and @start as its parent); warns, returns < 0 on error. */
int filter_enumerator(struct sysdev *ctx, const struct options *o, const char *start,
		      struct sysdev_enumerator **ret);
/* Fill @sel; 0, or an exit status after saying why (1 also when nothing is selected). */
int selection_build(struct sysdev *ctx, const struct options *o, const char *start,
		    struct selection *sel);
/* Index of @devpath in @sel, or -1. */
long selection_find(const struct selection *sel, const char *devpath);
void selection_free(struct selection *sel);
/*
 * A tree's start (START, or NULL for all) and, when filters are given, the
 * selection it shows (*@shown = @sel; NULL without filters); with --all, the
 * attribute groups added to the walk's *@flags.  0, or an exit status after
 * saying why; on failure nothing is left to free.
 */
int tree_begin(struct sysdev *ctx, const struct options *o, unsigned *flags, char **start,
	       struct selection *sel, const struct selection **shown);
/* One line when no device was selected. */
void warn_none_selected(const struct options *o);

/* device-json.c: the device fields of sysdev(7) in its order (with "module"
 * after "driver" when @module is given), and the member "power" */
void device_fields_jw(struct jw *w, struct sysdev_device *dev, const char *const *module);
void device_power_jw(struct jw *w, struct sysdev_device *dev);
/* out-power.c: the power annotation; text: "  power:... latency-tolerance:...",
 * JSON: the member "power" through the writer */
void power_text(FILE *f, struct sysdev_power *p);
void power_jw(struct jw *w, struct sysdev_power *p); /* the member "power"; null: no @p */
/*
 * Attribute values are shown up to a page; a read into ATTR_PAGE + 1 bytes
 * that gives -EFBIG leaves the first page in the buffer.
 */
#define ATTR_PAGE 4096
/* " = VALUE" (every byte, escaped), " = FIRST_PAGE  [truncated: larger than a page]",
 * or " (why it could not be read)" for a read of @len into ATTR_PAGE + 1 bytes */
void attr_value_text(FILE *f, const char *buf, ssize_t len);
/* The same in JSON: "VALUE", {"value": "FIRST_PAGE", "truncated": true} or
 * {"error": "WORDS"} */
void attr_value_jw(struct jw *w, const char *buf, ssize_t len);
/* "@NAME = VALUE" for attribute @name of a device */
void device_attribute_text(FILE *f, struct sysdev_device *dev, const char *name);

#endif
