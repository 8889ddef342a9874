/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON output (sysdev(7)), streamed through the JSON writer: a node's
 * opening is written when it is entered and its closing when it is left, so
 * memory does not grow with the tree.  With filters, only the selected
 * devices and their ancestors are written.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json-writer.h"

struct json_state {
	struct sysdev *ctx;
	const struct options *o;
	struct jw w;
	unsigned level;
	const struct selection *sel; /* NULL: every node */
	struct walk_errors errors;
};

static void node_attributes(struct jw *w, struct sysdev_node *node, struct sysdev_device *dev)
{
	unsigned char type;
	const char *name;
	char buf[ATTR_PAGE + 1];

	jw_key(w, "attributes");
	jw_begin_object(w);
	SYSDEV_NODE_FOREACH_ENTRY(node, name, type)
	{
		ssize_t len;

		if (type != DT_REG || strcmp(name, "uevent") == 0)
			continue;
		len = sysdev_device_read_attribute(dev, name, buf, sizeof(buf));
		jw_key(w, name);
		attr_value_jw(w, buf, len);
	}
	jw_end_object(w);
}

static int enter(struct sysdev_node *node, void *data)
{
	struct json_state *t = data;
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	struct jw *w = &t->w;
	struct sysdev_device *dev;
	int err;

	if (t->sel && selection_find(t->sel, sysdev_node_get_devpath(node)) < 0)
		return SYSDEV_WALK_SKIP;
	jw_break(w, t->level + 2);
	jw_begin_object(w);
	jw_member_string(w, "path", sysdev_node_get_devpath(node));
	jw_member_string(w, "name", sysdev_node_get_name(node));
	jw_member_string(w, "kind", sysdev_kind_to_string(kind));
	if (sysdev_node_get_device(node, &dev) >= 0) {
		device_fields_jw(w, dev, NULL);
		if (t->o->attrs)
			node_attributes(w, node, dev);
		if (t->o->power)
			device_power_jw(w, dev);
	}
	err = sysdev_node_get_error(node);
	if (err) {
		jw_member_string(w, "error", error_words(err));
		walk_error_note(&t->errors, t->ctx, node);
	}
	if (sysdev_node_is_truncated(node)) {
		jw_key(w, "truncated");
		jw_bool(w, true);
	}
	jw_key(w, "children");
	jw_begin_array(w);
	t->level++;
	return ferror(stdout) ? -EPIPE : 0;
}

static int leave(struct sysdev_node *node, void *data)
{
	struct json_state *t = data;

	/* skipped when entered: nothing was opened */
	if (node && t->sel && selection_find(t->sel, sysdev_node_get_devpath(node)) < 0)
		return 0;
	jw_break(&t->w, t->level + 1);
	jw_end_array(&t->w);
	t->level--;
	jw_end_object(&t->w);
	return 0;
}

int cmd_json(struct sysdev *ctx, const struct options *o)
{
	struct json_state t = {.ctx = ctx, .o = o};
	struct walk_counts st;
	struct selection sel = {0};
	unsigned flags = SYSDEV_WALK_UEVENT | SYSDEV_WALK_ERRORS;
	char *start = NULL;
	int err, ret;

	ret = tree_begin(ctx, o, &flags, &start, &sel, &t.sel);
	if (ret)
		return ret;
	jw_init(&t.w, stdout);
	jw_begin_object(&t.w);
	jw_break(&t.w, 1);
	jw_member_string(&t.w, "sysfs", root_named(ctx));
	jw_break(&t.w, 1);
	jw_key(&t.w, "nodes");
	jw_begin_array(&t.w);
	err = walk_run(ctx, start, flags, o->depth, enter, leave, &t, &st);
	/* close what a stopped walk left open, so the document stays whole */
	while (t.level > 0)
		leave(NULL, &t);
	jw_break(&t.w, 1);
	jw_end_array(&t.w);
	/* what the walk skipped is counted, not hidden: hotplug shows up here */
	jw_break(&t.w, 1);
	jw_key(&t.w, "walk");
	jw_begin_object(&t.w);
	jw_member_uint(&t.w, "directories", st.v[SYSDEV_WALK_COUNT_DIRECTORIES]);
	jw_member_uint(&t.w, "devices", st.v[SYSDEV_WALK_COUNT_DEVICES]);
	jw_member_uint(&t.w, "vanished", st.v[SYSDEV_WALK_COUNT_VANISHED]);
	jw_member_uint(&t.w, "unreadable", st.v[SYSDEV_WALK_COUNT_UNREADABLE]);
	jw_member_uint(&t.w, "too_deep", st.v[SYSDEV_WALK_COUNT_TOO_DEEP]);
	jw_end_object(&t.w);
	jw_break(&t.w, 0);
	jw_end_object(&t.w);
	fputc('\n', stdout);
	jw_done(&t.w);
	ret = report_walk(ctx, start ? start : "/devices", err, &st, &t.errors);
	selection_free(&sel);
	free(start);
	return ret;
}
