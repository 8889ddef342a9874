/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The walk: depth first over S/devices, one open and one listing (dir-list.c)
 * per directory, kinds from d_type, no stat per entry.  Per-depth state is
 * kept in "levels" that are reused from one directory to the next, so a walk
 * allocates in proportion to the depth, not to the size of the tree.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"
#include "rules.h"

struct sbuf {
	char *s;
	size_t cap;
};

struct sysdev_node {
	struct walker *w;
	unsigned depth;
	int fd;
	int error;
	const char *name;
	size_t path_len; /* length of this node's devpath in w->path */
	enum sysdev_kind kind;
	bool is_device;
	bool below_device; /* an ancestor is a device */
	bool has_next;
	bool truncated; /* shown subdirectories left unentered (depth limit) */
	bool uevent_read;
	bool has_dev; /* a "dev" attribute: the kernel gave it a number */

	struct dir_list list; /* its entries, sorted by name; an entry's mark caches
			       * probe_shown(): -1 not probed, 0 hidden, 1 shown */

	const char *parent; /* devpath of the nearest device above */
	const char *class_dir;
	struct sbuf self; /* this device's devpath, for its descendants */
	struct sbuf subsystem;
	struct sbuf driver;
	bool has_subsystem, has_driver;
	enum sysdev_subsystem_kind subsystem_kind;
	struct uevent uevent;
};

struct walker {
	struct sysdev *ctx;
	unsigned flags;
	unsigned max_depth;
	sysdev_walk_fn enter, leave;
	void *userdata;
	struct sysdev_walk_stats *stats;
	char *path;
	size_t path_cap;
	struct sysdev_node **levels;
	size_t nlevels;
	char *linkbuf; /* readlinkat scratch */
	/* the start's context, from its ancestors */
	char *start_parent;
	char *start_class_dir;
	char *start_name;
	struct dir_place start_place;
	uintptr_t stack_floor; /* do not descend with the stack below this (0: unknown) */
};

/*
 * The walk recurses once per level, a few hundred bytes each: SYSDEV_MAX_DEPTH
 * levels need about 2.5 MiB of stack, more than a thread (or a main thread
 * under `ulimit -s 2048`) may have.  Leave this much (a quarter of a small
 * stack) for the callbacks (printf and friends) at the deepest level, and
 * stop descending before it: counted in too_deep, as for SYSDEV_MAX_DEPTH.
 */
#define STACK_RESERVE (128 * 1024)

static uintptr_t stack_floor(void)
{
	pthread_attr_t attr;
	uintptr_t floor = 0;
	size_t size;
	void *addr;

	/* glibc answers for the main thread too, from RLIMIT_STACK */
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return 0;
	if (pthread_attr_getstack(&attr, &addr, &size) == 0)
		floor = (uintptr_t)addr + (size >= 4 * STACK_RESERVE ? STACK_RESERVE : size / 4);
	pthread_attr_destroy(&attr);
	return floor;
}

#define LINKBUF_SIZE 4096

static int sbuf_set(struct sbuf *b, const char *s, size_t len)
{
	if (GROW(b->s, b->cap, len + 1) < 0)
		return -ENOMEM;
	memcpy(b->s, s, len);
	b->s[len] = '\0';
	return 0;
}

static struct sysdev_node *level_get(struct walker *w, unsigned depth)
{
	if (depth >= w->nlevels) {
		size_t n = w->nlevels;

		if (GROW_MIN(w->levels, n, (size_t)depth + 1, 16) < 0)
			return NULL;
		memset(w->levels + w->nlevels, 0, (n - w->nlevels) * sizeof(*w->levels));
		w->nlevels = n;
	}
	if (!w->levels[depth]) {
		w->levels[depth] = calloc(1, sizeof(struct sysdev_node));
		if (!w->levels[depth])
			return NULL;
		w->levels[depth]->w = w;
		w->levels[depth]->fd = -1;
	}
	return w->levels[depth];
}

static void level_free(struct sysdev_node *l)
{
	if (!l)
		return;
	dir_list_free(&l->list);
	free(l->self.s);
	free(l->subsystem.s);
	free(l->driver.s);
	uevent_free(&l->uevent);
	free(l);
}

