/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON output (sysdev(7)), streamed: a node's opening is written when
 * it is entered and its closing when it is left, so memory does not grow
 * with the tree.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct json_state {
	struct sysdev *ctx;
	const struct options *o;
	FILE *out;
	unsigned level;
	bool *first;        /* per shown level: no child written yet */
	size_t first_cap;
	struct walk_errors errors;
};

static void indent(FILE *f, unsigned n)
{
	static const char spaces[] = "                                                                ";

	n *= 2;
	while (n > 0) {
		unsigned k = n < sizeof(spaces) - 1 ? n : (unsigned)sizeof(spaces) - 1;

		fwrite(spaces, 1, k, f);
		n -= k;
	}
}

static void member(FILE *f, const char *key, const char *value)
{
	fprintf(f, ", \"%s\": ", key);
	fput_json_string(f, value);
}

static void node_attributes(FILE *f, const struct sysdev_node *node)
{
	unsigned char type;
	const char *name;
	char buf[4097];
	bool first = true;

	fputs(", \"attributes\": {", f);
	for (size_t i = 0; (name = sysdev_node_get_entry_at(node, i, &type)); i++) {
		ssize_t len;

		if (type != DT_REG || strcmp(name, "uevent") == 0)
			continue;
		len = sysdev_node_read_attribute(node, name, buf, sizeof(buf));
		if (!first)
			fputs(", ", f);
		first = false;
		fput_json_string(f, name);
		fputs(": ", f);
		if (len >= 0)
			fput_json_string_len(f, buf, (size_t)len);
		else
			fputs("null", f);
	}
	fputs("}", f);
}

static void node_power(FILE *f, const struct sysdev_node *node)
{
	struct sysdev_power p;

	if (sysdev_node_get_power(node, &p) < 0)
		fputs(", \"power\": null", f);
	else
		power_json(f, &p);
}

/* The device fields of sysdev(7), in its order. */
static void device_fields(FILE *f, const struct sysdev_node *node)
{
	member(f, "subsystem", sysdev_node_get_subsystem(node));
	member(f, "subsystem_kind",
	       sysdev_subsystem_kind_to_string(sysdev_node_get_subsystem_kind(node)));
	member(f, "driver", sysdev_node_get_driver(node));
	member(f, "parent", sysdev_node_get_parent(node));
	member(f, "class_dir", sysdev_node_get_class_dir(node));
	member(f, "placement", sysdev_placement_to_string(sysdev_node_get_placement(node)));
	member(f, "devnum", sysdev_node_get_devnum(node));
	member(f, "devtype", sysdev_node_get_devtype(node));
	member(f, "devname", sysdev_node_get_devname(node));
}

