/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The monitor: the kernel's uevents as they happen, each with the device's
 * place in the tree (kind, placement, class directory, parent) read while it
 * still exists.  A descriptor for the caller's poll loop; no thread, no
 * signal handler.  Messages that are not the kernel's (another sender on the
 * group), cut short or malformed are dropped and counted, never trusted.
 *
 * Nothing is lost silently: the socket asks for a large buffer, an overflow
 * (ENOBUFS) or a gap in the kernel's SEQNUM becomes a loss notice in the
 * stream of events, and a resync compares what exists with the devices the
 * monitor knows and queues the difference as synthesized events.
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

#include "monitor-private.h"

/* What udevd asks for: a storm of thousands of events fits (systemd PR #11389). */
#define DEFAULT_RECEIVE_BUFFER (128u * 1024 * 1024)

struct filter {
	char *subsystem, *devtype; /* devtype NULL: any */
};

struct property_match {
	char *key, *glob;
};

/*
 * The kernel source receives what is pending in one recvmmsg() of up to
 * RECEIVE_BATCH messages: a reader behind a storm pays one system call for
 * many events, not one an event.
 */
#define RECEIVE_BATCH 16

struct kernel_batch {
	struct mmsghdr hdr[RECEIVE_BATCH];
	struct iovec iov[RECEIVE_BATCH];
	struct sockaddr_nl from[RECEIVE_BATCH];
	char control[RECEIVE_BATCH][CMSG_SPACE(sizeof(struct ucred))];
	unsigned n, next; /* received, and the next one to handle */
	char buf[RECEIVE_BATCH][UEVENT_MESSAGE_MAX + 1];
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
	char **tags;
	size_t ntags, tags_cap;
	struct property_match *props;
	size_t nprops, props_cap;
	unsigned long dropped;

	/* loss: the last kernel seqnum heard, and an overflow not yet accounted for */
	bool have_seqnum, overflowed;
	uint64_t last_seqnum;

	/* events ready for sysdev_monitor_receive(), oldest at head */
	struct sysdev_device **queue;
	size_t qhead, qend, qcap;

	struct known_set known; /* every device that exists, as last heard or scanned */
	bool known_ready;
	/* the last directory above an event's device found no device (a grouping
	 * directory, mostly): the next event below it is placed without a look */
	char *not_device;
	/* the kernel source's messages received but not yet handled */
	struct kernel_batch *batch;
	/*
	 * A directory found gone while the batch was being handled, and
	 * whether one was looked for: every event of the batch was sent before
	 * the look, so a device below it was gone by then too, and is placed
	 * without a look of its own (a storm read after its removes costs one
	 * look a batch, not one an event).  Forgotten with each new batch.
	 */
	char *gone_dir;
	bool gone_looked;
};

static void queue_clear(struct sysdev_monitor *m)
{
	for (size_t i = m->qhead; i < m->qend; i++)
		sysdev_device_unref(m->queue[i]);
	m->qhead = m->qend = 0;
}

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
	for (size_t i = 0; i < m->ntags; i++)
		free(m->tags[i]);
	free(m->tags);
	for (size_t i = 0; i < m->nprops; i++) {
		free(m->props[i].key);
		free(m->props[i].glob);
	}
	free(m->props);
	queue_clear(m);
	free(m->queue);
	known_clear(&m->known);
	free(m->not_device);
	free(m->gone_dir);
	free(m->batch);
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

/* Hand @ev (a reference taken over) to the caller after what is queued. */
static int queue_push(struct sysdev_monitor *m, struct sysdev_device *ev)
{
	if (m->qhead == m->qend)
		m->qhead = m->qend = 0;
	if (GROW_MIN(m->queue, m->qcap, m->qend + 1, 16) < 0) {
		sysdev_device_unref(ev);
		return -ENOMEM;
	}
	m->queue[m->qend++] = ev;
	return 0;
}

static const char *message_property(void *msg, const char *key)
{
	return uevent_message_get(msg, key);
}

