/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_TREE_CLI_H
#define SYSDEV_TREE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "alloc-util.h"
#include "libsysdev.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
/*
 * --diff and --check-udev answer a question, as diff(1) and cmp(1) do: 0 the
 * same, 1 different; so a comparison that could not be made is 2, as there.
 */
#define EXIT_TROUBLE 2

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
	/* columns and formats */
	const struct column **cols;
	size_t n_cols;
	enum { FORMAT_TREE, FORMAT_LIST, FORMAT_RAW, FORMAT_PAIRS } list_format;
	bool noheadings;
	bool ascii;
	bool color;
	bool stats;
	bool check_udev;
	bool watch;
	const char *parents;
	const char *explain;
	const char *properties; /* --properties DEVICE */
	bool export_values;	/* --export: KEY='VALUE' */
	const char *set_lt_value;
	const char *lt_device; /* --set- or --get-latency-tolerance */
	bool get_lt;
	const char *capture_dir;
	const char *diff_old, *diff_new;
	const char *diff_old_label, *diff_new_label; /* as typed (an archive's name) */
	const char *format; /* --format: text, json, openmetrics (--stats), jsonl (--diff) */
};

/* sysdev-tree.c */
extern const char *program_name;
/* One line on stderr: "sysdev-tree: WHAT: MESSAGE". */
void warnx_(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Words for a library error about @what (a path or argument). */
const char *error_words(int err);
/*
 * Resolve an argument that names a place in the tree (a DEVICE form, or a
 * path: absolute, relative to the current directory, a devpath) to a
 * devpath under /devices.  On failure, says why in one line and returns < 0.
 */
int resolve_arg(struct sysdev *ctx, const char *arg, char **devpath);
/* The same for START: any directory under S/devices.  Says why on failure. */
int resolve_start(struct sysdev *ctx, const char *start, char **devpath);
/* Why sysdev_new(@root) failed, in words. */
void warn_root(const char *root, int err);
/* The walk's start from o->start (NULL when none); warns and returns < 0 on failure. */
int start_or_warn(struct sysdev *ctx, const struct options *o, char **start);
/* A syspath for messages: root + devpath. */
const char *syspath_of(struct sysdev *ctx, const char *devpath);
/* Open a device named on the command line, printing a clear error; NULL on failure. */
struct sysdev_device *open_device_or_warn(struct sysdev *ctx, const char *spec);
/* Flush stdout: 0, or EXIT_RUNTIME after saying why (once).  A closed pipe is no
 * error: it sets stdout_closed, and the program then exits 0, as lsblk does; any
 * other write error (a full disk, /dev/full) is. */
int check_output(void);
extern bool stdout_closed;

/*
 * A device's field for output: the value, or NULL where the device has none
 * or it could not be read (the library's -ENOENT or another errno).
 */
static inline const char *dev_str(struct sysdev_device *dev,
				  int (*get)(struct sysdev_device *dev, const char **ret))
{
	const char *v = NULL;

	return dev && get(dev, &v) >= 0 ? v : NULL;
}
static inline const char *dev_property(struct sysdev_device *dev, const char *key)
{
	const char *v = NULL;

	return dev && sysdev_device_get_property(dev, key, &v) >= 0 ? v : NULL;
}
static inline const char *dev_udev_property(struct sysdev_device *dev, const char *key)
{
	const char *v = NULL;

	return dev && sysdev_device_get_udev_property(dev, key, &v) >= 0 ? v : NULL;
}
/* The parent device's devpath, or NULL. */
static inline const char *dev_parent_devpath(struct sysdev_device *dev)
{
	struct sysdev_device *parent;

	return dev && sysdev_device_get_parent(dev, &parent) >= 0
		   ? dev_str(parent, sysdev_device_get_devpath)
		   : NULL;
}
/* "MAJOR:MINOR" in @buf, or NULL when the device has no number. */
const char *dev_devnum(struct sysdev_device *dev, char *buf, size_t size);
/* The name of where the subsystem link points ("bus", "class"), or NULL. */
const char *dev_subsystem_kind(struct sysdev_device *dev);

/* util.c (grow_array() and strdup_or_null() come from the basic layer, alloc-util.h) */
bool str_eq_or_null(const char *a, const char *b); /* NULL equals only NULL */

/* escape.c: escaping for text and JSON output */
void fput_text(FILE *f, const char *s);	       /* one line stays one line */
void fput_json_string(FILE *f, const char *s); /* "..." or null when s is NULL */
/* The same for @len bytes that may hold NULs (binary attributes): \x00, \u0000. */
void fput_text_len(FILE *f, const char *s, size_t len);
void fput_json_string_len(FILE *f, const char *s, size_t len);
/* For the lists: a control byte, a backslash, a byte of invalid UTF-8 and each
 * byte of @also as \xHH; everything else as it is. */
void fput_hex_escaped(FILE *f, const char *s, const char *also);

/* out-tree.c, out-json.c, cmd-*.c: each returns an exit status */
int cmd_tree(struct sysdev *ctx, const struct options *o);
int cmd_json(struct sysdev *ctx, const struct options *o);
int cmd_list(struct sysdev *ctx, const struct options *o);
int cmd_list_columns(bool json); /* every column and its description; JSON with @json */
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
int cmd_diff(const struct options *o);
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
/* The counters of a walk (a walker's, or the statistics'), for report_walk(). */
struct walk_counts {
	unsigned long v[_SYSDEV_WALK_COUNT_MAX];
};
void walk_counts_of(const struct sysdev_walker *w, struct walk_counts *c);
/*
 * Walk @start (NULL: /devices) with @flags and the callbacks, up to
 * @max_depth (< 0: no limit); the counters in *@counts (may be NULL).
 * Returns what sysdev_walker_run() returns.
 */
int walk_run(struct sysdev *ctx, const char *start, unsigned flags, int max_depth,
	     sysdev_walk_fn enter, sysdev_walk_fn leave, void *userdata,
	     struct walk_counts *counts);
/* out-tree.c: warn about what a walk skipped (one line); returns the exit status */
int report_walk(struct sysdev *ctx, const char *start, int err, const struct walk_counts *st,
		struct walk_errors *e);

/* select.c: the devices the filters select, and their ancestors, in walk order */
struct selection {
	char **paths;	     /* devpaths, walk order, no duplicates */
	unsigned char *next; /* the path has a later sibling in paths */
	size_t n;
};
bool filters_given(const struct options *o);
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
 * selection it shows (*@shown = @sel; NULL without filters).  0, or an exit
 * status after saying why; on failure nothing is left to free.
 */
int tree_begin(struct sysdev *ctx, const struct options *o, char **start, struct selection *sel,
	       const struct selection **shown);
/* One line when no device was selected. */
void warn_none_selected(void);

/* out-power.c: the power annotation; text: "  power:... latency-tolerance:...",
 * JSON: the member ', "power": {...}' */
void power_text(FILE *f, struct sysdev_power *p);
void power_json(FILE *f, struct sysdev_power *p);
void power_jw(struct jw *w, struct sysdev_power *p); /* the member "power" */
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
void attr_value_json(FILE *f, const char *buf, ssize_t len);
void attr_value_jw(struct jw *w, const char *buf, ssize_t len);
/* "@NAME = VALUE" for attribute @name of a device */
void device_attribute_text(FILE *f, struct sysdev_device *dev, const char *name);

#endif
