/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The monitor's events: devices with an action and a seqnum, from messages written by hand. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "monitor-private.h"
#include "tree.h"

#define CLIENT "/devices/platform/omap_i2c.2/i2c-2/2-0045"
#define LED CLIENT "/leds/gta04:green:power"

static int setup(void **state)
{
	char *root = tree_new();

	tree_article(root);
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tree_free(*state);
	return 0;
}

/* An event from a kernel message: "ACTION@DEVPATH\0KEY=VALUE\0..." of @len bytes. */
static struct sysdev_device *event(struct sysdev *ctx, const char *msg, size_t len)
{
	struct uevent_message m;
	struct sysdev_device *dev = NULL;

	assert_int_equal(uevent_message_parse(&m, msg, len), 0);
	assert_int_equal(device_new_from_message(ctx, &m, true, &dev), 0);
	uevent_message_free(&m);
	return dev;
}

#define EVENT(ctx, lit) event((ctx), (lit), sizeof(lit))

static void test_add(void **state)
{
	struct sysdev_device *dev, *parent;
	enum sysdev_placement pl;
	enum sysdev_kind kind;
	struct sysdev *ctx;
	uint64_t seqnum;
	const char *v;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	dev = EVENT(ctx, "change@" LED "\0ACTION=change\0DEVPATH=" LED
			 "\0SUBSYSTEM=leds\0SEQNUM=4711\0TRIGGER=none");
	assert_int_equal(sysdev_device_get_action(dev, &v), 0);
	assert_string_equal(v, "change");
	assert_int_equal(sysdev_device_get_seqnum(dev, &seqnum), 0);
	assert_int_equal(seqnum, 4711);
	assert_int_equal(sysdev_device_get_devpath(dev, &v), 0);
	assert_string_equal(v, LED);
	assert_int_equal(sysdev_device_get_name(dev, &v), 0);
	assert_string_equal(v, "gta04:green:power");
	assert_int_equal(sysdev_device_get_subsystem(dev, &v), 0);
	assert_string_equal(v, "leds");
	assert_int_equal(sysdev_device_get_property(dev, "TRIGGER", &v), 0);
	assert_string_equal(v, "none");
	assert_int_equal(sysdev_device_get_driver(dev, &v), -ENOENT);
	/* looked up while it was there */
	assert_int_equal(sysdev_device_get_kind(dev, &kind), 0);
	assert_int_equal(kind, SYSDEV_KIND_DEVICE);
	assert_int_equal(sysdev_device_get_class_dir(dev, &v), 0);
	assert_string_equal(v, "leds");
	assert_int_equal(sysdev_device_get_parent(dev, &parent), 0);
	assert_int_equal(sysdev_device_get_devpath(parent, &v), 0);
	assert_string_equal(v, CLIENT);
	assert_int_equal(sysdev_device_get_placement(dev, &pl), 0);
	assert_int_equal(pl, SYSDEV_PLACEMENT_DEVICES);
	assert_null(sysdev_device_unref(dev));
	sysdev_unref(ctx);
}

