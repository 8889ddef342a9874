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

static void node_attributes(struct jw *w, const struct sysdev_node *node)
{
	unsigned char type;
	const char *name;
	char buf[ATTR_PAGE + 1];

	jw_key(w, "attributes");
	jw_begin_object(w);
	for (size_t i = 0; (name = sysdev_node_get_entry_at(node, i, &type)); i++) {
		ssize_t len;

		if (type != DT_REG || strcmp(name, "uevent") == 0)
			continue;
		len = sysdev_node_read_attribute(node, name, buf, sizeof(buf));
		jw_key(w, name);
		attr_value_jw(w, buf, len);
	}
	jw_end_object(w);
}

static void node_power(struct jw *w, const struct sysdev_node *node)
{
	struct sysdev_power p;

	power_jw(w, sysdev_node_get_power(node, &p) < 0 ? NULL : &p);
}

/* The device fields of sysdev(7), in its order. */
static void device_fields(struct jw *w, const struct sysdev_node *node)
{
	jw_member_string(w, "subsystem", sysdev_node_get_subsystem(node));
	jw_member_string(w, "subsystem_kind",
			 sysdev_subsystem_kind_to_string(sysdev_node_get_subsystem_kind(node)));
	jw_member_string(w, "driver", sysdev_node_get_driver(node));
	jw_member_string(w, "parent", sysdev_node_get_parent(node));
	jw_member_string(w, "class_dir", sysdev_node_get_class_dir(node));
	jw_member_string(w, "placement",
			 sysdev_placement_to_string(sysdev_node_get_placement(node)));
	jw_member_string(w, "devnum", sysdev_node_get_devnum(node));
	jw_member_string(w, "devtype", sysdev_node_get_devtype(node));
	jw_member_string(w, "devname", sysdev_node_get_devname(node));
}

static int enter(const struct sysdev_node *node, void *data)
{
	struct json_state *t = data;
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	struct jw *w = &t->w;
	int err;

	if (t->sel && selection_find(t->sel, sysdev_node_get_devpath(node)) < 0)
		return SYSDEV_WALK_SKIP;
	jw_break(w, t->level + 2);
	jw_begin_object(w);
	jw_member_string(w, "path", sysdev_node_get_devpath(node));
	jw_member_string(w, "name", sysdev_node_get_name(node));
	jw_member_string(w, "kind", sysdev_kind_to_string(kind));
	if (kind == SYSDEV_KIND_DEVICE) {
		device_fields(w, node);
		if (t->o->attrs)
			node_attributes(w, node);
		if (t->o->power)
			node_power(w, node);
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
	return ferror(stdout) || w->failed ? (w->failed ? -ENOMEM : -EPIPE) : 0;
}

static int leave(const struct sysdev_node *node, void *data)
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
	struct sysdev_walk_stats st;
	struct selection sel = {0};
	unsigned flags = SYSDEV_WALK_UEVENT | SYSDEV_WALK_ERRORS;
	char *start = NULL;
	int err, ret;

	ret = tree_begin(ctx, o, &start, &sel, &t.sel);
	if (ret)
		return ret;
	if (o->all)
		flags |= SYSDEV_WALK_ATTR_GROUPS;
	jw_init(&t.w, stdout);
	jw_begin_object(&t.w);
	jw_break(&t.w, 1);
	jw_member_string(&t.w, "sysfs", sysdev_get_root(ctx));
	jw_break(&t.w, 1);
	jw_key(&t.w, "nodes");
	jw_begin_array(&t.w);
	err = sysdev_walk(ctx, start, flags, o->depth, enter, leave, &t, &st);
	/* close what a stopped walk left open, so the document stays whole */
	while (t.level > 0)
		leave(NULL, &t);
	jw_break(&t.w, 1);
	jw_end_array(&t.w);
	/* what the walk skipped is counted, not hidden: hotplug shows up here */
	jw_break(&t.w, 1);
	jw_key(&t.w, "walk");
	jw_begin_object(&t.w);
	jw_member_uint(&t.w, "directories", st.directories);
	jw_member_uint(&t.w, "devices", st.devices);
	jw_member_uint(&t.w, "vanished", st.vanished);
	jw_member_uint(&t.w, "unreadable", st.unreadable);
	jw_member_uint(&t.w, "too_deep", st.too_deep);
	jw_end_object(&t.w);
	jw_break(&t.w, 0);
	jw_end_object(&t.w);
	fputc('\n', stdout);
	if (t.w.failed && err == 0)
		err = -ENOMEM;
	jw_done(&t.w);
	ret = report_walk(ctx, start ? start : "/devices", err, &st, &t.errors);
	selection_free(&sel);
	free(start);
	return ret;
}