static int path_push(struct walker *w, const char *name, size_t *old_len)
{
	size_t cur = strlen(w->path), nlen = strlen(name);

	*old_len = cur;
	if (GROW_MIN(w->path, w->path_cap, cur + nlen + 2, 256) < 0)
		return -ENOMEM;
	w->path[cur] = '/';
	memcpy(w->path + cur + 1, name, nlen + 1);
	return 0;
}

/* Read all entries of l->fd, sorted; "." and ".." dropped. */
static int read_entries(struct sysdev_node *l)
{
	return dir_list_read(&l->list, l->fd, l->w->ctx->sysfs ? DIR_LIST_KERNFS : 0);
}

static struct dir_entry *find_entry(const struct sysdev_node *l, const char *name)
{
	return dir_list_find(&l->list, name);
}

/* Read link @name of the device into @out (its last component); false if absent. */
static int read_link_name(struct walker *w, struct sysdev_node *l, const char *name,
			  struct sbuf *out, bool *present, enum sysdev_subsystem_kind *kind)
{
	struct dir_entry *e = find_entry(l, name);
	char *target, *heap = NULL;
	const char *base;
	size_t blen;
	int err;

	*present = false;
	if (kind)
		*kind = SYSDEV_SUBSYSTEM_NONE;
	/* a directory searched but not listed: the link is asked for by name */
	if (!l->error && (!e || (e->type != DT_LNK && e->type != DT_UNKNOWN)))
		return 0;
	err = readlink_buf(l->fd, name, w->linkbuf, LINKBUF_SIZE, &target);
	if (err < 0)
		return err == -ENOMEM ? err : 0; /* not a link after all, or gone: absent */
	if (target != w->linkbuf)
		heap = target;
	base = link_basename(target, &blen);
	err = sbuf_set(out, base, blen);
	if (err < 0)
		goto out;
	*present = blen > 0;
	if (kind && blen > 0) {
		char *res = resolve_link_target(w->ctx->root, w->path, target);

		if (res) {
			if (strncmp(res, "/bus/", 5) == 0)
				*kind = SYSDEV_SUBSYSTEM_BUS;
			else if (strncmp(res, "/class/", 7) == 0)
				*kind = SYSDEV_SUBSYSTEM_CLASS;
			free(res);
		}
	}
out:
	free(heap);
	return err;
}

static bool path_is_virtual_root(const struct walker *w, size_t len)
{
	return len == 16 && memcmp(w->path, "/devices/virtual", 16) == 0;
}

/* Where a child of @parent sits. */
static struct dir_place place_below(const struct walker *w, const struct sysdev_node *parent)
{
	return (struct dir_place){
	    .parent_is_device = parent->is_device,
	    .parent_is_virtual = path_is_virtual_root(w, parent->path_len),
	    .below_device = parent->is_device || parent->below_device,
	};
}

/*
 * Decide the kind of the node whose entries are read.  @parent is the level
 * above, or NULL for the start of the walk.
 */
static void decide_kind(struct walker *w, struct sysdev_node *l, struct sysdev_node *parent)
{
	struct dir_probe d = {
	    .name = l->name,
	    .place = parent ? place_below(w, parent) : w->start_place,
	    .parent_fd = parent ? parent->fd : -1,
	    .fd = l->fd,
	    .list = &l->list,
	    .error = l->error,
	};
	struct dir_facts f;

	rules_gather(w->ctx, &d, &f);
	l->kind = rules_decide(&f);
	l->is_device = l->kind == SYSDEV_KIND_DEVICE;
	l->below_device = f.below_device;
}

static bool is_shown(const struct walker *w, enum sysdev_kind kind)
{
	return kind != SYSDEV_KIND_ATTR_GROUP || (w->flags & SYSDEV_WALK_ATTR_GROUPS);
}

/* Whether child @e of @l will be reported, without walking it. */
static bool probe_shown(struct walker *w, struct sysdev_node *l, struct dir_entry *e)
{
	struct dir_probe d = {
	    .name = e->name,
	    .place = place_below(w, l),
	    .parent_fd = l->fd,
	    .fd = -1,
	    .list_flags = w->ctx->sysfs ? DIR_LIST_KERNFS : 0,
	};
	struct dir_facts f;

	if (e->mark >= 0)
		return e->mark;
	if (dir_entry_type(l->fd, e) != DT_DIR) {
		e->mark = 0;
		return false;
	}
	/* a class-named child that cannot be listed is judged on its name and place */
	rules_gather(w->ctx, &d, &f);
	e->mark = is_shown(w, rules_decide(&f));
	return e->mark;
}