/* A remove, and a path outside S/devices: what cannot be looked up is absent. */
static void test_remove_and_module(void **state)
{
	struct sysdev_device *dev, *parent;
	enum sysdev_placement pl;
	enum sysdev_kind kind;
	struct sysdev *ctx;
	const char *v;
	dev_t devnum;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	dev = EVENT(ctx, "remove@" CLIENT "/block/sda\0ACTION=remove\0DEVPATH=" CLIENT
			 "/block/sda\0SUBSYSTEM=block\0SEQNUM=9\0MAJOR=8\0MINOR=0\0DEVNAME=sda");
	assert_int_equal(sysdev_device_get_kind(dev, &kind), -ENOENT);
	assert_int_equal(sysdev_device_get_parent(dev, &parent), -ENOENT);
	assert_int_equal(sysdev_device_get_class_dir(dev, &v), -ENOENT);
	/* the message's number and name */
	assert_int_equal(sysdev_device_get_devnum(dev, &devnum), 0);
	assert_int_equal(devnum, makedev(8, 0));
	assert_int_equal(sysdev_device_get_devname(dev, &v), 0);
	assert_string_equal(v, "sda");
	sysdev_device_unref(dev);

	dev = EVENT(ctx, "add@/module/loop\0ACTION=add\0DEVPATH=/module/loop\0SUBSYSTEM=module\0"
			 "SEQNUM=10");
	assert_int_equal(sysdev_device_get_kind(dev, &kind), -ENOENT);
	assert_int_equal(sysdev_device_get_placement(dev, &pl), -ENOENT);
	assert_int_equal(sysdev_device_get_devnum(dev, &devnum), -ENOENT);
	assert_int_equal(sysdev_device_get_name(dev, &v), 0);
	assert_string_equal(v, "loop");
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

static void test_null(void **state)
{
	struct sysdev_monitor *m = (struct sysdev_monitor *)1;
	struct sysdev_device *dev = (struct sysdev_device *)1;
	struct sysdev *ctx;
	int r;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_monitor_new(NULL, &m), -EINVAL);
	assert_null(m);
	assert_int_equal(sysdev_monitor_new(ctx, NULL), -EINVAL);
	assert_int_equal(sysdev_monitor_receive(NULL, &dev), -EINVAL);
	assert_null(dev);
	assert_int_equal(sysdev_monitor_get_fd(NULL), -EINVAL);
	assert_int_equal(sysdev_monitor_get_dropped(NULL), 0);
	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(NULL, "x", NULL), -EINVAL);
	assert_null(sysdev_monitor_ref(NULL));
	assert_null(sysdev_monitor_unref(NULL));
	/* where netlink is allowed: nothing pending is -EAGAIN */
	r = sysdev_monitor_new(ctx, &m);
	if (r == 0) {
		assert_true(sysdev_monitor_get_fd(m) >= 0);
		assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, NULL, NULL),
				 -EINVAL);
		assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "net", NULL), 0);
		assert_int_equal(sysdev_monitor_receive(m, NULL), -EINVAL);
		{
			int fd = sysdev_monitor_get_fd(m);

			/* the last reference closes the socket */
			assert_null(sysdev_monitor_unref(m));
			assert_int_equal(fcntl(fd, F_GETFD), -1);
		}
	}
	sysdev_unref(ctx);
}

/* A monitor holds one reference of its own: the last unref frees it, and the
 * context it held goes with the caller's last one (its root closed). */
static void test_references(void **state)
{
	struct sysdev_monitor *m;
	struct sysdev *ctx;
	int root_fd;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	root_fd = sysdev_get_root_fd(ctx);
	assert_int_equal(monitor_new_detached(ctx, &m), 0);
	assert_ptr_equal(sysdev_monitor_ref(m), m);
	assert_null(sysdev_monitor_unref(m));
	sysdev_unref(ctx);
	assert_true(fcntl(root_fd, F_GETFD) >= 0); /* the monitor still holds it */
	assert_null(sysdev_monitor_unref(m));
	assert_int_equal(fcntl(root_fd, F_GETFD), -1);
}

/* net.core.rmem_max, the cap on SO_RCVBUF without CAP_NET_ADMIN; 0 when unreadable */
static size_t rmem_max(void)
{
	unsigned long v = 0;
	FILE *f = fopen("/proc/sys/net/core/rmem_max", "re");

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* SO_RCVBUFFORCE works here: tried on a socket of our own */
static bool force_permitted(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), n = 4096;
	bool ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &n, sizeof(n)) == 0;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* The granted buffer of a kernel monitor asked for @size, or 0 on any failure. */
static size_t granted(struct sysdev *ctx, size_t size)
{
	struct sysdev_monitor *m;
	size_t got = 0;

	if (sysdev_monitor_new(ctx, &m) < 0)
		return 0;
	if (sysdev_monitor_set_receive_buffer_size(m, size) < 0 ||
	    sysdev_monitor_get_receive_buffer_size(m, &got) < 0)
		got = 0;
	sysdev_monitor_unref(m);
	return got;
}

/*
 * The receive buffer asked for is what the kernel grants (it doubles it):
 * past net.core.rmem_max with CAP_NET_ADMIN, capped at it without; a size
 * below the cap is granted either way.  Without the capability checked in a
 * child that gave it up (root turned nobody), as every user runs it.
 */
static void test_receive_buffer(void **state)
{
	size_t cap = rmem_max(), small = 65536;
	struct sysdev *ctx;
	pid_t pid;
	int status;

	assert_true(cap >= small); /* Linux's floor is far above it */
	assert_int_equal(sysdev_new(*state, &ctx), 0);
	if (force_permitted())
		assert_int_equal(granted(ctx, 2 * cap), 4 * cap);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && setresuid(65534, 65534, 65534) < 0)
			_exit(3);
		if (force_permitted())
			_exit(4); /* still privileged: nothing to check */
		if (granted(ctx, small) != 2 * small)
			_exit(1);
		if (granted(ctx, 2 * cap) != 2 * cap)
			_exit(2);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	sysdev_unref(ctx);
}

