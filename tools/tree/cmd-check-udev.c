/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --check-udev: compare the walk with libudev's enumeration (sysdev(7)).
 *
 * Three views of one tree are collected:
 *   walk   every device directory under S/devices (libsysdev),
 *   lists  what S/bus/X/devices/Y and S/class/X/Y link to, resolved here,
 *          relative to the root (S/block/Y too where S/class/block is absent),
 *   udev   udev_enumerate_scan_devices() with no match: all subsystems.
 * They agree when every device libudev lists is found by the walk, every
 * entry of the lists is a device libudev lists, and the devices both know
 * have the same subsystem, driver, devtype, devnum and parent.  Devices only
 * the walk finds, that no list links to, are the article's "implemented but
 * not linked" devices: counted, not a disagreement.
 *
 * libudev always reads /sys.  With --root other than /sys, the command
 * enters a private mount namespace first (sysfs-namespace.c), so the host's
 * /sys is never touched.  The views are collected in check-udev-views.c;
 * this file compares them and reports.
 *
 * Exit status: 0 agree, 1 disagree, 2 the check could not be made.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

#include "check-udev.h"
#include "cli.h"
#include "json-writer.h"
#include "plural.h"

struct diff {
	const char *devpath; /* owned by the walk's record */
	const char *field;
	const char *walk, *udev;
};

struct diffs {
	struct diff *v;
	size_t n, cap;
};

/* ---------------------------------------------------------------- */
/* The walk                                                           */
/* ---------------------------------------------------------------- */

struct walk_state {
	struct sysdev *ctx;
	struct devs *devs;
	struct walk_errors errors;
};

static int on_node(struct sysdev_node *node, void *data)
{
	struct walk_state *w = data;
	int err = sysdev_node_get_error(node);
	struct sysdev_device *dev;
	char num[32];

	if (err) {
		walk_error_note(&w->errors, w->ctx, node);
	}
	if (sysdev_node_get_device(node, &dev) < 0)
		return 0;
	return devs_add(
	    w->devs, sysdev_node_get_devpath(node), dev_str(dev, sysdev_device_get_subsystem),
	    dev_str(dev, sysdev_device_get_driver), dev_str(dev, sysdev_device_get_devtype),
	    dev_devnum(dev, num, sizeof(num)), dev_parent_devpath(dev));
}

/* ---------------------------------------------------------------- */
/* Comparison and report                                              */
/* ---------------------------------------------------------------- */

