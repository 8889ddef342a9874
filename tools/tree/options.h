/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev-tree's command line: the modes, the options each accepts, the parser. */
#ifndef SYSDEV_TREE_OPTIONS_H
#define SYSDEV_TREE_OPTIONS_H

#include <getopt.h>

#include "cli.h"

/* Long options without a short one. */
enum {
	OPT_COLOR = 0x100,
	OPT_SET_LT,
	OPT_GET_LT,
	OPT_CAPTURE,
	OPT_DIFF,
	OPT_CHECK_UDEV,
	OPT_WATCH,
	OPT_FORMAT,
	OPT_ROOT,
	OPT_PARENTS,
	OPT_LIST_COLUMNS,
	OPT_DRIVER,
	OPT_SYSNAME,
	OPT_MATCH,
	OPT_UNLINKED,
	OPT_PROPERTIES,
	OPT_EXPORT,
	OPT_UDEV_DB,
	OPT_TAG,
	OPT_INITIALIZED_MATCH,
	OPT_INITIALIZED_NOMATCH,
	OPT_UDEV,
	OPT_RECEIVE_BUFFER,
	OPT_SUBSYSTEM_NOMATCH,
	OPT_SYSNAME_NOMATCH,
	OPT_DRIVER_NOMATCH,
	OPT_NOMATCH,
	OPT_PROPERTY,
	OPT_VALUE,
};

/* Options that modify a mode; each mode accepts a set of them. */
enum {
	GIVEN_ROOT = 1u << 0,
	GIVEN_JSON = 1u << 1,
	GIVEN_ALL = 1u << 2,
	GIVEN_ATTRS = 1u << 3,
	GIVEN_POWER = 1u << 4,
	GIVEN_DEPTH = 1u << 5,
	GIVEN_SUBSYSTEM = 1u << 6,
	GIVEN_START = 1u << 7,
	GIVEN_FORMAT = 1u << 8,
	GIVEN_OUTPUT = 1u << 9,
	GIVEN_LIST = 1u << 10,
	GIVEN_RAW = 1u << 11,
	GIVEN_PAIRS = 1u << 12,
	GIVEN_NOHEADINGS = 1u << 13,
	GIVEN_ASCII = 1u << 14,
	GIVEN_DRIVER = 1u << 15,
	GIVEN_SYSNAME = 1u << 16,
	GIVEN_MATCH = 1u << 17,
	GIVEN_UNLINKED = 1u << 18,
	GIVEN_EXPORT = 1u << 19,
	GIVEN_TAG = 1u << 20,	      /* --tag */
	GIVEN_INITIALIZED = 1u << 21, /* --initialized-match, --initialized-nomatch */
	GIVEN_UDEV = 1u << 22,
	GIVEN_PROPERTIES = 1u << 23, /* --properties without DEVICE: --watch's */
	GIVEN_RECEIVE_BUFFER = 1u << 24,
	GIVEN_NOMATCH = 1u << 25, /* any of the four negations */
	GIVEN_SORT = 1u << 26,
	GIVEN_WIDTH = 1u << 27,
	GIVEN_PROPERTY = 1u << 28, /* --property KEY, --value */
};
#define GIVEN_FILTERS                                                                              \
	(GIVEN_SUBSYSTEM | GIVEN_DRIVER | GIVEN_SYSNAME | GIVEN_MATCH | GIVEN_UNLINKED |           \
	 GIVEN_TAG | GIVEN_INITIALIZED | GIVEN_NOMATCH)

/* What the tree (and its --json) accepts. */
#define TREE_ACCEPTS                                                                               \
	(GIVEN_ROOT | GIVEN_JSON | GIVEN_ALL | GIVEN_ATTRS | GIVEN_POWER | GIVEN_DEPTH |           \
	 GIVEN_FILTERS | GIVEN_START | GIVEN_OUTPUT | GIVEN_NOHEADINGS | GIVEN_ASCII)

/* The modes; MODE_JSON and MODE_OPENMETRICS are the tree's --json and --stats's
 * openmetrics, chosen by the parser after the checks of their mode. */
enum mode_id {
	MODE_TREE,
	MODE_JSON,
	MODE_DOT, /* the tree's --format=dot */
	MODE_LIST,
	MODE_LIST_COLUMNS,
	MODE_PARENTS,
	MODE_EXPLAIN,
	MODE_PROPERTIES,
	MODE_STATS,
	MODE_OPENMETRICS,
	MODE_GET_LT,
	MODE_SET_LT,
	MODE_CAPTURE,
	MODE_DIFF,
	MODE_CHECK_UDEV,
	MODE_WATCH,
	MODE_COUNT,
};

enum {
	MODE_NO_ROOT = 1u << 0, /* runs before --root is prepared, without a context */
	MODE_NO_CTX = 1u << 1,	/* its roots are prepared, but it opens them itself */
};

struct mode {
	const char *name; /* its option in messages; NULL: the tree */
	unsigned accepts; /* GIVEN_* it takes; the others are refused */
	unsigned flags;
	/* the exit status; @ctx is NULL with MODE_NO_ROOT or MODE_NO_CTX */
	int (*run)(struct sysdev *ctx, const struct options *o);
};

/*
 * Parse and check the command line against @longopts and @modes (indexed by
 * enum mode_id): fills @o and *@mode.  Returns -1 to go on, or the exit
 * status (usage errors said in one line, --help and --version printed).
 */
int options_parse(int argc, char **argv, const struct option *longopts, const struct mode *modes,
		  struct options *o, enum mode_id *mode);
/* What options_parse() allocated. */
void options_free(struct options *o);

#endif
