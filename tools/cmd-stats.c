/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --stats: the article's two measurements, and counts of kinds and subsystems. */
#include <stdlib.h>

#include "cli.h"

static void status_json(const struct sysdev_stats *s, bool from_class)
{
	const char *status;
	unsigned long n;

	fputs("{", stdout);
	for (size_t i = 0; sysdev_stats_get_runtime_status(s, from_class, i, &status, &n); i++) {
		fputs(i ? ", " : "", stdout);
		fput_json_string(stdout, status);
		printf(": %lu", n);
	}
	fputs("}", stdout);
}

static void status_text(const struct sysdev_stats *s, bool from_class)
{
	const char *status;
	unsigned long n;

	for (size_t i = 0; sysdev_stats_get_runtime_status(s, from_class, i, &status, &n); i++) {
		printf("  %7lu ", n);
		fput_text(stdout, status);
		fputc('\n', stdout);
	}
}

int cmd_stats(struct sysdev *ctx, const struct options *o)
{
	struct sysdev_stats *s;
	const char *name;
	unsigned long n, no_subsystem;
	int err;

	err = sysdev_stats_new(ctx, &s);
	if (err < 0) {
		warnx_(sysdev_get_root(ctx), "cannot gather statistics: %s", error_words(err));
		return EXIT_RUNTIME;
	}
	/* devices without a subsystem link: counted too, so the rows add up */
	no_subsystem = sysdev_stats_get_kind_count(s, SYSDEV_KIND_DEVICE);
	for (size_t i = 0; sysdev_stats_get_subsystem(s, i, &name, &n); i++)
		no_subsystem -= n;
	if (o->json) {
		fputs("{\"sysfs\": ", stdout);
		fput_json_string(stdout, sysdev_get_root(ctx));
		fputs(",\n \"bus_class_names\": [", stdout);
		for (size_t i = 0; (name = sysdev_stats_get_bus_class_name(s, i)); i++) {
			fputs(i ? ", " : "", stdout);
			fput_json_string(stdout, name);
		}
		fputs("],\n \"runtime_status\": {\"class\": ", stdout);
		status_json(s, true);
		fputs(", \"bus\": ", stdout);
		status_json(s, false);
		fputs("},\n \"kinds\": {", stdout);
		for (int k = 0; k < _SYSDEV_KIND_MAX; k++)
			printf("%s\"%s\": %lu", k ? ", " : "", sysdev_kind_to_string(k),
			       sysdev_stats_get_kind_count(s, k));
		fputs("},\n \"subsystems\": {", stdout);
		for (size_t i = 0; sysdev_stats_get_subsystem(s, i, &name, &n); i++) {
			fputs(i ? ", " : "", stdout);
			fput_json_string(stdout, name);
			printf(": %lu", n);
		}
		printf("},\n \"no_subsystem\": %lu}\n", no_subsystem);
	} else {
		printf("Sysfs root: ");
		fput_text(stdout, sysdev_get_root(ctx));
		fputs("\n\nNames that are both a bus and a class "
		      "(comm -12 <(ls S/bus) <(ls S/class)):\n",
		      stdout);
		for (size_t i = 0; (name = sysdev_stats_get_bus_class_name(s, i)); i++) {
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
			printf("  %7lu %s\n", sysdev_stats_get_kind_count(s, k),
			       sysdev_kind_to_string(k));
		fputs("\nDevices per subsystem:\n", stdout);
		for (size_t i = 0; sysdev_stats_get_subsystem(s, i, &name, &n); i++) {
			printf("  %7lu ", n);
			fput_text(stdout, name);
			fputc('\n', stdout);
		}
		printf("  %7lu (no subsystem)\n", no_subsystem);
	}
	struct walk_errors none = {0};

	err = report_walk(ctx, "/devices", 0, sysdev_stats_get_walk(s), &none);
	sysdev_stats_free(s);
	return err;
}