/* A detached monitor of the article's tree, fed by hand. */
static struct sysdev_monitor *detached(struct sysdev **ctx, const char *root)
{
	struct sysdev_monitor *m;

	assert_int_equal(sysdev_new(root, ctx), 0);
	assert_int_equal(monitor_new_detached(*ctx, &m), 0);
	return m;
}

#define FEED(m, lit) monitor_handle_message((m), (lit), sizeof(lit))

/* The next event's seqnum (0 for a loss notice), or -1 when none is pending. */
static long long next_seqnum(struct sysdev_monitor *m)
{
	struct sysdev_device *ev;
	uint64_t seqnum = 0;
	const char *action;

	if (sysdev_monitor_receive(m, &ev) == -EAGAIN)
		return -1;
	assert_int_equal(sysdev_device_get_action(ev, &action), 0);
	if (strcmp(action, "lost") != 0)
		assert_int_equal(sysdev_device_get_seqnum(ev, &seqnum), 0);
	sysdev_device_unref(ev);
	return (long long)seqnum;
}

#define BLOCK(seq, devtype)                                                                        \
	"add@/devices/virtual/block/x\0ACTION=add\0DEVPATH=/devices/virtual/block/"                \
	"x\0SUBSYSTEM=block\0SEQNUM=" seq devtype

/* A devtype filter never passes an event without DEVTYPE; a subsystem one alone does. */
static void test_filter_subsystem_devtype(void **state)
{
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, *state);

	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "block", "disk"), 0);
	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "net", NULL), 0);
	assert_int_equal(FEED(m, BLOCK("1", "\0DEVTYPE=disk")), 0);
	assert_int_equal(FEED(m, BLOCK("2", "\0DEVTYPE=partition")), 0);
	assert_int_equal(FEED(m, BLOCK("3", "")), 0);
	assert_int_equal(FEED(m, "add@/devices/virtual/net/lo\0ACTION=add\0DEVPATH=/devices/"
				 "virtual/net/lo\0SUBSYSTEM=net\0SEQNUM=4"),
			 0);
	assert_int_equal(FEED(m, "add@/devices/virtual/mem/null\0ACTION=add\0DEVPATH=/devices/"
				 "virtual/mem/null\0SUBSYSTEM=mem\0SEQNUM=5\0DEVTYPE=disk"),
			 0);
	assert_int_equal(next_seqnum(m), 1);
	assert_int_equal(next_seqnum(m), 4);
	assert_int_equal(next_seqnum(m), -1);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

/* An event outside S/devices (a module's) is no device's: the monitor places it nowhere. */
static void test_module_event(void **state)
{
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, *state);
	struct sysdev_device *ev, *parent;
	enum sysdev_kind kind;
	const char *v;

	assert_int_equal(FEED(m, "add@/module/loop\0ACTION=add\0DEVPATH=/module/loop\0SUBSYSTEM="
				 "module\0SEQNUM=7"),
			 0);
	assert_int_equal(sysdev_monitor_receive(m, &ev), 0);
	assert_int_equal(sysdev_device_get_subsystem(ev, &v), 0);
	assert_string_equal(v, "module");
	assert_int_equal(sysdev_device_get_kind(ev, &kind), -ENOENT);
	assert_int_equal(sysdev_device_get_parent(ev, &parent), -ENOENT);
	sysdev_device_unref(ev);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

#define TAGGED(seq, tags)                                                                          \
	"add@/devices/virtual/input/in\0ACTION=add\0DEVPATH=/devices/virtual/input/"               \
	"in\0SUBSYSTEM=input\0SEQNUM=" seq tags

/* A tag is a whole member of TAGS, not a prefix or a part of one. */
static void test_filter_tag(void **state)
{
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, *state);

	assert_int_equal(sysdev_monitor_add_match_tag(m, "seat:x"), -EINVAL);
	assert_int_equal(sysdev_monitor_add_match_tag(m, "seat"), 0);
	assert_int_equal(FEED(m, TAGGED("1", "\0TAGS=:uaccess:seat:")), 0);
	assert_int_equal(FEED(m, TAGGED("2", "\0TAGS=:seats:")), 0);
	assert_int_equal(FEED(m, TAGGED("3", "\0TAGS=:sea:")), 0);
	assert_int_equal(FEED(m, TAGGED("4", "")), 0);
	assert_int_equal(FEED(m, TAGGED("5", "\0TAGS=:xseat:seat:")), 0);
	assert_int_equal(next_seqnum(m), 1);
	assert_int_equal(next_seqnum(m), 5);
	assert_int_equal(next_seqnum(m), -1);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

