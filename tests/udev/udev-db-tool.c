/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udev's database read by libudev and by libsysdev, printed the same way, for
 * test_udev_db.py (which compares the two) and the benchmark.
 *
 *   udev-db-tool udev-dump                 every device libudev enumerates on /sys
 *   udev-db-tool sysdev-dump ROOT          every device libsysdev enumerates on ROOT
 *   udev-db-tool udev-enum MATCH...        devpaths of libudev's scan, one a line
 *   udev-db-tool sysdev-enum ROOT MATCH... devpaths of libsysdev's scan
 *   udev-db-tool bench RUNS                tag and is_initialized scans, both libraries
 *
 * A dump prints per device "D DEVPATH", "I 0|1", then "L LINK", "T TAG",
 * "C TAG" (current), "E KEY=VALUE" lines in each library's order.
 * MATCH: tag=TAG, initialized.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libudev.h>

#include "libsysdev.h"

static void udev_dump_device(struct udev_device *d)
{
	struct udev_list_entry *l;

	printf("D %s\nI %d\n", udev_device_get_devpath(d), udev_device_get_is_initialized(d));
	udev_list_entry_foreach(l, udev_device_get_devlinks_list_entry(d))
	    printf("L %s\n", udev_list_entry_get_name(l));
	udev_list_entry_foreach(l, udev_device_get_tags_list_entry(d))
	    printf("T %s\n", udev_list_entry_get_name(l));
	udev_list_entry_foreach(l, udev_device_get_current_tags_list_entry(d))
	    printf("C %s\n", udev_list_entry_get_name(l));
	udev_list_entry_foreach(l, udev_device_get_properties_list_entry(d))
	    printf("E %s=%s\n", udev_list_entry_get_name(l), udev_list_entry_get_value(l));
}

static int sysdev_dump_device(struct sysdev_device *d)
{
	const char *s, *k, *v;
	bool init;
	int r;

	r = sysdev_device_get_is_initialized(d, &init);
	if (r < 0)
		return r;
	(void)sysdev_device_get_devpath(d, &s);
	printf("D %s\nI %d\n", s, init);
	SYSDEV_DEVICE_FOREACH_DEVLINK(d, s)
	printf("L %s\n", s);
	SYSDEV_DEVICE_FOREACH_TAG(d, s)
	printf("T %s\n", s);
	for (size_t i = 0; sysdev_device_get_current_tag_at(d, i, &s) >= 0; i++)
		printf("C %s\n", s);
	SYSDEV_DEVICE_FOREACH_UDEV_PROPERTY(d, k, v)
	printf("E %s=%s\n", k, v);
	return 0;
}

static int udev_scan(struct udev *udev, int argc, char **argv, struct udev_enumerate **ret)
{
	struct udev_enumerate *e = udev_enumerate_new(udev);

	for (int i = 0; i < argc; i++) {
		int r = -EINVAL;

		if (!strncmp(argv[i], "tag=", 4))
			r = udev_enumerate_add_match_tag(e, argv[i] + 4);
		else if (!strcmp(argv[i], "initialized"))
			r = udev_enumerate_add_match_is_initialized(e);
		if (r < 0) {
			fprintf(stderr, "udev-db-tool: %s: %s\n", argv[i], strerror(-r));
			return r;
		}
	}
	*ret = e;
	return udev_enumerate_scan_devices(e);
}

static int sysdev_scan(struct sysdev *ctx, int argc, char **argv, struct sysdev_enumerator **ret)
{
	struct sysdev_enumerator *e;
	int r = sysdev_enumerator_new(ctx, &e);

	for (int i = 0; r >= 0 && i < argc; i++) {
		if (!strncmp(argv[i], "tag=", 4))
			r = sysdev_enumerator_add_match_tag(e, argv[i] + 4);
		else if (!strcmp(argv[i], "initialized"))
			r = sysdev_enumerator_add_match_is_initialized(e);
		else
			r = -EINVAL;
		if (r < 0)
			fprintf(stderr, "udev-db-tool: %s: %s\n", argv[i], strerror(-r));
	}
	*ret = e;
	return r < 0 ? r : sysdev_enumerator_scan(e);
}

static int udev_run(int argc, char **argv, bool dump)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e = NULL;
	struct udev_list_entry *l;

	if (udev_scan(udev, argc, argv, &e) < 0)
		return 1;
	udev_list_entry_foreach(l, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *d =
		    udev_device_new_from_syspath(udev, udev_list_entry_get_name(l));

		if (!d)
			continue;
		if (dump)
			udev_dump_device(d);
		else
			printf("%s\n", udev_device_get_devpath(d));
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return 0;
}

