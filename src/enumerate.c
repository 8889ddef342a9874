/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The enumerator: the devices that match, with udev's meaning of each match,
 * found through the indexes the kernel keeps (S/class/NAME, S/bus/NAME/devices)
 * where a subsystem is asked for, or by one walk (of the whole tree, or of a
 * parent's subtree) otherwise.  Results come in the walk's order.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "device-private.h"
#include "path-util.h"

struct strv {
	char **v;
	size_t n, cap;
};

struct kv {
	char *key, *glob;
};

struct kvv {
	struct kv *v;
	size_t n, cap;
};

struct sysdev_enumerator {
	unsigned n_ref;
	struct sysdev *ctx;
	struct strv subsystems, nomatch_subsystems, sysnames, nomatch_sysnames, drivers, devtypes,
	    tags;
	bool initialized;	/* libudev's is_initialized match */
	int strict_initialized; /* 1: initialized only, -1: not initialized only, 0: any */
	struct kvv properties, sysattrs, nomatch_sysattrs;
	struct kvv values;   /* property, or else attribute: all must hold */
	char *parent;	     /* devpath of the subtree, or NULL */
	unsigned placements; /* bit per enum sysdev_placement; 0: any */
	bool unlinked;
	bool full_walk;
	bool no_subsystem;	/* also the devices without a subsystem link */
	struct name_set linked; /* with unlinked: devpaths that S/bus or S/class link to */
	/* results */
	struct sysdev_device **devs;
	size_t n, cap;
	bool scanned;
};

static int strv_add(struct strv *s, const char *str)
{
	if (GROW_MIN(s->v, s->cap, s->n + 1, 4) < 0)
		return -ENOMEM;
	s->v[s->n] = strdup(str);
	if (!s->v[s->n])
		return -ENOMEM;
	s->n++;
	return 0;
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int kvv_add(struct kvv *s, const char *key, const char *glob)
{
	struct kv *kv;

	if (GROW_MIN(s->v, s->cap, s->n + 1, 4) < 0)
		return -ENOMEM;
	kv = &s->v[s->n];
	kv->key = strdup(key);
	kv->glob = glob ? strdup(glob) : NULL;
	if (!kv->key || (glob && !kv->glob)) {
		free(kv->key);
		free(kv->glob);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

static void kvv_free(struct kvv *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].glob);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void results_free(struct sysdev_enumerator *e)
{
	for (size_t i = 0; i < e->n; i++)
		sysdev_device_unref(e->devs[i]);
	free(e->devs);
	e->devs = NULL;
	e->n = e->cap = 0;
	e->scanned = false;
}

static void enumerator_free(struct sysdev_enumerator *e)
{
	results_free(e);
	strv_free(&e->subsystems);
	strv_free(&e->nomatch_subsystems);
	strv_free(&e->sysnames);
	strv_free(&e->nomatch_sysnames);
	strv_free(&e->drivers);
	strv_free(&e->devtypes);
	strv_free(&e->tags);
	kvv_free(&e->properties);
	kvv_free(&e->sysattrs);
	kvv_free(&e->nomatch_sysattrs);
	kvv_free(&e->values);
	free(e->parent);
	name_set_free(&e->linked);
	sysdev_unref(e->ctx);
	free(e);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev_enumerator, sysdev_enumerator, enumerator_free);

_public_ int sysdev_enumerator_new(struct sysdev *ctx, struct sysdev_enumerator **out)
{
	struct sysdev_enumerator *e;

	assert_return(out, -EINVAL);
	*out = NULL;
	assert_return(ctx, -EINVAL);
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->n_ref = 1;
	e->ctx = sysdev_ref(ctx);
	*out = e;
	return 0;
}

/* Any change of the matches invalidates what a scan found. */
#define CHANGE(e, expr)                                                                            \
	do {                                                                                       \
		results_free(e);                                                                   \
		return (expr);                                                                     \
	} while (0)

_public_ int sysdev_enumerator_add_match_subsystem(struct sysdev_enumerator *e,
						   const char *subsystem, bool match)
{
	assert_return(e, -EINVAL);
	assert_return(subsystem, -EINVAL);
	CHANGE(e, strv_add(match ? &e->subsystems : &e->nomatch_subsystems, subsystem));
}

_public_ int sysdev_enumerator_add_match_sysname(struct sysdev_enumerator *e, const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(glob, -EINVAL);
	CHANGE(e, strv_add(&e->sysnames, glob));
}

_public_ int sysdev_enumerator_add_nomatch_sysname(struct sysdev_enumerator *e, const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(glob, -EINVAL);
	CHANGE(e, strv_add(&e->nomatch_sysnames, glob));
}

_public_ int sysdev_enumerator_add_match_driver(struct sysdev_enumerator *e, const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(glob, -EINVAL);
	CHANGE(e, strv_add(&e->drivers, glob));
}

_public_ int sysdev_enumerator_add_match_devtype(struct sysdev_enumerator *e, const char *devtype)
{
	assert_return(e, -EINVAL);
	assert_return(devtype, -EINVAL);
	CHANGE(e, strv_add(&e->devtypes, devtype));
}

_public_ int sysdev_enumerator_add_match_property(struct sysdev_enumerator *e, const char *key,
						  const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(key && *key, -EINVAL);
	CHANGE(e, kvv_add(&e->properties, key, glob ? glob : "*"));
}

_public_ int sysdev_enumerator_add_match_sysattr(struct sysdev_enumerator *e, const char *name,
						 const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(name && *name, -EINVAL);
	CHANGE(e, kvv_add(&e->sysattrs, name, glob));
}

_public_ int sysdev_enumerator_add_nomatch_sysattr(struct sysdev_enumerator *e, const char *name,
						   const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(name && *name, -EINVAL);
	CHANGE(e, kvv_add(&e->nomatch_sysattrs, name, glob));
}

_public_ int sysdev_enumerator_add_match_value(struct sysdev_enumerator *e, const char *key,
					       const char *glob)
{
	assert_return(e, -EINVAL);
	assert_return(key && *key, -EINVAL);
	assert_return(glob, -EINVAL);
	CHANGE(e, kvv_add(&e->values, key, glob));
}

_public_ int sysdev_enumerator_add_match_tag(struct sysdev_enumerator *e, const char *tag)
{
	assert_return(e, -EINVAL);
	assert_return(tag && *tag, -EINVAL);
	CHANGE(e, strv_add(&e->tags, tag));
}

_public_ int sysdev_enumerator_add_match_is_initialized(struct sysdev_enumerator *e)
{
	assert_return(e, -EINVAL);
	e->initialized = true;
	CHANGE(e, 0);
}

_public_ int sysdev_enumerator_add_match_initialized(struct sysdev_enumerator *e, bool initialized)
{
	assert_return(e, -EINVAL);
	e->strict_initialized = initialized ? 1 : -1;
	CHANGE(e, 0);
}

_public_ int sysdev_enumerator_add_match_parent(struct sysdev_enumerator *e, const char *devpath)
{
	char *p;

	assert_return(e, -EINVAL);
	assert_return(devpath && devpath_is_valid(devpath), -EINVAL);
	p = strdup(devpath);
	if (!p)
		return -ENOMEM;
	free(e->parent);
	e->parent = p;
	CHANGE(e, 0);
}

_public_ int sysdev_enumerator_add_match_placement(struct sysdev_enumerator *e,
						   enum sysdev_placement placement)
{
	assert_return(e, -EINVAL);
	assert_return((unsigned)placement <= SYSDEV_PLACEMENT_SYSTEM, -EINVAL);
	e->placements |= 1u << placement;
	CHANGE(e, 0);
}

_public_ int sysdev_enumerator_add_match_unlinked(struct sysdev_enumerator *e)
{
	assert_return(e, -EINVAL);
	e->unlinked = true;
	CHANGE(e, 0);
}

_public_ int sysdev_enumerator_allow_no_subsystem(struct sysdev_enumerator *e, bool allow)
{
	assert_return(e, -EINVAL);
	e->no_subsystem = allow;
	CHANGE(e, 0);
}

_public_ int sysdev_enumerator_set_full_walk(struct sysdev_enumerator *e, bool full_walk)
{
	assert_return(e, -EINVAL);
	e->full_walk = full_walk;
	CHANGE(e, 0);
}

static bool glob_any(const struct strv *globs, const char *s)
{
	if (!globs->n)
		return true;
	if (!s)
		return false;
	for (size_t i = 0; i < globs->n; i++)
		if (fnmatch(globs->v[i], s, 0) == 0)
			return true;
	return false;
}

static bool str_any(const struct strv *strs, const char *s)
{
	if (!strs->n)
		return true;
	if (!s)
		return false;
	for (size_t i = 0; i < strs->n; i++)
		if (strcmp(strs->v[i], s) == 0)
			return true;
	return false;
}

/* @r (an answer or a length), noting in *@err that memory ran out (which no match may take for
 * "no"). */
static ssize_t noted(int *err, ssize_t r)
{
	if (r == -ENOMEM)
		*err = -ENOMEM;
	return r;
}

/* A string field of @dev, NULL where it has none (or it could not be read). */
static const char *str_of(struct sysdev_device *dev,
			  int (*get)(struct sysdev_device *dev, const char **ret), int *err)
{
	const char *v = NULL;

	return noted(err, get(dev, &v)) >= 0 ? v : NULL;
}

static const char *udev_property_of(struct sysdev_device *dev, const char *key, int *err)
{
	const char *v = NULL;

	return noted(err, sysdev_device_get_udev_property(dev, key, &v)) >= 0 ? v : NULL;
}

/*
 * The matches that need the device object (its properties, attributes): 1 or
 * 0.  A field that could not be read for want of memory sets *@err, whatever
 * the answer.
 */
static int device_fields_match(struct sysdev_enumerator *e, struct sysdev_device *dev, int *err)
{
	const char *sub = str_of(dev, sysdev_device_get_subsystem, err);
	enum sysdev_placement placement;

	/* libudev finds devices through S/bus and S/class: a device without a
	 * subsystem link is in neither */
	if (!sub && !e->no_subsystem)
		return 0;
	if (e->subsystems.n && !str_any(&e->subsystems, sub))
		return 0;
	for (size_t i = 0; sub && i < e->nomatch_subsystems.n; i++)
		if (strcmp(e->nomatch_subsystems.v[i], sub) == 0)
			return 0;
	for (size_t i = 0; i < e->nomatch_sysnames.n; i++)
		if (fnmatch(e->nomatch_sysnames.v[i], dev->name, 0) == 0)
			return 0;
	if (!glob_any(&e->sysnames, dev->name) ||
	    !glob_any(&e->drivers, str_of(dev, sysdev_device_get_driver, err)))
		return 0;
	/* only when asked: the devtype may need the uevent file read */
	if (e->devtypes.n && !str_any(&e->devtypes, str_of(dev, sysdev_device_get_devtype, err)))
		return 0;
	if (e->parent && !path_in_subtree(e->parent, dev->devpath.s))
		return 0;
	if (e->placements && (noted(err, sysdev_device_get_placement(dev, &placement)) < 0 ||
			      !(e->placements & (1u << placement))))
		return 0;
	if (e->unlinked && name_set_has(&e->linked, dev->devpath.s))
		return 0;
	/* any tag asked for, as libudev's scan of each tags/TAG/ finds them */
	if (e->tags.n) {
		bool any = false;

		for (size_t i = 0; i < e->tags.n && !any; i++)
			any = noted(err, sysdev_device_has_tag(dev, e->tags.v[i])) > 0;
		if (!any)
			return 0;
	}
	if (e->strict_initialized) {
		bool init = false;

		if (noted(err, sysdev_device_get_is_initialized(dev, &init)) < 0 ||
		    init != (e->strict_initialized > 0))
			return 0;
	}
	if (e->initialized) {
		bool init = false;
		dev_t devnum;
		const char *ifindex;

		/* libudev's meaning: initialized, or a device udev gives neither a node
		 * nor an interface (one it need not have seen) */
		if (noted(err, sysdev_device_get_is_initialized(dev, &init)) < 0)
			return 0;
		if (!init &&
		    ((noted(err, sysdev_device_get_devnum(dev, &devnum)) >= 0 &&
		      major(devnum) > 0) ||
		     (noted(err, sysdev_device_get_property(dev, "IFINDEX", &ifindex)) >= 0 &&
		      atoi(ifindex) > 0)))
			return 0;
	}
	if (e->properties.n) {
		bool any = false;

		for (size_t i = 0; i < e->properties.n && !any; i++) {
			const char *v = udev_property_of(dev, e->properties.v[i].key, err);

			any = v && fnmatch(e->properties.v[i].glob, v, 0) == 0;
		}
		if (!any)
			return 0;
	}
	/* libudev's nomatch_sysattr: any attribute that matches leaves the device out */
	for (size_t i = 0; i < e->nomatch_sysattrs.n; i++) {
		char buf[4097];
		ssize_t len = noted(err, sysdev_device_read_attribute(
					     dev, e->nomatch_sysattrs.v[i].key, buf, sizeof(buf)));

		if (len >= 0 && (!e->nomatch_sysattrs.v[i].glob ||
				 fnmatch(e->nomatch_sysattrs.v[i].glob, buf, 0) == 0))
			return 0;
	}
	for (size_t i = 0; i < e->sysattrs.n; i++) {
		char buf[4097];
		ssize_t len = noted(
		    err, sysdev_device_read_attribute(dev, e->sysattrs.v[i].key, buf, sizeof(buf)));

		if (len < 0)
			return 0;
		if (e->sysattrs.v[i].glob && fnmatch(e->sysattrs.v[i].glob, buf, 0) != 0)
			return 0;
	}
	for (size_t i = 0; i < e->values.n; i++) {
		const char *v = udev_property_of(dev, e->values.v[i].key, err);
		char buf[4097];

		if (!v) {
			if (noted(err, sysdev_device_read_attribute(dev, e->values.v[i].key, buf,
								    sizeof(buf))) < 0)
				return 0;
			v = buf;
		}
		if (fnmatch(e->values.v[i].glob, v, 0) != 0)
			return 0;
	}
	return 1;
}

/* device_fields_match(), or -ENOMEM when a field it needed could not be read. */
static int device_matches(struct sysdev_enumerator *e, struct sysdev_device *dev)
{
	int err = 0, r = device_fields_match(e, dev, &err);

	return err < 0 ? err : r;
}

static int result_add(struct sysdev_enumerator *e, struct sysdev_device *dev)
{
	if (GROW(e->devs, e->cap, e->n + 1) < 0)
		return -ENOMEM;
	e->devs[e->n++] = dev;
	return 0;
}

static int on_node(struct sysdev_node *node, void *data)
{
	struct sysdev_enumerator *e = data;
	struct sysdev_device *dev;
	int r;

	r = sysdev_node_get_device(node, &dev);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = device_matches(e, dev);
	if (r <= 0)
		return r;
	/* kept: the walk makes itself another device for its next node */
	r = result_add(e, dev);
	if (r >= 0)
		sysdev_device_ref(dev);
	return r;
}

static int cmp_dev_walk_order(const void *a, const void *b)
{
	return path_cmp_walk_order((*(struct sysdev_device *const *)a)->devpath.s,
				   (*(struct sysdev_device *const *)b)->devpath.s);
}

/* The results in the walk's order, each device once (a name both bus and class,
 * two ids of one device). */
static void sort_unique(struct sysdev_enumerator *e)
{
	size_t o = 1;

	if (e->n < 2)
		return;
	qsort(e->devs, e->n, sizeof(*e->devs), cmp_dev_walk_order);
	for (size_t i = 1; i < e->n; i++) {
		if (strcmp(e->devs[i]->devpath.s, e->devs[o - 1]->devpath.s) == 0)
			sysdev_device_unref(e->devs[i]);
		else
			e->devs[o++] = e->devs[i];
	}
	e->n = o;
}

/* Add each device that the links of index directory @dir (relative to the root) name. */
static int scan_index(struct sysdev_enumerator *e, const char *dir)
{
	_cleanup_close_ int fd = -1;
	struct name_set set;
	int r;

	/* opened once: each entry is then one readlinkat() */
	fd = open_below(e->ctx->root_fd, dir + 1, NULL);
	if (fd == -ENOENT || fd == -ENOTDIR)
		return 0;
	if (fd < 0)
		return fd;
	r = name_set_load_fd(fd, &set);
	if (r < 0)
		return r;
	for (size_t i = 0; i < set.n && r >= 0; i++) {
		struct sysdev_device *dev;
		char *target = NULL, *devpath;
		int rl;

		/* the kernel's index entries are relative links: resolved as text, as udev does */
		rl = readlink_alloc(fd, set.names[i], &target);
		if (rl < 0) {
			r = rl == -ENOMEM ? rl : 0;
			continue; /* an attribute of the class (S/class/firmware/timeout) */
		}
		devpath = resolve_link_target(e->ctx->root, dir, target);
		if (!devpath && errno == ENOMEM)
			r = -ENOMEM;
		free(target);
		if (!devpath)
			continue;
		if (e->parent && !path_in_subtree(e->parent, devpath)) {
			free(devpath);
			continue;
		}
		r = device_new_indexed(e->ctx, devpath, &dev);
		/* a directory this user may search but not list (0711): the slow way,
		 * which opens it as O_PATH, as the walk does */
		if (r == -EACCES)
			r = sysdev_device_new_from_devpath(e->ctx, devpath, &dev);
		free(devpath);
		if (r < 0) {
			r = r == -ENOMEM ? r : 0; /* dangling or not a device: not listed */
			continue;
		}
		r = device_matches(e, dev);
		if (r > 0) {
			r = result_add(e, dev);
			if (r < 0)
				sysdev_device_unref(dev);
		} else {
			sysdev_device_unref(dev);
		}
	}
	name_set_free(&set);
	return r < 0 ? r : 0;
}

/*
 * The roots of bus @bus (S/devices/system/BUS, S/devices/virtual/BUS): where
 * a kernel links one to its bus, no index names it, but a walk finds it.
 */
static int scan_bus_roots(struct sysdev_enumerator *e, const char *bus)
{
	static const char *const tops[] = {"/devices/system/", "/devices/virtual/"};

	for (size_t t = 0; t < 2; t++) {
		struct sysdev_device *dev;
		char devpath[PATH_MAX];
		int r;

		if ((size_t)snprintf(devpath, sizeof(devpath), "%s%s", tops[t], bus) >=
		    sizeof(devpath))
			continue;
		if (e->parent && !path_in_subtree(e->parent, devpath))
			continue;
		r = device_new_indexed(e->ctx, devpath, &dev);
		if (r == -EACCES)
			r = sysdev_device_new_from_devpath(e->ctx, devpath, &dev);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue;
		r = device_matches(e, dev);
		if (r > 0 && (r = result_add(e, dev)) == 0)
			continue;
		sysdev_device_unref(dev);
		if (r < 0)
			return r;
	}
	return 0;
}

/* With the unlinked match: every devpath that an entry of S/bus or S/class links to. */
static int load_linked(struct sysdev_enumerator *e)
{
	static const char *const tops[] = {"/class", "/bus"};
	struct strv all = {0};
	int r = 0;

	for (size_t t = 0; t < 2 && r >= 0; t++) {
		struct name_set subs;

		r = name_set_load(e->ctx->root_fd, tops[t] + 1, &subs);
		if (r < 0) {
			r = r == -ENOMEM ? r : 0; /* no S/class or S/bus: nothing links */
			continue;
		}
		for (size_t i = 0; i < subs.n && r >= 0; i++) {
			struct name_set ents;
			char *dir;

			if (asprintf(&dir, t == 0 ? "%s/%s" : "%s/%s/devices", tops[t],
				     subs.names[i]) < 0) {
				r = -ENOMEM;
				break;
			}
			r = name_set_load(e->ctx->root_fd, dir + 1, &ents);
			if (r < 0) {
				r = r == -ENOMEM ? r
						 : 0; /* an attribute of S/class, or unreadable */
			} else {
				for (size_t j = 0; j < ents.n && r >= 0; j++) {
					char *path, *target, *devpath;

					if (asprintf(&path, "%s/%s", dir + 1, ents.names[j]) < 0) {
						r = -ENOMEM;
						break;
					}
					int rl = readlink_below(e->ctx->root_fd, path, &target);

					if (rl == -ENOMEM)
						r = rl;
					if (rl == 0) {
						devpath =
						    resolve_link_target(e->ctx->root, dir, target);
						if (!devpath && errno == ENOMEM)
							r = -ENOMEM;
						free(target);
						if (devpath) {
							r = strv_add(&all, devpath);
							free(devpath);
						}
					}
					free(path);
				}
				name_set_free(&ents);
			}
			free(dir);
		}
		name_set_free(&subs);
	}
	if (r < 0) {
		strv_free(&all);
		return r;
	}
	name_set_free(&e->linked);
	e->linked.names = all.v;
	e->linked.n = all.n;
	if (all.n)
		qsort(e->linked.names, e->linked.n, sizeof(char *), cmp_strp);
	return 0;
}

/* The devices of tags/TAG/ (the database's index of a tag), each file named by a device id. */
static int scan_tag(struct sysdev_enumerator *e, const char *tag)
{
	struct name_set set;
	char *dir;
	int r;

	if (e->ctx->udev_db_fd < 0 || strchr(tag, '/') || !strcmp(tag, ".") || !strcmp(tag, ".."))
		return 0;
	if (asprintf(&dir, "tags/%s", tag) < 0)
		return -ENOMEM;
	r = name_set_load(e->ctx->udev_db_fd, dir, &set);
	free(dir);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0; /* no device has the tag */
	for (size_t i = 0; i < set.n && r >= 0; i++) {
		struct sysdev_device *dev;

		r = sysdev_device_new_from_device_id(e->ctx, set.names[i], &dev);
		if (r < 0) {
			r = r == -ENOMEM ? r : 0; /* a stale entry: the device is gone */
			continue;
		}
		if (e->parent && !path_in_subtree(e->parent, dev->devpath.s)) {
			sysdev_device_unref(dev);
			continue;
		}
		r = device_matches(e, dev);
		if (r > 0) {
			r = result_add(e, dev);
			if (r < 0)
				sysdev_device_unref(dev);
		} else {
			sysdev_device_unref(dev);
		}
	}
	name_set_free(&set);
	return r < 0 ? r : 0;
}

_public_ int sysdev_enumerator_scan(struct sysdev_enumerator *e)
{
	unsigned flags = SYSDEV_WALK_ERRORS;
	int r;

	assert_return(e, -EINVAL);
	results_free(e);
	if (e->unlinked) {
		r = load_linked(e);
		if (r < 0)
			return r;
	}
	if (e->tags.n && !e->full_walk) {
		/* any of the tags: the union of their indexes, each device once */
		for (size_t i = 0; i < e->tags.n; i++) {
			r = scan_tag(e, e->tags.v[i]);
			if (r < 0) {
				results_free(e);
				return r;
			}
		}
		sort_unique(e);
	} else if (e->subsystems.n && !e->full_walk) {
		/* a name may be a class, a bus, or both: look in each index it has */
		for (size_t i = 0; i < e->subsystems.n; i++) {
			const char *s = e->subsystems.v[i];
			char *dir;

			if (strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, ".."))
				continue;
			if (sysdev_is_class_name(e->ctx, s)) {
				if (asprintf(&dir, "/class/%s", s) < 0)
					return -ENOMEM;
				r = scan_index(e, dir);
				free(dir);
				if (r < 0)
					return r;
			}
			if (sysdev_is_bus_name(e->ctx, s)) {
				if (asprintf(&dir, "/bus/%s/devices", s) < 0)
					return -ENOMEM;
				r = scan_index(e, dir);
				free(dir);
				if (r >= 0 && e->no_subsystem)
					r = scan_bus_roots(e, s);
				if (r < 0)
					return r;
			}
		}
		sort_unique(e);
	} else {
		if (e->properties.n || e->devtypes.n || e->values.n)
			flags |= SYSDEV_WALK_UEVENT;
		_cleanup_(sysdev_walker_unrefp) struct sysdev_walker *w = NULL;

		r = sysdev_walker_new(e->ctx, e->parent, &w);
		if (r >= 0)
			r = sysdev_walker_set_flags(w, flags);
		if (r >= 0)
			r = sysdev_walker_set_callbacks(w, on_node, NULL, e);
		if (r >= 0)
			r = sysdev_walker_run(w);
		if (r < 0) {
			results_free(e);
			return r == -ENOENT && e->parent ? 0 : r;
		}
	}
	e->scanned = true;
	return 0;
}

_public_ size_t sysdev_enumerator_get_count(const struct sysdev_enumerator *e)
{
	assert_return(e, 0);
	return e->n;
}

_public_ int sysdev_enumerator_get_device_at(struct sysdev_enumerator *e, size_t i,
					     struct sysdev_device **ret)
{
	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(e, -EINVAL);
	if (i >= e->n)
		return -ENOENT;
	*ret = e->devs[i];
	return 0;
}
