/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --parents DEVICE: the device and each parent up to the top, as `udevadm info -a`. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json-writer.h"
#include "names.h"

/* With --attrs: the device's attributes, as `udevadm info -a` shows ATTR{}. */
static void device_attributes(struct jw *w, struct sysdev_device *dev)
{
	const char *name;
	char buf[ATTR_PAGE + 1];

	if (w) {
		jw_key(w, "attributes");
		jw_begin_object(w);
	}
	/* the list ends with -ENOENT; no memory for it is no end */
	for (size_t i = 0; oom_check(sysdev_device_get_attribute_at(dev, i, &name)) == 0; i++) {
		ssize_t len = oom_check(sysdev_device_read_attribute(dev, name, buf, sizeof(buf)));

		if (w) {
			jw_key(w, name);
			attr_value_jw(w, buf, len);
			continue;
		}
		fputs("          @", stdout);
		fput_text(stdout, name);
		attr_value_text(stdout, buf, len);
		fputc('\n', stdout);
	}
	if (w)
		jw_end_object(w);
}

/* The walk of a device's attribute groups: the device, its group directories. */
struct groups_walk {
	struct sysdev_device *dev;
	struct jw *w;
	size_t top_len; /* of the device's devpath */
	bool any;
};

/* Each attribute group below the device (not the devices below it, nor their
 * class directories): its regular files, grouped under the group's path. */
static int group_enter(struct sysdev_node *node, void *data)
{
	struct groups_walk *g = data;
	enum sysdev_kind kind = sysdev_node_get_kind(node);
	const char *devpath = sysdev_node_get_devpath(node), *group, *name;
	unsigned char type;
	char buf[ATTR_PAGE + 1], path[4096];

	if (sysdev_node_get_depth(node) == 0)
		return 0;
	if (kind != SYSDEV_KIND_ATTR_GROUP)
		return SYSDEV_WALK_SKIP;
	group = devpath + g->top_len + 1;
	if (g->w) {
		if (!g->any) {
			jw_key(g->w, "attribute_groups");
			jw_begin_object(g->w);
		}
		jw_key(g->w, group);
		jw_begin_object(g->w);
	} else {
		fputs("          ", stdout);
		fput_text(stdout, group);
		fputs("/\n", stdout);
	}
	g->any = true;
	SYSDEV_NODE_FOREACH_ENTRY(node, name, type)
	{
		ssize_t len;

		if (type != DT_REG)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", group, name) >= sizeof(path))
			continue;
		len = oom_check(sysdev_device_read_attribute(g->dev, path, buf, sizeof(buf)));
		if (g->w) {
			jw_key(g->w, name);
			attr_value_jw(g->w, buf, len);
			continue;
		}
		fputs("            @", stdout);
		fput_text(stdout, name);
		attr_value_text(stdout, buf, len);
		fputc('\n', stdout);
	}
	if (g->w)
		jw_end_object(g->w);
	return ferror(stdout) ? -EPIPE : 0;
}

/* With --attrs: the files of the device's attribute groups (queue/rotational,
 * power/control, mq/0/cpu_list), which udevadm info -a leaves out. */
static void device_attribute_groups(struct sysdev *ctx, struct jw *w, struct sysdev_device *dev)
{
	const char *devpath = dev_str(dev, sysdev_device_get_devpath);
	struct groups_walk g = {.dev = dev, .w = w, .top_len = strlen(devpath)};

	/* a group that cannot be read is left out, as udevadm leaves it; not for want of memory */
	oom_check(walk_run(ctx, devpath, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_NO_LINKS, -1,
			   group_enter, NULL, &g, NULL));
	if (w && g.any)
		jw_end_object(w);
}

/* One device; JSON through @w when it is given. */
static void device_line(struct sysdev *ctx, const struct options *o, struct jw *w,
			struct sysdev_device *dev, bool first, struct names *names)
{
	const char *sub = dev_str(dev, sysdev_device_get_subsystem);
	const char *drv = dev_str(dev, sysdev_device_get_driver);
	const char *devname = dev_str(dev, sysdev_device_get_devname);
	const char *module = NULL;

