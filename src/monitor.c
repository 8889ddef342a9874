/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The monitor: the kernel's uevents as they happen, each with the device's
 * place in the tree (kind, placement, class directory, parent) read while it
 * still exists.  A descriptor for the caller's poll loop; no thread, no
 * signal handler.  Messages that are not the kernel's (another sender on the
 * group), cut short or malformed are dropped and counted, never trusted.
 */
#include <errno.h>
#include <fnmatch.h>
#include <libudev.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "device-private.h"

struct filter {
	char *subsystem, *devtype; /* devtype NULL: any */
};

struct sysdev_monitor {
	unsigned n_ref;
	struct sysdev *ctx;
	int fd;
	/* the udev source: libudev's monitor of udevd's processed events */
	struct udev *udev;
	struct udev_monitor *umon;
	struct filter *filters;
	size_t nfilters, filters_cap;
	unsigned long dropped;
	char buf[UEVENT_MESSAGE_MAX + 1];
};

static void monitor_free(struct sysdev_monitor *m)
{
	if (m->umon) {
		udev_monitor_unref(m->umon); /* closes its descriptor */
		udev_unref(m->udev);
	} else if (m->fd >= 0) {
		close(m->fd);
	}
	for (size_t i = 0; i < m->nfilters; i++) {
		free(m->filters[i].subsystem);
		free(m->filters[i].devtype);
	}
	free(m->filters);
	sysdev_unref(m->ctx);
	free(m);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev_monitor, sysdev_monitor, monitor_free);

/* A monitor of @ctx with one reference and no socket yet, or NULL. */
static struct sysdev_monitor *monitor_alloc(struct sysdev *ctx)
{
	struct sysdev_monitor *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->n_ref = 1;
	m->fd = -1;
	m->ctx = sysdev_ref(ctx);
	return m;
}

