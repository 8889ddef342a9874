/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hostile-vanish DIR: directories that disappear during a walk (hotplug).
 *
 * A walk lists a directory with getdents64 and opens each child later; a
 * device removed in between gives ENOENT (or ENOTDIR when something else took
 * its name).  The walk must skip it, count it in stats.vanished and go on.
 * The enter callback removes listed-but-not-yet-opened directories from
 * inside the walk, which is exactly that window, made deterministic.
 *
 * Also: a walk that runs out of file descriptors (a low RLIMIT_NOFILE and a
 * deep chain) counts too_deep and still ends with 0; so does a walk of a
 * chain deeper than SYSDEV_MAX_DEPTH in a thread with a 128 KiB stack
 * (the recursion needs ~2.5 MiB for the full depth: it must stop, not crash).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev.h"

#include "walk-test.h"

static int failures;
static char root[4096];

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			failures++;                                                                \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
			printf(__VA_ARGS__);                                                       \
			putchar('\n');                                                             \
		}                                                                                  \
	} while (0)

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void pathf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = snprintf(buf, size, "%s/", root);

	vsnprintf(buf + n, size - (size_t)n, fmt, ap);
}

static void mkdir_f(const char *fmt, ...)
{
	char p[8192];
	va_list ap;

	va_start(ap, fmt);
	pathf(p, sizeof(p), fmt, ap);
	va_end(ap);
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		die(p);
}

static void file_f(const char *fmt, ...)
{
	char p[8192];
	va_list ap;
	int fd;

	va_start(ap, fmt);
	pathf(p, sizeof(p), fmt, ap);
	va_end(ap);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(p);
	close(fd);
}

static void rm_f(const char *fmt, ...)
{
	char p[8192];
	va_list ap;

	va_start(ap, fmt);
	pathf(p, sizeof(p), fmt, ap);
	va_end(ap);
	if (remove(p) < 0)
		die(p);
}

static void device_f(const char *devpath)
{
	mkdir_f("%s", devpath);
	file_f("%s/uevent", devpath);
}

static void build(void)
{
	mkdir_f("devices");
	mkdir_f("class");
	mkdir_f("bus");
	device_f("devices/platform");
	device_f("devices/platform/a");
	device_f("devices/platform/a/c1");
	device_f("devices/platform/a/c2");
	device_f("devices/platform/a/c2/deeper");
	device_f("devices/platform/a/c3");
	device_f("devices/platform/b");
	device_f("devices/platform/b/x");
	device_f("devices/platform/c");
	device_f("devices/platform/d");
}

