/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --watch: one line per kernel uevent as it happens, flushed, until SIGINT
 * or SIGTERM (exit 0), as `udevadm monitor --kernel` but with each device's
 * kind, parent and class directory.  With --json, JSON lines.  A loss is
 * never fatal: one line says it, a resync prints what changed meanwhile
 * (marked as synthesized), and the watch goes on; the closing summary on
 * stderr counts what was heard, dropped and lost.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
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

struct watch_counts {
	uint64_t heard, synthesized, lost, losses_unknown;
};

static void print_properties_json(struct jw *w, struct sysdev_device *ev)
{
	const char *k, *v;

	jw_key(w, "properties");
	jw_begin_object(w);
	for (size_t i = 0; sysdev_device_get_property_at(ev, i, &k, &v) >= 0; i++)
		jw_member_string(w, k, v);
	jw_end_object(w);
}

/* as udevadm monitor -p: KEY=VALUE lines after the event's line, then a blank line */
static void print_properties_text(struct sysdev_device *ev)
{
	const char *k, *v;

	for (size_t i = 0; sysdev_device_get_property_at(ev, i, &k, &v) >= 0; i++) {
		fput_text(stdout, k);
		fputc('=', stdout);
		fput_text(stdout, v);
		fputc('\n', stdout);
	}
	fputc('\n', stdout);
}

static void print_event(const struct options *o, struct sysdev_device *ev)
{
	enum sysdev_kind known;
	const char *kinds =
	    sysdev_device_get_kind(ev, &known) >= 0 ? sysdev_kind_to_string(known) : NULL;
	const char *parent = dev_parent_devpath(ev);
	const char *cd = dev_str(ev, sysdev_device_get_class_dir);
	bool synthesized = sysdev_device_get_is_synthesized(ev) > 0;
	uint64_t seqnum = 0;
	bool has_seqnum = sysdev_device_get_seqnum(ev, &seqnum) >= 0;

	if (o->json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_begin_object(&w);
		jw_key(&w, "seqnum");
		if (has_seqnum)
			jw_uint(&w, seqnum);
		else
			jw_null(&w);
		jw_member_string(&w, "action", dev_str(ev, sysdev_device_get_action));
		jw_member_string(&w, "devpath", dev_str(ev, sysdev_device_get_devpath));
		jw_member_string(&w, "kind", kinds);
		jw_member_string(&w, "subsystem", dev_str(ev, sysdev_device_get_subsystem));
		jw_member_string(&w, "parent", parent);
		jw_member_string(&w, "class_dir", cd);
		jw_key(&w, "synthesized");
		jw_bool(&w, synthesized);
		if (o->watch_properties)
			print_properties_json(&w, ev);
		jw_end_object(&w);
		fputc('\n', stdout);
		jw_done(&w);
		return;
	}
	if (has_seqnum)
		printf("%" PRIu64 " ", seqnum);
	else
		fputs("- ", stdout);
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
	if (synthesized)
		fputs(" synthesized", stdout);
	fputc('\n', stdout);
	if (o->watch_properties)
		print_properties_text(ev);
}

/* "lost COUNT FIRST..LAST EVIDENCE", "-" where unknown; JSON: null */
static void print_loss(const struct options *o, struct sysdev_device *ev, struct watch_counts *c)
{
	uint64_t count = 0, first = 0, last = 0;
	bool has_count = sysdev_device_get_lost_count(ev, &count) >= 0;
	bool has_first = sysdev_device_get_lost_first(ev, &first) >= 0;
	bool has_last = sysdev_device_get_lost_last(ev, &last) >= 0;
	const char *evidence = dev_str(ev, sysdev_device_get_lost_evidence);

	if (has_count)
		c->lost += count;
	else
		c->losses_unknown++;
	if (o->json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_begin_object(&w);
		jw_member_string(&w, "action", "lost");
		jw_key(&w, "count");
		has_count ? jw_uint(&w, count) : jw_null(&w);
		jw_key(&w, "first");
		has_first ? jw_uint(&w, first) : jw_null(&w);
		jw_key(&w, "last");
		has_last ? jw_uint(&w, last) : jw_null(&w);
		jw_member_string(&w, "evidence", evidence);
		jw_end_object(&w);
		fputc('\n', stdout);
		jw_done(&w);
		return;
	}
	fputs("lost ", stdout);
	has_count ? printf("%" PRIu64, count) : fputs("-", stdout);
	fputc(' ', stdout);
	has_first ? printf("%" PRIu64, first) : fputs("-", stdout);
	fputs("..", stdout);
	has_last ? printf("%" PRIu64, last) : fputs("-", stdout);
	printf(" %s\n", evidence ? evidence : "-");
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

	const char *subsystem = dev_str(ev, sysdev_device_get_subsystem),
		   *driver = dev_str(ev, sysdev_device_get_driver);

	/* the device model's fields: a synthesized remove has no properties */
	if (!glob_any(o->drivers, o->n_drivers, driver) ||
	    !glob_any(o->sysnames, o->n_sysnames, slash ? slash + 1 : devpath) ||
	    !subsystem_selected(o, subsystem, dev_str(ev, sysdev_device_get_devtype)) ||
	    !negations_pass(o, subsystem, slash ? slash + 1 : devpath, driver, event_value, ev))
		return false;
	for (size_t i = 0; i < o->n_matches; i++) {
		const char *eq = strchr(o->matches[i], '=');
		/* the key as given, however long: never cut to a shorter one */
		char *key = strndup(o->matches[i], (size_t)(eq - o->matches[i]));
		char node[4096]; /* "/dev/" and a DEVNAME of one uevent (2 KiB at most) */
		const char *v;
		bool match;

		if (!key)
			exit_out_of_memory();
		v = event_value(ev, key, node, sizeof(node));
		match = v && fnmatch(eq + 1, v, 0) == 0;
		free(key);
		if (!match)
			return false;
	}
	return true;
}

