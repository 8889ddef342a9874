/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A driver for the enumerator's tests and benchmark.
 *
 *   enumtool list ROOT [--full] [--no-subsystem] [MATCH...]   devpaths found, one a line
 *   enumtool udev-match [MATCH...]           libudev's devpaths on /sys, strcmp order
 *   enumtool attr ROOT SPEC NAME...          sysdev_device_read_attribute(), one a line
 *   enumtool udev-attr SYSPATH NAME...       udev_device_get_sysattr_value(), one a line
 *   enumtool new ROOT SPEC...                sysdev_device_new(): devpath or the errno
 *   enumtool compare ROOT                    indexed against walked, every subsystem
 *   enumtool bench [RUNS]                    libsysdev against libudev on /sys
 *
 * MATCH: subsystem=S, nosubsystem=S, sysname=G, nosysname=G, driver=G, devtype=T,
 * property=K=G, sysattr=N=G, sysattr=N, nosysattr=N=G, nosysattr=N, value=K=G,
 * parent=DEVPATH, placement=P, unlinked
 * (udev-match: subsystem, nosubsystem, sysname, property, sysattr, nosysattr)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/sysmacros.h>

#include <libudev.h>

#include "libsysdev.h"

/* A string field of @d, NULL where it has none. */
static const char *str(struct sysdev_device *d, int (*get)(struct sysdev_device *, const char **))
{
	const char *v = NULL;

	return get(d, &v) >= 0 ? v : NULL;
}

static const char *property(struct sysdev_device *d, const char *key)
{
	const char *v = NULL;

	return sysdev_device_get_property(d, key, &v) >= 0 ? v : NULL;
}

static const char *parent_devpath(struct sysdev_device *d)
{
	struct sysdev_device *p;

	return sysdev_device_get_parent(d, &p) >= 0 ? str(p, sysdev_device_get_devpath) : NULL;
}

static const char *devnum(struct sysdev_device *d, char *buf, size_t size)
{
	dev_t n;

	if (sysdev_device_get_devnum(d, &n) < 0)
		return NULL;
	snprintf(buf, size, "%u:%u", major(n), minor(n));
	return buf;
}

static struct sysdev_device *device_at(struct sysdev_enumerator *e, size_t i)
{
	struct sysdev_device *d = NULL;

	(void)sysdev_enumerator_get_device_at(e, i, &d);
	return d;
}

static int add_match(struct sysdev_enumerator *e, const char *m)
{
	const char *v = strchr(m, '=');
	char key[64];

	if (strcmp(m, "unlinked") == 0)
		return sysdev_enumerator_add_match_unlinked(e);
	if (!v || (size_t)(v - m) >= sizeof(key))
		return -EINVAL;
	memcpy(key, m, (size_t)(v - m));
	key[v - m] = '\0';
	v++;
	if (!strcmp(key, "subsystem"))
		return sysdev_enumerator_add_match_subsystem(e, v, true);
	if (!strcmp(key, "nosubsystem"))
		return sysdev_enumerator_add_match_subsystem(e, v, false);
	if (!strcmp(key, "sysname"))
		return sysdev_enumerator_add_match_sysname(e, v);
	if (!strcmp(key, "nosysname"))
		return sysdev_enumerator_add_nomatch_sysname(e, v);
	if (!strcmp(key, "driver"))
		return sysdev_enumerator_add_match_driver(e, v);
	if (!strcmp(key, "devtype"))
		return sysdev_enumerator_add_match_devtype(e, v);
	if (!strcmp(key, "parent"))
		return sysdev_enumerator_add_match_parent(e, v);
	if (!strcmp(key, "placement"))
		return sysdev_enumerator_add_match_placement(
		    e, !strcmp(v, "virtual")  ? SYSDEV_PLACEMENT_VIRTUAL
		       : !strcmp(v, "system") ? SYSDEV_PLACEMENT_SYSTEM
					      : SYSDEV_PLACEMENT_DEVICES);
	if (!strcmp(key, "property") || !strcmp(key, "sysattr") || !strcmp(key, "nosysattr") ||
	    !strcmp(key, "value")) {
		char name[256];
		const char *g = strchr(v, '=');
		size_t n = g ? (size_t)(g - v) : strlen(v);

		if (n >= sizeof(name))
			return -EINVAL;
		memcpy(name, v, n);
		name[n] = '\0';
		if (key[0] == 'v')
			return sysdev_enumerator_add_match_value(e, name, g ? g + 1 : NULL);
		if (key[0] == 'n')
			return sysdev_enumerator_add_nomatch_sysattr(e, name, g ? g + 1 : NULL);
		return key[0] == 'p'
			   ? sysdev_enumerator_add_match_property(e, name, g ? g + 1 : NULL)
			   : sysdev_enumerator_add_match_sysattr(e, name, g ? g + 1 : NULL);
	}
	return -EINVAL;
}

