/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The annotated tree: one line per node, drawn as it is walked (streamed,
 * never held), like `udevadm info --tree` but with class grouping
 * directories and containers shown as what they are.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "columns.h"
#include "names.h"
#include "plural.h"

#define C_RESET "\033[0m"
#define C_DEVICE "\033[1m"
#define C_CLASSDIR "\033[36m"
#define C_CONTAINER "\033[34m"
#define C_ATTR "\033[2m"
#define C_SUBSYS "\033[33m"
#define C_DRIVER "\033[35m"
#define C_NODE "\033[32m"
#define C_ERROR "\033[31m"

struct tree_state {
	struct sysdev *ctx;
	const struct options *o;
	FILE *out;
	/* per shown level: does the ancestor at that level have a later sibling? */
	bool *more;
	size_t more_cap;
	unsigned level;	  /* shown nesting of the current node */
	unsigned *levels; /* shown level of each walk depth */
	size_t levels_cap;
	const struct selection *sel; /* NULL: every node */
	struct names *names;	     /* only when a column needs names */
	struct walk_errors errors;
};

static const char *col(const struct tree_state *t, const char *c)
{
	return t->o->color ? c : "";
}

static void print_prefix(struct tree_state *t, unsigned level, bool has_next)
{
	for (unsigned i = 1; i < level; i++)
		fputs(t->more[i] ? (t->o->ascii ? "|  " : "│  ") : "   ", t->out);
	if (level > 0)
		fputs(has_next ? (t->o->ascii ? "|- " : "├─ ") : (t->o->ascii ? "`- " : "└─ "),
		      t->out);
}

static void print_power(struct tree_state *t, struct sysdev_device *dev)
{
	struct sysdev_power *p;

	if (sysdev_device_get_power(dev, &p) == 0) {
		power_text(t->out, p);
		sysdev_power_unref(p);
	}
}

static void print_attrs(struct tree_state *t, struct sysdev_node *node, struct sysdev_device *dev,
			unsigned level)
{
	unsigned char type;
	const char *name;

	SYSDEV_NODE_FOREACH_ENTRY(node, name, type)
	{
		if (type != DT_REG || strcmp(name, "uevent") == 0)
			continue;
		for (unsigned j = 1; j <= level; j++)
			fputs(t->more[j] ? (t->o->ascii ? "|  " : "│  ") : "   ", t->out);
		fputs(col(t, C_ATTR), t->out);
		fputs("  ", t->out);
		device_attribute_text(t->out, dev, name);
		fputs(col(t, C_RESET), t->out);
		fputc('\n', t->out);
	}
}

/* Two spaces before every item of a line but its first. */
static void separate(struct tree_state *t, bool *first)
{
	if (!*first)
		fputs("  ", t->out);
	*first = false;
}

/* One column of a device, after the line's start: its look in the tree. */
static void device_column(struct tree_state *t, const struct sysdev_node *node,
			  struct sysdev_device *dev, const struct column *c, bool *first)
{
	struct row r = {.ctx = t->ctx, .node = node, .dev = dev, .names = t->names};
	char buf[4097];
	const char *v = column_value(c, &r, buf, sizeof(buf));

	if (strcmp(c->key, "subsystem") == 0) {
		const char *sk = dev_subsystem_kind(dev);

		separate(t, first);
		if (!v) {
			fputs("(no subsystem)", t->out);
			return;
		}
		fprintf(t->out, "%s%s:", col(t, C_SUBSYS), sk ? sk : "subsystem");
		fput_text(t->out, v);
		fputs(col(t, C_RESET), t->out);
	} else if (strcmp(c->key, "driver") == 0) {
		if (!v)
			return;
		separate(t, first);
		fprintf(t->out, "%sdriver:", col(t, C_DRIVER));
		fput_text(t->out, v);
		fputs(col(t, C_RESET), t->out);
	} else if (strcmp(c->key, "devname") == 0) {
		char num[32];
		const char *devnum = dev_devnum(dev, num, sizeof(num));

		if (!v && !devnum)
			return;
		separate(t, first);
		fputs(col(t, C_NODE), t->out);
		if (v) {
			fputs("/dev/", t->out);
			fput_text(t->out, v);
		}
		if (devnum)
			fprintf(t->out, "%s(%s)", v ? " " : "", devnum);
		fputs(col(t, C_RESET), t->out);
	} else if (v) {
		separate(t, first);
		fprintf(t->out, "%s:", c->key);
		fput_text(t->out, v);
	}
}

