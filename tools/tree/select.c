/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The filters (-s, --driver, --sysname, --match, --unlinked), held by the
 * library's enumerator, and what the tree shows of its result: the
 * selected devices and their ancestors, in the walk's order.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "path-util.h"

bool filters_given(const struct options *o)
{
	return o->n_subsystems || o->n_drivers || o->n_sysnames || o->n_matches || o->unlinked ||
	       o->n_tags || o->initialized || o->n_nomatch_subsystems || o->n_nomatch_sysnames ||
	       o->n_nomatch_drivers || o->n_nomatches;
}

/* -s NAME or NAME/DEVTYPE: the length of NAME */
static size_t subsystem_name_len(const char *arg)
{
	const char *slash = strchr(arg, '/');

	return slash ? (size_t)(slash - arg) : strlen(arg);
}

bool subsystem_selected(const struct options *o, const char *subsystem, const char *devtype)
{
	if (!o->n_subsystems)
		return true;
	for (size_t i = 0; subsystem && i < o->n_subsystems; i++) {
		const char *s = o->subsystems[i];
		size_t n = subsystem_name_len(s);

		if (strncmp(s, subsystem, n) != 0 || subsystem[n] != '\0')
			continue;
		/* udev's monitor filter: a DEVTYPE never passes a device without one */
		if (!s[n] || (devtype && strcmp(s + n + 1, devtype) == 0))
			return true;
	}
	return false;
}

static bool glob_any(const char *const *globs, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (fnmatch(globs[i], s, 0) == 0)
			return true;
	return false;
}

bool negations_pass(const struct options *o, const char *subsystem, const char *sysname,
		    const char *driver,
		    const char *(*value)(void *data, const char *key, char *buf, size_t size),
		    void *data)
{
	for (size_t i = 0; subsystem && i < o->n_nomatch_subsystems; i++)
		if (strcmp(o->nomatch_subsystems[i], subsystem) == 0)
			return false;
	if (glob_any(o->nomatch_sysnames, o->n_nomatch_sysnames, sysname) ||
	    glob_any(o->nomatch_drivers, o->n_nomatch_drivers, driver))
		return false;
	for (size_t i = 0; i < o->n_nomatches; i++) {
		const char *kv = o->nomatches[i], *eq = strchr(kv, '=');
		char key[256], buf[ATTR_PAGE + 1];
		const char *v;

		if ((size_t)(eq - kv) >= sizeof(key))
			continue; /* no property or attribute has such a name: lacking, kept */
		memcpy(key, kv, (size_t)(eq - kv));
		key[eq - kv] = '\0';
		v = value(data, key, buf, sizeof(buf));
		if (v && fnmatch(eq + 1, v, 0) == 0)
			return false;
	}
	return true;
}

/* --nomatch KEY: a property as udev holds it, or else an attribute (as --match) */
static const char *device_value(void *data, const char *key, char *buf, size_t size)
{
	struct sysdev_device *dev = data;
	const char *v = NULL;

	if (sysdev_device_get_udev_property(dev, key, &v) >= 0 && v)
		return v;
	return sysdev_device_read_attribute(dev, key, buf, size) >= 0 ? buf : NULL;
}

bool filter_keep(const struct options *o, struct sysdev_device *dev)
{
	const char *sub = dev_str(dev, sysdev_device_get_subsystem);

	/* the enumerator matched NAME; DEVTYPE is checked here */
	for (size_t i = 0; i < o->n_subsystems; i++) {
		if (strchr(o->subsystems[i], '/')) {
			if (!subsystem_selected(o, sub, dev_str(dev, sysdev_device_get_devtype)))
				return false;
			break;
		}
	}
	return negations_pass(o, sub, dev_str(dev, sysdev_device_get_name),
			      dev_str(dev, sysdev_device_get_driver), device_value, dev);
}