static int enter(const struct sysdev_node *node, void *data)
{
	struct json_state *t = data;
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	FILE *f = t->out;
	int err;

	if (t->level + 2 > t->first_cap) {
		size_t ncap = t->first_cap ? t->first_cap * 2 : 64;
		bool *n = realloc(t->first, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->first = n;
		t->first_cap = ncap;
	}
	if (!t->first[t->level])
		fputs(",\n", f);
	else
		fputc('\n', f);
	t->first[t->level] = false;
	indent(f, t->level + 2);
	fputs("{\"path\": ", f);
	fput_json_string(f, sysdev_node_get_devpath(node));
	member(f, "name", sysdev_node_get_name(node));
	member(f, "kind", sysdev_kind_to_string(kind));
	if (kind == SYSDEV_KIND_DEVICE) {
		device_fields(f, node);
		if (t->o->attrs)
			node_attributes(f, node);
		if (t->o->power)
			node_power(f, node);
	}
	err = sysdev_node_get_error(node);
	if (err) {
		member(f, "error", strerror(-err));
		walk_error_note(&t->errors, t->ctx, node);
	}
	if (sysdev_node_is_truncated(node))
		fputs(", \"truncated\": true", f);
	fputs(", \"children\": [", f);
	t->level++;
	t->first[t->level] = true;
	return ferror(f) ? -EPIPE : 0;
}

static int leave(const struct sysdev_node *node, void *data)
{
	struct json_state *t = data;

	(void)node;
	if (!t->first[t->level]) {
		fputc('\n', t->out);
		indent(t->out, t->level + 1);
	}
	t->level--;
	fputs("]}", t->out);
	return 0;
}

int cmd_json(struct sysdev *ctx, const struct options *o)
{
	struct json_state t = {.ctx = ctx, .o = o, .out = stdout};
	struct sysdev_walk_stats st;
	unsigned flags = SYSDEV_WALK_UEVENT | SYSDEV_WALK_ERRORS;
	char *start = NULL;
	int err, ret;

	if (start_or_warn(ctx, o, &start) < 0)
		return EXIT_RUNTIME;
	if (o->all)
		flags |= SYSDEV_WALK_ATTR_GROUPS;
	fputs("{\n  \"sysfs\": ", stdout);
	fput_json_string(stdout, sysdev_get_root(ctx));
	fputs(",\n  \"nodes\": [", stdout);
	t.first = calloc(64, sizeof(*t.first));
	if (!t.first) {
		free(start);
		return EXIT_RUNTIME;
	}
	t.first_cap = 64;
	t.first[0] = true;
	err = sysdev_walk(ctx, start, flags, o->depth, enter, leave, &t, &st);
	/* close what a stopped walk left open, so the document stays whole */
	while (t.level > 0)
		leave(NULL, &t);
	/* what the walk skipped is counted, not hidden: hotplug shows up here */
	fprintf(stdout,
		"\n  ],\n  \"walk\": {\"directories\": %lu, \"devices\": %lu, \"vanished\": %lu, "
		"\"unreadable\": %lu, \"too_deep\": %lu}\n}\n",
		st.directories, st.devices, st.vanished, st.unreadable, st.too_deep);
	ret = report_walk(ctx, start ? start : "/devices", err, &st, &t.errors);
	free(t.first);
	free(start);
	return ret;
}

/* --subsystem NAME: a flat list of the devices of one subsystem. */
struct list_state {
	struct sysdev *ctx;
	const struct options *o;
	unsigned long n;
	struct walk_errors errors;
};

static int list_enter(const struct sysdev_node *node, void *data)
{
	struct list_state *l = data;
	const char *sub = sysdev_node_get_subsystem(node);

	if (sysdev_node_get_error(node))
		walk_error_note(&l->errors, l->ctx, node);
	if (sysdev_node_get_kind(node) != SYSDEV_KIND_DEVICE || !sub ||
	    strcmp(sub, l->o->subsystem) != 0)
		return 0;
	if (l->o->json) {
		fputs(l->n ? ",\n    {\"path\": " : "\n    {\"path\": ", stdout);
		fput_json_string(stdout, sysdev_node_get_devpath(node));
		member(stdout, "name", sysdev_node_get_name(node));
		member(stdout, "kind", "device");
		device_fields(stdout, node);
		if (l->o->attrs)
			node_attributes(stdout, node);
		if (l->o->power)
			node_power(stdout, node);
		fputs("}", stdout);
	} else {
		const char *drv = sysdev_node_get_driver(node);
		const char *devname = sysdev_node_get_devname(node);

		fput_text(stdout, sysdev_node_get_devpath(node));
		if (drv) {
			fputs("  driver:", stdout);
			fput_text(stdout, drv);
		}
		if (devname) {
			fputs("  /dev/", stdout);
			fput_text(stdout, devname);
		}
		if (l->o->power) {
			struct sysdev_power p;

			if (sysdev_node_get_power(node, &p) == 0)
				power_text(stdout, &p);
		}
		fputc('\n', stdout);
		if (l->o->attrs) {
			unsigned char type;
			const char *name;

			for (size_t i = 0; (name = sysdev_node_get_entry_at(node, i, &type)); i++) {
				if (type != DT_REG || strcmp(name, "uevent") == 0)
					continue;
				fputs("  ", stdout);
				node_attribute_text(stdout, node, name);
				fputc('\n', stdout);
			}
		}
	}
	l->n++;
	return ferror(stdout) ? -EPIPE : 0;
}

int cmd_list_subsystem(struct sysdev *ctx, const struct options *o)
{
	struct list_state l = {.ctx = ctx, .o = o};
	struct sysdev_walk_stats st;
	char *start = NULL;
	int err;

	if (start_or_warn(ctx, o, &start) < 0)
		return EXIT_RUNTIME;
	if (o->json) {
		fputs("{\n  \"sysfs\": ", stdout);
		fput_json_string(stdout, sysdev_get_root(ctx));
		fputs(",\n  \"subsystem\": ", stdout);
		fput_json_string(stdout, o->subsystem);
		fputs(",\n  \"devices\": [", stdout);
	}
	err = sysdev_walk(ctx, start,
			  SYSDEV_WALK_UEVENT | SYSDEV_WALK_ERRORS | (o->all ? SYSDEV_WALK_ATTR_GROUPS : 0),
			  o->depth, list_enter, NULL, &l, &st);
	if (o->json)
		fputs("\n  ]\n}\n", stdout);
	err = report_walk(ctx, start ? start : "/devices", err, &st, &l.errors);
	free(start);
	return err;
}