static int list(const char *root, int argc, char **argv)
{
	struct sysdev_enumerator *e;
	struct sysdev *ctx;
	int r;

	if (sysdev_new(root, &ctx) < 0 || sysdev_enumerator_new(ctx, &e) < 0)
		return 2;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--full"))
			r = sysdev_enumerator_set_full_walk(e, true);
		else if (!strcmp(argv[i], "--no-subsystem"))
			r = sysdev_enumerator_allow_no_subsystem(e, true);
		else
			r = add_match(e, argv[i]);
		if (r < 0) {
			fprintf(stderr, "enumtool: %s: %s\n", argv[i], strerror(-r));
			return 2;
		}
	}
	r = sysdev_enumerator_scan(e);
	if (r < 0) {
		fprintf(stderr, "enumtool: scan: %s\n", strerror(-r));
		return 1;
	}
	for (size_t i = 0; i < sysdev_enumerator_get_count(e); i++) {
		struct sysdev_device *d = device_at(e, i);
		const char *parent = parent_devpath(d);

		printf("%s subsystem=%s driver=%s parent=%s devname=%s\n",
		       str(d, sysdev_device_get_devpath),
		       str(d, sysdev_device_get_subsystem) ?: "-",
		       str(d, sysdev_device_get_driver) ?: "-", parent ?: "-",
		       str(d, sysdev_device_get_devname) ?: "-");
	}
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
	return 0;
}

/* One line per device with every field: two scans must print the same. */
static char *scan_text(struct sysdev *ctx, const char *subsystem, bool full)
{
	struct sysdev_enumerator *e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || sysdev_enumerator_new(ctx, &e) < 0)
		abort();
	sysdev_enumerator_add_match_subsystem(e, subsystem, true);
	sysdev_enumerator_set_full_walk(e, full);
	if (sysdev_enumerator_scan(e) < 0)
		fprintf(f, "scan failed\n");
	for (size_t i = 0; i < sysdev_enumerator_get_count(e); i++) {
		struct sysdev_device *d = device_at(e, i);
		char num[32];

		fprintf(f, "%s %s %s %s %s %s %s\n", str(d, sysdev_device_get_devpath),
			str(d, sysdev_device_get_subsystem) ?: "-",
			str(d, sysdev_device_get_driver) ?: "-", parent_devpath(d) ?: "-",
			str(d, sysdev_device_get_class_dir) ?: "-",
			devnum(d, num, sizeof(num)) ?: "-",
			str(d, sysdev_device_get_devname) ?: "-");
	}
	sysdev_enumerator_unref(e);
	fclose(f);
	return buf;
}