/* Nothing to show: say why in the words of what was asked (filters, or only a START). */
void warn_none_selected(const struct options *o)
{
	if (filters_given(o))
		warnx_(NULL, "no device matches the filters");
	else if (o->start)
		warnx_(o->start, "no device at or below it");
	else
		warnx_(NULL, "no device in the tree");
}

int filter_enumerator(struct sysdev *ctx, const struct options *o, const char *start,
		      struct sysdev_enumerator **ret)
{
	struct sysdev_enumerator *e;
	int err;

	*ret = NULL;
	err = sysdev_enumerator_new(ctx, &e);
	/* the tree and the lists show every device, with a subsystem link or not */
	if (err >= 0)
		err = sysdev_enumerator_allow_no_subsystem(e, true);
	for (size_t i = 0; err >= 0 && i < o->n_subsystems; i++) {
		char *s = strndup(o->subsystems[i], subsystem_name_len(o->subsystems[i]));

		if (!s) {
			err = -ENOMEM;
			break;
		}

		/* a warning, not an error: another -s may still match, and a link may
		 * still name it (a hand-made tree): no index lists it, so walk */
		if (!sysdev_is_bus_name(ctx, s) && !sysdev_is_class_name(ctx, s)) {
			warnx_(s, "no such subsystem: neither a bus nor a class under %s",
			       root_named(ctx));
			err = sysdev_enumerator_set_full_walk(e, true);
		}
		if (err >= 0)
			err = sysdev_enumerator_add_match_subsystem(e, s, true);
		free(s);
	}
	for (size_t i = 0; err >= 0 && i < o->n_drivers; i++)
		err = sysdev_enumerator_add_match_driver(e, o->drivers[i]);
	for (size_t i = 0; err >= 0 && i < o->n_sysnames; i++)
		err = sysdev_enumerator_add_match_sysname(e, o->sysnames[i]);
	for (size_t i = 0; err >= 0 && i < o->n_matches; i++) {
		const char *eq = strchr(o->matches[i], '=');
		char *key = eq ? strndup(o->matches[i], (size_t)(eq - o->matches[i])) : NULL;

		err = key ? sysdev_enumerator_add_match_value(e, key, eq + 1) : -ENOMEM;
		free(key);
	}
	if (err >= 0 && o->unlinked)
		err = sysdev_enumerator_add_match_unlinked(e);
	/* udev's database: every --tag, and whether udev initialized the device */
	for (size_t i = 0; err >= 0 && i < o->n_tags; i++)
		err = sysdev_enumerator_add_match_tag(e, o->tags[i]);
	if (err >= 0 && o->initialized)
		err = sysdev_enumerator_add_match_initialized(e, o->initialized > 0);
	if (err >= 0 && start && strcmp(start, "/devices") != 0)
		err = sysdev_enumerator_add_match_parent(e, start);
	if (err < 0) {
		warnx_(NULL, "filters: %s", error_words(err));
		sysdev_enumerator_unref(e);
		return err;
	}
	*ret = e;
	return 0;
}

static int cmp_pathp(const void *a, const void *b)
{
	return path_cmp_walk_order(*(char *const *)a, *(char *const *)b);
}

/* Length of the parent's path: up to the last '/'. */
static size_t parent_len(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? (size_t)(slash - p) : 0;
}

/* Whether @p lies below @top (by whole components). */
static bool below(const char *top, const char *p)
{
	size_t n = strlen(top);

	return strncmp(p, top, n) == 0 && p[n] == '/';
}

int selection_build(struct sysdev *ctx, const struct options *o, const char *start,
		    struct selection *sel)
{
	const char *top = start ? start : "/devices";
	struct sysdev_enumerator *e;
	size_t cap = 0, found, *stack = NULL, sp = 0;
	const char **chosen = NULL; /* the devpaths the filters chose, owned by @e */
	int err;