/*
 * A node's line after the tree's drawing: the columns in the order -o gives.
 * NAME is the name (a path at the start; "NAME/" for a directory that is no
 * device), KIND "[kind]" for a directory that is no device (a device's is
 * its look), each other column only on devices.
 */
static void node_columns(struct tree_state *t, const struct sysdev_node *node,
			 struct sysdev_device *dev, enum sysdev_kind kind, unsigned depth)
{
	const char *look = kind == SYSDEV_KIND_DEVICE	    ? C_DEVICE
			   : kind == SYSDEV_KIND_CLASS_DIR  ? C_CLASSDIR
			   : kind == SYSDEV_KIND_ATTR_GROUP ? C_ATTR
			   : kind == SYSDEV_KIND_UNKNOWN    ? C_ERROR
							    : C_CONTAINER;
	bool first = true;

	for (size_t i = 0; i < t->o->n_cols; i++) {
		const struct column *c = t->o->cols[i];

		if (strcmp(c->key, "name") == 0) {
			separate(t, &first);
			fputs(col(t, look), t->out);
			fput_text(t->out, depth == 0 ? sysdev_node_get_devpath(node)
						     : sysdev_node_get_name(node));
			if (kind != SYSDEV_KIND_DEVICE)
				fputc('/', t->out);
			fputs(col(t, C_RESET), t->out);
		} else if (strcmp(c->key, "kind") == 0) {
			if (kind == SYSDEV_KIND_DEVICE)
				continue;
			separate(t, &first);
			fprintf(t->out, "%s[%s]%s", col(t, look), sysdev_kind_to_string(kind),
				col(t, C_RESET));
		} else if (dev) {
			device_column(t, node, dev, c, &first);
		}
	}
	if (dev && t->o->power)
		print_power(t, dev);
}

static int enter(struct sysdev_node *node, void *data)
{
	struct tree_state *t = data;
	unsigned depth = sysdev_node_get_depth(node);
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	bool has_next = sysdev_node_has_next_sibling(node);
	struct sysdev_device *dev = NULL;
	int err;

	if (t->sel) {
		long i = selection_find(t->sel, sysdev_node_get_devpath(node));

		if (i < 0)
			return SYSDEV_WALK_SKIP;
		has_next = t->sel->next[i];
	}

	if (grow_array((void **)&t->levels, &t->levels_cap, depth + 1, sizeof(*t->levels)) < 0 ||
	    grow_array((void **)&t->more, &t->more_cap, t->level + 2, sizeof(*t->more)) < 0)
		return -ENOMEM;
	/* the shown level of this node: one below the nearest shown ancestor */
	t->levels[depth] = depth == 0 ? 0 : t->level + 1;
	if (depth == 0)
		t->level = 0;
	else
		t->level = t->levels[depth];
	t->more[t->level] = has_next;

	print_prefix(t, t->level, has_next);
	(void)sysdev_node_get_device(node, &dev); /* NULL: no device */
	node_columns(t, node, dev, kind, depth);
	err = sysdev_node_get_error(node);
	if (err) {
		fprintf(t->out, "  %s(unreadable: %s)%s", col(t, C_ERROR), error_words(err),
			col(t, C_RESET));
		walk_error_note(&t->errors, t->ctx, node);
	}
	/* --depth stopped here: say so, or it looks like a leaf */
	if (sysdev_node_is_truncated(node))
		fputs("  [truncated]", t->out);
	fputc('\n', t->out);
	if (t->o->attrs && dev)
		print_attrs(t, node, dev, t->level);
	/* stop at once when the output fails (a closed pipe, a full disk):
	 * -EPIPE stands for either, check_output() tells which */
	return ferror(t->out) ? -EPIPE : 0;
}

