/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --watch: one line per kernel uevent as it happens, flushed, until SIGINT
 * or SIGTERM (exit 0), as `udevadm monitor --kernel` but with each device's
 * kind, parent and class directory.  With --json, JSON lines.
 */
#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json-writer.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * What each device was when last seen, for its remove event: by then its
 * directory is gone, and the remove line says what the add line said.
 */
struct seen {
	struct seen_device {
		char *path;
		int kind;
		char *parent, *class_dir; /* NULL: none */
	} * v;
	size_t n, cap;
};

static int seen_find(const struct seen *s, const char *p)
{
	for (size_t i = s->n; i-- > 0;)
		if (strcmp(s->v[i].path, p) == 0)
			return (int)i;
	return -1;
}

static void seen_note(struct seen *s, const char *p, int kind, const char *parent,
		      const char *class_dir)
{
	int i = seen_find(s, p);
	struct seen_device *d;

	if (i < 0) {
		/* a device we cannot remember is reported with a null kind at its removal */
		if (GROW(s->v, s->cap, s->n + 1) < 0)
			return;
		d = &s->v[s->n];
		memset(d, 0, sizeof(*d));
		d->path = strdup(p);
		if (!d->path)
			return;
		s->n++;
	} else {
		d = &s->v[i];
	}
	d->kind = kind;
	free(d->parent);
	free(d->class_dir);
	d->parent = parent ? strdup(parent) : NULL;
	d->class_dir = class_dir ? strdup(class_dir) : NULL;
}

/* @gone: for a remove event, what the device was when last seen (or NULL) */
static void print_event(const struct options *o, struct sysdev_device *ev, int kind,
			const struct seen_device *gone)
{
	const char *kinds = kind >= 0 ? sysdev_kind_to_string(kind) : NULL;
	const char *parent = gone ? gone->parent : dev_parent_devpath(ev);
	const char *cd = gone ? gone->class_dir : dev_str(ev, sysdev_device_get_class_dir);
	uint64_t seqnum = 0;

	(void)sysdev_device_get_seqnum(ev, &seqnum);
	if (o->json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_begin_object(&w);
		jw_member_uint(&w, "seqnum", seqnum);
		jw_member_string(&w, "action", dev_str(ev, sysdev_device_get_action));
		jw_member_string(&w, "devpath", dev_str(ev, sysdev_device_get_devpath));
		jw_member_string(&w, "kind", kinds);
		jw_member_string(&w, "subsystem", dev_str(ev, sysdev_device_get_subsystem));
		jw_member_string(&w, "parent", parent);
		jw_member_string(&w, "class_dir", cd);
		jw_end_object(&w);
		fputc('\n', stdout);
		jw_done(&w);
	} else {
		printf("%llu ", (unsigned long long)seqnum);
		fput_text(stdout, dev_str(ev, sysdev_device_get_action));
		fputc(' ', stdout);
		fput_text(stdout, dev_str(ev, sysdev_device_get_devpath));
		printf(" %s ", kinds ? kinds : "-");
		fput_text(stdout, dev_str(ev, sysdev_device_get_subsystem) ?: "-");
		if (parent) {
			fputs(" parent=", stdout);
			fput_text(stdout, parent);
		}
		if (cd) {
			fputs(" class_dir=", stdout);
			fput_text(stdout, cd);
		}
		fputc('\n', stdout);
	}
}

static bool glob_any(const char *const *globs, size_t n, const char *s)
{
	if (!n)
		return true;
	for (size_t i = 0; s && i < n; i++)
		if (fnmatch(globs[i], s, 0) == 0)
			return true;
	return false;
}

/* --nomatch KEY: an event's property (an event carries no attributes) */
static const char *event_value(void *data, const char *key, char *buf, size_t size)
{
	const char *v = dev_property(data, key);

	/* as udev holds it, and as --match reads it elsewhere: the node's path */
	if (v && strcmp(key, "DEVNAME") == 0 && v[0] != '/') {
		snprintf(buf, size, "/dev/%s", v);
		return buf;
	}
	return v;
}

/*
 * The filters an event can answer: its DRIVER property, the last component
 * of its devpath, and its properties (an event carries no attributes).
 */