static int compare(const char *root)
{
	struct sysdev_enumerator *all;
	struct sysdev *ctx;
	char **subs = NULL;
	size_t nsubs = 0, ndiff = 0, ndev = 0;

	if (sysdev_new(root, &ctx) < 0 || sysdev_enumerator_new(ctx, &all) < 0)
		return 2;
	/* every subsystem some device has: taken from a full walk */
	if (sysdev_enumerator_scan(all) < 0)
		return 2;
	for (size_t i = 0; i < sysdev_enumerator_get_count(all); i++) {
		const char *s = str(device_at(all, i), sysdev_device_get_subsystem);
		size_t j;

		if (!s)
			continue;
		for (j = 0; j < nsubs && strcmp(subs[j], s); j++)
			;
		if (j == nsubs) {
			subs = realloc(subs, (nsubs + 1) * sizeof(*subs));
			subs[nsubs++] = strdup(s);
		}
	}
	for (size_t i = 0; i < nsubs; i++) {
		char *a = scan_text(ctx, subs[i], false), *b = scan_text(ctx, subs[i], true);

		for (char *p = a; *p; p++)
			ndev += *p == '\n';
		if (strcmp(a, b) != 0) {
			ndiff++;
			printf("subsystem %s: indexed and walked differ\n--- indexed\n%s--- "
			       "walked\n%s",
			       subs[i], a, b);
		}
		free(a);
		free(b);
		free(subs[i]);
	}
	printf("compare %s: %zu subsystems, %zu devices, %zu differ\n", root, nsubs, ndev, ndiff);
	free(subs);
	sysdev_enumerator_unref(all);
	sysdev_unref(ctx);
	return ndiff ? 1 : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct query {
	const char *name;
	const char *subsystem, *driver, *prop_key, *prop_glob;
};

/* The same work through each library: find, then read subsystem, driver, devnode. */
static size_t run_sysdev(const struct query *q)
{
	struct sysdev_enumerator *e;
	struct sysdev *ctx;
	size_t n, sum = 0;

	sysdev_new(NULL, &ctx);
	sysdev_enumerator_new(ctx, &e);
	if (q->subsystem)
		sysdev_enumerator_add_match_subsystem(e, q->subsystem, true);
	if (q->driver)
		sysdev_enumerator_add_match_driver(e, q->driver);
	if (q->prop_key)
		sysdev_enumerator_add_match_property(e, q->prop_key, q->prop_glob);
	sysdev_enumerator_scan(e);
	n = sysdev_enumerator_get_count(e);
	for (size_t i = 0; i < n; i++) {
		struct sysdev_device *d = device_at(e, i);

		sum += !!str(d, sysdev_device_get_subsystem) + !!str(d, sysdev_device_get_driver) +
		       !!str(d, sysdev_device_get_devname);
	}
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
	return n + (sum & 0);
}

static size_t run_udev(const struct query *q)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e = udev_enumerate_new(udev);
	struct udev_list_entry *l;
	size_t n = 0;

	if (q->subsystem)
		udev_enumerate_add_match_subsystem(e, q->subsystem);
	if (q->prop_key)
		udev_enumerate_add_match_property(e, q->prop_key, q->prop_glob);
	udev_enumerate_scan_devices(e);
	udev_list_entry_foreach(l, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *d =
		    udev_device_new_from_syspath(udev, udev_list_entry_get_name(l));
		const char *drv;

		if (!d)
			continue;
		drv = udev_device_get_driver(d);
		/* libudev has no driver match: the caller filters, as a port would */
		if (!q->driver || (drv && strcmp(drv, q->driver) == 0)) {
			(void)udev_device_get_subsystem(d);
			(void)udev_device_get_devnode(d);
			n++;
		}
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return n;
}

static double median_ms(size_t (*fn)(const struct query *), const struct query *q, int runs,
			size_t *count)
{
	double *t = calloc((size_t)runs, sizeof(*t)), m;

	for (int i = 0; i < runs; i++) {
		double t0 = now_ms();

		*count = fn(q);
		t[i] = now_ms() - t0;
	}
	qsort(t, (size_t)runs, sizeof(*t), cmp_double);
	m = t[runs / 2];
	free(t);
	return m;
}

/* Lookups: 200 in a row, since one is too short to time. */
static unsigned bench_major, bench_minor;

static size_t lookup_devnum_sysdev(const struct query *q)
{
	struct sysdev *ctx;
	size_t n = 0;

	(void)q;
	sysdev_new(NULL, &ctx);
	for (int i = 0; i < 200; i++) {
		struct sysdev_device *d;

		if (sysdev_device_new_from_devnum(ctx, 'b', makedev(bench_major, bench_minor),
						  &d) == 0) {
			n += !!str(d, sysdev_device_get_subsystem) +
			     !!str(d, sysdev_device_get_devname);
			sysdev_device_unref(d);
		}
	}
	sysdev_unref(ctx);
	return n / 2;
}

static size_t lookup_devnum_udev(const struct query *q)
{
	struct udev *udev = udev_new();
	size_t n = 0;

	(void)q;
	for (int i = 0; i < 200; i++) {
		struct udev_device *d =
		    udev_device_new_from_devnum(udev, 'b', makedev(bench_major, bench_minor));

		if (d) {
			n += !!udev_device_get_subsystem(d) + !!udev_device_get_devnode(d);
			udev_device_unref(d);
		}
	}
	udev_unref(udev);
	return n / 2;
}

static size_t lookup_name_sysdev(const struct query *q)
{
	struct sysdev *ctx;
	size_t n = 0;

	(void)q;
	sysdev_new(NULL, &ctx);
	for (int i = 0; i < 200; i++) {
		struct sysdev_device *d;

		if (sysdev_device_new_from_subsystem_sysname(ctx, "net", "lo", &d) == 0) {
			n += !!str(d, sysdev_device_get_subsystem) + !!property(d, "IFINDEX");
			sysdev_device_unref(d);
		}
	}
	sysdev_unref(ctx);
	return n / 2;
}

static size_t lookup_name_udev(const struct query *q)
{
	struct udev *udev = udev_new();
	size_t n = 0;

	(void)q;
	for (int i = 0; i < 200; i++) {
		struct udev_device *d = udev_device_new_from_subsystem_sysname(udev, "net", "lo");

		if (d) {
			n += !!udev_device_get_subsystem(d) +
			     !!udev_device_get_property_value(d, "IFINDEX");
			udev_device_unref(d);
		}
	}
	udev_unref(udev);
	return n / 2;
}

static void bench_pair(const char *name, size_t (*s_fn)(const struct query *),
		       size_t (*u_fn)(const struct query *), const struct query *q, int runs)
{
	size_t ns = 0, nu = 0;
	double s, u;

	/* one warm-up each, then the median of @runs */
	s_fn(q);
	u_fn(q);
	s = median_ms(s_fn, q, runs, &ns);
	u = median_ms(u_fn, q, runs, &nu);
	printf("enumerate %s: libsysdev %.3f ms, libudev %.3f ms, ratio %.1f (%zu / %zu)\n", name,
	       s, u, s > 0 ? u / s : 0, ns, nu);
	fflush(stdout);
}

static int bench(int runs)
{
	static const struct query queries[] = {
	    {"every device", NULL, NULL, NULL, NULL},
	    {"subsystem block", "block", NULL, NULL, NULL},
	    {"subsystem net", "net", NULL, NULL, NULL},
	    {"driver virtio-pci", NULL, "virtio-pci", NULL, NULL},
	    {"property DEVTYPE=disk", NULL, NULL, "DEVTYPE", "disk"},
	};

	DIR *d = opendir("/sys/dev/block");
	struct dirent *de;

	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
		bench_pair(queries[i].name, run_sysdev, run_udev, &queries[i], runs);
	while (d && (de = readdir(d)))
		if (sscanf(de->d_name, "%u:%u", &bench_major, &bench_minor) == 2)
			break;
	if (d)
		closedir(d);
	bench_pair("lookup by devnum (200 times)", lookup_devnum_sysdev, lookup_devnum_udev,
		   &queries[0], runs);
	bench_pair("lookup net:lo (200 times)", lookup_name_sysdev, lookup_name_udev, &queries[0],
		   runs);
	return 0;
}

/* libudev's answer for one subsystem on /sys, devpaths sorted as strcmp does */
static int udev_list(const char *subsystem)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e = udev_enumerate_new(udev);
	struct udev_list_entry *l;

	udev_enumerate_add_match_subsystem(e, subsystem);
	if (udev_enumerate_scan_devices(e) < 0)
		return 1;
	udev_list_entry_foreach(l, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *d =
		    udev_device_new_from_syspath(udev, udev_list_entry_get_name(l));

		if (d)
			printf("%s\n", udev_device_get_devpath(d));
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return 0;
}

/* libudev's answer for the matches on /sys */
static int udev_match(int argc, char **argv)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e = udev_enumerate_new(udev);
	struct udev_list_entry *l;

	for (int i = 0; i < argc; i++) {
		char *key = strdup(argv[i]), *v = strchr(key, '='), *g;
		int r = -EINVAL;

		if (!v)
			return 2;
		*v++ = '\0';
		g = strchr(v, '=');
		if (!strcmp(key, "subsystem"))
			r = udev_enumerate_add_match_subsystem(e, v);
		else if (!strcmp(key, "nosubsystem"))
			r = udev_enumerate_add_nomatch_subsystem(e, v);
		else if (!strcmp(key, "sysname"))
			r = udev_enumerate_add_match_sysname(e, v);
		else if (!strcmp(key, "property") || !strcmp(key, "sysattr") ||
			 !strcmp(key, "nosysattr")) {
			if (g)
				*g++ = '\0';
			r = key[0] == 'p'   ? udev_enumerate_add_match_property(e, v, g ? g : "*")
			    : key[0] == 'n' ? udev_enumerate_add_nomatch_sysattr(e, v, g)
					    : udev_enumerate_add_match_sysattr(e, v, g);
		}
		free(key);
		if (r < 0) {
			fprintf(stderr, "enumtool: %s: %s\n", argv[i], strerror(-r));
			return 2;
		}
	}
	if (udev_enumerate_scan_devices(e) < 0)
		return 1;
	udev_list_entry_foreach(l, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *d =
		    udev_device_new_from_syspath(udev, udev_list_entry_get_name(l));

		if (d)
			printf("%s\n", udev_device_get_devpath(d));
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return 0;
}

/* Attribute values through each library: the value, or "-ERRNO" (libsysdev), "-" (libudev). */
static int attrs(const char *root, const char *spec, int argc, char **argv)
{
	struct sysdev_device *d;
	struct sysdev *ctx;
	char buf[4097];

	if (sysdev_new(root, &ctx) < 0 || sysdev_device_new(ctx, spec, &d) < 0)
		return 2;
	for (int i = 0; i < argc; i++) {
		ssize_t len = sysdev_device_read_attribute(d, argv[i], buf, sizeof(buf));

		if (len < 0)
			printf("%s -%s\n", argv[i], strerrorname_np((int)-len));
		else
			printf("%s %s\n", argv[i], buf);
	}
	sysdev_device_unref(d);
	sysdev_unref(ctx);
	return 0;
}

static int udev_attrs(const char *syspath, int argc, char **argv)
{
	struct udev *udev = udev_new();
	struct udev_device *d = udev_device_new_from_syspath(udev, syspath);

	if (!d)
		return 2;
	for (int i = 0; i < argc; i++) {
		const char *v = udev_device_get_sysattr_value(d, argv[i]);

		printf("%s %s\n", argv[i], v ? v : "-");
	}
	udev_device_unref(d);
	udev_unref(udev);
	return 0;
}

/* sysdev_device_new() of each SPEC: its devpath, or the errno's name. */
static int new_device(const char *root, int argc, char **argv)
{
	struct sysdev *ctx;

	if (sysdev_new(root, &ctx) < 0)
		return 2;
	for (int i = 0; i < argc; i++) {
		struct sysdev_device *d;
		int r = sysdev_device_new(ctx, argv[i], &d);

		if (r < 0) {
			printf("%s -%s\n", argv[i], strerrorname_np(-r));
			continue;
		}
		printf("%s %s\n", argv[i], str(d, sysdev_device_get_devpath));
		sysdev_device_unref(d);
	}
	sysdev_unref(ctx);
	return 0;
}

static int count_one(struct sysdev_device *d, void *data)
{
	/* what a caller would read of each */
	*(size_t *)data += 1 + (str(d, sysdev_device_get_subsystem) ? 0 : 0);
	return 0;
}

/* Every device of ROOT: kept by a scan ("count"), or handed over as found ("stream"). */
static int count(const char *root, bool stream, int argc, char **argv)
{
	struct sysdev_device *d;
	struct sysdev_enumerator *e;
	struct sysdev *ctx;
	size_t n = 0;
	int r;

	if (sysdev_new(root, &ctx) < 0 || sysdev_enumerator_new(ctx, &e) < 0)
		return 2;
	for (int i = 0; i < argc; i++)
		if (add_match(e, argv[i]) < 0)
			return 2;
	/* one way to hand devices over since 1.0: the scan keeps them, the caller iterates */
	(void)stream;
	r = sysdev_enumerator_scan(e);
	SYSDEV_FOREACH_DEVICE(e, d)
	count_one(d, &n);
	printf("%zu\n", n);
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
	return r < 0 ? 1 : 0;
}

static int print_one(struct sysdev_device *d, void *data)
{
	(void)data;
	printf("%s\n", str(d, sysdev_device_get_devpath));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && (!strcmp(argv[1], "count") || !strcmp(argv[1], "stream")))
		return count(argv[2], argv[1][0] == 's', argc - 3, argv + 3);
	if (argc >= 3 && !strcmp(argv[1], "foreach")) {
		struct sysdev_enumerator *e;
		struct sysdev *ctx;
		int r;

		if (sysdev_new(argv[2], &ctx) < 0 || sysdev_enumerator_new(ctx, &e) < 0)
			return 2;
		for (int i = 3; i < argc; i++)
			if (add_match(e, argv[i]) < 0)
				return 2;
		struct sysdev_device *d;

		r = sysdev_enumerator_scan(e);
		SYSDEV_FOREACH_DEVICE(e, d)
		print_one(d, NULL);
		sysdev_enumerator_unref(e);
		sysdev_unref(ctx);
		return r < 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "udev-match"))
		return udev_match(argc - 2, argv + 2);
	if (argc >= 4 && !strcmp(argv[1], "attr"))
		return attrs(argv[2], argv[3], argc - 4, argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "udev-attr"))
		return udev_attrs(argv[2], argc - 3, argv + 3);
	if (argc >= 3 && !strcmp(argv[1], "new"))
		return new_device(argv[2], argc - 3, argv + 3);
	if (argc == 3 && !strcmp(argv[1], "udev-list"))
		return udev_list(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "list"))
		return list(argv[2], argc - 3, argv + 3);
	if (argc == 3 && !strcmp(argv[1], "compare"))
		return compare(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return bench(argc > 2 ? atoi(argv[2]) : 21);
	fprintf(stderr,
		"usage: enumtool list ROOT [--full] [MATCH...] | compare ROOT | bench [RUNS]\n");
	return 2;
}