/* Property globs: any one of them; with a subsystem filter, both kinds must pass. */
static void test_filter_property(void **state)
{
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, *state);

	assert_int_equal(sysdev_monitor_add_match_property(m, "ID_BUS", "usb*"), 0);
	assert_int_equal(sysdev_monitor_add_match_property(m, "DEVNAME", "sd?"), 0);
	assert_int_equal(sysdev_monitor_add_match_property(m, "A=B", "x"), -EINVAL);
	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "block", NULL), 0);
	assert_int_equal(FEED(m, BLOCK("1", "\0ID_BUS=usb-storage")), 0);
	assert_int_equal(FEED(m, BLOCK("2", "\0ID_BUS=ata")), 0);
	assert_int_equal(FEED(m, BLOCK("3", "\0DEVNAME=sdb")), 0);
	assert_int_equal(FEED(m, BLOCK("4", "\0DEVNAME=sdb1")), 0);
	assert_int_equal(FEED(m, "add@/devices/virtual/net/lo\0ACTION=add\0DEVPATH=/devices/"
				 "virtual/net/lo\0SUBSYSTEM=net\0SEQNUM=5\0ID_BUS=usb"),
			 0);
	assert_int_equal(next_seqnum(m), 1);
	assert_int_equal(next_seqnum(m), 3);
	assert_int_equal(next_seqnum(m), -1);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

static void expect_loss(struct sysdev_monitor *m, const char *evidence, long long count,
			long long first, long long last)
{
	struct sysdev_device *ev;
	const char *v;
	uint64_t n;

	assert_int_equal(sysdev_monitor_receive(m, &ev), 0);
	assert_int_equal(sysdev_device_get_action(ev, &v), 0);
	assert_string_equal(v, "lost");
	assert_int_equal(sysdev_device_get_devpath(ev, &v), -ENOENT);
	assert_int_equal(sysdev_device_get_seqnum(ev, &n), -ENODATA);
	assert_int_equal(sysdev_device_get_lost_evidence(ev, &v), 0);
	assert_string_equal(v, evidence);
	if (count < 0)
		assert_int_equal(sysdev_device_get_lost_count(ev, &n), -ENODATA);
	else {
		assert_int_equal(sysdev_device_get_lost_count(ev, &n), 0);
		assert_int_equal(n, count);
	}
	if (first < 0)
		assert_int_equal(sysdev_device_get_lost_first(ev, &n), -ENODATA);
	else {
		assert_int_equal(sysdev_device_get_lost_first(ev, &n), 0);
		assert_int_equal(n, first);
	}
	if (last < 0)
		assert_int_equal(sysdev_device_get_lost_last(ev, &n), -ENODATA);
	else {
		assert_int_equal(sysdev_device_get_lost_last(ev, &n), 0);
		assert_int_equal(n, last);
	}
	sysdev_device_unref(ev);
}

#define NULLDEV(seq)                                                                               \
	"change@/devices/virtual/mem/null\0ACTION=change\0DEVPATH=/devices/virtual/mem/"           \
	"null\0SUBSYSTEM=mem\0SEQNUM=" seq

/*
 * A gap in the seqnums is a loss notice before the event that shows it, with
 * the exact count and range, also when the filters pass neither side of it;
 * an overflow names its evidence; malformed messages are dropped, not a gap.
 */
