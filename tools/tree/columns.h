/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fields of a device, defined once: the tree's annotation, the lists
 * (-l, -r, -P) and the list JSON all read this table.
 */
#ifndef SYSDEV_TREE_COLUMNS_H
#define SYSDEV_TREE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "libsysdev.h"

struct names;

/* One row: a node of the walk (and its device, when it is one), or a device of the enumerator. */
struct row {
	struct sysdev *ctx;
	const struct sysdev_node *node; /* NULL for a device of the enumerator */
	struct sysdev_device *dev;	/* NULL for a node that is no device */
	struct names *names;		/* set when a chosen column needs names (COL_NAMES) */
};

enum {
	COL_UEVENT = 1u << 0, /* the walk reads every uevent file at once (SYSDEV_WALK_UEVENT) */
	COL_NAMES = 1u << 1,  /* VENDOR, MODEL, MODULE(S): the row needs a struct names */
	COL_LINKS = 1u << 2,  /* SYMLINKS: JSON shows the device's links as an array */
	COL_WORDS = 1u << 3,  /* MODULES: space-separated words, JSON shows them as an array */
};

struct column {
	const char *name; /* upper case, as on the command line */
	const char *key;  /* lower case, the JSON key */
	const char *help; /* one line */
	unsigned flags;
	/* the value (in @buf or owned by the row), or NULL where there is none */
	const char *(*get)(const struct row *r, char *buf, size_t size);
};

/*
 * A column's value for @r.  ATTR:NAME and PROP:KEY, made by columns_parse(),
 * are named as given (name and JSON key) and have no get().
 */
const char *column_value(const struct column *c, const struct row *r, char *buf, size_t size);
/* -x: the order of two values; numbers (as lsblk's numeric columns) by value, absent first. */
int column_value_cmp(const char *a, const char *b);
/* Its name in -P: every byte outside [A-Za-z0-9_] as _ (ATTR_queue_rotational). */
const char *column_pairs_name(const struct column *c);

extern const struct column columns[];
extern const size_t n_columns;

/*
 * Parse -o LIST (comma-separated names, any case; "+LIST" adds to @defaults,
 * itself a LIST; NULL @list and @all: every column of the table).  A name is a
 * column's whole name, or ATTR:NAME (an attribute) or PROP:KEY (a property).
 * Says which name is unknown in one line and returns -EINVAL.
 */
int columns_parse(const char *list, const char *defaults, const struct column ***cols, size_t *n);
/* Free what columns_parse() made: one column (the table's own are left), or the array. */
void column_free(const struct column *c);
void columns_free(const struct column **cols, size_t n);
/* Whether any of the columns has @flag. */
bool columns_need(const struct column *const *cols, size_t n, unsigned flag);

#define COLUMNS_TREE_DEFAULT "NAME,KIND,SUBSYSTEM,DRIVER,DEVNAME"
#define COLUMNS_LIST_DEFAULT "DEVPATH,SUBSYSTEM,DRIVER,DEVNAME"

#endif
