/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --format=dot: the tree as a Graphviz graph, streamed as the walk goes:
 * one node per tree node shown (the filters, --depth and --all choose them
 * as for the text tree), drawn by kind, and an edge from each to the
 * nearest shown node above it.  No legend and no node of our own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "utf8-util.h"

struct dot_state {
	struct sysdev *ctx;
	const struct options *o;
	const struct selection *sel; /* NULL: every node */
	unsigned long next_id;
	/* the shown nodes on the way down: their depths and ids */
	unsigned *depths;
	unsigned long *ids;
	size_t sp, cap_depths, cap_ids;
	struct walk_errors errors;
};

/*
 * Text inside a DOT double-quoted string: " and \ escaped, valid UTF-8 kept,
 * every other byte (control bytes, invalid UTF-8) written \xHH as visible text.
 */
static void fput_dot_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	while (n) {
		size_t len = utf8_seq_len(p, n);

		if (len == 1 && *p >= 0x20 && *p < 0x7f) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		} else if (len > 1) {
			fwrite(p, 1, len, f);
		} else {
			fprintf(f, "\\\\x%02x", *p);
			len = 1;
		}
		p += len;
		n -= len;
	}
}

/* Shape and style of each kind (sysdev(7)): devices boxes, groupings folders. */
static const char *kind_style(enum sysdev_kind kind)
{
	switch (kind) {
	case SYSDEV_KIND_ROOT:
		return "shape=house, style=filled, fillcolor=gray85";
	case SYSDEV_KIND_DEVICE:
		return "shape=box, style=\"rounded,filled\", fillcolor=lightblue";
	case SYSDEV_KIND_CLASS_DIR:
		return "shape=folder, style=filled, fillcolor=lightyellow";
	case SYSDEV_KIND_ATTR_GROUP:
		return "shape=note, style=dashed, fontsize=10";
	case SYSDEV_KIND_CONTAINER:
		return "shape=tab, style=filled, fillcolor=gray92";
	default:
		return "shape=octagon, color=red";
	}
}

static int enter(struct sysdev_node *node, void *data)
{
	struct dot_state *t = data;
	unsigned depth = sysdev_node_get_depth(node);
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	struct sysdev_device *dev = NULL;
	long at = -1;
	unsigned long id;

	if (t->sel && (at = selection_find(t->sel, sysdev_node_get_devpath(node))) < 0)
		return SYSDEV_WALK_SKIP;
	/* the nearest shown node above: the last on the way down that is shallower */
	while (t->sp > 0 && t->depths[t->sp - 1] >= depth)
		t->sp--;
	if (grow_array((void **)&t->depths, &t->cap_depths, t->sp + 1, sizeof(*t->depths)) < 0 ||
	    grow_array((void **)&t->ids, &t->cap_ids, t->sp + 1, sizeof(*t->ids)) < 0)
		return -ENOMEM;
	id = t->next_id++;

	printf("  n%lu [%s, label=\"", id, kind_style(kind));
	fput_dot_text(stdout, sysdev_node_get_name(node));
	if (sysdev_node_get_device(node, &dev) >= 0) {
		const char *sub = dev_str(dev, sysdev_device_get_subsystem),
			   *sk = dev_subsystem_kind(dev),
			   *drv = dev_str(dev, sysdev_device_get_driver);

		if (sub) {
			printf("\\n%s:", sk ? sk : "subsystem");
			fput_dot_text(stdout, sub);
		}
		if (drv) {
			fputs("\\ndriver:", stdout);
			fput_dot_text(stdout, drv);
		}
	} else if (kind != SYSDEV_KIND_DEVICE) {
		printf("\\n[%s]", sysdev_kind_to_string(kind));
	}
	if (sysdev_node_is_truncated(node))
		fputs("\\n[truncated]", stdout);
	if (sysdev_node_get_error(node)) {
		fputs("\\n(unreadable)", stdout);
		walk_error_note(&t->errors, t->ctx, node);
	}
	if (at >= 0 && t->sel->chosen[at] && t->o->unlinked)
		fputs("\\nunlinked\", color=red, penwidth=2, fontcolor=red", stdout);
	else
		fputc('"', stdout);
	fputs("];\n", stdout);
	if (t->sp > 0)
		printf("  n%lu -> n%lu;\n", t->ids[t->sp - 1], id);
	t->depths[t->sp] = depth;
	t->ids[t->sp++] = id;
	return ferror(stdout) ? -EPIPE : 0;
}

int cmd_dot(struct sysdev *ctx, const struct options *o)
{
	struct dot_state t = {.ctx = ctx, .o = o};
	struct walk_counts st;
	struct selection sel = {0};
	unsigned flags = SYSDEV_WALK_ERRORS;
	char *start = NULL;
	int err, ret;

	ret = tree_begin(ctx, o, &flags, &start, &sel, &t.sel);
	if (ret)
		return ret;
	/* the root at the left, as the text tree reads; children in the walk's order */
	fputs("digraph sysfs {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n"
	      "  edge [arrowhead=none, color=gray40];\n",
	      stdout);
	err = walk_run(ctx, start, flags, o->depth, enter, NULL, &t, &st);
	fputs("}\n", stdout);
	ret = report_walk(ctx, start ? start : "/devices", err, &st, &t.errors);
	selection_free(&sel);
	free(t.depths);
	free(t.ids);
	free(start);
	return ret;
}