/* A device's field as its event would carry it: the uevent file lacks SUBSYSTEM */
static const char *device_property(void *dev, const char *key)
{
	const char *v = NULL;
	int err;

	if (strcmp(key, "SUBSYSTEM") == 0)
		err = sysdev_device_get_subsystem(dev, &v);
	else if (strcmp(key, "DEVTYPE") == 0)
		err = sysdev_device_get_devtype(dev, &v);
	else if (strcmp(key, "DRIVER") == 0)
		err = sysdev_device_get_driver(dev, &v);
	else
		err = sysdev_device_get_property(dev, key, &v);
	return err >= 0 ? v : NULL;
}

/*
 * The filters, each kind that has any must pass: a subsystem (and devtype:
 * a devtype filter never passes an event without DEVTYPE), a tag (TAGS, as
 * udevd writes it, ":a:b:"; the kernel's events carry none), a property.
 * Within a kind, any one.
 */
static bool passes(const struct sysdev_monitor *m, const char *(*get)(void *src, const char *key),
		   void *src)
{
	const char *subsystem = get(src, "SUBSYSTEM"), *devtype = get(src, "DEVTYPE");
	bool ok = m->nfilters == 0;

	for (size_t i = 0; !ok && i < m->nfilters; i++)
		ok = subsystem && strcmp(m->filters[i].subsystem, subsystem) == 0 &&
		     (!m->filters[i].devtype ||
		      (devtype && !strcmp(m->filters[i].devtype, devtype)));
	if (!ok)
		return false;
	if (m->ntags) {
		const char *tags = get(src, "TAGS");

		ok = false;
		for (size_t i = 0; !ok && tags && i < m->ntags; i++) {
			size_t n = strlen(m->tags[i]);

			for (const char *p = strchr(tags, ':'); !ok && p; p = strchr(p + 1, ':'))
				ok = strncmp(p + 1, m->tags[i], n) == 0 && p[1 + n] == ':';
		}
		if (!ok)
			return false;
	}
	if (m->nprops) {
		ok = false;
		for (size_t i = 0; !ok && i < m->nprops; i++) {
			const char *v = get(src, m->props[i].key);

			ok = v && fnmatch(m->props[i].glob, v, 0) == 0;
		}
	}
	return ok;
}

/* Remember @dev (a device that exists) as the scan or the event shows it. */
static int know_device(struct known_set *s, struct sysdev_device *dev, bool selected)
{
	const char *devpath, *subsystem = NULL, *devtype = NULL, *driver = NULL, *parent = NULL,
			     *class_dir = NULL;
	struct known_device *k;

	if (sysdev_device_get_devpath(dev, &devpath) < 0)
		return 0;
	(void)sysdev_device_get_subsystem(dev, &subsystem);
	(void)sysdev_device_get_devtype(dev, &devtype);
	(void)sysdev_device_get_driver(dev, &driver);
	(void)device_get_parent_devpath(dev, &parent);
	(void)sysdev_device_get_class_dir(dev, &class_dir);
	k = known_get(s, devpath);
	if (!k || known_set_field(&k->subsystem, subsystem) < 0 ||
	    known_set_field(&k->devtype, devtype) < 0 || known_set_field(&k->driver, driver) < 0 ||
	    known_set_field(&k->parent, parent) < 0 ||
	    known_set_field(&k->class_dir, class_dir) < 0)
		return -ENOMEM;
	k->selected = selected;
	return 0;
}

/* Every device that exists now, as the enumerator finds it. */
static int scan_devices(struct sysdev_monitor *m, struct known_set *into)
{
	_cleanup_(sysdev_enumerator_unrefp) struct sysdev_enumerator *e = NULL;
	struct sysdev_device *dev;
	int err;

	err = sysdev_enumerator_new(m->ctx, &e);
	if (err >= 0)
		err = sysdev_enumerator_allow_no_subsystem(e, true);
	if (err >= 0)
		err = sysdev_enumerator_scan(e);
	if (err < 0)
		return err;
	SYSDEV_FOREACH_DEVICE(e, dev)
	{
		err = know_device(into, dev, passes(m, device_property, dev));
		if (err < 0)
			return err;
	}
	return 0;
}

