/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The annotated tree: one line per node, drawn as it is walked (streamed,
 * never held), like `udevadm info --tree` but with class grouping
 * directories and containers shown as what they are.  With -x the shown
 * nodes are held, their lines made as they are walked, and drawn once the
 * walk is done with each node's children sorted by the column.
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

/* -x: a shown node, held until the walk is done */
struct held {
	char *line;  /* after the drawing, through its newline */
	char *attrs; /* --attrs: lines each drawn below the node's */
	char *key;   /* the sort column's value; NULL: none */
	size_t at;   /* the walk's order: ties keep it */
	struct held **kids;
	size_t n_kids, cap_kids;
};

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
	/* -x: the held tree, and the node held last at each shown level */
	struct held *root, **stack;
	size_t stack_cap, n_held;
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

/* The drawing before an attribute line of a node at @level. */
static void print_attr_prefix(struct tree_state *t, unsigned level)
{
	for (unsigned j = 1; j <= level; j++)
		fputs(t->more[j] ? (t->o->ascii ? "|  " : "│  ") : "   ", t->out);
}

/* @drawn false: the lines without their drawing, for a held node */
static void print_attrs(struct tree_state *t, struct sysdev_node *node, struct sysdev_device *dev,
			unsigned level, bool drawn)
{
	unsigned char type;
	const char *name;

	SYSDEV_NODE_FOREACH_ENTRY(node, name, type)
	{
		if (type != DT_REG || strcmp(name, "uevent") == 0)
			continue;
		if (drawn)
			print_attr_prefix(t, level);
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

/* What ends a node's line: an error, a stop of --depth, the newline. */
static void line_end(struct tree_state *t, const struct sysdev_node *node)
{
	int err = sysdev_node_get_error(node);

	if (err) {
		fprintf(t->out, "  %s(unreadable: %s)%s", col(t, C_ERROR), error_words(err),
			col(t, C_RESET));
		walk_error_note(&t->errors, t->ctx, node);
	}
	/* --depth stopped here: say so, or it looks like a leaf */
	if (sysdev_node_is_truncated(node))
		fputs("  [truncated]", t->out);
	fputc('\n', t->out);
}

static void held_free(struct held *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n_kids; i++)
		held_free(h->kids[i]);
	free(h->kids);
	free(h->line);
	free(h->attrs);
	free(h->key);
	free(h);
}

/* Writes what @print writes to t->out into a string of its own. */
static int capture(struct tree_state *t, char **ret, struct sysdev_node *node,
		   struct sysdev_device *dev, enum sysdev_kind kind, unsigned depth, bool attrs)
{
	FILE *saved = t->out;
	size_t len;

	*ret = NULL;
	t->out = open_memstream(ret, &len);
	if (!t->out) {
		t->out = saved;
		return -ENOMEM;
	}
	if (attrs) {
		print_attrs(t, node, dev, 0, false);
	} else {
		node_columns(t, node, dev, kind, depth);
		line_end(t, node);
	}
	if (fclose(t->out) != 0) {
		t->out = saved;
		free(*ret);
		*ret = NULL;
		return -ENOMEM;
	}
	t->out = saved;
	return 0;
}

/* -x: the node's line (and attribute lines) held below its shown parent. */
static int hold(struct tree_state *t, struct sysdev_node *node, struct sysdev_device *dev,
		enum sysdev_kind kind, unsigned depth)
{
	struct held *h = calloc(1, sizeof(*h)), *up;
	int err;

	if (!h ||
	    grow_array((void **)&t->stack, &t->stack_cap, t->level + 1, sizeof(*t->stack)) < 0)
		goto nomem;
	h->at = t->n_held++;
	if (capture(t, &h->line, node, dev, kind, depth, false) < 0 ||
	    (t->o->attrs && dev && capture(t, &h->attrs, node, dev, kind, depth, true) < 0))
		goto nomem;
	/* a directory that is no device has a name, a kind and a path, no other field */
	if (dev || strcmp(t->o->sort->key, "name") == 0 || strcmp(t->o->sort->key, "kind") == 0 ||
	    strcmp(t->o->sort->key, "devpath") == 0) {
		struct row r = {.ctx = t->ctx, .node = node, .dev = dev, .names = t->names};
		char buf[4097];
		const char *v = column_value(t->o->sort, &r, buf, sizeof(buf));

		if (v && !(h->key = strdup(v)))
			goto nomem;
	}
	if (t->level == 0) {
		held_free(t->root); /* one start: one root */
		t->root = h;
	} else {
		up = t->stack[t->level - 1];
		err = grow_array((void **)&up->kids, &up->cap_kids, up->n_kids + 1,
				 sizeof(*up->kids));
		if (err < 0)
			goto nomem;
		up->kids[up->n_kids++] = h;
	}
	t->stack[t->level] = h;
	return 0;
nomem:
	held_free(h);
	return -ENOMEM;
}

static int cmp_held(const void *x, const void *y)
{
	const struct held *a = *(struct held *const *)x, *b = *(struct held *const *)y;
	int c = column_value_cmp(a->key, b->key);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* -x: draws @h at @level, then its children in the column's order. */
static int draw_held(struct tree_state *t, struct held *h, unsigned level, bool has_next)
{
	if (grow_array((void **)&t->more, &t->more_cap, level + 1, sizeof(*t->more)) < 0)
		return -ENOMEM;
	t->more[level] = has_next;
	print_prefix(t, level, has_next);
	fputs(h->line, t->out);
	for (const char *a = h->attrs; a && *a;) {
		size_t n = strcspn(a, "\n");

		print_attr_prefix(t, level);
		fwrite(a, 1, n, t->out);
		fputc('\n', t->out);
		a += n + (a[n] == '\n');
	}
	if (ferror(t->out))
		return -EPIPE;
	if (h->n_kids > 1)
		qsort(h->kids, h->n_kids, sizeof(*h->kids), cmp_held);
	for (size_t i = 0; i < h->n_kids; i++) {
		int err = draw_held(t, h->kids[i], level + 1, i + 1 < h->n_kids);

		if (err < 0)
			return err;
	}
	return 0;
}

static int enter(struct sysdev_node *node, void *data)
{
	struct tree_state *t = data;
	unsigned depth = sysdev_node_get_depth(node);
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	bool has_next = sysdev_node_has_next_sibling(node);
	struct sysdev_device *dev = NULL;

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

	(void)sysdev_node_get_device(node, &dev); /* NULL: no device */
	if (t->o->sort)
		return hold(t, node, dev, kind, depth);
	print_prefix(t, t->level, has_next);
	node_columns(t, node, dev, kind, depth);
	line_end(t, node);
	if (t->o->attrs && dev)
		print_attrs(t, node, dev, t->level, true);
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
	if ((columns_need(o->cols, o->n_cols, COL_NAMES) ||
	     (o->sort && (o->sort->flags & COL_NAMES))) &&
	    names_new(ctx, &t.names) < 0) {
		warnx_(NULL, "%s", error_words(-ENOMEM));
		selection_free(&sel);
		free(start);
		return EXIT_RUNTIME;
	}
	err = walk_run(ctx, start, flags, o->depth, enter, leave, &t, &st);
	if (err == 0 && t.root)
		err = draw_held(&t, t.root, 0, false);
	ret = report_walk(ctx, start ? start : "/devices", err, &st, &t.errors);
	held_free(t.root);
	free(t.stack);
	selection_free(&sel);
	names_free(t.names);
	free(t.more);
	free(t.levels);
	free(start);
	return ret;
}
