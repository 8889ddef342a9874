/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --diff OLD NEW: compare the devices of two sysfs roots (live or captured).
 *
 * Each root is walked once into a map devpath -> fields.  Then:
 *   changed  the same devpath in both, with another subsystem, driver or
 *            devnum (with --attrs: attribute values of the device directory,
 *            "uevent" excepted, added, removed or changed);
 *   moved    a device gone from OLD and one new in NEW with the same
 *            basename, the same subsystem and the same modalias (both null
 *            counts as the same), where that pair is the only one of its kind
 *            on each side: the same device under another parent.  A name the
 *            kernel numbers in order of creation (wakeup7, host2, device:02)
 *            says nothing about which device it is, so it never makes a move.  A move whose parent
 * moved the same way (same path below it) is "carried" by the parent's move and is summarised on
 * the parent's line; removed  the other devices only in OLD; added    the other devices only in
 * NEW. Output: one line per difference, like diff(1):
 *   - /devices/...            removed
 *   + /devices/...            added
 *   > /devices/A -> /devices/B  moved
 *   ~ /devices/... driver: a -> b
 * or one JSON document with --json.  Exit 0 same, 1 different, 2 trouble.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "devs.h"
#include "json-writer.h"

enum ev_kind { EV_REMOVED, EV_ADDED, EV_MOVED, EV_CHANGED };

struct event {
	enum ev_kind kind;
	const struct dev *a, *b; /* old, new (either NULL where absent) */
	const char *field;	 /* EV_CHANGED: "subsystem", "driver", "devnum", "attribute" */
	const struct attr *attr_a, *attr_b;
	const char *attr_name;
	size_t seq;
};

struct events {
	struct event *v;
	size_t n, cap;
};

struct walk_state {
	struct sysdev *ctx;
	struct devs *devs;
	bool attrs;
	struct walk_errors errors;
};

/* The regular files of the device directory, "uevent" excepted, sorted (the walk sorts). */
static int read_attrs(struct sysdev_node *node, struct sysdev_device *dev, struct dev *x)
{
	unsigned char type;
	const char *name;
	size_t cap = 0;
	char buf[4097];

	SYSDEV_NODE_FOREACH_ENTRY(node, name, type)
	{
		struct attr *a;
		ssize_t len;

		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(sysdev_node_get_dirfd(node), name, &st, AT_SYMLINK_NOFOLLOW) <
			    0)
				continue;
			type = S_ISREG(st.st_mode) ? DT_REG : DT_DIR;
		}
		if (type != DT_REG || strcmp(name, "uevent") == 0)
			continue;
		if (grow_array((void **)&x->attrs, &cap, x->nattrs + 1, sizeof(*x->attrs)) < 0)
			return -ENOMEM;
		a = &x->attrs[x->nattrs++];
		*a = (struct attr){.name = strdup(name)};
		if (!a->name)
			return -ENOMEM;
		len = sysdev_device_read_attribute(dev, name, buf, sizeof(buf));
		if (len < 0) {
			a->err = (int)len;
			continue;
		}
		a->value = malloc((size_t)len + 1);
		if (!a->value)
			return -ENOMEM;
		memcpy(a->value, buf, (size_t)len + 1);
		a->len = (size_t)len;
	}
	return 0;
}

static int on_node(struct sysdev_node *node, void *data)
{
	struct walk_state *w = data;
	int err = sysdev_node_get_error(node);
	struct sysdev_device *dev;
	struct dev *x;
	const char *slash, *modalias;
	char num[32];

	if (err) {
		walk_error_note(&w->errors, w->ctx, node);
	}
	if (sysdev_node_get_device(node, &dev) < 0)
		return 0;
	err = devs_add(w->devs, sysdev_node_get_devpath(node),
		       dev_str(dev, sysdev_device_get_subsystem),
		       dev_str(dev, sysdev_device_get_driver), NULL,
		       dev_devnum(dev, num, sizeof(num)), dev_parent_devpath(dev));
	if (err < 0)
		return err;
	x = &w->devs->v[w->devs->n - 1];
	modalias = dev_property(dev, "MODALIAS");
	if (modalias) {
		x->modalias = strdup(modalias);
	} else if (sysdev_node_has_entry(node, "modalias")) {
		char buf[4097];

		if (sysdev_device_read_attribute(dev, "modalias", buf, sizeof(buf)) > 0)
			x->modalias = strdup(buf);
	}
	slash = strrchr(x->devpath, '/');
	x->name = slash ? slash + 1 : x->devpath;
	if (w->attrs)
		return read_attrs(node, dev, x);
	return 0;
}