/*
 * The devices present when receiving started: what a remove reports and
 * what a resync compares with.  Taken at the first receive, once the
 * filters are set (a device is remembered with whether they pass it), and
 * after the socket was bound, so that no event falls before it unheard.
 */
static int monitor_start_known(struct sysdev_monitor *m)
{
	int err;

	if (m->known_ready)
		return 0;
	err = scan_devices(m, &m->known);
	if (err < 0) {
		known_clear(&m->known);
		return err;
	}
	m->known_ready = true;
	return 0;
}

int monitor_new_detached(struct sysdev *ctx, struct sysdev_monitor **out)
{
	struct sysdev_monitor *m;

	*out = NULL;
	m = monitor_alloc(ctx);
	if (!m)
		return -ENOMEM;
	*out = m;
	return 0;
}

const struct known_set *monitor_known(const struct sysdev_monitor *m)
{
	return &m->known;
}

_public_ int sysdev_monitor_set_receive_buffer_size(struct sysdev_monitor *m, size_t size)
{
	int n;

	assert_return(m, -EINVAL);
	assert_return(size > 0, -EINVAL);
	n = size > INT32_MAX / 2 ? INT32_MAX / 2 : (int)size;
	if (m->umon)
		return udev_monitor_set_receive_buffer_size(m->umon, n) < 0 ? -errno : 0;
	if (m->fd < 0)
		return -EBADF;
	/* FORCE passes net.core.rmem_max where permitted (CAP_NET_ADMIN), else the cap applies */
	if (setsockopt(m->fd, SOL_SOCKET, SO_RCVBUFFORCE, &n, sizeof(n)) == 0)
		return 0;
	return setsockopt(m->fd, SOL_SOCKET, SO_RCVBUF, &n, sizeof(n)) < 0 ? -errno : 0;
}

_public_ int sysdev_monitor_get_receive_buffer_size(const struct sysdev_monitor *m, size_t *ret)
{
	socklen_t len;
	int n;

	assert_return(m, -EINVAL);
	assert_return(ret, -EINVAL);
	if (m->fd < 0)
		return -EBADF;
	len = sizeof(n);
	if (getsockopt(m->fd, SOL_SOCKET, SO_RCVBUF, &n, &len) < 0)
		return -errno;
	*ret = (size_t)n;
	return 0;
}

