/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --properties DEVICE: KEY=VALUE lines as `udevadm info -q property` prints
 * them.  The uevent file's properties come first, in the file's order (each
 * key once: its first line, as every lookup of the library reads it), with
 * DEVNAME as udev shows it (/dev/NAME); then what the walk computes and the
 * file does not hold: DEVPATH, SUBSYSTEM, DRIVER, MAJOR and MINOR (from the
 * `dev` attribute), our own SYSDEV_* keys, and the names of udev's hardware
 * database (ID_VENDOR_FROM_DATABASE, ID_MODEL_FROM_DATABASE).
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
	static const char *const computed[] = {"DEVPATH", "SUBSYSTEM", "DRIVER", "MAJOR", "MINOR"};
	const char *key, *value, *vendor, *model, *module;
	enum sysdev_placement placement;
	int err = 0;

	/* the uevent file's keys, then what udev computes: the library's view, as the
	 * enumerator matches it (DEVNAME as the node's path, MAJOR and MINOR from dev) */
	SYSDEV_DEVICE_FOREACH_PROPERTY(dev, key, value)
	{
		err = props_add(p, key, dev_udev_property(dev, key));
		if (err < 0)
			break;
	}
	for (size_t i = 0; err == 0 && i < sizeof(computed) / sizeof(computed[0]); i++)
		err = props_add(p, computed[i], dev_udev_property(dev, computed[i]));
	if (err == 0)
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
	if (err == 0)
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

int cmd_properties(struct sysdev *ctx, const struct options *o)
{
	size_t left_out = 0;
	const char *first_left_out = NULL;
	struct sysdev_device *dev = open_device_or_warn(ctx, o->properties);
	struct names *names = NULL;
	struct names_stats st;
	struct props p = {0};
	struct jw w;
	int err;

	if (!dev)
		return EXIT_RUNTIME;
	err = names_new(ctx, &names);
	if (err == 0)
		err = collect(dev, names, &p);
	if (err < 0) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)), "%s",
		       error_words(err));
		goto out;
	}
	names_get_stats(names, &st);
	if (st.modaliases && !names_have_database(names))
		warnx_(NULL, "no hardware database (hwdb.bin) could be opened: no "
			     "ID_VENDOR_FROM_DATABASE or ID_MODEL_FROM_DATABASE");
	if (o->json) {
		jw_init(&w, stdout);
		jw_begin_object(&w);
	}
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
			jw_break(&w, 1);
			jw_member_string(&w, p.v[i].key, p.v[i].value);
			continue;
		}
		if (o->export_values) {
			/* only what the shell reads as one plain assignment */
			if (!export_key_ok(p.v[i].key)) {
				if (!left_out++)
					first_left_out = p.v[i].key;
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
	if (o->json) {
		/* SYSDEV_KIND and the others are always there: never an empty object */
		jw_end_document(&w);
	}
	if (left_out)
		warnx_("--export",
		       "left out %zu %s whose key is not a shell name or is a variable the shell "
		       "or the loader acts on (the first: %s)",
		       left_out, left_out == 1 ? "property" : "properties", first_left_out);
out:
	props_free(&p);
	names_free(names);
	sysdev_device_unref(dev);
	return err < 0 ? EXIT_RUNTIME : 0;
}