static void test_gap_and_malformed(void **state)
{
	struct sysdev_device *ev = NULL;
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, *state);

	assert_int_equal(FEED(m, NULLDEV("10")), 0);
	assert_int_equal(FEED(m, NULLDEV("11")), 0);
	assert_int_equal(FEED(m, NULLDEV("15")), 0);
	assert_int_equal(next_seqnum(m), 10);
	assert_int_equal(next_seqnum(m), 11);
	expect_loss(m, "seqnum", 3, 12, 14);
	assert_int_equal(next_seqnum(m), 15);
	/* refused whole: an empty key, a number with a tail, a blank number */
	assert_int_equal(FEED(m, "change@/devices/virtual/mem/null\0ACTION=change\0DEVPATH=/"
				 "devices/virtual/mem/null\0=x\0SEQNUM=16"),
			 -EBADMSG);
	assert_int_equal(FEED(m, NULLDEV("16x")), -EBADMSG);
	assert_int_equal(FEED(m, NULLDEV("")), -EBADMSG);
	assert_int_equal(FEED(m, NULLDEV(" 16")), -EBADMSG);
	assert_int_equal(sysdev_monitor_get_dropped(m), 4);
	assert_int_equal(next_seqnum(m), -1);
	/* an overflow: the next seqnum tells how many */
	monitor_note_overflow(m);
	assert_int_equal(FEED(m, NULLDEV("20")), 0);
	expect_loss(m, "enobufs", 4, 16, 19);
	assert_int_equal(next_seqnum(m), 20);
	/* an overflow with nothing after it: count unknown, then the gap with its count */
	monitor_note_overflow(m);
	expect_loss(m, "enobufs", -1, 21, -1);
	assert_int_equal(next_seqnum(m), -1);
	/* filtered out on both sides: the gap is still seen */
	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "net", NULL), 0);
	assert_int_equal(FEED(m, NULLDEV("23")), 0);
	expect_loss(m, "seqnum", 2, 21, 22);
	assert_int_equal(FEED(m, NULLDEV("24")), 0);
	assert_int_equal(sysdev_monitor_receive(m, &ev), -EAGAIN);
	assert_null(ev);
	/* an overflow that took no kernel message lost nothing */
	monitor_note_overflow(m);
	assert_int_equal(FEED(m, NULLDEV("25")), 0);
	assert_int_equal(sysdev_monitor_receive(m, &ev), -EAGAIN);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

static void expect_event(struct sysdev_monitor *m, const char *action, const char *devpath,
			 const char *parent, const char *class_dir, int synthesized)
{
	struct sysdev_device *ev;
	enum sysdev_kind kind;
	const char *v;
	uint64_t n;

	assert_int_equal(sysdev_monitor_receive(m, &ev), 0);
	assert_int_equal(sysdev_device_get_action(ev, &v), 0);
	assert_string_equal(v, action);
	assert_int_equal(sysdev_device_get_devpath(ev, &v), 0);
	assert_string_equal(v, devpath);
	assert_int_equal(sysdev_device_get_kind(ev, &kind), 0);
	assert_int_equal(kind, SYSDEV_KIND_DEVICE);
	if (parent) {
		struct sysdev_device *p = NULL;

		assert_int_equal(device_get_parent_devpath(ev, &v), 0);
		assert_string_equal(v, parent);
		(void)p;
	} else {
		assert_int_equal(device_get_parent_devpath(ev, &v), -ENOENT);
	}
	if (class_dir) {
		assert_int_equal(sysdev_device_get_class_dir(ev, &v), 0);
		assert_string_equal(v, class_dir);
	} else {
		assert_int_equal(sysdev_device_get_class_dir(ev, &v), -ENOENT);
	}
	assert_int_equal(sysdev_device_get_is_synthesized(ev), synthesized);
	assert_int_equal(sysdev_device_get_seqnum(ev, &n), synthesized ? -ENODATA : 0);
	sysdev_device_unref(ev);
}

/*
 * A remove says where the device sat when last seen; an add read after the
 * directory went says it from the message: the nearest device above is the
 * parent, a directory named after the subsystem between them the class dir.
 */
static void test_place_of_gone_devices(void **state)
{
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, *state);

	assert_int_equal(
	    FEED(m, "add@" LED "\0ACTION=add\0DEVPATH=" LED "\0SUBSYSTEM=leds\0SEQNUM=1"), 0);
	expect_event(m, "add", LED, CLIENT, "leds", 0);
	assert_int_equal(
	    FEED(m, "remove@" LED "\0ACTION=remove\0DEVPATH=" LED "\0SUBSYSTEM=leds\0SEQNUM=2"), 0);
	expect_event(m, "remove", LED, CLIENT, "leds", 0);
	assert_null(known_find(monitor_known(m), LED));
	/* never there: placed from the message */
	assert_int_equal(FEED(m, "add@" CLIENT "/leds/ghost\0ACTION=add\0DEVPATH=" CLIENT
				 "/leds/ghost\0SUBSYSTEM=leds\0SEQNUM=3"),
			 0);
	expect_event(m, "add", CLIENT "/leds/ghost", CLIENT, "leds", 0);
	assert_int_equal(FEED(m, "remove@" CLIENT "/leds/ghost\0ACTION=remove\0DEVPATH=" CLIENT
				 "/leds/ghost\0SUBSYSTEM=leds\0SEQNUM=4"),
			 0);
	expect_event(m, "remove", CLIENT "/leds/ghost", CLIENT, "leds", 0);
	/* a directory not named after the subsystem is no class dir */
	assert_int_equal(FEED(m, "add@" CLIENT "/leds/ghost2\0ACTION=add\0DEVPATH=" CLIENT
				 "/leds/ghost2\0SUBSYSTEM=misc\0SEQNUM=5"),
			 0);
	expect_event(m, "add", CLIENT "/leds/ghost2", CLIENT, NULL, 0);
	assert_int_equal(monitor_known(m)->n, 1);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