_public_ int sysdev_monitor_new(struct sysdev *ctx, struct sysdev_monitor **out)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = 1 /* the kernel's */};
	_cleanup_(sysdev_monitor_unrefp) struct sysdev_monitor *m = NULL;
	int on = 1, err;

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
	if (setsockopt(m->fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0)
		return -errno;
	err = sysdev_monitor_set_receive_buffer_size(m, DEFAULT_RECEIVE_BUFFER);
	if (err < 0)
		return err;
	if (bind(m->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	*out = TAKE_PTR(m);
	return 0;
}

_public_ int sysdev_monitor_new_udev(struct sysdev *ctx, struct sysdev_monitor **out)
{
	_cleanup_(sysdev_monitor_unrefp) struct sysdev_monitor *m = NULL;
	int err;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	m = monitor_alloc(ctx);
	if (!m)
		return -ENOMEM;
	errno = 0;
	m->udev = udev_new();
	m->umon = m->udev ? udev_monitor_new_from_netlink(m->udev, "udev") : NULL;
	if (!m->umon) {
		err = errno ? -errno : -ENOMEM;
		m->udev = udev_unref(m->udev);
		return err;
	}
	m->fd = udev_monitor_get_fd(m->umon);
	/* as the kernel source; where not permitted, the system's cap stays */
	(void)sysdev_monitor_set_receive_buffer_size(m, DEFAULT_RECEIVE_BUFFER);
	if (udev_monitor_enable_receiving(m->umon) < 0)
		return errno ? -errno : -EIO;
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

_public_ int sysdev_monitor_add_match_tag(struct sysdev_monitor *m, const char *tag)
{
	char *copy;

	assert_return(m, -EINVAL);
	assert_return(tag && *tag && !strchr(tag, ':'), -EINVAL);
	if (GROW_MIN(m->tags, m->tags_cap, m->ntags + 1, 4) < 0)
		return -ENOMEM;
	if (m->umon && (udev_monitor_filter_add_match_tag(m->umon, tag) < 0 ||
			udev_monitor_filter_update(m->umon) < 0))
		return -EINVAL;
	copy = strdup(tag);
	if (!copy)
		return -ENOMEM;
	m->tags[m->ntags++] = copy;
	return 0;
}

_public_ int sysdev_monitor_add_match_property(struct sysdev_monitor *m, const char *key,
					       const char *glob)
{
	struct property_match *p;

	assert_return(m, -EINVAL);
	assert_return(key && *key && !strchr(key, '='), -EINVAL);
	assert_return(glob, -EINVAL);
	if (GROW_MIN(m->props, m->props_cap, m->nprops + 1, 4) < 0)
		return -ENOMEM;
	p = &m->props[m->nprops];
	p->key = strdup(key);
	p->glob = strdup(glob);
	if (!p->key || !p->glob) {
		free(p->key);
		free(p->glob);
		return -ENOMEM;
	}
	m->nprops++;
	return 0;
}

/* Queue a loss notice; a count, a first and a last of 0 with !known are unknown. */
static int queue_loss(struct sysdev_monitor *m, const char *evidence, bool first_known,
		      uint64_t first, bool last_known, uint64_t last)
{
	struct sysdev_device *n;
	int err;

	err = device_alloc(m->ctx, "", 0, &n);
	if (err < 0)
		return err;
	n->is_event = n->is_loss = true;
	n->action = strdup("lost");
	if (!n->action) {
		sysdev_device_unref(n);
		return -ENOMEM;
	}
	n->lost_evidence = evidence;
	n->lost_first_known = first_known;
	n->lost_first = first;
	n->lost_last_known = last_known;
	n->lost_last = last;
	n->lost_count_known = first_known && last_known && last >= first;
	n->lost_count = n->lost_count_known ? last - first + 1 : 0;
	return queue_push(m, n);
}

void monitor_note_overflow(struct sysdev_monitor *m)
{
	m->overflowed = true;
}

/*
 * An overflow with no message after it: the count is unknown until the
 * next seqnum shows it (that gap is then reported too, with the count).
 */
static int flush_overflow(struct sysdev_monitor *m)
{
	if (!m->overflowed)
		return 0;
	m->overflowed = false;
	return queue_loss(m, "enobufs", m->have_seqnum && !m->umon, m->last_seqnum + 1, false, 0);
}

/* Before the event @seqnum: what the numbers say was lost since the last one. */
static int check_seqnum(struct sysdev_monitor *m, uint64_t seqnum)
{
	const char *evidence = m->overflowed ? "enobufs" : "seqnum";
	int err = 0;

	if (m->umon) {
		/* udevd sends what it processed, in its own order: no count to read */
		return flush_overflow(m);
	}
	if (m->have_seqnum && seqnum > m->last_seqnum + 1)
		err = queue_loss(m, evidence, true, m->last_seqnum + 1, true, seqnum - 1);
	else if (!m->have_seqnum && m->overflowed)
		err = queue_loss(m, evidence, false, 0, seqnum > 0, seqnum - 1);
	/* an overflow that took no kernel message (a forged one) lost nothing */
	m->overflowed = false;
	if (!m->have_seqnum || seqnum > m->last_seqnum) {
		m->last_seqnum = seqnum;
		m->have_seqnum = true;
	}
	return err;
}

/* Whether @devpath is below the directory found gone in this batch. */
static bool below_gone_dir(const struct sysdev_monitor *m, const char *devpath)
{
	size_t len = m->gone_dir ? strlen(m->gone_dir) : 0;

	return len && strncmp(devpath, m->gone_dir, len) == 0 && devpath[len] == '/';
}

/*
 * Where a device sits when its directory is gone (an add read after the
 * remove, or a remove of a device the monitor never saw): a uevent from
 * below S/devices is a device's, its parent is the nearest known or existing
 * device above, and a directory between them named after its subsystem is
 * its class directory.
 */
static int place_from_message(struct sysdev_monitor *m, struct sysdev_device *dev,
			      const struct uevent_message *msg)
{
	_cleanup_free_ char *path = strdup(msg->devpath);
	const char *above = NULL;
	char *slash;

	if (!path)
		return -ENOMEM;
	dev->has_kind = true;
	dev->kind = SYSDEV_KIND_DEVICE;
	while ((slash = strrchr(path, '/')) && slash != path) {
		const char *component;
		int kind;

		*slash = '\0';
		if (strcmp(path, "/devices") == 0)
			break;
		component = strrchr(path, '/') + 1;
		if (known_find(&m->known, path)) {
			kind = 1;
		} else if ((m->not_device && strcmp(m->not_device, path) == 0) ||
			   (m->gone_dir && path_in_subtree(m->gone_dir, path))) {
			/* a device there would have been heard of (added, then known)
			 * or, its event lost, the resync forgets this; and below a
			 * directory gone in this batch there is none */
			kind = 0;
		} else {
			kind = devpath_is_device(m->ctx, path);
			if (kind == 0) {
				/* no memory for the copy: only the next look is not saved */
				free(m->not_device);
				m->not_device = strdup(path);
			}
		}
		if (kind) {
			if (sbuf_set(&dev->parent_devpath, path, strlen(path)) < 0)
				return -ENOMEM;
			dev->has_parent = true;
			break;
		}
		if (!above)
			above = component;
	}
	if (above && msg->subsystem && strcmp(above, msg->subsystem) == 0) {
		if (sbuf_set(&dev->class_dir, above, strlen(above)) < 0)
			return -ENOMEM;
		dev->has_class_dir = true;
	}
	return 0;
}

/* The place the monitor remembers for @k, on its event @dev. */
static int place_from_known(struct sysdev_device *dev, const struct known_device *k)
{
	dev->has_kind = true;
	dev->kind = SYSDEV_KIND_DEVICE;
	dev->has_parent = k->parent != NULL;
	dev->has_class_dir = k->class_dir != NULL;
	if ((k->parent && sbuf_set(&dev->parent_devpath, k->parent, strlen(k->parent)) < 0) ||
	    (k->class_dir && sbuf_set(&dev->class_dir, k->class_dir, strlen(k->class_dir)) < 0))
		return -ENOMEM;
	return 0;
}

static bool below_devices(const char *devpath)
{
	return strncmp(devpath, "/devices/", 9) == 0 && devpath_is_valid(devpath);
}

/*
 * @devpath's directory was not found a device: once a batch, whether the
 * directory above it is gone too (the grouping directory of a storm's
 * devices, removed with the last of them).
 */
static int look_for_gone_dir(struct sysdev_monitor *m, const char *devpath)
{
	_cleanup_free_ char *dir = NULL;
	char *slash;

	if (!m->batch || m->gone_looked)
		return 0; /* no batch (udevd's events, a caller's messages): no memo */
	m->gone_looked = true;
	dir = strdup(devpath);
	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (strcmp(dir, "/devices") == 0)
		return 0;
	if (!devpath_exists(m->ctx, dir)) {
		free(m->gone_dir);
		m->gone_dir = TAKE_PTR(dir);
	}
	return 0;
}

/*
 * The known entry of an event's device (@k, or a new one when NULL), with
 * what the message says: the entry, or NULL on -ENOMEM.
 */
static struct known_device *know_from_message(struct sysdev_monitor *m, struct known_device *k,
					      const struct uevent_message *msg, bool selected)
{
	if (!k)
		k = known_get(&m->known, msg->devpath);
	if (!k || known_set_field(&k->subsystem, msg->subsystem) < 0 ||
	    known_set_field(&k->devtype, uevent_message_get(msg, "DEVTYPE")) < 0 ||
	    known_set_field(&k->driver, uevent_message_get(msg, "DRIVER")) < 0)
		return NULL;
	k->selected = selected;
	return k;
}

/* The set is looked up once an event, and the entry found is used throughout. */
static int handle_parsed(struct sysdev_monitor *m, const struct uevent_message *msg)
{
	_cleanup_(sysdev_device_unrefp) struct sysdev_device *ev = NULL;
	bool removed = strcmp(msg->action, "remove") == 0;
	bool selected = passes(m, message_property, (void *)msg);
	bool device = below_devices(msg->devpath);
	struct known_device *k;
	const char *old;
	int err;

	err = check_seqnum(m, msg->seqnum);
	if (err < 0)
		return err;
	old = uevent_message_get(msg, "DEVPATH_OLD");
	if (old && strcmp(msg->action, "move") == 0)
		known_remove(&m->known, old);
	k = device ? known_find(&m->known, msg->devpath) : NULL;
	if (!selected) {
		/* not shown, but remembered: a resync must not take it for new */
		if (removed)
			known_remove_entry(&m->known, k);
		else if (device && !know_from_message(m, k, msg, false))
			return -ENOMEM;
		return 0;
	}
	err = device_new_from_message(m->ctx, msg, !below_gone_dir(m, msg->devpath), &ev);
	if (err < 0)
		return err;
	if (device && !removed && !ev->has_kind) {
		err = look_for_gone_dir(m, msg->devpath);
		if (err < 0)
			return err;
	}
	if (device && (!ev->has_kind || ev->kind != SYSDEV_KIND_DEVICE)) {
		/*
		 * A kernel event below S/devices is a device's, whatever the
		 * directory looks like now: gone, or without its uevent file
		 * for a moment (an unbind racing the teardown).
		 */
		ev->has_parent = ev->has_class_dir = false;
		err = k ? place_from_known(ev, k) : place_from_message(m, ev, msg);
		if (err < 0)
			return err;
	}
	if (removed) {
		known_remove_entry(&m->known, k);
	} else if (device) {
		k = know_from_message(m, k, msg, true);
		if (!k ||
		    known_set_field(&k->parent, ev->has_parent ? ev->parent_devpath.s : NULL) < 0 ||
		    known_set_field(&k->class_dir, ev->has_class_dir ? ev->class_dir.s : NULL) < 0)
			return -ENOMEM;
	}
	return queue_push(m, TAKE_PTR(ev));
}

int monitor_handle_message(struct sysdev_monitor *m, const char *buf, size_t len)
{
	struct uevent_message msg = {0};
	int err;

	err = uevent_message_parse(&msg, buf, len);
	if (err < 0) {
		uevent_message_free(&msg);
		if (err == -ENOMEM)
			return err;
		m->dropped++;
		return -EBADMSG;
	}
	err = handle_parsed(m, &msg);
	uevent_message_free(&msg);
	return err;
}

/* A synthesized event of a device that exists: @action, marked as not heard. */
static int queue_synthesized(struct sysdev_monitor *m, const struct known_device *k,
			     const char *action, bool exists)
{
	struct sysdev_device *ev = NULL;
	int err;

	if (exists) {
		err = sysdev_device_new_from_devpath(m->ctx, k->devpath, &ev);
		if (err == -ENOMEM)
			return err;
		if (err < 0)
			return 0; /* gone again since the scan: the next resync tells */
	} else {
		err = device_alloc(m->ctx, k->devpath, strlen(k->devpath), &ev);
		if (err < 0)
			return err;
		err = place_from_known(ev, k);
		if (err >= 0 && k->subsystem) {
			err = sbuf_set(&ev->subsystem, k->subsystem, strlen(k->subsystem));
			ev->has_subsystem = true;
		}
		if (err >= 0 && k->driver) {
			err = sbuf_set(&ev->driver, k->driver, strlen(k->driver));
			ev->has_driver = true;
		}
		if (err < 0) {
			sysdev_device_unref(ev);
			return -ENOMEM;
		}
	}
	ev->is_event = ev->synthesized = true;
	ev->has_kind = true;
	ev->kind = SYSDEV_KIND_DEVICE;
	ev->action = strdup(action);
	if (!ev->action) {
		sysdev_device_unref(ev);
		return -ENOMEM;
	}
	return queue_push(m, ev);
}

struct resync {
	struct sysdev_monitor *m;
	struct known_set *now;
	struct known_device **gone;
	size_t ngone, gone_cap;
	int err, queued;
};

static void collect_gone(struct known_device *k, void *userdata)
{
	struct resync *r = userdata;

	if (r->err < 0 || !k->selected || known_find(r->now, k->devpath))
		return;
	if (GROW_MIN(r->gone, r->gone_cap, r->ngone + 1, 16) < 0)
		r->err = -ENOMEM;
	else
		r->gone[r->ngone++] = k;
}

static void queue_new_or_changed(struct known_device *k, void *userdata)
{
	struct resync *r = userdata;
	const struct known_device *was;
	const char *action = NULL;

	if (r->err < 0 || !k->selected)
		return;
	was = known_find(&r->m->known, k->devpath);
	if (!was)
		action = "add";
	else if (!was->driver != !k->driver || (k->driver && strcmp(k->driver, was->driver) != 0))
		action = k->driver ? "bind" : "unbind";
	if (!action)
		return;
	r->err = queue_synthesized(r->m, k, action, true);
	if (r->err >= 0)
		r->queued++;
}

_public_ int sysdev_monitor_resync(struct sysdev_monitor *m)
{
	struct known_set now = {0};
	struct resync r = {.m = m, .now = &now};
	size_t pending;

	assert_return(m, -EINVAL);
	pending = m->qend - m->qhead;
	m->not_device = mfree(m->not_device); /* what events were lost may have changed */
	r.err = scan_devices(m, &now);
	if (r.err >= 0 && known_foreach(&m->known, collect_gone, &r) < 0)
		r.err = -ENOMEM;
	/* children before their parents, as the kernel removes them */
	for (size_t i = r.ngone; r.err >= 0 && i-- > 0;) {
		r.err = queue_synthesized(m, r.gone[i], "remove", false);
		if (r.err >= 0)
			r.queued++;
	}
	free(r.gone);
	/* parents before their children: devpath order */
	if (r.err >= 0 && known_foreach(&now, queue_new_or_changed, &r) < 0)
		r.err = -ENOMEM;
	if (r.err < 0) {
		known_clear(&now);
		return r.err;
	}
	known_clear(&m->known);
	m->known = now;
	m->known_ready = true;
	/*
	 * What changed while events were lost comes before the events already
	 * received after the loss (the known devices include their changes).
	 */
	if (pending && r.queued) {
		size_t n = (size_t)r.queued;
		_cleanup_free_ struct sysdev_device **moved = malloc(pending * sizeof(*moved));

		if (moved) {
			memcpy(moved, m->queue + m->qhead, pending * sizeof(*moved));
			memmove(m->queue + m->qhead, m->queue + m->qhead + pending,
				n * sizeof(*moved));
			memcpy(m->queue + m->qhead + n, moved, pending * sizeof(*moved));
		}
	}
	return r.queued;
}

/*
 * A udevd event as the kernel would have written it ("ACTION@DEVPATH", then
 * the properties), so that one parser with one set of checks reads both.
 * 0 (handled, maybe queued), -EAGAIN (none pending), -EBADMSG, -ENOMEM.
 */
static int receive_udev(struct sysdev_monitor *m)
{
	struct udev_device *d;
	struct udev_list_entry *l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	errno = 0;
	d = udev_monitor_receive_device(m->umon);
	if (!d) {
		if (errno == ENOBUFS) {
			monitor_note_overflow(m);
			return 0;
		}
		return errno && errno != EAGAIN && errno != EWOULDBLOCK ? -errno : -EAGAIN;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		udev_device_unref(d);
		return -ENOMEM;
	}
	fprintf(f, "%s@%s", udev_device_get_action(d) ?: "", udev_device_get_devpath(d) ?: "");
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
	err = monitor_handle_message(m, buf, len);
	free(buf);
	return err;
}

/* The next batch from the kernel's socket: 0 (some, or an overflow noted) or -errno. */
static int receive_kernel_batch(struct sysdev_monitor *m)
{
	struct kernel_batch *b = m->batch;
	int n;

	if (!b) {
		b = m->batch = malloc(sizeof(*b));
		if (!b)
			return -ENOMEM;
	}
	b->n = b->next = 0;
	/* what a look found gone is known of the batch looked at, not of the next */
	m->gone_dir = mfree(m->gone_dir);
	m->gone_looked = false;
	for (unsigned i = 0; i < RECEIVE_BATCH; i++) {
		b->iov[i] = (struct iovec){.iov_base = b->buf[i], .iov_len = sizeof(b->buf[i])};
		b->hdr[i].msg_hdr = (struct msghdr){.msg_name = &b->from[i],
						    .msg_namelen = sizeof(b->from[i]),
						    .msg_iov = &b->iov[i],
						    .msg_iovlen = 1,
						    .msg_control = b->control[i],
						    .msg_controllen = sizeof(b->control[i])};
	}
	/* an error after some messages comes with the next call: none is missed */
	n = recvmmsg(m->fd, b->hdr, RECEIVE_BATCH, MSG_DONTWAIT, NULL);
	if (n < 0) {
		if (errno == ENOBUFS) {
			/* the socket dropped messages; the next seqnum tells how many */
			monitor_note_overflow(m);
			return 0;
		}
		if (errno == EINTR)
			return 0;
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	}
	b->n = (unsigned)n;
	return 0;
}

/*
 * One message from the kernel's socket, from the batch received last or a
 * new one: as receive_udev().
 */
static int receive_kernel(struct sysdev_monitor *m)
{
	struct msghdr *mh;
	struct cmsghdr *c;
	struct ucred *cred = NULL;
	const struct sockaddr_nl *from;
	unsigned i;

	if (!m->batch || m->batch->next == m->batch->n) {
		int err = receive_kernel_batch(m);

		if (err < 0 || m->batch->n == 0)
			return err;
	}
	i = m->batch->next++;
	mh = &m->batch->hdr[i].msg_hdr;
	from = &m->batch->from[i];
	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len == CMSG_LEN(sizeof(struct ucred)))
			cred = (struct ucred *)CMSG_DATA(c);
	/* only the kernel sends from port 0 with pid 0; a cut message is no message */
	if ((mh->msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || mh->msg_namelen != sizeof(*from) ||
	    from->nl_pid != 0 || !cred || cred->pid != 0 || cred->uid != 0) {
		m->dropped++;
		return -EBADMSG;
	}
	return monitor_handle_message(m, m->batch->buf[i], m->batch->hdr[i].msg_len);
}

_public_ int sysdev_monitor_receive(struct sysdev_monitor *m, struct sysdev_device **out)
{
	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(m, -EINVAL);
	if (!m->known_ready && m->fd >= 0) {
		int err = monitor_start_known(m);

		if (err < 0)
			return err;
	}
	for (;;) {
		int err;

		if (m->qhead < m->qend) {
			*out = m->queue[m->qhead++];
			return 0;
		}
		if (m->umon)
			err = receive_udev(m);
		else if (m->fd >= 0)
			err = receive_kernel(m);
		else
			err = -EAGAIN; /* detached: only what was handed in */
		if (err == -EAGAIN) {
			err = flush_overflow(m);
			if (err < 0)
				return err;
			if (m->qhead < m->qend)
				continue;
			return -EAGAIN;
		}
		if (err < 0 && err != -EBADMSG)
			return err;
	}
}