static bool event_selected(const struct options *o, struct sysdev_device *ev)
{
	const char *devpath = dev_str(ev, sysdev_device_get_devpath),
		   *slash = strrchr(devpath, '/');

	if (!glob_any(o->drivers, o->n_drivers, dev_property(ev, "DRIVER")) ||
	    !glob_any(o->sysnames, o->n_sysnames, slash ? slash + 1 : devpath) ||
	    !subsystem_selected(o, dev_property(ev, "SUBSYSTEM"), dev_property(ev, "DEVTYPE")) ||
	    !negations_pass(o, dev_property(ev, "SUBSYSTEM"), slash ? slash + 1 : devpath,
			    dev_property(ev, "DRIVER"), event_value, ev))
		return false;
	for (size_t i = 0; i < o->n_matches; i++) {
		const char *eq = strchr(o->matches[i], '=');
		char key[256], node[4096];
		const char *v;

		snprintf(key, sizeof(key), "%.*s", (int)(eq - o->matches[i]), o->matches[i]);
		v = dev_property(ev, key);
		/* as udev holds it, and as --match reads it elsewhere: the node's path */
		if (v && strcmp(key, "DEVNAME") == 0 && v[0] != '/') {
			snprintf(node, sizeof(node), "/dev/%s", v);
			v = node;
		}
		if (!v || fnmatch(eq + 1, v, 0) != 0)
			return false;
	}
	return true;
}

int cmd_watch(struct sysdev *ctx, const struct options *o)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct sysdev_monitor *m;
	struct seen seen = {0};
	int err, ret = 0;

	err = sysdev_monitor_new(ctx, &m);
	if (err < 0) {
		warnx_("--watch", "cannot listen to the kernel's uevents: %s", error_words(err));
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < o->n_subsystems; i++) {
		/* NAME/DEVTYPE: the monitor takes NAME; event_selected() the DEVTYPE */
		char *name = strndup(o->subsystems[i], strcspn(o->subsystems[i], "/"));

		if (!name || sysdev_monitor_add_match_subsystem_devtype(m, name, NULL) < 0) {
			free(name);
			sysdev_monitor_unref(m);
			return EXIT_RUNTIME;
		}
		free(name);
	}
	/* no SA_RESTART: poll() returns at once with EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop) {
		struct pollfd p = {.fd = sysdev_monitor_get_fd(m), .events = POLLIN};
		struct sysdev_device *ev;

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			warnx_("--watch", "poll: %s", error_words(-errno));
			ret = EXIT_RUNTIME;
			break;
		}
		while (!stop && (err = sysdev_monitor_receive(m, &ev)) == 0) {
			const char *action = dev_str(ev, sysdev_device_get_action);
			const char *devpath = dev_str(ev, sysdev_device_get_devpath);
			const struct seen_device *gone = NULL;
			enum sysdev_kind known;
			int kind = sysdev_device_get_kind(ev, &known) >= 0 ? (int)known : -1, i;

			if (strcmp(action, "remove") == 0) {
				/* gone: the kind, parent and class directory it had when last
				 * seen */
				i = seen_find(&seen, devpath);
				gone = i >= 0 ? &seen.v[i] : NULL;
				kind = gone ? gone->kind : -1;
			} else if (kind == SYSDEV_KIND_DEVICE) {
				/*
				 * Only a device is remembered: an event that finds the
				 * directory without its uevent file (an unbind racing the
				 * teardown) must not make the device's remove report
				 * the attribute group it looked like for a moment.
				 */
				seen_note(&seen, devpath, kind, dev_parent_devpath(ev),
					  dev_str(ev, sysdev_device_get_class_dir));
			}
			if (event_selected(o, ev))
				print_event(o, ev, kind, gone);
			sysdev_device_unref(ev);
			if (fflush(stdout) != 0) {
				stop = 1;
				ret = check_output();
			}
		}
		if (err < 0 && err != -EAGAIN && !stop) {
			warnx_("--watch", "%s", error_words(err));
			ret = EXIT_RUNTIME;
			break;
		}
	}
	for (size_t i = 0; i < seen.n; i++) {
		free(seen.v[i].path);
		free(seen.v[i].parent);
		free(seen.v[i].class_dir);
	}
	free(seen.v);
	sysdev_monitor_unref(m);
	return ret;
}
