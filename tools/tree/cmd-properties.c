/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --properties DEVICE: KEY=VALUE lines as `udevadm info -q property` prints
 * them.  The uevent file's properties come first, in the file's order (each
 * key once: its first line, as every lookup of the library reads it), with
 * DEVNAME as udev shows it (/dev/NAME); then what the walk computes and the
 * file does not hold: DEVPATH, SUBSYSTEM, DRIVER, MAJOR and MINOR (from the
 * `dev` attribute); with udev's database, its E: lines, DEVLINKS, TAGS,
 * CURRENT_TAGS and USEC_INITIALIZED (the library's merged list); then our
 * own SYSDEV_* keys, and the names of udev's hardware database
 * (ID_VENDOR_FROM_DATABASE, ID_MODEL_FROM_DATABASE) where udev's did not
 * give them.  Several DEVICEs, or filters (or nothing: every device), give
 * one block per device with a blank line between, as udevadm info
 * --export-db; with --json an array of objects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json-writer.h"
#include "names.h"

struct prop {
	const char *key;
	char *value;
};

struct props {
	struct prop *v;
	size_t n, cap;
};

static bool props_has(const struct props *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i].key, key) == 0)
			return true;
	return false;
}

/* Adds KEY=VALUE unless the key is there already or the value is NULL. */
static int props_add(struct props *p, const char *key, const char *value)
{
	if (!value || props_has(p, key))
		return 0;
	if (grow_array((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)) < 0)
		return -ENOMEM;
	p->v[p->n].key = key;
	p->v[p->n].value = strdup(value);
	if (!p->v[p->n].value)
		return -ENOMEM;
	p->n++;
	return 0;
}

static void props_free(struct props *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].value);
	free(p->v);
}

static int collect(struct sysdev_device *dev, struct names *names, struct props *p)
{
	const char *key, *value, *vendor, *model, *module;
	enum sysdev_placement placement;
	bool initialized = false;
	size_t i = 0;
	int err = 0;

	/* what udevadm info -q property prints: the uevent file's keys, what udev
	 * computes, the database's; each key once already (the library's list) */
	for (; (err = sysdev_device_get_udev_property_at(dev, i, &key, &value)) >= 0; i++) {
		if (grow_array((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)) < 0)
			return -ENOMEM;
		p->v[p->n].key = key;
		p->v[p->n].value = strdup(value);
		if (!p->v[p->n].value)
			return -ENOMEM;
		p->n++;
	}
	if (err != -ENOENT)
		return err;
	err = props_add(p, "SYSDEV_KIND", sysdev_kind_to_string(SYSDEV_KIND_DEVICE));
	if (err == 0)
		err = props_add(p, "SYSDEV_SUBSYSTEM_KIND", dev_subsystem_kind(dev));
	if (err == 0)
		err = props_add(p, "SYSDEV_PLACEMENT",
				sysdev_device_get_placement(dev, &placement) >= 0
				    ? sysdev_placement_to_string(placement)
				    : NULL);
	if (err == 0)
		err = props_add(p, "SYSDEV_PARENT", dev_parent_devpath(dev));
	if (err == 0)
		err = props_add(p, "SYSDEV_CLASS_DIR", dev_str(dev, sysdev_device_get_class_dir));
	if (err == 0)
		err = names_module(names, dev, &module);
	if (err == 0)
		err = props_add(p, "SYSDEV_MODULE", module);
	/* udev's rules decide which devices it has looked up in the hwdb: for a
	 * device it has initialized its database is the answer, as udevadm's */
	if (err < 0 || (sysdev_device_get_is_initialized(dev, &initialized) >= 0 && initialized))
		return err;
	err = names_vendor_model(names, dev, &vendor, &model);
	if (err == 0)
		err = props_add(p, "ID_VENDOR_FROM_DATABASE", vendor);
	if (err == 0)
		err = props_add(p, "ID_MODEL_FROM_DATABASE", model);
	return err;
}

/* --property KEY[,KEY...] (several: any): whether @key is shown */
static bool key_wanted(const struct options *o, const char *key)
{
	size_t klen = strlen(key);

	if (!o->n_property_keys)
		return true;
	for (size_t i = 0; i < o->n_property_keys; i++) {
		for (const char *p = o->property_keys[i];;) {
			size_t len = strcspn(p, ",");

			if (len == klen && strncmp(p, key, len) == 0)
				return true;
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	return false;
}

struct run {
	const struct options *o;
	struct names *names;
	struct jw w;
	size_t blocks;
	size_t left_out;
	char *first_left_out; /* a copy: the key dies with its device */
	bool failed;
	bool multi; /* several devices: JSON is an array of objects */
};

/* Why a device's properties could not be read, naming the file: its
 * database file when that is what failed, else its directory. */
static void warn_device(struct sysdev *ctx, struct sysdev_device *dev, int err)
{
	const char *db = sysdev_get_udev_db(ctx), *id = NULL;
	bool init;

	if (db && sysdev_device_get_is_initialized(dev, &init) == err &&
	    sysdev_device_get_udev_id(dev, &id) >= 0)
		warnx_(NULL, "%s/data/%s: %s", db, id, error_words(err));
	else
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)), "%s",
		       error_words(err));
}

