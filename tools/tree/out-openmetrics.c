/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --stats --format=openmetrics: the measurements as the Prometheus /
 * OpenMetrics text exposition, the form node_exporter's textfile collector
 * reads (sysdev-tree(1) lists the families).  Every family is a gauge;
 * units are base units (seconds), as promtool's lint asks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "plural.h"
#include "stats.h"

struct dev_count {
	char *subsystem;  /* "" for none */
	const char *kind; /* "bus", "class", "" */
	unsigned long n;
};

struct lt_sample {
	char *devpath;
	enum sysdev_latency_tolerance_kind kind;
	int32_t us;
};

struct om_state {
	struct dev_count *dc;
	size_t ndc, capdc;
	struct lt_sample *lt;
	size_t nlt, caplt;
};

static int count_device(struct om_state *s, const char *subsystem, const char *kind)
{
	for (size_t i = 0; i < s->ndc; i++) {
		if (strcmp(s->dc[i].subsystem, subsystem) == 0 &&
		    strcmp(s->dc[i].kind, kind) == 0) {
			s->dc[i].n++;
			return 0;
		}
	}
	if (grow_array((void **)&s->dc, &s->capdc, s->ndc + 1, sizeof(*s->dc)) < 0)
		return -ENOMEM;
	s->dc[s->ndc] = (struct dev_count){.subsystem = strdup(subsystem), .kind = kind, .n = 1};
	if (!s->dc[s->ndc].subsystem)
		return -ENOMEM;
	s->ndc++;
	return 0;
}

static int on_node(struct sysdev_node *node, void *data)
{
	struct om_state *s = data;
	struct sysdev_device *dev;
	const char *sub, *kind;
	char buf[64];
	ssize_t len;
	int32_t us;
	int k;

	if (sysdev_node_get_device(node, &dev) < 0)
		return 0;
	sub = dev_str(dev, sysdev_device_get_subsystem);
	kind = dev_subsystem_kind(dev);
	if (count_device(s, sub ? sub : "", kind ? kind : "") < 0)
		return -ENOMEM;
	if (!sysdev_node_has_entry(node, "power"))
		return 0;
	len = sysdev_device_read_attribute(dev, "power/pm_qos_latency_tolerance_us", buf,
					   sizeof(buf));
	if (len < 0 || (k = sysdev_parse_latency_tolerance(buf, &us)) < 0)
		return 0; /* absent, or neither auto, any nor a number: no sample */
	if (grow_array((void **)&s->lt, &s->caplt, s->nlt + 1, sizeof(*s->lt)) < 0)
		return -ENOMEM;
	s->lt[s->nlt] = (struct lt_sample){.devpath = strdup(sysdev_node_get_devpath(node)),
					   .kind = (enum sysdev_latency_tolerance_kind)k,
					   .us = us};
	if (!s->lt[s->nlt].devpath)
		return -ENOMEM;
	s->nlt++;
	return 0;
}

static int cmp_dc(const void *pa, const void *pb)
{
	const struct dev_count *a = pa, *b = pb;
	int r = strcmp(a->subsystem, b->subsystem);

	return r ? r : strcmp(a->kind, b->kind);
}