_public_ int sysdev_monitor_new(struct sysdev *ctx, struct sysdev_monitor **out)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = 1 /* the kernel's */};
	_cleanup_(sysdev_monitor_unrefp) struct sysdev_monitor *m = NULL;
	int on = 1;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	m = monitor_alloc(ctx);
	if (!m)
		return -ENOMEM;
	m->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
	if (m->fd < 0)
		return -errno;
	/* the sender's credentials come with each message: only the kernel's are taken */
	if (setsockopt(m->fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0 ||
	    bind(m->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	*out = TAKE_PTR(m);
	return 0;
}

_public_ int sysdev_monitor_new_udev(struct sysdev *ctx, struct sysdev_monitor **out)
{
	_cleanup_(sysdev_monitor_unrefp) struct sysdev_monitor *m = NULL;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	m = monitor_alloc(ctx);
	if (!m)
		return -ENOMEM;
	errno = 0;
	m->udev = udev_new();
	m->umon = m->udev ? udev_monitor_new_from_netlink(m->udev, "udev") : NULL;
	if (!m->umon || udev_monitor_enable_receiving(m->umon) < 0) {
		int err = errno ? -errno : -ENOMEM;

		if (!m->umon)
			m->udev = udev_unref(m->udev);
		return err;
	}
	m->fd = udev_monitor_get_fd(m->umon);
	*out = TAKE_PTR(m);
	return 0;
}

_public_ int sysdev_monitor_get_fd(const struct sysdev_monitor *m)
{
	assert_return(m, -EINVAL);
	return m->fd;
}

_public_ unsigned long sysdev_monitor_get_dropped(const struct sysdev_monitor *m)
{
	assert_return(m, 0);
	return m->dropped;
}

_public_ int sysdev_monitor_add_match_subsystem_devtype(struct sysdev_monitor *m,
							const char *subsystem, const char *devtype)
{
	struct filter *n;

	assert_return(m, -EINVAL);
	assert_return(subsystem, -EINVAL);
	if (GROW_MIN(m->filters, m->filters_cap, m->nfilters + 1, 4) < 0)
		return -ENOMEM;
	/* udevd's messages carry hashes a socket filter tests: filtered in the kernel */
	if (m->umon &&
	    (udev_monitor_filter_add_match_subsystem_devtype(m->umon, subsystem, devtype) < 0 ||
	     udev_monitor_filter_update(m->umon) < 0))
		return -EINVAL;
	n = &m->filters[m->nfilters];
	n->subsystem = strdup(subsystem);
	n->devtype = devtype ? strdup(devtype) : NULL;
	if (!n->subsystem || (devtype && !n->devtype)) {
		free(n->subsystem);
		free(n->devtype);
		return -ENOMEM;
	}
	m->nfilters++;
	return 0;
}

/*
 * The kernel's messages carry no header a socket filter could test, so the
 * filters apply here, to the parsed properties.
 */
static bool passes(const struct sysdev_monitor *m, const struct uevent_message *msg)
{
	const char *devtype = uevent_message_get(msg, "DEVTYPE");

	if (!m->nfilters)
		return true;
	for (size_t i = 0; i < m->nfilters; i++) {
		if (!msg->subsystem || strcmp(m->filters[i].subsystem, msg->subsystem) != 0)
			continue;
		if (!m->filters[i].devtype || (devtype && !strcmp(m->filters[i].devtype, devtype)))
			return true;
	}
	return false;
}

/*
 * An event from one message: 0, -ENOMEM, or -EBADMSG for a message that is
 * cut short or malformed (dropped, and counted).  With @filter, a message the
 * filters do not pass is -EAGAIN.
 */
static int event_parse(struct sysdev_monitor *m, const char *buf, size_t len, bool filter,
		       struct sysdev_device **ret)
{
	struct uevent_message msg = {0};
	int err;

	*ret = NULL;
	err = uevent_message_parse(&msg, buf, len);
	if (err < 0) {
		uevent_message_free(&msg);
		if (err == -ENOMEM)
			return err;
		m->dropped++;
		return -EBADMSG;
	}
	if (filter && !passes(m, &msg))
		err = -EAGAIN;
	else
		err = device_new_from_message(m->ctx, &msg, ret);
	uevent_message_free(&msg);
	return err;
}

/*
 * A udevd event as the kernel would have written it ("ACTION@DEVPATH", then
 * the properties), so that one parser with one set of checks reads both.
 */
static int receive_udev(struct sysdev_monitor *m, struct sysdev_device **out)
{
	for (;;) {
		struct udev_device *d;
		struct udev_list_entry *l;
		struct sysdev_device *ev;
		char *buf = NULL;
		size_t len = 0;
		FILE *f;
		int err;

		errno = 0;
		d = udev_monitor_receive_device(m->umon);
		if (!d)
			return errno && errno != EAGAIN && errno != EWOULDBLOCK ? -errno : -EAGAIN;
		f = open_memstream(&buf, &len);
		if (!f) {
			udev_device_unref(d);
			return -ENOMEM;
		}
		fprintf(f, "%s@%s", udev_device_get_action(d) ?: "",
			udev_device_get_devpath(d) ?: "");
		fputc('\0', f);
		udev_list_entry_foreach(l, udev_device_get_properties_list_entry(d))
		{
			fprintf(f, "%s=%s", udev_list_entry_get_name(l),
				udev_list_entry_get_value(l) ?: "");
			fputc('\0', f);
		}
		udev_device_unref(d);
		if (fclose(f) != 0) {
			free(buf);
			return -ENOMEM;
		}
		err = event_parse(m, buf, len, false, &ev);
		free(buf);
		if (err == -ENOMEM)
			return err;
		if (err < 0)
			continue;
		*out = ev;
		return 0;
	}
}

_public_ int sysdev_monitor_receive(struct sysdev_monitor *m, struct sysdev_device **out)
{
	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(m, -EINVAL);
	if (m->umon)
		return receive_udev(m, out);
	for (;;) {
		char control[CMSG_SPACE(sizeof(struct ucred))];
		struct sockaddr_nl from;
		struct iovec iov = {.iov_base = m->buf, .iov_len = sizeof(m->buf)};
		struct msghdr mh = {.msg_name = &from,
				    .msg_namelen = sizeof(from),
				    .msg_iov = &iov,
				    .msg_iovlen = 1,
				    .msg_control = control,
				    .msg_controllen = sizeof(control)};
		struct cmsghdr *c;
		struct ucred *cred = NULL;
		struct sysdev_device *ev;
		ssize_t n;
		int err;

		n = recvmsg(m->fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EWOULDBLOCK ? -EAGAIN : -errno;
		}
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
			    c->cmsg_len == CMSG_LEN(sizeof(struct ucred)))
				cred = (struct ucred *)CMSG_DATA(c);
		/* only the kernel sends from port 0 with pid 0; a cut message is no message */
		if ((mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || mh.msg_namelen != sizeof(from) ||
		    from.nl_pid != 0 || !cred || cred->pid != 0 || cred->uid != 0) {
			m->dropped++;
			continue;
		}
		err = event_parse(m, m->buf, (size_t)n, true, &ev);
		if (err == -ENOMEM)
			return err;
		if (err < 0)
			continue;
		*out = ev;
		return 0;
	}
}
