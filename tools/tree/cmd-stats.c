/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --stats: the article's two measurements, and counts of kinds and subsystems. */
#include <stdlib.h>

#include "cli.h"
#include "json-writer.h"
#include "stats.h"

static void status_json(struct jw *w, struct tree_stats *s, bool from_class)
{
	const char *status;
	unsigned long n;

	jw_begin_object(w);
	for (size_t i = 0; tree_stats_get_runtime_status_at(s, from_class, i, &status, &n) >= 0;
	     i++)
		jw_member_uint(w, status, n);
	jw_end_object(w);
}

static void status_text(struct tree_stats *s, bool from_class)
{
	const char *status;
	unsigned long n;

	for (size_t i = 0; tree_stats_get_runtime_status_at(s, from_class, i, &status, &n) >= 0;
	     i++) {
		printf("  %7lu ", n);
		fput_text(stdout, status);
		fputc('\n', stdout);
	}
}

int cmd_stats(struct sysdev *ctx, const struct options *o)
{
	struct tree_stats *s;
	struct walk_counts walk;
	const char *name;
	unsigned long n, no_subsystem;
	int err;

	err = tree_stats_new(ctx, &s);
	if (err < 0) {
		warnx_(root_named(ctx), "cannot gather statistics: %s", error_words(err));
		return EXIT_RUNTIME;
	}
	/* devices without a subsystem link: counted too, so the rows add up */
	no_subsystem = tree_stats_get_kind_count(s, SYSDEV_KIND_DEVICE);
	for (size_t i = 0; tree_stats_get_subsystem_at(s, i, &name, &n) >= 0; i++)
		no_subsystem -= n;
	if (o->json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_begin_object(&w);
		jw_member_string(&w, "sysfs", root_named(ctx));
		jw_break_spaces(&w, 1);
		jw_key(&w, "bus_class_names");
		jw_begin_array(&w);
		for (size_t i = 0; tree_stats_get_bus_class_name_at(s, i, &name) >= 0; i++)
			jw_string(&w, name);
		jw_end_array(&w);
		jw_break_spaces(&w, 1);
		jw_key(&w, "runtime_status");
		jw_begin_object(&w);
		jw_key(&w, "class");
		status_json(&w, s, true);
		jw_key(&w, "bus");
		status_json(&w, s, false);
		jw_end_object(&w);
		jw_break_spaces(&w, 1);
		jw_key(&w, "kinds");
		jw_begin_object(&w);
		for (int k = 0; k < _SYSDEV_KIND_MAX; k++)
			jw_member_uint(&w, sysdev_kind_to_string(k),
				       tree_stats_get_kind_count(s, k));
		jw_end_object(&w);
		jw_break_spaces(&w, 1);
		jw_key(&w, "subsystems");
		jw_begin_object(&w);
		for (size_t i = 0; tree_stats_get_subsystem_at(s, i, &name, &n) >= 0; i++)
			jw_member_uint(&w, name, n);
		jw_end_object(&w);
		jw_break_spaces(&w, 1);
		jw_member_uint(&w, "no_subsystem", no_subsystem);
		jw_end_object(&w);
		fputc('\n', stdout);
		jw_done(&w);
	} else {
		printf("Sysfs root: ");
		fput_text(stdout, root_named(ctx));
		fputs("\n\nNames that are both a bus and a class "
		      "(comm -12 <(ls S/bus) <(ls S/class)):\n",
		      stdout);
		for (size_t i = 0; tree_stats_get_bus_class_name_at(s, i, &name) >= 0; i++) {
			fputs("  ", stdout);
			fput_text(stdout, name);
			fputc('\n', stdout);
		}
		fputs("\nRuntime status of class devices "
		      "(cat S/class/*/*/power/runtime_status | sort | uniq -c):\n",
		      stdout);
		status_text(s, true);
		fputs("\nRuntime status of bus devices "
		      "(cat S/bus/*/devices/*/power/runtime_status | sort | uniq -c):\n",
		      stdout);
		status_text(s, false);
		fputs("\nDirectories under S/devices by kind:\n", stdout);
		for (int k = 0; k < _SYSDEV_KIND_MAX; k++)
			printf("  %7lu %s\n", tree_stats_get_kind_count(s, k),
			       sysdev_kind_to_string(k));
		fputs("\nDevices per subsystem:\n", stdout);
		for (size_t i = 0; tree_stats_get_subsystem_at(s, i, &name, &n) >= 0; i++) {
			printf("  %7lu ", n);
			fput_text(stdout, name);
			fputc('\n', stdout);
		}
		printf("  %7lu (no subsystem)\n", no_subsystem);
	}
	struct walk_errors none = {0};

	for (unsigned i = 0; i < _SYSDEV_WALK_COUNT_MAX; i++)
		walk.v[i] = tree_stats_get_walk_count(s, (enum sysdev_walk_count)i);
	err = report_walk(ctx, "/devices", 0, &walk, &none);
	tree_stats_free(s);
	return err;
}