/* Open and walk one root.  Returns 0, or an exit status after saying why. */
static int load(const char *root, bool attrs, struct devs *devs, bool *incomplete)
{
	struct sysdev *ctx;
	struct walk_counts st;
	struct walk_state w = {.devs = devs, .attrs = attrs};
	int err;

	err = sysdev_new(root, &ctx);
	if (err < 0) {
		warn_root(root, err);
		return EXIT_TROUBLE;
	}
	w.ctx = ctx;
	err = walk_run(ctx, NULL, SYSDEV_WALK_UEVENT | SYSDEV_WALK_ERRORS, -1, on_node, NULL, &w,
		       &st);
	if (err < 0) {
		warnx_(syspath_of(ctx, "/devices"), "%s", error_words(err));
		sysdev_unref(ctx);
		return EXIT_TROUBLE;
	}
	if (report_walk(ctx, "/devices", err, &st, &w.errors) != 0 || w.errors.n)
		*incomplete = true;
	sysdev_unref(ctx);
	if (devs->n)
		qsort(devs->v, devs->n, sizeof(*devs->v), cmp_dev);
	return 0;
}

static int add_event(struct events *e, struct event ev)
{
	if (grow_array((void **)&e->v, &e->cap, e->n + 1, sizeof(*e->v)) < 0)
		return -ENOMEM;
	ev.seq = e->n;
	e->v[e->n++] = ev;
	return 0;
}

static const char *ev_path(const struct event *e)
{
	return e->kind == EV_ADDED ? e->b->devpath : e->a->devpath;
}