/* One device's block: KEY=VALUE lines (a blank line before all but the first), or an object. */
static int print_device(struct sysdev *ctx, struct run *r, struct sysdev_device *dev)
{
	const struct options *o = r->o;
	struct props p = {0};
	int err = collect(dev, r->names, &p);

	if (err < 0) {
		if (err == -ENOMEM) {
			props_free(&p);
			return err;
		}
		warn_device(ctx, dev, err);
		r->failed = true;
		props_free(&p);
		return 0;
	}
	if (o->json) {
		jw_break(&r->w, r->multi ? 1 : 0);
		jw_begin_object(&r->w);
	} else if (r->blocks) {
		fputc('\n', stdout);
	}
	r->blocks++;
	for (size_t i = 0; i < p.n; i++) {
		if (!key_wanted(o, p.v[i].key))
			continue;
		if (o->value_only) {
			/* as udevadm info --value */
			fput_text(stdout, p.v[i].value);
			fputc('\n', stdout);
			continue;
		}
		if (o->json) {
			jw_break(&r->w, r->multi ? 2 : 1);
			jw_member_string(&r->w, p.v[i].key, p.v[i].value);
			continue;
		}
		if (o->export_values) {
			/* only what the shell reads as one plain assignment */
			if (!export_key_ok(p.v[i].key)) {
				if (!r->left_out++) {
					r->first_left_out = strdup(p.v[i].key);
					if (!r->first_left_out) {
						props_free(&p);
						return -ENOMEM;
					}
				}
				continue;
			}
			fputs(p.v[i].key, stdout);
			fputc('=', stdout);
			fput_export_value(stdout, p.v[i].value);
			fputc('\n', stdout);
			continue;
		}
		fput_text(stdout, p.v[i].key);
		fputc('=', stdout);
		fput_text(stdout, p.v[i].value);
		fputc('\n', stdout);
	}
	/* SYSDEV_KIND and the others are always there: never an empty object; a
	 * single one is closed by the document's end */
	if (o->json && r->multi) {
		jw_break(&r->w, 1);
		jw_end_object(&r->w);
	}
	props_free(&p);
	return ferror(stdout) ? -EPIPE : 0;
}

struct walk_ctx {
	struct sysdev *ctx;
	struct run *r;
};

static int on_node(struct sysdev_node *node, void *data)
{
	struct walk_ctx *w = data;
	struct sysdev_device *dev;

	/* printed while the walk holds the device's directory open */
	if (sysdev_node_get_device(node, &dev) < 0)
		return 0;
	return print_device(w->ctx, w->r, dev);
}

/* Every DEVICE given, else every device the filters select (every device without any). */
static int each_device(struct sysdev *ctx, struct run *r)
{
	const struct options *o = r->o;
	struct sysdev_enumerator *e = NULL;
	struct sysdev_device *dev;
	int err = 0;

	if (o->properties) {
		for (size_t i = 0; i <= o->n_properties_more && err >= 0; i++) {
			dev =
			    open_device_or_warn(ctx, i ? o->properties_more[i - 1] : o->properties);
			if (!dev) {
				r->failed = true;
				continue;
			}
			err = print_device(ctx, r, dev);
			sysdev_device_unref(dev);
		}
		return err;
	}
	if (!filters_given(o)) {
		struct walk_ctx w = {ctx, r};

		/* every device: one walk that reads each uevent file as it passes */
		err = walk_run(ctx, NULL, SYSDEV_WALK_UEVENT, -1, on_node, NULL, &w, NULL);
		if (err < 0 && err != -ENOMEM && err != -EPIPE) {
			warnx_(NULL, "cannot walk the tree: %s", error_words(err));
			r->failed = true;
			err = 0;
		}
		return err;
	}
	if (filter_enumerator(ctx, o, NULL, &e) < 0)
		return -EINVAL;
	err = sysdev_enumerator_scan(e);
	if (err < 0) {
		warnx_(NULL, "cannot select devices: %s", error_words(err));
		sysdev_enumerator_unref(e);
		return -EINVAL;
	}
	for (size_t i = 0; err >= 0 && sysdev_enumerator_get_device_at(e, i, &dev) >= 0; i++)
		err = print_device(ctx, r, dev);
	sysdev_enumerator_unref(e);
	if (err >= 0 && !r->blocks && !r->failed) {
		warn_none_selected(o);
		r->failed = true;
	}
	return err;
}

int cmd_properties(struct sysdev *ctx, const struct options *o)
{
	struct run r = {.o = o};
	struct names_stats st;
	int err;

	if (o->properties && filters_given(o)) {
		warnx_(o->properties, "--properties takes DEVICEs or filters, not both");
		return EXIT_USAGE;
	}
	/* one DEVICE: one object, as before; several or a selection: an array of them */
	r.multi = !o->properties || o->n_properties_more;
	err = names_new(ctx, &r.names);
	if (err < 0) {
		warnx_(NULL, "%s", error_words(err));
		return EXIT_RUNTIME;
	}
	if (o->json) {
		jw_init(&r.w, stdout);
		if (r.multi)
			jw_begin_array(&r.w);
	}
	err = each_device(ctx, &r);
	if (o->json) {
		if (r.multi || r.blocks)
			jw_end_document(&r.w);
		else
			jw_done(&r.w);
	}
	names_get_stats(r.names, &st);
	if (st.modaliases && !names_have_database(r.names))
		warnx_(NULL, "no hardware database (hwdb.bin) could be opened: no "
			     "ID_VENDOR_FROM_DATABASE or ID_MODEL_FROM_DATABASE");
	if (r.left_out)
		warnx_("--export",
		       "left out %zu %s whose key is not a shell name or is a variable the shell "
		       "or the loader acts on (the first: %s)",
		       r.left_out, r.left_out == 1 ? "property" : "properties", r.first_left_out);
	if (err == -ENOMEM)
		warnx_(NULL, "%s", error_words(err));
	names_free(r.names);
	free(r.first_left_out);
	return err < 0 || r.failed ? EXIT_RUNTIME : 0;
}