static int cmp_lt(const void *pa, const void *pb)
{
	return strcmp(((const struct lt_sample *)pa)->devpath,
		      ((const struct lt_sample *)pb)->devpath);
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned min;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, min = 0x80, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, min = 0x800, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * A label value: \\, \" and \n escaped as the format says; a control byte
 * or a byte that is not UTF-8 is written as the four characters \xHH (its
 * backslash escaped), as sysdev-tree -r writes it, so the file stays UTF-8.
 */
void fput_label_value(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t l = utf8_len(p + i, n - i);

		if (p[i] == '\\') {
			fputs("\\\\", f);
		} else if (p[i] == '"') {
			fputs("\\\"", f);
		} else if (p[i] == '\n') {
			fputs("\\n", f);
		} else if (!l || p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\\\x%02x", p[i]);
			l = 1;
		} else {
			fwrite(p + i, 1, l, f);
		}
		i += l ? l : 1;
	}
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* A sample's start: "METRIC{LABEL=" as given in @head, then @value quoted. */
static void sample_begin(FILE *f, const char *head, const char *value)
{
	fputs(head, f);
	fput_label_value(f, value);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_stats_openmetrics(struct sysdev *ctx, const struct options *o)
{
	static const char *const status_kinds[] = {"bus", "class"};
	struct om_state s = {0};
	struct walk_counts st = {0};
	struct tree_stats *stats = NULL;
	const char *name;
	unsigned long n, too_deep, unreadable, vanished;
	size_t nbc = 0;
	double t0 = now(), t1;
	FILE *f = stdout;
	int err, ret = 0;

	(void)o;
	err = tree_stats_new(ctx, &stats);
	if (err < 0) {
		warnx_(root_named(ctx), "cannot gather statistics: %s", error_words(err));
		return EXIT_RUNTIME;
	}
	err = walk_run(ctx, NULL, SYSDEV_WALK_ERRORS, -1, on_node, NULL, &s, &st);
	t1 = now();
	if (err < 0) {
		warnx_(syspath_of(ctx, "/devices"), "%s", error_words(err));
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (s.ndc)
		qsort(s.dc, s.ndc, sizeof(*s.dc), cmp_dc);
	if (s.nlt)
		qsort(s.lt, s.nlt, sizeof(*s.lt), cmp_lt);

	family(f, "sysdev_devices",
	       "Devices (directories with a uevent file) under /sys/devices, by subsystem and "
	       "whether it is a bus or a class; empty labels for devices without a subsystem.");
	for (size_t i = 0; i < s.ndc; i++) {
		sample_begin(f, "sysdev_devices{subsystem=", s.dc[i].subsystem);
		fprintf(f, ",subsystem_kind=\"%s\"} %lu\n", s.dc[i].kind, s.dc[i].n);
	}
	family(f, "sysdev_directories", "Directories under /sys/devices by kind.");
	for (int k = 0; k < _SYSDEV_KIND_MAX; k++)
		fprintf(f, "sysdev_directories{kind=\"%s\"} %lu\n", sysdev_kind_to_string(k),
			tree_stats_get_kind_count(stats, k));
	family(f, "sysdev_runtime_status_devices",
	       "Devices listed in /sys/bus/*/devices or /sys/class/* by power/runtime_status.");
	for (size_t k = 0; k < 2; k++) {
		const char *status;

		for (size_t i = 0;
		     tree_stats_get_runtime_status_at(stats, k == 1, i, &status, &n) >= 0; i++) {
			fprintf(f, "sysdev_runtime_status_devices{subsystem_kind=\"%s\",status=",
				status_kinds[k]);
			fput_label_value(f, status);
			fprintf(f, "} %lu\n", n);
		}
	}
	while (tree_stats_get_bus_class_name_at(stats, nbc, &name) >= 0)
		nbc++;
	family(f, "sysdev_bus_class_names", "Names that are both a bus and a class.");
	fprintf(f, "sysdev_bus_class_names %zu\n", nbc);
	family(f, "sysdev_latency_tolerance_seconds",
	       "power/pm_qos_latency_tolerance_us of each device that has it, in seconds; "
	       "any is 2147.483647, auto is -1.");
	for (size_t i = 0; i < s.nlt; i++) {
		sample_begin(f, "sysdev_latency_tolerance_seconds{devpath=", s.lt[i].devpath);
		if (s.lt[i].kind == SYSDEV_LT_AUTO)
			fputs("} -1\n", f);
		else
			fprintf(f, "} %d.%06d\n", (int)(s.lt[i].us / 1000000),
				(int)(s.lt[i].us % 1000000));
	}
	family(f, "sysdev_walk_duration_seconds", "Time taken to gather these numbers.");
	fprintf(f, "sysdev_walk_duration_seconds %.6f\n", t1 - t0);
#define MAX_OF(which)                                                                              \
	(tree_stats_get_walk_count(stats, which) > st.v[which]                                     \
	     ? tree_stats_get_walk_count(stats, which)                                             \
	     : st.v[which])
	unreadable = MAX_OF(SYSDEV_WALK_COUNT_UNREADABLE);
	vanished = MAX_OF(SYSDEV_WALK_COUNT_VANISHED);
	too_deep = MAX_OF(SYSDEV_WALK_COUNT_TOO_DEEP);
#undef MAX_OF
	family(f, "sysdev_walk_errors",
	       "Directories under /sys/devices the walk could not read, that vanished while it "
	       "ran, or that were too deep to enter.");
	fprintf(f, "sysdev_walk_errors{what=\"unreadable\"} %lu\n", unreadable);
	fprintf(f, "sysdev_walk_errors{what=\"vanished\"} %lu\n", vanished);
	fprintf(f, "sysdev_walk_errors{what=\"too_deep\"} %lu\n", too_deep);
	fputs("# EOF\n", f);
	/* the errors are in the numbers: the file is still good for a scrape */
	if (unreadable || too_deep)
		warnx_(syspath_of(ctx, "/devices"),
		       "%lu %s not be read, %lu not entered (counted in "
		       "sysdev_walk_errors)",
		       unreadable, plural(unreadable, "directory could", "directories could"),
		       too_deep);
out:
	for (size_t i = 0; i < s.ndc; i++)
		free(s.dc[i].subsystem);
	for (size_t i = 0; i < s.nlt; i++)
		free(s.lt[i].devpath);
	free(s.dc);
	free(s.lt);
	tree_stats_free(stats);
	return ret;
}