static int cmp_event(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;
	int r = strcmp(ev_path(a), ev_path(b));

	if (r)
		return r;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Compare the fields of a (OLD) and b (NEW), appending EV_CHANGED events. */
static int compare_fields(struct events *ev, const struct dev *a, const struct dev *b, bool attrs)
{
	static const struct {
		const char *field;
		size_t off;
	} fields[] = {
	    {"subsystem", offsetof(struct dev, subsystem)},
	    {"driver", offsetof(struct dev, driver)},
	    {"devnum", offsetof(struct dev, devnum)},
	};
	size_t i = 0, j = 0;

	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		const char *va = *(char *const *)((const char *)a + fields[k].off);
		const char *vb = *(char *const *)((const char *)b + fields[k].off);

		if (!str_eq_or_null(va, vb) &&
		    add_event(
			ev, (struct event){
				.kind = EV_CHANGED, .a = a, .b = b, .field = fields[k].field}) < 0)
			return -ENOMEM;
	}
	if (!attrs)
		return 0;
	while (i < a->nattrs || j < b->nattrs) {
		const struct attr *x = i < a->nattrs ? &a->attrs[i] : NULL;
		const struct attr *y = j < b->nattrs ? &b->attrs[j] : NULL;
		int c = !x ? 1 : !y ? -1 : strcmp(x->name, y->name);
		struct event e = {.kind = EV_CHANGED, .a = a, .b = b, .field = "attribute"};

		if (c < 0) {
			e.attr_a = x;
			e.attr_name = x->name;
			i++;
		} else if (c > 0) {
			e.attr_b = y;
			e.attr_name = y->name;
			j++;
		} else {
			i++;
			j++;
			/* unreadable on both sides is the same: the reason is the
			 * kernel's, and a copy keeps only that it could not be read */
			if (x->value && y->value
				? x->len == y->len && !memcmp(x->value, y->value, x->len)
				: !x->value && !y->value)
				continue;
			e.attr_a = x;
			e.attr_b = y;
			e.attr_name = x->name;
		}
		if (add_event(ev, e) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Move candidates: removed (OLD) and added (NEW) devices, by name, subsystem and modalias. */
struct cand {
	struct dev *d;
	bool old;
};

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	int r = strcmp(a->d->name, b->d->name);

	if (r)
		return r;
	r = strcmp(a->d->subsystem ? a->d->subsystem : "", b->d->subsystem ? b->d->subsystem : "");
	if (r)
		return r;
	if (!a->d->subsystem != !b->d->subsystem)
		return a->d->subsystem ? 1 : -1;
	/* the whole key of same_key(): a namesake of another modalias must not
	 * sort between the candidates of one key and split them */
	r = strcmp(a->d->modalias ? a->d->modalias : "", b->d->modalias ? b->d->modalias : "");
	if (r)
		return r;
	if (!a->d->modalias != !b->d->modalias)
		return a->d->modalias ? 1 : -1;
	if (a->old != b->old)
		return a->old ? -1 : 1;
	return strcmp(a->d->devpath, b->d->devpath);
}

static bool same_key(const struct dev *a, const struct dev *b)
{
	return strcmp(a->name, b->name) == 0 && str_eq_or_null(a->subsystem, b->subsystem) &&
	       str_eq_or_null(a->modalias, b->modalias);
}

/*
 * A name the kernel hands out by counting (an ida index): a word, maybe a
 * '-', then decimal digits (wakeup7, host2, input3, i2c-0, nvme0n1), or
 * anything followed by ':' and hex digits (device:02, LNXSYSTM:00).  The
 * same such name on two machines, or before and after a reboot, is no
 * evidence of the same device.  Bus addresses (0000:00:02.0, 2-0045, 1-1:1.0)
 * start with a digit or end in another form, and do identify a device.
 */
bool name_is_kernel_numbered(const char *name)
{
	size_t len = strlen(name), i = len;
	const char *colon = strrchr(name, ':');

	if (colon && colon[1] && strspn(colon + 1, "0123456789abcdefABCDEF") == strlen(colon + 1))
		return true;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i == len || i == 0)
		return false;
	if (name[i - 1] == '-')
		i--;
	if (i == 0 || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z')))
		return false;
	for (size_t j = 0; j < i; j++)
		if (!((name[j] >= 'a' && name[j] <= 'z') || (name[j] >= 'A' && name[j] <= 'Z') ||
		      (name[j] >= '0' && name[j] <= '9') || name[j] == '_'))
			return false;
	return true;
}

static int find_moves(struct devs *olds, struct devs *news)
{
	struct cand *c = NULL;
	size_t n = 0, cap = 0;

	for (int side = 0; side < 2; side++) {
		struct devs *mine = side ? news : olds, *other = side ? olds : news;

		for (size_t i = 0; i < mine->n; i++) {
			if (find_dev(other, mine->v[i].devpath))
				continue;
			if (grow_array((void **)&c, &cap, n + 1, sizeof(*c)) < 0) {
				free(c);
				return -ENOMEM;
			}
			c[n++] = (struct cand){&mine->v[i], side == 0};
		}
	}
	if (n)
		qsort(c, n, sizeof(*c), cmp_cand);
	/* exactly one OLD and one NEW with the key: a move */
	for (size_t i = 0; i + 1 < n;) {
		size_t j = i + 1;

		while (j < n && same_key(c[i].d, c[j].d))
			j++;
		if (j - i == 2 && c[i].old && !c[i + 1].old &&
		    !name_is_kernel_numbered(c[i].d->name)) {
			c[i].d->moved_to = c[i + 1].d;
			c[i + 1].d->moved_from = c[i].d;
		}
		i = j;
	}
	free(c);
	/*
	 * Carried moves: the nearest device above moved too, and the path below
	 * it is the same on both sides.  The OLD array is sorted, so ancestors
	 * come first and chains resolve to the topmost move.  A kernel-numbered
	 * name (sda1 below sda) is the same device when its parent moved and
	 * the path below it, subsystem and modalias are the same.
	 */
	for (size_t i = 0; i < olds->n; i++) {
		struct dev *a = &olds->v[i], *p;
		size_t plen, qlen;

		if (!a->moved_to && a->parent && !find_dev(news, a->devpath) &&
		    (p = find_dev(olds, a->parent)) && p->moved_to) {
			struct dev *b;
			char *np;

			if (asprintf(&np, "%s%s", p->moved_to->devpath,
				     a->devpath + strlen(p->devpath)) < 0)
				return -ENOMEM;
			b = find_dev(news, np);
			free(np);
			if (b && !b->moved_from && !find_dev(olds, b->devpath) &&
			    str_eq_or_null(a->subsystem, b->subsystem) &&
			    str_eq_or_null(a->modalias, b->modalias)) {
				a->moved_to = b;
				b->moved_from = a;
			}
		}
		if (!a->moved_to || !a->parent)
			continue;
		p = find_dev(olds, a->parent);
		if (!p || !p->moved_to ||
		    !str_eq_or_null(a->moved_to->parent, p->moved_to->devpath))
			continue;
		plen = strlen(p->devpath);
		qlen = strlen(p->moved_to->devpath);
		if (strcmp(a->devpath + plen, a->moved_to->devpath + qlen) != 0)
			continue;
		a->carried_by = p->carried_by ? p->carried_by : p;
		a->carried_by->carried++;
	}
	return 0;
}

static void put_value(FILE *f, const char *s)
{
	fput_text(f, s ? s : "(none)");
}

static void put_attr(FILE *f, const struct attr *a)
{
	if (!a) {
		fputs("(none)", f);
	} else if (!a->value) {
		fprintf(f, "(unreadable: %s)", error_words(a->err));
	} else {
		fputc('"', f);
		fput_text_len(f, a->value, a->len);
		fputc('"', f);
	}
}

static void json_attr(struct jw *w, const char *key, const struct attr *a)
{
	char error_key[32];

	jw_key(w, key);
	if (a && a->value)
		jw_string_len(w, a->value, a->len);
	else
		jw_null(w);
	if (a && !a->value) {
		snprintf(error_key, sizeof(error_key), "%s_error", key);
		jw_member_string(w, error_key, error_words(a->err));
	}
}

static const char *field_value(const struct dev *d, const char *field)
{
	if (strcmp(field, "subsystem") == 0)
		return d->subsystem;
	if (strcmp(field, "driver") == 0)
		return d->driver;
	return d->devnum;
}

/* A device's fields, {"path", "subsystem", "driver", "devnum"} (no "path" without
 * @with_path), or null for none. */
static void json_dev(struct jw *w, const struct dev *d, bool with_path)
{
	if (!d) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	if (with_path)
		jw_member_string(w, "path", d->devpath);
	jw_member_string(w, "subsystem", d->subsystem);
	jw_member_string(w, "driver", d->driver);
	jw_member_string(w, "devnum", d->devnum);
	jw_end_object(w);
}

/* The members of a changed field, the same in --json and jsonl:
 * "field", then "name" for an attribute, then "old" and "new". */
static void json_change(struct jw *w, const struct event *e)
{
	jw_member_string(w, "field", e->field);
	if (e->attr_name) {
		jw_member_string(w, "name", e->attr_name);
		json_attr(w, "old", e->attr_a);
		json_attr(w, "new", e->attr_b);
	} else {
		jw_member_string(w, "old", field_value(e->a, e->field));
		jw_member_string(w, "new", field_value(e->b, e->field));
	}
}

static void print_json(const struct options *o, const struct events *ev, size_t n_old, size_t n_new,
		       const size_t counts[4])
{
	static const char *const names[] = {"removed", "added", "moved", "changed"};
	struct jw jw, *w = &jw;

	jw_init(w, stdout);
	jw_begin_object(w);
	jw_break(w, 1);
	jw_member_string(w, "old", o->diff_old_label ? o->diff_old_label : o->diff_old);
	jw_break(w, 1);
	jw_member_string(w, "new", o->diff_new_label ? o->diff_new_label : o->diff_new);
	jw_break(w, 1);
	jw_key(w, "same");
	jw_bool(w, ev->n == 0);
	jw_break(w, 1);
	jw_key(w, "counts");
	jw_begin_object(w);
	jw_member_uint(w, "old", n_old);
	jw_member_uint(w, "new", n_new);
	for (int k = 0; k < 4; k++)
		jw_member_uint(w, names[k], counts[k]);
	jw_end_object(w);
	for (int k = 0; k < 4; k++) {
		jw_break(w, 1);
		jw_key(w, names[k]);
		jw_begin_array(w);
		for (size_t i = 0; i < ev->n; i++) {
			const struct event *e = &ev->v[i];

			if ((int)e->kind != k)
				continue;
			jw_break(w, 2);
			switch (e->kind) {
			case EV_REMOVED:
				json_dev(w, e->a, true);
				break;
			case EV_ADDED:
				json_dev(w, e->b, true);
				break;
			case EV_MOVED:
				jw_begin_object(w);
				jw_member_string(w, "old", e->a->devpath);
				jw_member_string(w, "new", e->b->devpath);
				jw_member_string(w, "old_parent", e->a->parent);
				jw_member_string(w, "new_parent", e->b->parent);
				jw_member_string(w, "subsystem", e->a->subsystem);
				jw_member_string(w, "carried_by",
						 e->a->carried_by ? e->a->carried_by->devpath
								  : NULL);
				jw_end_object(w);
				break;
			case EV_CHANGED:
				jw_begin_object(w);
				jw_member_string(w, "path", e->b->devpath);
				if (e->a->moved_to)
					jw_member_string(w, "old_path", e->a->devpath);
				json_change(w, e);
				jw_end_object(w);
				break;
			}
		}
		jw_break(w, 1);
		jw_end_array(w);
	}
	jw_end_document(w);
}

/*
 * --format=jsonl: one JSON object a line, one line per change, for log
 * pipelines: "what" (removed, added, moved, changed), "devpath" (the OLD
 * path for removed and moved, else the NEW one), "old" and "new":
 *   removed/added  the device's fields ({"subsystem", "driver", "devnum"}) or null;
 *   moved          the OLD and NEW devpaths (and "carried_by");
 *   changed        "field" (subsystem, driver, devnum, attribute; "name" for
 *                  an attribute) and its OLD and NEW values (null: absent).
 */
static void print_jsonl(const struct events *ev)
{
	static const char *const names[] = {"removed", "added", "moved", "changed"};
	struct jw jw, *w = &jw;

	jw_init(w, stdout);
	for (size_t i = 0; i < ev->n; i++) {
		const struct event *e = &ev->v[i];

		jw_begin_object(w);
		jw_member_string(w, "what", names[e->kind]);
		switch (e->kind) {
		case EV_REMOVED:
		case EV_ADDED:
			jw_member_string(w, "devpath",
					 e->kind == EV_REMOVED ? e->a->devpath : e->b->devpath);
			jw_key(w, "old");
			json_dev(w, e->kind == EV_REMOVED ? e->a : NULL, false);
			jw_key(w, "new");
			json_dev(w, e->kind == EV_ADDED ? e->b : NULL, false);
			break;
		case EV_MOVED:
			jw_member_string(w, "devpath", e->a->devpath);
			jw_member_string(w, "old", e->a->devpath);
			jw_member_string(w, "new", e->b->devpath);
			jw_member_string(w, "carried_by",
					 e->a->carried_by ? e->a->carried_by->devpath : NULL);
			break;
		case EV_CHANGED:
			jw_member_string(w, "devpath", e->b->devpath);
			if (e->a->moved_to)
				jw_member_string(w, "old_devpath", e->a->devpath);
			json_change(w, e);
			break;
		}
		jw_end_object(w);
		putchar('\n');
	}
	jw_done(w);
}

static void print_text(const struct options *o, const struct events *ev)
{
	FILE *f = stdout;

	for (size_t i = 0; i < ev->n; i++) {
		const struct event *e = &ev->v[i];

		switch (e->kind) {
		case EV_REMOVED:
			fputs("- ", f);
			fput_text(f, e->a->devpath);
			break;
		case EV_ADDED:
			fputs("+ ", f);
			fput_text(f, e->b->devpath);
			break;
		case EV_MOVED:
			if (e->a->carried_by && !o->all)
				continue;
			fputs("> ", f);
			fput_text(f, e->a->devpath);
			fputs(" -> ", f);
			fput_text(f, e->b->devpath);
			if (e->a->carried_by) {
				fputs(" (with ", f);
				fput_text(f, e->a->carried_by->devpath);
				fputs(")", f);
			} else if (e->a->carried) {
				fprintf(f, " (and %zu device%s below)", e->a->carried,
					e->a->carried == 1 ? "" : "s");
			}
			break;
		case EV_CHANGED:
			fputs("~ ", f);
			fput_text(f, e->b->devpath);
			if (e->attr_name) {
				fputs(" attribute ", f);
				fput_text(f, e->attr_name);
				fputs(": ", f);
				put_attr(f, e->attr_a);
				fputs(" -> ", f);
				put_attr(f, e->attr_b);
			} else {
				fprintf(f, " %s: ", e->field);
				put_value(f, field_value(e->a, e->field));
				fputs(" -> ", f);
				put_value(f, field_value(e->b, e->field));
			}
			break;
		}
		fputc('\n', f);
	}
}

int cmd_diff(struct sysdev *ctx, const struct options *o)
{
	struct devs olds = {0}, news = {0};
	struct events ev = {0};
	size_t counts[4] = {0};
	bool incomplete = false;
	int ret = EXIT_TROUBLE;

	(void)ctx; /* it opens OLD and NEW itself */
	if (load(o->diff_old, o->attrs, &olds, &incomplete) != 0 ||
	    load(o->diff_new, o->attrs, &news, &incomplete) != 0)
		goto out;
	if (find_moves(&olds, &news) < 0)
		goto nomem;
	for (size_t i = 0; i < olds.n; i++) {
		struct dev *a = &olds.v[i], *b = find_dev(&news, a->devpath);

		if (!b && a->moved_to) {
			if (add_event(&ev,
				      (struct event){.kind = EV_MOVED, .a = a, .b = a->moved_to}) <
				0 ||
			    compare_fields(&ev, a, a->moved_to, o->attrs) < 0)
				goto nomem;
		} else if (!b) {
			if (add_event(&ev, (struct event){.kind = EV_REMOVED, .a = a}) < 0)
				goto nomem;
		} else if (compare_fields(&ev, a, b, o->attrs) < 0) {
			goto nomem;
		}
	}
	for (size_t i = 0; i < news.n; i++) {
		struct dev *b = &news.v[i];

		if (!b->moved_from && !find_dev(&olds, b->devpath) &&
		    add_event(&ev, (struct event){.kind = EV_ADDED, .b = b}) < 0)
			goto nomem;
	}
	if (ev.n)
		qsort(ev.v, ev.n, sizeof(*ev.v), cmp_event);
	for (size_t i = 0; i < ev.n; i++)
		counts[ev.v[i].kind]++;
	if (o->format && strcmp(o->format, "jsonl") == 0)
		print_jsonl(&ev);
	else if (o->json)
		print_json(o, &ev, olds.n, news.n, counts);
	else
		print_text(o, &ev);
	ret = incomplete ? EXIT_TROUBLE : ev.n ? 1 : 0;
	if (check_output() != 0)
		ret = EXIT_TROUBLE;
	goto out;
nomem:
	warnx_("--diff", "%s", error_words(-ENOMEM));
out:
	devs_free(&olds);
	devs_free(&news);
	free(ev.v);
	return ret;
}