/* Undo whatever a previous round left, then build afresh. */
static void rebuild(void)
{
	char cmd[3 * sizeof(root) + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/devices' '%s/class' '%s/bus'", root, root, root);
	if (system(cmd) != 0)
		die("rm -rf");
	build();
}

struct seen {
	char names[64][64];
	int n;
	const char *remove_at; /* name whose enter triggers the removals */
	int mode;	       /* which removals */
};

static void remove_now(int mode)
{
	if (mode == 0) {
		/* a sibling listed in /devices/platform, not yet opened */
		rm_f("devices/platform/b/x/uevent");
		rm_f("devices/platform/b/x");
		rm_f("devices/platform/b/uevent");
		rm_f("devices/platform/b");
		/* a child of the node being entered, listed, not yet opened */
		rm_f("devices/platform/a/c2/deeper/uevent");
		rm_f("devices/platform/a/c2/deeper");
		rm_f("devices/platform/a/c2/uevent");
		rm_f("devices/platform/a/c2");
		/* a sibling replaced by a regular file of the same name */
		rm_f("devices/platform/c/uevent");
		rm_f("devices/platform/c");
		file_f("devices/platform/c");
	} else {
		/* the whole subtree of the next sibling, and the entered node's own child */
		rm_f("devices/platform/a/c1/uevent");
		rm_f("devices/platform/a/c1");
	}
}

static int on_enter(struct sysdev_node *node, void *data)
{
	struct seen *s = data;

	if (s->n < 64)
		snprintf(s->names[s->n++], sizeof(s->names[0]), "%s", sysdev_node_get_name(node));
	if (s->remove_at && strcmp(sysdev_node_get_name(node), s->remove_at) == 0) {
		remove_now(s->mode);
		s->remove_at = NULL;
	}
	return 0;
}

static bool seen_has(const struct seen *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return true;
	return false;
}

static void round_trip(unsigned flags)
{
	struct walk_stats st;
	struct sysdev_device *dev;
	struct seen s = {.remove_at = "a", .mode = 0};
	struct sysdev *ctx;
	int err;

	rebuild();
	err = sysdev_new(root, &ctx);
	CHECK(err == 0, "sysdev_new: %d", err);
	if (err < 0)
		return;
	/* the device is there before the walk... */
	err = sysdev_device_new(ctx, "/devices/platform/b", &dev);
	CHECK(err == 0, "device b before: %d", err);
	sysdev_device_unref(dev);

	err = walk(ctx, NULL, flags, -1, on_enter, NULL, &s, &st);
	CHECK(err == 0, "flags %#x: walk returned %d", flags, err);
	CHECK(st.vanished == 3, "flags %#x: vanished %lu, expected 3 (b, a/c2, c)", flags,
	      st.vanished);
	CHECK(st.unreadable == 0, "flags %#x: unreadable %lu", flags, st.unreadable);
	CHECK(!seen_has(&s, "b") && !seen_has(&s, "x") && !seen_has(&s, "c2") &&
		  !seen_has(&s, "deeper") && !seen_has(&s, "c"),
	      "flags %#x: a removed directory was reported", flags);
	CHECK(seen_has(&s, "c1") && seen_has(&s, "c3") && seen_has(&s, "d"),
	      "flags %#x: a surviving directory was not reported", flags);
	/* /devices, platform, a, c1, c3, d */
	CHECK(s.n == 6, "flags %#x: %d nodes reported, expected 6", flags, s.n);
	CHECK(st.devices == 5, "flags %#x: %lu devices, expected 5", flags, st.devices);

	/* ...and gone after it: every lookup says ENOENT, none crashes */
	err = sysdev_device_new(ctx, "/devices/platform/b", &dev);
	CHECK(err == -ENOENT, "device b after: %d", err);
	err = sysdev_device_new(ctx, "/devices/platform/c", &dev);
	CHECK(err == -ENOENT || err == -ENOTDIR || err == -ENODEV, "device c after: %d", err);
	err = walk(ctx, "/devices/platform/b", flags, -1, on_enter, NULL, &s, &st);
	CHECK(err == -ENOENT, "walk from vanished b: %d", err);
	err = sysdev_classify(ctx, "/devices/platform/a/c2");
	CHECK(err == -ENOENT, "classify vanished c2: %d", err);
	sysdev_unref(ctx);
}

/* The entered node loses a child it listed, as the first child. */
static void own_child(void)
{
	struct walk_stats st;
	struct seen s = {.remove_at = "a", .mode = 1};
	struct sysdev *ctx;
	int err;

	rebuild();
	if (sysdev_new(root, &ctx) < 0)
		die("sysdev_new");
	err = walk(ctx, "/devices/platform/a", SYSDEV_WALK_SIBLINGS, -1, on_enter, NULL, &s, &st);
	CHECK(err == 0, "walk from a: %d", err);
	CHECK(st.vanished == 1, "vanished %lu, expected 1", st.vanished);
	CHECK(!seen_has(&s, "c1") && seen_has(&s, "c2") && seen_has(&s, "deeper") &&
		  seen_has(&s, "c3"),
	      "wrong nodes reported");
	sysdev_unref(ctx);
}

static int count_enter(struct sysdev_node *node, void *data)
{
	(void)node;
	(*(unsigned long *)data)++;
	return 0;
}

/* Out of descriptors in a deep chain: too_deep, not a failure of the walk. */
static void fd_limit(void)
{
	struct walk_stats st;
	struct rlimit old, rl;
	unsigned long n = 0;
	struct sysdev *ctx;
	char rel[512] = "devices/platform";
	int err;

	rebuild();
	for (int i = 0; i < 80; i++) {
		strcat(rel, "/z");
		mkdir_f("%s", rel);
	}
	if (sysdev_new(root, &ctx) < 0)
		die("sysdev_new");
	getrlimit(RLIMIT_NOFILE, &old);
	rl = old;
	rl.rlim_cur = 40;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("setrlimit");
	err = walk(ctx, NULL, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_SIBLINGS, -1, count_enter, NULL,
		   &n, &st);
	setrlimit(RLIMIT_NOFILE, &old);
	CHECK(err == 0, "walk at the descriptor limit returned %d", err);
	CHECK(st.too_deep >= 1, "too_deep %lu, expected >= 1", st.too_deep);
	CHECK(n > 20 && n < 90, "%lu nodes reported", n);
	/* no descriptor leaked: the next open gets a low number */
	int fd = open("/dev/null", O_RDONLY);
	CHECK(fd >= 0 && fd < 10, "descriptor %d after the walk: leak?", fd);
	if (fd >= 0)
		close(fd);
	sysdev_unref(ctx);
}

struct small_stack_walk {
	struct sysdev *ctx;
	struct walk_stats st;
	unsigned long n;
	int err;
};

static void *small_stack_thread(void *data)
{
	struct small_stack_walk *s = data;

	s->err = walk(s->ctx, NULL, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_SIBLINGS, -1, count_enter,
		      NULL, &s->n, &s->st);
	return NULL;
}

static void small_stack(void)
{
	struct small_stack_walk s = {0};
	pthread_attr_t attr;
	pthread_t t;
	char name[8192 * 2 + 64];
	int fd, nfd;

	rebuild();
	/* a chain of 8300 directories, made with directory descriptors */
	snprintf(name, sizeof(name), "%s/devices/platform", root);
	fd = open(name, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die(name);
	for (int i = 0; i < 8300; i++) {
		if (mkdirat(fd, "z", 0755) < 0)
			die("mkdirat");
		nfd = openat(fd, "z", O_RDONLY | O_DIRECTORY);
		if (nfd < 0)
			die("openat");
		close(fd);
		fd = nfd;
	}
	close(fd);
	if (sysdev_new(root, &s.ctx) < 0)
		die("sysdev_new");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 * 1024);
	if (pthread_create(&t, &attr, small_stack_thread, &s) != 0)
		die("pthread_create");
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	CHECK(s.err == 0, "walk in a 128 KiB thread returned %d", s.err);
	CHECK(s.st.too_deep >= 1, "too_deep %lu in a 128 KiB thread", s.st.too_deep);
	CHECK(s.n > 50, "only %lu nodes reported in a 128 KiB thread", s.n);
	printf("128 KiB thread: %lu nodes reported before the stack bound\n", s.n);
	sysdev_unref(s.ctx);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s EMPTY-DIR\n", argv[0]);
		return 2;
	}
	snprintf(root, sizeof(root), "%s/sys", argv[1]);
	if (mkdir(root, 0755) < 0 && errno != EEXIST)
		die(root);
	round_trip(0);
	round_trip(SYSDEV_WALK_SIBLINGS);
	round_trip(SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_UEVENT);
	round_trip(SYSDEV_WALK_SIBLINGS | SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_UEVENT |
		   SYSDEV_WALK_NO_LINKS);
	own_child();
	fd_limit();
	small_stack();
	printf("%s: %d failure(s)\n", argv[0], failures);
	return failures ? 1 : 0;
}