static int leave(struct sysdev_node *node, void *data)
{
	struct tree_state *t = data;
	unsigned depth = sysdev_node_get_depth(node);

	/* skipped when entered */
	if (t->sel && selection_find(t->sel, sysdev_node_get_devpath(node)) < 0)
		return 0;
	/* back to the shown level of the parent */
	t->level = t->levels[depth] > 0 ? t->levels[depth] - 1 : 0;
	return 0;
}

void walk_error_note(struct walk_errors *e, struct sysdev *ctx, const struct sysdev_node *node)
{
	if (!e->n++) {
		e->first = strdup(syspath_of(ctx, sysdev_node_get_devpath(node)));
		e->first_err = sysdev_node_get_error(node);
	}
}

/* Report what the walk skipped in one line; returns the exit status. */
int report_walk(struct sysdev *ctx, const char *start, int err, const struct walk_counts *st,
		struct walk_errors *e)
{
	unsigned long st_unreadable = st->v[SYSDEV_WALK_COUNT_UNREADABLE];
	unsigned long too_deep = st->v[SYSDEV_WALK_COUNT_TOO_DEEP];
	unsigned long unreadable = st_unreadable > e->n ? st_unreadable : e->n;
	int ret = 0;

	if (err == -EPIPE) {
		ret = check_output(); /* a closed pipe is no error of ours, a full disk is */
	} else if (err < 0) {
		warnx_(syspath_of(ctx, start), "%s", error_words(err));
		ret = EXIT_RUNTIME;
	} else if (unreadable || too_deep) {
		char more[96] = "", deep[160] = "";

		if (e->first && unreadable > 1)
			snprintf(more, sizeof(more), "; %lu more %s not be read", unreadable - 1,
				 plural(unreadable - 1, "directory could", "directories could"));
		if (too_deep)
			snprintf(deep, sizeof(deep),
				 "%s%lu %s not entered: deeper than %d levels, or out of "
				 "file descriptors or stack",
				 unreadable ? "; " : "", too_deep,
				 plural(too_deep, "directory", "directories"), SYSDEV_MAX_DEPTH);
		if (e->first)
			warnx_(e->first, "%s%s%s", error_words(e->first_err), more, deep);
		else if (unreadable)
			warnx_(syspath_of(ctx, start), "%lu %s not be read%s", unreadable,
			       plural(unreadable, "directory could", "directories could"), deep);
		else
			warnx_(syspath_of(ctx, start), "%s", deep);
		ret = EXIT_RUNTIME;
	}
	free(e->first);
	e->first = NULL;
	return ret;
}

int cmd_tree(struct sysdev *ctx, const struct options *o)
{
	struct tree_state t = {.ctx = ctx, .o = o, .out = stdout};
	struct walk_counts st;
	unsigned flags = SYSDEV_WALK_SIBLINGS | SYSDEV_WALK_ERRORS;
	char *start = NULL;
	struct selection sel = {0};
	int err, ret;

	ret = tree_begin(ctx, o, &flags, &start, &sel, &t.sel);
	if (ret)
		return ret;
	if (columns_need(o->cols, o->n_cols, COL_UEVENT))
		flags |= SYSDEV_WALK_UEVENT;
	if (columns_need(o->cols, o->n_cols, COL_NAMES) && names_new(ctx, &t.names) < 0) {
		warnx_(NULL, "%s", error_words(-ENOMEM));
		selection_free(&sel);
		free(start);
		return EXIT_RUNTIME;
	}
	err = walk_run(ctx, start, flags, o->depth, enter, leave, &t, &st);
	ret = report_walk(ctx, start ? start : "/devices", err, &st, &t.errors);
	selection_free(&sel);
	names_free(t.names);
	free(t.more);
	free(t.levels);
	free(start);
	return ret;
}
