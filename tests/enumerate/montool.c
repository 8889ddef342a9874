/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A driver for the monitor's tests.
 *
 *   montool forge     send a well-formed uevent from this process to the
 *                     kernel's group (run it in a network namespace of its
 *                     own: the message reaches no one else) and check that
 *                     the monitor drops it and counts it
 *   montool watch|watch-udev SECONDS
 *                     print each event (the kernel's, or udevd's through
 *                     libudev) until SECONDS pass: SEQNUM ACTION
 *                     DEVPATH KIND SUBSYSTEM parent=... class_dir=...
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "libsysdev.h"

static int forge(void)
{
	static const char msg[] =
	    "add@/devices/virtual/net/lo\0ACTION=add\0DEVPATH=/devices/virtual/"
	    "net/lo\0SUBSYSTEM=net\0SEQNUM=4242";
	struct sockaddr_nl to = {.nl_family = AF_NETLINK, .nl_groups = 1};
	struct sysdev_monitor *m;
	struct sysdev_device *ev;
	struct sysdev *ctx;
	struct pollfd p;
	int s, r;

	if (sysdev_new(NULL, &ctx) < 0 || sysdev_monitor_new(ctx, &m) < 0) {
		fprintf(stderr, "montool: cannot open a monitor: %s\n", strerror(errno));
		return 2;
	}
	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (s < 0 || sendto(s, msg, sizeof(msg), 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		fprintf(stderr, "montool: cannot send to the group: %s\n", strerror(errno));
		return 77;
	}
	p = (struct pollfd){.fd = sysdev_monitor_get_fd(m), .events = POLLIN};
	if (poll(&p, 1, 2000) != 1) {
		printf("not ok - the forged message reached the monitor's socket\n");
		return 1;
	}
	r = sysdev_monitor_receive(m, &ev);
	printf("%s - a message from a process (not the kernel) is not handed out (%d)\n",
	       r == -EAGAIN ? "ok" : "not ok", r);
	printf("%s - and it is counted as dropped (%lu)\n",
	       sysdev_monitor_get_dropped(m) == 1 ? "ok" : "not ok", sysdev_monitor_get_dropped(m));
	r = r == -EAGAIN && sysdev_monitor_get_dropped(m) == 1 ? 0 : 1;
	sysdev_device_unref(ev);
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
	close(s);
	return r;
}

static int watch(int secs, bool udev)
{
	struct sysdev_monitor *m;
	struct sysdev *ctx;
	time_t end = time(NULL) + secs;

	if (sysdev_new(NULL, &ctx) < 0 ||
	    (udev ? sysdev_monitor_new_udev(ctx, &m) : sysdev_monitor_new(ctx, &m)) < 0)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (time(NULL) < end) {
		struct pollfd p = {.fd = sysdev_monitor_get_fd(m), .events = POLLIN};
		struct sysdev_device *ev;

		if (poll(&p, 1, 200) <= 0)
			continue;
		while (sysdev_monitor_receive(m, &ev) == 0) {
			const char *action = NULL, *devpath = NULL, *sub = NULL, *cd = NULL;
			const char *parent_path = NULL;
			enum sysdev_kind kind;
			uint64_t seqnum = 0;
			bool known = sysdev_device_get_kind(ev, &kind) >= 0;

			sysdev_device_get_seqnum(ev, &seqnum);
			sysdev_device_get_action(ev, &action);
			sysdev_device_get_devpath(ev, &devpath);
			sysdev_device_get_subsystem(ev, &sub);
			sysdev_device_get_class_dir(ev, &cd);
			/* the devpath: a remove's parent may be gone too */
			sysdev_device_get_parent_devpath(ev, &parent_path);

			printf("%llu %s %s %s %s parent=%s class_dir=%s\n",
			       (unsigned long long)seqnum, action, devpath ?: "-",
			       known ? sysdev_kind_to_string(kind) : "-", sub ?: "-",
			       parent_path ?: "-", cd ?: "-");
			sysdev_device_unref(ev);
		}
	}
	printf("dropped %lu\n", sysdev_monitor_get_dropped(m));
	sysdev_monitor_unref(m);
	sysdev_unref(ctx);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "forge"))
		return forge();
	if (argc == 3 && !strcmp(argv[1], "watch"))
		return watch(atoi(argv[2]), false);
	if (argc == 3 && !strcmp(argv[1], "watch-udev"))
		return watch(atoi(argv[2]), true);
	fprintf(stderr, "usage: montool forge | watch SECONDS\n");
	return 2;
}