	/* the driver's kernel module (its module link), as the MODULE column; none when built in */
	if (drv && names)
		names_module(names, dev, &module);

	if (w) {
		jw_break(w, 2);
		jw_begin_object(w);
		jw_member_string(w, "path", dev_str(dev, sysdev_device_get_devpath));
		jw_member_string(w, "name", dev_str(dev, sysdev_device_get_name));
		device_fields_jw(w, dev, &module);
		if (o->attrs) {
			device_attributes(w, dev);
			device_attribute_groups(ctx, w, dev);
		}
		if (o->power)
			device_power_jw(w, dev);
		jw_end_object(w);
		return;
	}
	fputs(first ? "  device  " : "  parent  ", stdout);
	fput_text(stdout, dev_str(dev, sysdev_device_get_devpath));
	fputc('\n', stdout);
	fputs("          subsystem: ", stdout);
	if (sub) {
		fput_text(stdout, sub);
		fprintf(stdout, " (%s)", dev_subsystem_kind(dev) ?: "neither bus nor class");
	} else {
		fputs("none (no subsystem link)", stdout);
	}
	fputs("  driver: ", stdout);
	fput_text(stdout, drv ? drv : "none");
	if (module) {
		fputs("  module: ", stdout);
		fput_text(stdout, module);
	}
	if (dev_str(dev, sysdev_device_get_class_dir)) {
		fputs("  in class dir: ", stdout);
		fput_text(stdout, dev_str(dev, sysdev_device_get_class_dir));
	}
	if (devname) {
		fputs("  node: /dev/", stdout);
		fput_text(stdout, devname);
	}
	fputc('\n', stdout);
	if (o->power) {
		struct sysdev_power *p;

		fputs("        ", stdout);
		if (sysdev_device_get_power(dev, &p) < 0) {
			fputs("  power: none (no power/ group)", stdout);
		} else {
			power_text(stdout, p);
			sysdev_power_unref(p);
		}
		fputc('\n', stdout);
	}
	if (o->attrs) {
		device_attributes(NULL, dev);
		device_attribute_groups(ctx, NULL, dev);
	}
}

static int parents_one(struct sysdev *ctx, const struct options *o, const char *arg,
		       struct names *names, bool *shown)
{
	struct sysdev_device *dev = open_device_or_warn(ctx, arg), *parent;
	struct jw jw, *w = NULL;
	bool first = true;
	int err;

	if (!dev)
		return EXIT_RUNTIME;
	/* an empty line between the chains of text */
	if (*shown && !o->json)
		putchar('\n');
	*shown = true;
	if (o->json) {
		jw_init(&jw, stdout);
		w = &jw;
		jw_begin_object(w);
		jw_break(w, 1);
		jw_member_string(w, "sysfs", root_named(ctx));
		jw_break(w, 1);
		jw_key(w, "chain");
		jw_begin_array(w);
	}
	/* like `udevadm info -a`: the device, then each parent up to the top */
	while (dev) {
		device_line(ctx, o, w, dev, first, names);
		first = false;
		err = sysdev_device_get_parent(dev, &parent);
		if (err < 0 && err != -ENOENT) {
			warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
			       "its parent device: %s", error_words(err));
			sysdev_device_unref(dev);
			if (w)
				jw_done(w);
			return EXIT_RUNTIME;
		}
		/* the parent is lent by its child: kept before the child goes */
		parent = err < 0 ? NULL : sysdev_device_ref(parent);
		sysdev_device_unref(dev);
		dev = parent;
	}
	if (w)
		jw_end_document(w);
	return 0;
}

/* Each DEVICE in turn, as udevadm info: text separated by an empty line, JSON
 * one document after the other; exit 1 when any could not be shown. */
int cmd_parents(struct sysdev *ctx, const struct options *o)
{
	struct names *names = NULL;
	bool shown = false;
	int ret = 0;

	if (names_new(ctx, &names) < 0) {
		warnx_(NULL, "%s", error_words(-ENOMEM));
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i <= o->n_more_devices; i++) {
		if (parents_one(ctx, o, i ? o->more_devices[i - 1] : o->parents, names, &shown))
			ret = EXIT_RUNTIME;
	}
	names_free(names);
	return ret;
}