/* -s SUBSYSTEM[/DEVTYPE] as the monitor's filter */
static int add_subsystem_filter(struct sysdev_monitor *m, const char *arg)
{
	const char *slash = strchr(arg, '/');
	char *subsystem;
	int err;

	if (!slash)
		return sysdev_monitor_add_match_subsystem_devtype(m, arg, NULL);
	subsystem = strndup(arg, (size_t)(slash - arg));
	if (!subsystem)
		return -ENOMEM;
	err = sysdev_monitor_add_match_subsystem_devtype(m, subsystem, slash + 1);
	free(subsystem);
	return err;
}

static void print_summary(const struct watch_counts *c, unsigned long dropped)
{
	char unknown[64] = "";

	if (c->losses_unknown)
		snprintf(unknown, sizeof(unknown), " (and %" PRIu64 " overflow%s of unknown size)",
			 c->losses_unknown, c->losses_unknown == 1 ? "" : "s");
	fprintf(stderr,
		"%s: --watch: %" PRIu64 " events heard, %" PRIu64
		" synthesized, %lu dropped, %" PRIu64 " lost%s\n",
		program_name, c->heard, c->synthesized, dropped, c->lost, unknown);
}

int cmd_watch(struct sysdev *ctx, const struct options *o)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct watch_counts counts = {0};
	struct sysdev_monitor *m;
	bool resync = false, skip_poll = true;
	int err, ret = 0;

	err = o->udev ? sysdev_monitor_new_udev(ctx, &m) : sysdev_monitor_new(ctx, &m);
	if (err < 0) {
		warnx_("--watch", "cannot listen to %s: %s",
		       o->udev ? "udevd's events" : "the kernel's uevents", error_words(err));
		return EXIT_RUNTIME;
	}
	if (o->receive_buffer) {
		err = sysdev_monitor_set_receive_buffer_size(m, o->receive_buffer);
		if (err < 0) {
			warnx_("--receive-buffer", "%s", error_words(err));
			sysdev_monitor_unref(m);
			return EXIT_RUNTIME;
		}
	}
	for (size_t i = 0; i < o->n_subsystems; i++) {
		err = add_subsystem_filter(m, o->subsystems[i]);
		if (err < 0) {
			warnx_(o->subsystems[i], "not a subsystem filter: %s", error_words(err));
			sysdev_monitor_unref(m);
			return err == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	/* udevd's events carry TAGS; the kernel's none (a tag filter then passes nothing) */
	for (size_t i = 0; i < o->n_tags; i++) {
		err = sysdev_monitor_add_match_tag(m, o->tags[i]);
		if (err < 0) {
			warnx_(o->tags[i], "not a tag filter: %s", error_words(err));
			sysdev_monitor_unref(m);
			return err == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
		}
	}
	/* no SA_RESTART: poll() returns at once with EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop) {
		struct pollfd p = {.fd = sysdev_monitor_get_fd(m), .events = POLLIN};
		struct sysdev_device *ev;

		/* the first pass receives before waiting: the monitor notes what exists */
		if (!skip_poll && poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			warnx_("--watch", "poll: %s", error_words(-errno));
			ret = EXIT_RUNTIME;
			break;
		}
		skip_poll = false;
		while (!stop && (err = sysdev_monitor_receive(m, &ev)) == 0) {
			const char *action = dev_str(ev, sysdev_device_get_action);

			if (action && strcmp(action, "lost") == 0) {
				print_loss(o, ev, &counts);
				resync = true;
			} else {
				if (sysdev_device_get_is_synthesized(ev) > 0)
					counts.synthesized++;
				else
					counts.heard++;
				if (event_selected(o, ev))
					print_event(o, ev);
			}
			sysdev_device_unref(ev);
			/* a write that failed (the reader gone, a full disk) stops at once */
			if (ferror(stdout)) {
				stop = 1;
				ret = check_output();
			}
		}
		/*
		 * All that was received is written before waiting again: each line
		 * comes out as soon as its event is in, and a storm costs one write
		 * a buffer, not one a line.
		 */
		if (!stop && fflush(stdout) != 0) {
			stop = 1;
			ret = check_output();
		}
		if (err < 0 && err != -EAGAIN && !stop) {
			warnx_("--watch", "%s", error_words(err));
			ret = EXIT_RUNTIME;
			break;
		}
		/*
		 * Caught up after a loss: one rescan for however many losses a
		 * storm made, then what changed, before waiting again.
		 */
		if (resync && !stop) {
			resync = false;
			err = sysdev_monitor_resync(m);
			if (err < 0)
				warnx_("--watch", "resync: %s", error_words(err));
			skip_poll = true;
		}
	}
	print_summary(&counts, sysdev_monitor_get_dropped(m));
	sysdev_monitor_unref(m);
	return ret;
}