static int sysdev_run(const char *root, int argc, char **argv, bool dump)
{
	struct sysdev_enumerator *e = NULL;
	struct sysdev_device *d;
	struct sysdev *ctx;
	int r;

	if (sysdev_new(root, &ctx) < 0)
		return 2;
	r = sysdev_scan(ctx, argc, argv, &e);
	for (size_t i = 0; r >= 0 && sysdev_enumerator_get_device_at(e, i, &d) >= 0; i++) {
		const char *s;

		if (dump) {
			r = sysdev_dump_device(d);
		} else if (sysdev_device_get_devpath(d, &s) >= 0) {
			printf("%s\n", s);
		}
	}
	if (r < 0)
		fprintf(stderr, "udev-db-tool: %s\n", strerror(-r));
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
	return r < 0 ? 1 : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One query, each library @runs times, the medians: the benchmark's row. */
static void bench_query(const char *name, int argc, char **argv, int runs)
{
	double *ts = calloc((size_t)runs, sizeof(*ts)), *tu = calloc((size_t)runs, sizeof(*tu));
	size_t ns = 0, nu = 0;

	for (int i = 0; i < runs; i++) {
		struct sysdev *ctx;
		struct sysdev_enumerator *e = NULL;
		struct udev *udev;
		struct udev_enumerate *ue = NULL;
		struct udev_list_entry *l;
		double t0 = now_ms();

		/* each a fresh context: what a program that asks once pays */
		if (sysdev_new(NULL, &ctx) >= 0 && sysdev_scan(ctx, argc, argv, &e) >= 0) {
			struct sysdev_device *d;
			bool init;

			for (size_t j = 0; sysdev_enumerator_get_device_at(e, j, &d) >= 0; j++)
				(void)sysdev_device_get_is_initialized(d, &init);
			ns = sysdev_enumerator_get_count(e);
		}
		sysdev_enumerator_unref(e);
		sysdev_unref(ctx);
		ts[i] = now_ms() - t0;
		t0 = now_ms();
		udev = udev_new();
		nu = 0;
		if (udev_scan(udev, argc, argv, &ue) >= 0)
			udev_list_entry_foreach(l, udev_enumerate_get_list_entry(ue))
			{
				struct udev_device *d =
				    udev_device_new_from_syspath(udev, udev_list_entry_get_name(l));

				if (d)
					(void)udev_device_get_is_initialized(d);
				udev_device_unref(d);
				nu++;
			}
		udev_enumerate_unref(ue);
		udev_unref(udev);
		tu[i] = now_ms() - t0;
	}
	qsort(ts, (size_t)runs, sizeof(*ts), cmp_double);
	qsort(tu, (size_t)runs, sizeof(*tu), cmp_double);
	printf("enumerate %s: libsysdev %.2f ms, libudev %.2f ms (%.1fx; %zu and %zu devices, "
	       "median of %d)\n",
	       name, ts[runs / 2], tu[runs / 2], tu[runs / 2] / ts[runs / 2], ns, nu, runs);
	free(ts);
	free(tu);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "udev-dump"))
		return udev_run(0, NULL, true);
	if (argc >= 3 && !strcmp(argv[1], "sysdev-dump"))
		return sysdev_run(argv[2], 0, NULL, true);
	if (argc >= 2 && !strcmp(argv[1], "udev-enum"))
		return udev_run(argc - 2, argv + 2, false);
	if (argc >= 3 && !strcmp(argv[1], "sysdev-enum"))
		return sysdev_run(argv[2], argc - 3, argv + 3, false);
	if (argc >= 2 && !strcmp(argv[1], "bench")) {
		int runs = argc > 2 ? atoi(argv[2]) : 11;
		char *tag[] = {(char *)"tag="
				       "systemd"},
		     *init[] = {(char *)"initialized"};

		if (runs < 1)
			runs = 1;
		bench_query("tag systemd", 1, tag, runs);
		bench_query("is_initialized", 1, init, runs);
		return 0;
	}
	fprintf(stderr, "usage: udev-db-tool udev-dump | sysdev-dump ROOT | udev-enum MATCH... | "
			"sysdev-enum ROOT MATCH... | bench [RUNS]\n");
	return 2;
}