static int fill_device(struct walker *w, struct sysdev_node *l)
{
	struct dir_entry *de;
	int err;

	l->has_subsystem = l->has_driver = l->has_dev = false;
	l->subsystem_kind = SYSDEV_SUBSYSTEM_NONE;
	l->uevent_read = false;
	err = sbuf_set(&l->self, w->path, l->path_len);
	if (err < 0)
		return err;
	/* an unreadable directory that can still be searched: links and files by name */
	if (l->error && l->fd < 0)
		return 0;
	if (!(w->flags & SYSDEV_WALK_NO_LINKS)) {
		err = read_link_name(w, l, "subsystem", &l->subsystem, &l->has_subsystem,
				     &l->subsystem_kind);
		if (err < 0)
			return err;
		err = read_link_name(w, l, "driver", &l->driver, &l->has_driver, NULL);
		if (err < 0)
			return err;
	}
	/* the dev attribute: a regular file, as a single-device lookup reads it */
	if (l->error) {
		struct stat st;

		l->has_dev =
		    fstatat(l->fd, "dev", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	} else {
		de = find_entry(l, "dev");
		l->has_dev = de && dir_entry_type(l->fd, de) == DT_REG;
	}
	if ((w->flags & SYSDEV_WALK_UEVENT) || l->has_dev) {
		/* an unreadable or oversized uevent leaves the properties empty */
		err = uevent_read_at(&l->uevent, l->fd);
		if (err == -ENOMEM)
			return err;
		l->uevent_read = err == 0;
	}
	return 0;
}

static int visit(struct walker *w, unsigned depth, struct sysdev_node *parent);

/* Walk the children of @l (its entries are read). */
static int visit_children(struct walker *w, struct sysdev_node *l)
{
	bool exact = (w->flags & SYSDEV_WALK_SIBLINGS) && !(w->flags & SYSDEV_WALK_ATTR_GROUPS);
	size_t last = 0; /* index of the last child that will be reported */
	bool last_known = false;
	int err = 0;

	if (!exact) {
		/* every directory is reported (or exactness was not asked for) */
		for (size_t i = l->list.n; i-- > 0;) {
			if (dir_entry_type(l->fd, &l->list.v[i]) == DT_DIR) {
				last = i;
				last_known = true;
				break;
			}
		}
		if (!last_known)
			return 0;
	}
	for (size_t i = 0; i < l->list.n; i++) {
		struct dir_entry *e = &l->list.v[i];
		struct sysdev_node *c;
		size_t old_len;
		bool listable;
		int fd;

		if (dir_entry_type(l->fd, e) != DT_DIR)
			continue;
		fd = open_dir_searchable_at(l->fd, e->name, &listable);
		c = level_get(w, l->depth + 1);
		if (!c) {
			if (fd >= 0)
				close(fd);
			return -ENOMEM;
		}
		c->error = 0;
		if (fd >= 0 && !listable) {
			/* searchable, not listable: its entries are read by name only */
			w->stats->unreadable++;
			c->error = -EACCES;
		} else if (fd < 0) {
			switch (-fd) {
			case ENOENT:
			case ENOTDIR:
			case ELOOP:
				/* removed or replaced since it was listed: hotplug */
				w->stats->vanished++;
				continue;
			case EMFILE:
			case ENFILE:
				w->stats->too_deep++;
				c->error = fd;
				break;
			default:
				w->stats->unreadable++;
				c->error = fd;
				break;
			}
			fd = -1;
		}
		c->fd = fd;
		c->name = e->name;
		/*
		 * has_next: is another reported sibling to come?  Probe from the
		 * end for the last reported child, once per directory: hidden
		 * siblings gather at the end (power/, ...), so this costs a probe
		 * or two where a forward look would cost one per reported child.
		 */
		if (!last_known) {
			last = i;
			for (size_t j = l->list.n; j-- > i + 1;) {
				if (probe_shown(w, l, &l->list.v[j])) {
					last = j;
					break;
				}
			}
			last_known = true;
		}
		c->has_next = i < last;
		err = path_push(w, e->name, &old_len);
		if (err < 0) {
			if (fd >= 0)
				close(fd);
			return err;
		}
		c->path_len = strlen(w->path);
		err = visit(w, l->depth + 1, l);
		w->path[old_len] = '\0';
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		if (err < 0)
			return err;
	}
	return 0;
}

static int visit(struct walker *w, unsigned depth, struct sysdev_node *parent)
{
	struct sysdev_node *l = w->levels[depth];
	int err, ret = 0;
	bool shown, descend, too_deep;

	l->depth = depth;
	l->list.n = 0;
	l->uevent_read = false;
	if (!l->error) {
		err = read_entries(l);
		if (err == -ENOMEM)
			return err;
		if (err == -ENOENT) {
			/* removed after it was opened: hotplug */
			w->stats->vanished++;
			return 0;
		}
		if (err < 0) {
			w->stats->unreadable++;
			l->error = err;
			l->list.n = 0;
		} else {
			w->stats->directories++;
		}
	}
	decide_kind(w, l, parent);
	if (parent) {
		l->parent = parent->is_device ? parent->self.s : parent->parent;
		l->class_dir = parent->kind == SYSDEV_KIND_CLASS_DIR ? parent->name : NULL;
	} else {
		l->parent = w->start_parent;
		l->class_dir = w->start_class_dir;
	}
	if (l->is_device) {
		w->stats->devices++;
		err = fill_device(w, l);
		if (err < 0)
			return err;
	}
	/* a directory that could not be read is never silently hidden; the start always shows */
	shown = is_shown(w, l->kind) || depth == 0 || (l->error && (w->flags & SYSDEV_WALK_ERRORS));
	/* the frame address, not a local's: sanitizers may move locals to the heap */
	too_deep = depth + 1 >= SYSDEV_MAX_DEPTH ||
		   (w->stack_floor && (uintptr_t)__builtin_frame_address(0) < w->stack_floor);
	descend = !l->error && depth < w->max_depth && !too_deep;
	l->truncated = false;
	if (!l->error && !descend) {
		for (size_t i = 0; i < l->list.n && !l->truncated; i++)
			l->truncated = probe_shown(w, l, &l->list.v[i]);
		if (too_deep && depth < w->max_depth)
			w->stats->too_deep++;
	}
	if (shown && w->enter) {
		ret = w->enter(l, w->userdata);
		if (ret < 0)
			return ret;
	}
	if (descend && ret != SYSDEV_WALK_SKIP) {
		err = visit_children(w, l);
		if (err < 0)
			return err;
	}
	if (shown && w->leave) {
		ret = w->leave(l, w->userdata);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Where the start sits: its parent device and grouping directory. */
static int start_context(struct walker *w, const char *start, int *fd)
{
	struct ancestry a;
	int err;

	err = ancestry_get(w->ctx, start, &a);
	if (err < 0)
		return err;
	w->start_place = a.place;
	ancestry_take(&a, &w->start_parent, &w->start_class_dir);
	*fd = a.fd;
	a.fd = -1;
	ancestry_free(&a);
	return 0;
}

_public_ int sysdev_walk(struct sysdev *ctx, const char *start, unsigned flags, int max_depth,
			 sysdev_walk_fn enter, sysdev_walk_fn leave, void *userdata,
			 struct sysdev_walk_stats *stats)
{
	struct sysdev_walk_stats local;
	struct walker w = {0};
	struct sysdev_node *l;
	int fd = -1, err;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!ctx)
		return -EINVAL;
	if (!start)
		start = "/devices";
	if (!devpath_is_valid(start))
		return -EINVAL;
	w.ctx = ctx;
	w.flags = flags;
	w.max_depth =
	    max_depth < 0 || max_depth >= SYSDEV_MAX_DEPTH ? SYSDEV_MAX_DEPTH : (unsigned)max_depth;
	w.enter = enter;
	w.leave = leave;
	w.userdata = userdata;
	w.stats = stats;
	w.stack_floor = stack_floor();
	w.path_cap = strlen(start) + 4096;
	w.path = malloc(w.path_cap);
	w.linkbuf = malloc(LINKBUF_SIZE);
	if (!w.path || !w.linkbuf) {
		err = -ENOMEM;
		goto out;
	}
	strcpy(w.path, start);
	err = start_context(&w, start, &fd);
	if (err < 0)
		goto out;
	l = level_get(&w, 0);
	if (!l) {
		err = -ENOMEM;
		goto out;
	}
	l->fd = fd;
	fd = -1;
	l->error = 0;
	if (fd_is_path_only(l->fd)) {
		/* the start can be searched, not listed (see open_dir_searchable_at) */
		stats->unreadable++;
		l->error = -EACCES;
	}
	l->name = strrchr(w.path, '/') + 1;
	/* the name must outlive path edits: keep the start's own copy */
	l->name = w.start_name = strdup(l->name);
	if (!l->name) {
		err = -ENOMEM;
		goto out;
	}
	l->path_len = strlen(w.path);
	l->has_next = false;
	err = visit(&w, 0, NULL);
out:
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i < w.nlevels; i++) {
		/* a walk stopped by a callback leaves its open levels behind */
		if (w.levels[i] && w.levels[i]->fd >= 0)
			close(w.levels[i]->fd);
		level_free(w.levels[i]);
	}
	free(w.levels);
	free(w.path);
	free(w.linkbuf);
	free(w.start_parent);
	free(w.start_class_dir);
	free(w.start_name);
	return err;
}

/* ---- node accessors ---- */

_public_ const char *sysdev_node_get_devpath(const struct sysdev_node *node)
{
	return node->w->path;
}

_public_ const char *sysdev_node_get_name(const struct sysdev_node *node)
{
	return node->name;
}

_public_ enum sysdev_kind sysdev_node_get_kind(const struct sysdev_node *node)
{
	return node->kind;
}

_public_ unsigned sysdev_node_get_depth(const struct sysdev_node *node)
{
	return node->depth;
}

_public_ int sysdev_node_get_dirfd(const struct sysdev_node *node)
{
	return node->fd;
}

_public_ int sysdev_node_get_error(const struct sysdev_node *node)
{
	return node->error;
}

struct sysdev *node_context(const struct sysdev_node *node)
{
	return node->w->ctx;
}

const struct uevent *node_uevent(const struct sysdev_node *node)
{
	return node->is_device && node->uevent_read ? &node->uevent : NULL;
}

bool node_has_dev(const struct sysdev_node *node)
{
	return node->is_device && node->has_dev;
}

_public_ bool sysdev_node_is_truncated(const struct sysdev_node *node)
{
	return node->truncated;
}

_public_ bool sysdev_node_has_next_sibling(const struct sysdev_node *node)
{
	return node->has_next;
}

_public_ const char *sysdev_node_get_subsystem(const struct sysdev_node *node)
{
	return node->is_device && node->has_subsystem ? node->subsystem.s : NULL;
}

_public_ enum sysdev_subsystem_kind sysdev_node_get_subsystem_kind(const struct sysdev_node *node)
{
	return node->is_device && node->has_subsystem ? node->subsystem_kind
						      : SYSDEV_SUBSYSTEM_NONE;
}

_public_ const char *sysdev_node_get_driver(const struct sysdev_node *node)
{
	return node->is_device && node->has_driver ? node->driver.s : NULL;
}

_public_ const char *sysdev_node_get_parent(const struct sysdev_node *node)
{
	return node->parent;
}

_public_ const char *sysdev_node_get_class_dir(const struct sysdev_node *node)
{
	return node->is_device ? node->class_dir : NULL;
}

_public_ enum sysdev_placement sysdev_node_get_placement(const struct sysdev_node *node)
{
	return placement_of(node->w->path);
}

_public_ const char *sysdev_node_get_devnum(const struct sysdev_node *node)
{
	if (!node->is_device || !node->has_dev || !node->uevent_read || !node->uevent.devnum[0])
		return NULL;
	return node->uevent.devnum;
}

_public_ const char *sysdev_node_get_property(const struct sysdev_node *node, const char *key)
{
	if (!node->is_device || !node->uevent_read || !key)
		return NULL;
	return uevent_get(&node->uevent, key);
}

_public_ const char *sysdev_node_get_devtype(const struct sysdev_node *node)
{
	return sysdev_node_get_property(node, "DEVTYPE");
}

_public_ const char *sysdev_node_get_devname(const struct sysdev_node *node)
{
	return node->has_dev ? sysdev_node_get_property(node, "DEVNAME") : NULL;
}

_public_ bool sysdev_node_has_entry(const struct sysdev_node *node, const char *name)
{
	return name && find_entry(node, name) != NULL;
}

_public_ const char *sysdev_node_get_entry_at(const struct sysdev_node *node, size_t i,
					      unsigned char *d_type)
{
	if (!node || i >= node->list.n)
		return NULL;
	if (d_type)
		*d_type = dir_entry_type(node->fd, &node->list.v[i]);
	return node->list.v[i].name;
}