static int add_diff(struct diffs *d, const char *devpath, const char *field, const char *walk,
		    const char *udev)
{
	if (grow_array((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) < 0)
		return -ENOMEM;
	d->v[d->n++] = (struct diff){devpath, field, walk, udev};
	return 0;
}

static void put_opt_text(FILE *f, const char *s)
{
	if (s) {
		fputc('"', f);
		fput_text(f, s);
		fputc('"', f);
	} else {
		fputs("(none)", f);
	}
}

static void link_why(FILE *f, const struct link *x, const struct dev *w)
{
	if (x->reason) {
		fputs(x->reason, f);
		if (x->detail) {
			fputs(" (", f);
			fput_text(f, x->detail);
			fputc(')', f);
		}
	} else if (w) {
		fputs("a device the walk finds, not listed by libudev", f);
	} else if (strncmp(x->target, "/devices/", 9) != 0) {
		fputs("not below S/devices, not listed by libudev", f);
	} else {
		fputs("not a device (no uevent file), not listed by libudev", f);
	}
}

static const char *link_why_word(const struct link *x, const struct dev *w)
{
	if (x->reason)
		return x->reason;
	if (w)
		return "not listed by libudev";
	if (strncmp(x->target, "/devices/", 9) != 0)
		return "not below S/devices";
	return "not a device (no uevent file)";
}

int cmd_check_udev(struct sysdev *ctx, const struct options *o)
{
	struct devs walk = {0}, udev = {0};
	struct links links = {0};
	struct diffs diffs = {0};
	struct walk_state ws = {.ctx = ctx, .devs = &walk};
	struct walk_counts st;
	int rootfd = sysdev_get_root_fd(ctx);
	const char *root = sysdev_get_root(ctx), *shown = root_shown(root);
	size_t n_udev_only = 0, n_bad_links = 0, n_both = 0, n_not_linked = 0, n_sub_unlisted = 0;
	int err, ret = EXIT_TROUBLE;
	struct statfs sfs;
	const char *step;
	bool listed;

	if (o->start) {
		warnx_(o->start, "--check-udev checks the whole tree and takes no START");
		return EXIT_USAGE;
	}

	/* libudev's view first needs /sys to be the root */
	err = bind_root_over_sys(root, &step);
	if (err < 0) {
		warnx_(shown,
		       "libudev reads /sys only, and binding this root over /sys in a "
		       "private mount namespace failed: %s: %s",
		       step, error_words(err));
		if (shown != root) /* an archive: its unpacked tree is gone when this ends */
			fprintf(stderr,
				"%s: run it as root, or unpack the archive and bind the tree "
				"yourself where you may:\n"
				"  sysdev-fixture unpack %s DIR && unshare -m sh -c 'mount --bind "
				"DIR /sys && SYSTEMD_DEVICE_VERIFY_SYSFS=0 %s --check-udev'\n",
				program_name, shown, program_name);
		else
			fprintf(stderr,
				"%s: run it as root, or bind the tree yourself where you may:\n"
				"  unshare -m sh -c 'mount --bind %s /sys && "
				"SYSTEMD_DEVICE_VERIFY_SYSFS=0 %s --check-udev'\n",
				program_name, root, program_name);
		return EXIT_TROUBLE;
	}
	/* a tree bound over /sys is not sysfs: libudev must not insist on it */
	if (statfs("/sys", &sfs) == 0 && sfs.f_type != SYSFS_MAGIC)
		setenv("SYSTEMD_DEVICE_VERIFY_SYSFS", "0", 0);

	err = walk_run(ctx, NULL, SYSDEV_WALK_UEVENT | SYSDEV_WALK_ATTR_GROUPS, -1, on_node, NULL,
		       &ws, &st);
	/* an incomplete walk proves nothing: report_walk() says why, exit 2 says no check */
	if (report_walk(ctx, "/devices", err, &st, &ws.errors) != 0 || ws.errors.n)
		goto out;
	if (walk.n)
		qsort(walk.v, walk.n, sizeof(*walk.v), cmp_dev);

	err = collect_lists(rootfd, &links);
	if (err < 0) {
		warnx_(shown, "reading S/bus and S/class: %s", error_words(err));
		goto out;
	}
	err = udev_collect(&udev);
	if (err < 0) {
		warnx_("libudev", "enumeration failed: %s", error_words(err));
		goto out;
	}
	if (udev.n)
		qsort(udev.v, udev.n, sizeof(*udev.v), cmp_dev);

	/* what libudev lists: found by the walk, with the same fields? */
	for (size_t i = 0; i < udev.n; i++) {
		struct dev *u = &udev.v[i], *w = find_dev(&walk, u->devpath);

		if (!w) {
			n_udev_only++;
			continue;
		}
		w->listed = true;
		u->listed = true;
		n_both++;
		if ((!str_eq_or_null(w->subsystem, u->subsystem) &&
		     add_diff(&diffs, w->devpath, "subsystem", w->subsystem, u->subsystem) < 0) ||
		    (!str_eq_or_null(w->driver, u->driver) &&
		     add_diff(&diffs, w->devpath, "driver", w->driver, u->driver) < 0) ||
		    (!str_eq_or_null(w->devtype, u->devtype) &&
		     add_diff(&diffs, w->devpath, "devtype", w->devtype, u->devtype) < 0) ||
		    (!str_eq_or_null(w->devnum, u->devnum) &&
		     add_diff(&diffs, w->devpath, "devnum", w->devnum, u->devnum) < 0) ||
		    (!str_eq_or_null(w->parent, u->parent) &&
		     add_diff(&diffs, w->devpath, "parent", w->parent, u->parent) < 0)) {
			warnx_(shown, "%s", error_words(-ENOMEM));
			goto out;
		}
	}
	/* what the lists link to: listed by libudev? */
	for (size_t i = 0; i < links.n; i++) {
		struct link *x = &links.v[i];
		struct dev *w = x->target ? find_dev(&walk, x->target) : NULL;

		if (w)
			w->linked = true;
		if (x->target && find_dev(&udev, x->target))
			continue;
		n_bad_links++;
	}
	for (size_t i = 0; i < walk.n; i++) {
		if (walk.v[i].listed || walk.v[i].linked)
			continue;
		if (walk.v[i].subsystem)
			n_sub_unlisted++;
		else
			n_not_linked++;
	}
	listed = n_udev_only == 0 && n_bad_links == 0 && diffs.n == 0;
	ret = listed ? 0 : 1;

	if (o->json) {
		struct jw jw, *j = &jw;

		jw_init(j, stdout);
		jw_begin_object(j);
		jw_break(j, 1);
		jw_member_string(j, "sysfs", shown);
		jw_break(j, 1);
		jw_key(j, "agree");
		jw_bool(j, listed);
		jw_break(j, 1);
		jw_key(j, "counts");
		jw_begin_object(j);
		jw_member_uint(j, "walk", walk.n);
		jw_member_uint(j, "udev", udev.n);
		jw_member_uint(j, "links", links.n);
		jw_member_uint(j, "both", n_both);
		jw_member_uint(j, "udev_only", n_udev_only);
		jw_member_uint(j, "links_udev_misses", n_bad_links);
		jw_member_uint(j, "differences", diffs.n);
		jw_member_uint(j, "not_linked", n_not_linked);
		jw_member_uint(j, "with_subsystem_not_listed", n_sub_unlisted);
		jw_end_object(j);
		jw_break(j, 1);
		jw_key(j, "udev_only");
		jw_begin_array(j);
		for (size_t i = 0; i < udev.n; i++) {
			if (udev.v[i].listed)
				continue;
			jw_break(j, 2);
			jw_begin_object(j);
			jw_member_string(j, "path", udev.v[i].devpath);
			jw_member_string(j, "subsystem", udev.v[i].subsystem);
			jw_end_object(j);
		}
		jw_break(j, 1);
		jw_end_array(j);
		jw_break(j, 1);
		jw_key(j, "links_udev_misses");
		jw_begin_array(j);
		for (size_t i = 0; i < links.n; i++) {
			struct link *x = &links.v[i];
			struct dev *w = x->target ? find_dev(&walk, x->target) : NULL;

			if (x->target && find_dev(&udev, x->target))
				continue;
			jw_break(j, 2);
			jw_begin_object(j);
			jw_member_string(j, "link", x->list);
			jw_member_string(j, "target", x->target);
			jw_member_string(j, "reason", link_why_word(x, w));
			jw_member_string(j, "detail", x->detail);
			jw_end_object(j);
		}
		jw_break(j, 1);
		jw_end_array(j);
		jw_break(j, 1);
		jw_key(j, "differences");
		jw_begin_array(j);
		for (size_t i = 0; i < diffs.n; i++) {
			jw_break(j, 2);
			jw_begin_object(j);
			jw_member_string(j, "path", diffs.v[i].devpath);
			jw_member_string(j, "field", diffs.v[i].field);
			jw_member_string(j, "walk", diffs.v[i].walk);
			jw_member_string(j, "udev", diffs.v[i].udev);
			jw_end_object(j);
		}
		jw_break(j, 1);
		jw_end_array(j);
		for (int pass = 0; pass < 2; pass++) {
			jw_break(j, 1);
			jw_key(j, pass ? "with_subsystem_not_listed" : "not_linked");
			jw_begin_array(j);
			for (size_t i = 0; i < walk.n; i++) {
				struct dev *w = &walk.v[i];

				if (w->listed || w->linked || !w->subsystem != !pass)
					continue;
				jw_break(j, 2);
				jw_string(j, w->devpath);
			}
			jw_break(j, 1);
			jw_end_array(j);
		}
		jw_end_document(j);
		goto out;
	}

	fputs("check-udev ", stdout);
	fput_text(stdout, shown);
	if (listed)
		printf(": agree: libudev lists %zu %s, all found by the walk with the same "
		       "fields; S/bus and S/class link to no other device\n",
		       udev.n, plural(udev.n, "device", "devices"));
	else
		printf(": DISAGREE: %zu listed by libudev but not found by the walk, %zu %s of "
		       "S/bus or S/class that libudev does not list, %zu field %s\n",
		       n_udev_only, n_bad_links, plural(n_bad_links, "entry", "entries"), diffs.n,
		       plural(diffs.n, "difference", "differences"));
	printf("  walk: %zu %s; libudev: %zu %s; S/bus and S/class: %zu %s\n", walk.n,
	       plural(walk.n, "device", "devices"), udev.n, plural(udev.n, "device", "devices"),
	       links.n, plural(links.n, "entry", "entries"));
	for (size_t i = 0; i < udev.n; i++) {
		if (udev.v[i].listed)
			continue;
		fputs("only-udev  ", stdout);
		fput_text(stdout, udev.v[i].devpath);
		fputs(": listed by libudev, not a device the walk finds\n", stdout);
	}
	for (size_t i = 0; i < links.n; i++) {
		struct link *x = &links.v[i];
		struct dev *w = x->target ? find_dev(&walk, x->target) : NULL;

		if (x->target && find_dev(&udev, x->target))
			continue;
		fputs("unlisted   ", stdout);
		fput_text(stdout, x->list);
		if (x->target) {
			fputs(" -> ", stdout);
			fput_text(stdout, x->target);
		}
		fputs(": ", stdout);
		link_why(stdout, x, w);
		fputc('\n', stdout);
	}
	for (size_t i = 0; i < diffs.n; i++) {
		fputs("differ     ", stdout);
		fput_text(stdout, diffs.v[i].devpath);
		printf(" %s: walk ", diffs.v[i].field);
		put_opt_text(stdout, diffs.v[i].walk);
		fputs(", libudev ", stdout);
		put_opt_text(stdout, diffs.v[i].udev);
		fputc('\n', stdout);
	}
	printf("implemented but not linked: %zu device%s (no subsystem link; listed by neither "
	       "S/bus, S/class nor libudev)%s\n",
	       n_not_linked, n_not_linked == 1 ? "" : "s",
	       n_not_linked && !o->all
		   ? plural(n_not_linked, "; --all lists it", "; --all lists them")
		   : "");
	if (n_sub_unlisted)
		printf("not linked although they have a subsystem link: %zu device%s%s\n",
		       n_sub_unlisted, n_sub_unlisted == 1 ? "" : "s",
		       o->all ? ""
			      : plural(n_sub_unlisted, "; --all lists it", "; --all lists them"));
	if (o->all) {
		for (size_t i = 0; i < walk.n; i++) {
			struct dev *w = &walk.v[i];

			if (w->listed || w->linked)
				continue;
			fputs(w->subsystem ? "  not-listed " : "  not-linked ", stdout);
			fput_text(stdout, w->devpath);
			if (w->subsystem) {
				fputs("  subsystem:", stdout);
				fput_text(stdout, w->subsystem);
			}
			fputc('\n', stdout);
		}
	}
out:
	devs_free(&walk);
	devs_free(&udev);
	links_free(&links);
	free(diffs.v);
	return ret;
}