	memset(sel, 0, sizeof(*sel));
	if (filter_enumerator(ctx, o, start, &e) < 0)
		return EXIT_RUNTIME;
	err = sysdev_enumerator_scan(e);
	if (err < 0) {
		warnx_(NULL, "cannot select devices: %s", error_words(err));
		sysdev_enumerator_unref(e);
		return EXIT_RUNTIME;
	}
	found = 0;
	chosen = calloc(sysdev_enumerator_get_count(e) + 1, sizeof(*chosen));
	if (!chosen)
		err = -ENOMEM;
	/* each device and each of its ancestors up to the start */
	for (size_t i = 0; err >= 0 && i < sysdev_enumerator_get_count(e); i++) {
		struct sysdev_device *dev = NULL;
		const char *p;
		size_t len;

		(void)sysdev_enumerator_get_device_at(e, i, &dev);
		if (!filter_keep(o, dev))
			continue;
		p = dev_str(dev, sysdev_device_get_devpath);
		chosen[found++] = p;
		len = strlen(p);

		while (err >= 0 && len > 0) {
			err = grow_array((void **)&sel->paths, &cap, sel->n + 1, sizeof(char *));
			if (err >= 0) {
				sel->paths[sel->n] = strndup(p, len);
				err = sel->paths[sel->n] ? 0 : -ENOMEM;
			}
			if (err < 0)
				break;
			sel->n++;
			if (strlen(top) >= len)
				break;
			while (len > 0 && p[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
		}
	}
	if (err >= 0 && sel->n) {
		size_t k = 1;

		qsort(sel->paths, sel->n, sizeof(char *), cmp_pathp);
		for (size_t i = 1; i < sel->n; i++) {
			if (strcmp(sel->paths[i], sel->paths[k - 1]) == 0)
				free(sel->paths[i]);
			else
				sel->paths[k++] = sel->paths[i];
		}
		sel->n = k;
		sel->next = calloc(sel->n, 1);
		sel->chosen = calloc(sel->n, 1);
		stack = malloc(sel->n * sizeof(*stack));
		if (!sel->next || !sel->chosen || !stack)
			err = -ENOMEM;
		for (size_t i = 0; err >= 0 && i < found; i++)
			sel->chosen[selection_find(sel, chosen[i])] = 1;
	}
	free(chosen);
	sysdev_enumerator_unref(e);
	if (err < 0) {
		warnx_(NULL, "cannot select devices: %s", error_words(err));
		free(stack);
		selection_free(sel);
		return EXIT_RUNTIME;
	}
	/* a path has a later sibling when the first path after its subtree has its parent */
	for (size_t i = 0; i < sel->n; i++) {
		const char *p = sel->paths[i];

		while (sp > 0 && !below(sel->paths[stack[sp - 1]], p)) {
			const char *q = sel->paths[stack[--sp]];
			size_t pl = parent_len(q);

			sel->next[stack[sp]] = parent_len(p) == pl && strncmp(p, q, pl) == 0;
		}
		stack[sp++] = i;
	}
	free(stack);
	if (!found) {
		warn_none_selected(o);
		selection_free(sel);
		return EXIT_RUNTIME;
	}
	return 0;
}

long selection_find(const struct selection *sel, const char *devpath)
{
	size_t lo = 0, hi = sel->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = path_cmp_walk_order(sel->paths[mid], devpath);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void selection_free(struct selection *sel)
{
	for (size_t i = 0; i < sel->n; i++)
		free(sel->paths[i]);
	free(sel->paths);
	free(sel->next);
	free(sel->chosen);
	memset(sel, 0, sizeof(*sel));
}

int tree_begin(struct sysdev *ctx, const struct options *o, unsigned *flags, char **start,
	       struct selection *sel, const struct selection **shown)
{
	int ret;

	*shown = NULL;
	if (o->all)
		*flags |= SYSDEV_WALK_ATTR_GROUPS;
	if (start_or_warn(ctx, o->start, start) < 0)
		return EXIT_RUNTIME;
	if (!filters_given(o))
		return 0;
	ret = selection_build(ctx, o, *start, sel);
	if (ret) {
		free(*start);
		*start = NULL;
		return ret;
	}
	*shown = sel;
	return 0;
}