static size_t count_devices(struct sysdev *ctx)
{
	struct sysdev_enumerator *e;
	struct sysdev_device *d;
	size_t n = 0;

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_allow_no_subsystem(e, true), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	SYSDEV_FOREACH_DEVICE(e, d)
	n++;
	sysdev_enumerator_unref(e);
	return n;
}

/*
 * A resync queues what changed since the devices the monitor knows: gone
 * (children first), new (parents first), driver bound or unbound, each
 * synthesized; then the monitor knows what exists.
 */
static void test_resync(void **state)
{
	const char *root = *state;
	struct sysdev_device *ev;
	struct sysdev *ctx;
	struct sysdev_monitor *m = detached(&ctx, root);
	char path[4096];
	size_t n = count_devices(ctx);

	/* from nothing known: every device is new */
	assert_int_equal(sysdev_monitor_resync(m), (int)n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(sysdev_monitor_receive(m, &ev), 0);
		sysdev_device_unref(ev);
	}
	assert_int_equal(sysdev_monitor_resync(m), 0);
	assert_int_equal(monitor_known(m)->n, n);
	/* the LED goes, a new LED comes, sda's driver is bound, the client's unbound */
	snprintf(path, sizeof(path), "rm -rf '%s%s'", root, LED);
	assert_int_equal(system(path), 0);
	tree_device(root, CLIENT "/leds/new:led", "class:leds", NULL, "");
	tree_device(root, CLIENT "/leds/new:led/sub", "class:leds", NULL, "");
	tree_link(root, CLIENT "/block/sda/driver", "../../../../../../../bus/scsi/drivers/sd");
	tree_dir(root, "bus/scsi/drivers/sd/");
	snprintf(path, sizeof(path), "%s%s/driver", root, CLIENT);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sysdev_monitor_resync(m), 5);
	expect_event(m, "remove", LED, CLIENT, "leds", 1);
	expect_event(m, "unbind", CLIENT, "/devices/platform/omap_i2c.2/i2c-2", NULL, 1);
	expect_event(m, "bind", CLIENT "/block/sda", CLIENT, "block", 1);
	expect_event(m, "add", CLIENT "/leds/new:led", CLIENT, "leds", 1);
	expect_event(m, "add", CLIENT "/leds/new:led/sub", CLIENT "/leds/new:led", NULL, 1);
	assert_int_equal(monitor_known(m)->n, n + 1);
	assert_int_equal(count_devices(ctx), n + 1);
	sysdev_monitor_unref(m);
	/* filters apply to what a resync makes: sda and sda1 only, then no LED gone */
	assert_int_equal(monitor_new_detached(ctx, &m), 0);
	assert_int_equal(sysdev_monitor_add_match_subsystem_devtype(m, "block", NULL), 0);
	assert_int_equal(sysdev_monitor_resync(m), 2);
	expect_event(m, "add", CLIENT "/block/sda", CLIENT, "block", 1);
	expect_event(m, "add", CLIENT "/block/sda/sda1", CLIENT "/block/sda", NULL, 1);
	snprintf(path, sizeof(path), "rm -rf '%s%s/leds/new:led'", root, CLIENT);
	assert_int_equal(system(path), 0);
	assert_int_equal(sysdev_monitor_resync(m), 0);
	assert_int_equal(monitor_known(m)->n, n - 1);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_add),
	    cmocka_unit_test(test_remove_and_module),
	    cmocka_unit_test(test_null),
	    cmocka_unit_test(test_receive_buffer),
	    cmocka_unit_test(test_references),
	    cmocka_unit_test_setup_teardown(test_filter_subsystem_devtype, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_module_event, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_filter_tag, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_filter_property, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gap_and_malformed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_place_of_gone_devices, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resync, setup, teardown),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
