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
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device-private.h"
#include "rules.h"

struct sysdev_node {
	struct sysdev_walker *w;
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

	struct dir_list list; /* its entries, sorted by name; an entry's mark caches
			       * probe_shown(): -1 not probed, 0 hidden, 1 shown */

	struct sysdev_node
	    *parent;	       /* the level of the nearest device above, NULL: none in the walk */
	const char *class_dir; /* the class grouping directory it sits in, or NULL */
	/* With is_device: the device this level lends, refilled for each device node at this
	 * depth; a caller that keeps a reference keeps it, and the level makes another. */
	struct sysdev_device *dev;
	bool dev_filled;
	bool uevent_ahead; /* the walker's ahead holds its uevent file, read before it was opened */
};

struct sysdev_walker {
	unsigned n_ref;
	struct sysdev *ctx;
	char *start;
	unsigned flags;
	unsigned max_depth;
	sysdev_walk_fn enter, leave;
	void *userdata;
	unsigned long counts[_SYSDEV_WALK_COUNT_MAX];
	bool running;
	/* a probe of a child ran out of memory: the walk ends with -ENOMEM */
	bool oom;
	/* the state of a run */
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
	/* a child's uevent file, read as the probe of whether it is a device */
	struct uevent ahead;
	char ahead_name[NAME_MAX + sizeof("/uevent")];
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

static struct sysdev_node *level_get(struct sysdev_walker *w, unsigned depth)
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

/*
 * The walk leaves the node: its descriptor is closed next, so the lent device
 * forgets it.  A device a caller kept is theirs; one nobody kept is refilled
 * for the next device node at this depth.
 */
static void level_release_device(struct sysdev_node *l)
{
	struct sysdev_device *d = l->dev;

	if (!d || !l->dev_filled)
		return;
	l->dev_filled = false;
	if (d->fd_lent) {
		d->fd = -1;
		d->fd_lent = false;
	}
	if (d->n_ref > 1) {
		struct uevent shrunk;

		/* kept (an enumerator keeps thousands): its uevent in a buffer of its size */
		if (d->uevent.buf && d->uevent.cap > d->uevent.len + 1 &&
		    uevent_copy(&shrunk, &d->uevent) == 0) {
			uevent_free(&d->uevent);
			d->uevent = shrunk;
		}
		l->dev = sysdev_device_unref(d);
		return;
	}
	if (d->fd >= 0) {
		close(d->fd);
		d->fd = -1;
	}
	device_reset_cache(d);
}

static void level_free(struct sysdev_node *l)
{
	if (!l)
		return;
	level_release_device(l);
	sysdev_device_unref(l->dev);
	dir_list_free(&l->list);
	free(l);
}

static int path_push(struct sysdev_walker *w, const char *name, size_t *old_len)
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
static int read_link_name(struct sysdev_walker *w, struct sysdev_node *l, const char *name,
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

		if (!res && errno == ENOMEM) {
			err = -ENOMEM;
			goto out;
		}
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

static bool path_is_virtual_root(const struct sysdev_walker *w, size_t len)
{
	return len == 16 && memcmp(w->path, "/devices/virtual", 16) == 0;
}

/* Where a child of @parent sits. */
static struct dir_place place_below(const struct sysdev_walker *w, const struct sysdev_node *parent)
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
static int decide_kind(struct sysdev_walker *w, struct sysdev_node *l, struct sysdev_node *parent)
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

	/* what could not be read is judged on what could; no memory is no answer */
	if (rules_gather(w->ctx, &d, &f) == -ENOMEM)
		return -ENOMEM;
	l->kind = rules_decide(&f);
	l->is_device = l->kind == SYSDEV_KIND_DEVICE;
	l->below_device = f.below_device;
	return 0;
}

static bool is_shown(const struct sysdev_walker *w, enum sysdev_kind kind)
{
	return kind != SYSDEV_KIND_ATTR_GROUP || (w->flags & SYSDEV_WALK_ATTR_GROUPS);
}

/* Whether child @e of @l will be reported, without walking it. */
static bool probe_shown(struct sysdev_walker *w, struct sysdev_node *l, struct dir_entry *e)
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
	if (rules_gather(w->ctx, &d, &f) == -ENOMEM) {
		w->oom = true; /* the caller ends the walk */
		return false;
	}
	e->mark = is_shown(w, rules_decide(&f));
	return e->mark;
}

/* Fill the level's device with what the walk reads of a device node. */
static int fill_device(struct sysdev_walker *w, struct sysdev_node *l)
{
	struct sysdev_device *d;
	struct dir_entry *de;
	int err;

	if (!l->dev) {
		err = device_alloc(w->ctx, w->path, l->path_len, &l->dev);
		if (err < 0)
			return err;
	} else if (sbuf_set(&l->dev->devpath, w->path, l->path_len) < 0) {
		return -ENOMEM;
	}
	d = l->dev;
	l->dev_filled = true;
	d->name = d->devpath.s + l->path_len - strlen(l->name);
	d->fd = l->fd;
	d->fd_lent = l->fd >= 0;
	d->has_subsystem = d->has_driver = d->has_dev = false;
	d->subsystem_kind = SYSDEV_SUBSYSTEM_NONE;
	d->ancestry_pending = false;
	d->ancestry_error = 0;
	d->uevent_pending = true;
	d->uevent_error = 0;
	d->links_pending = false;
	d->links_error = 0;
	uevent_clear(&d->uevent);
	/* where it sits: the levels above know */
	if (l->parent) {
		d->has_parent = true;
		d->parent = sysdev_device_ref(l->parent->dev);
		err = sbuf_set(&d->parent_devpath, l->parent->dev->devpath.s, l->parent->path_len);
	} else {
		d->has_parent = l->depth == 0 && w->start_parent;
		err = d->has_parent
			  ? sbuf_set(&d->parent_devpath, w->start_parent, strlen(w->start_parent))
			  : 0;
	}
	if (err < 0)
		return err;
	d->has_class_dir = l->class_dir != NULL;
	if (l->class_dir && sbuf_set(&d->class_dir, l->class_dir, strlen(l->class_dir)) < 0)
		return -ENOMEM;
	/* an unreadable directory that can still be searched: links and files by name */
	if (l->error && l->fd < 0)
		return 0;
	if (!(w->flags & SYSDEV_WALK_NO_LINKS)) {
		err = read_link_name(w, l, "subsystem", &d->subsystem, &d->has_subsystem,
				     &d->subsystem_kind);
		if (err < 0)
			return err;
		err = read_link_name(w, l, "driver", &d->driver, &d->has_driver, NULL);
		if (err < 0)
			return err;
	} else {
		d->links_pending = true;
	}
	/* the dev attribute: a regular file, as a single-device lookup reads it */
	if (l->error) {
		struct stat st;

		d->has_dev =
		    fstatat(l->fd, "dev", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	} else {
		de = find_entry(l, "dev");
		d->has_dev = de && dir_entry_type(l->fd, de) == DT_REG;
	}
	if (l->uevent_ahead) {
		struct uevent t = d->uevent;

		/* read as the probe: the device takes it, the walker the device's old buffers */
		d->uevent = w->ahead;
		w->ahead = t;
		l->uevent_ahead = false;
		d->uevent_pending = false;
	} else if ((w->flags & SYSDEV_WALK_UEVENT) || d->has_dev) {
		/* an unreadable or oversized uevent: its properties answer with the errno */
		err = uevent_read_at(&d->uevent, l->fd);
		if (err == -ENOMEM)
			return err;
		d->uevent_pending = false;
		d->uevent_error = err < 0 ? err : 0;
	}
	return 0;
}

static int visit(struct sysdev_walker *w, unsigned depth, struct sysdev_node *parent);

/*
 * Child @e of device @l on sysfs, for a walk that reads every uevent file:
 * 1 when it is a device (its uevent file read into w->ahead), 0 when it is
 * not one and not a class grouping directory either (no device below it),
 * -1 when that cannot be told without visiting it.
 */
static int read_ahead(struct sysdev_walker *w, struct sysdev_node *l, struct dir_entry *e)
{
	size_t len = strlen(e->name);
	int err;

	if (len > NAME_MAX)
		return -1;
	memcpy(w->ahead_name, e->name, len);
	memcpy(w->ahead_name + len, "/uevent", sizeof("/uevent"));
	err = uevent_read_name(&w->ahead, l->fd, w->ahead_name);
	if (err >= 0)
		return 1;
	if (err != -ENOENT && err != -ENOTDIR)
		return -1;
	return name_set_has(&w->ctx->classes, e->name) ? -1 : 0;
}

/* Walk the children of @l (its entries are read). */
static int visit_children(struct sysdev_walker *w, struct sysdev_node *l)
{
	bool exact = (w->flags & SYSDEV_WALK_SIBLINGS) && !(w->flags & SYSDEV_WALK_ATTR_GROUPS);
	bool prune = w->ctx->sysfs && l->is_device && !(w->flags & SYSDEV_WALK_ATTR_GROUPS);
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
		bool listable, ahead;
		int fd;

		if (dir_entry_type(l->fd, e) != DT_DIR)
			continue;
		/*
		 * On sysfs a device's subdirectory that is neither a device nor a
		 * class grouping directory is an attribute group or a bare kobject
		 * (power/, queue/, mq/, statistics/): the kernel puts devices only
		 * below devices, grouping directories and the top containers, so
		 * nothing below it is reported.  One probe for uevent instead of an
		 * open, a listing and a close of it and of all it holds.
		 */
		ahead = false;
		if (prune && (w->flags & SYSDEV_WALK_UEVENT)) {
			/* the uevent file that the device would read anyway is the probe */
			switch (read_ahead(w, l, e)) {
			case 1:
				ahead = true;
				break;
			case 0:
				continue;
			default:
				break; /* cannot tell: the directory is visited and tells */
			}
		} else if (prune && !probe_shown(w, l, e)) {
			if (w->oom)
				return -ENOMEM;
			continue;
		}
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
			w->counts[SYSDEV_WALK_COUNT_UNREADABLE]++;
			c->error = -EACCES;
		} else if (fd < 0) {
			switch (-fd) {
			case ENOENT:
			case ENOTDIR:
			case ELOOP:
				/* removed or replaced since it was listed: hotplug */
				w->counts[SYSDEV_WALK_COUNT_VANISHED]++;
				continue;
			case EMFILE:
			case ENFILE:
				w->counts[SYSDEV_WALK_COUNT_TOO_DEEP]++;
				c->error = fd;
				break;
			default:
				w->counts[SYSDEV_WALK_COUNT_UNREADABLE]++;
				c->error = fd;
				break;
			}
			fd = -1;
		}
		c->fd = fd;
		c->name = e->name;
		c->uevent_ahead = ahead;
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
			if (w->oom) {
				if (fd >= 0)
					close(fd);
				return -ENOMEM;
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
		c->uevent_ahead = false; /* unused when it did not turn out a device after all */
		w->path[old_len] = '\0';
		level_release_device(c);
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		if (err < 0)
			return err;
	}
	return 0;
}

static int visit(struct sysdev_walker *w, unsigned depth, struct sysdev_node *parent)
{
	struct sysdev_node *l = w->levels[depth];
	int err, ret = 0;
	bool shown, descend, too_deep;

	l->depth = depth;
	l->list.n = 0;
	if (!l->error) {
		err = read_entries(l);
		if (err == -ENOMEM)
			return err;
		if (err == -ENOENT) {
			/* removed after it was opened: hotplug */
			w->counts[SYSDEV_WALK_COUNT_VANISHED]++;
			return 0;
		}
		if (err < 0) {
			w->counts[SYSDEV_WALK_COUNT_UNREADABLE]++;
			l->error = err;
			l->list.n = 0;
		} else {
			w->counts[SYSDEV_WALK_COUNT_DIRECTORIES]++;
		}
	}
	err = decide_kind(w, l, parent);
	if (err < 0)
		return err;
	if (parent) {
		l->parent = parent->is_device ? parent : parent->parent;
		l->class_dir = parent->kind == SYSDEV_KIND_CLASS_DIR ? parent->name : NULL;
	} else {
		l->parent = NULL;
		l->class_dir = w->start_class_dir;
	}
	if (l->is_device) {
		w->counts[SYSDEV_WALK_COUNT_DEVICES]++;
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
		if (w->oom)
			return -ENOMEM;
		if (too_deep && depth < w->max_depth)
			w->counts[SYSDEV_WALK_COUNT_TOO_DEEP]++;
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
static int start_context(struct sysdev_walker *w, const char *start, int *fd)
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

static void walker_run_free(struct sysdev_walker *w)
{
	for (size_t i = w->nlevels; i-- > 0;) {
		/* a walk stopped by a callback leaves its open levels behind */
		if (!w->levels[i])
			continue;
		level_release_device(w->levels[i]);
		if (w->levels[i]->fd >= 0)
			close(w->levels[i]->fd);
		level_free(w->levels[i]);
	}
	w->levels = mfree(w->levels);
	w->nlevels = 0;
	w->path = mfree(w->path);
	w->path_cap = 0;
	w->linkbuf = mfree(w->linkbuf);
	uevent_free(&w->ahead);
	w->start_parent = mfree(w->start_parent);
	w->start_class_dir = mfree(w->start_class_dir);
	w->start_name = mfree(w->start_name);
}

static int walker_run(struct sysdev_walker *w)
{
	_cleanup_close_ int fd = -1;
	struct sysdev_node *l;
	int err;

	w->stack_floor = stack_floor();
	w->path_cap = strlen(w->start) + 4096;
	w->path = malloc(w->path_cap);
	w->linkbuf = malloc(LINKBUF_SIZE);
	if (!w->path || !w->linkbuf)
		return -ENOMEM;
	strcpy(w->path, w->start);
	err = start_context(w, w->start, &fd);
	if (err < 0)
		return err;
	l = level_get(w, 0);
	if (!l)
		return -ENOMEM;
	l->fd = TAKE_FD(fd);
	l->error = 0;
	if (fd_is_path_only(l->fd)) {
		/* the start can be searched, not listed (see open_dir_searchable_at) */
		w->counts[SYSDEV_WALK_COUNT_UNREADABLE]++;
		l->error = -EACCES;
	}
	/* the name must outlive path edits: keep the start's own copy */
	l->name = w->start_name = strdup(strrchr(w->path, '/') + 1);
	if (!l->name)
		return -ENOMEM;
	l->path_len = strlen(w->path);
	l->has_next = false;
	return visit(w, 0, NULL);
}

static void walker_free(struct sysdev_walker *w)
{
	walker_run_free(w);
	free(w->start);
	sysdev_unref(w->ctx);
	free(w);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev_walker, sysdev_walker, walker_free);

_public_ int sysdev_walker_new(struct sysdev *ctx, const char *start, struct sysdev_walker **ret)
{
	struct sysdev_walker *w;

	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(ctx, -EINVAL);
	if (!start)
		start = "/devices";
	assert_return(devpath_is_valid(start), -EINVAL);
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->n_ref = 1;
	w->start = strdup(start);
	if (!w->start) {
		free(w);
		return -ENOMEM;
	}
	w->ctx = sysdev_ref(ctx);
	w->max_depth = SYSDEV_MAX_DEPTH;
	*ret = w;
	return 0;
}

_public_ int sysdev_walker_set_flags(struct sysdev_walker *w, unsigned flags)
{
	assert_return(w, -EINVAL);
	assert_return(!(flags & ~(unsigned)_SYSDEV_WALK_FLAGS_ALL), -EINVAL);
	assert_return(!w->running, -EBUSY);
	w->flags = flags;
	return 0;
}

_public_ int sysdev_walker_set_max_depth(struct sysdev_walker *w, unsigned max_depth)
{
	assert_return(w, -EINVAL);
	assert_return(!w->running, -EBUSY);
	w->max_depth = max_depth >= SYSDEV_MAX_DEPTH ? SYSDEV_MAX_DEPTH : max_depth;
	return 0;
}

_public_ int sysdev_walker_set_callbacks(struct sysdev_walker *w, sysdev_walk_fn enter,
					 sysdev_walk_fn leave, void *userdata)
{
	assert_return(w, -EINVAL);
	assert_return(!w->running, -EBUSY);
	w->enter = enter;
	w->leave = leave;
	w->userdata = userdata;
	return 0;
}

_public_ int sysdev_walker_run(struct sysdev_walker *w)
{
	int err;

	assert_return(w, -EINVAL);
	/* a callback that runs its own walker again would reuse the levels under its feet */
	assert_return(!w->running, -EBUSY);
	memset(w->counts, 0, sizeof(w->counts));
	w->running = true;
	w->oom = false;
	sysdev_walker_ref(w);
	err = walker_run(w);
	walker_run_free(w);
	w->running = false;
	sysdev_walker_unref(w);
	return err;
}

_public_ unsigned long sysdev_walker_get_count(const struct sysdev_walker *w,
					       enum sysdev_walk_count which)
{
	assert_return(w, 0);
	assert_return((unsigned)which < _SYSDEV_WALK_COUNT_MAX, 0);
	return w->counts[which];
}

/* ---- node accessors: the walk's facts ---- */

_public_ const char *sysdev_node_get_devpath(const struct sysdev_node *node)
{
	assert_return(node, NULL);
	return node->w->path;
}

_public_ const char *sysdev_node_get_name(const struct sysdev_node *node)
{
	assert_return(node, NULL);
	return node->name;
}

_public_ enum sysdev_kind sysdev_node_get_kind(const struct sysdev_node *node)
{
	assert_return(node, SYSDEV_KIND_UNKNOWN);
	return node->kind;
}

_public_ unsigned sysdev_node_get_depth(const struct sysdev_node *node)
{
	assert_return(node, 0);
	return node->depth;
}

_public_ int sysdev_node_get_dirfd(const struct sysdev_node *node)
{
	assert_return(node, -EINVAL);
	return node->fd;
}

_public_ int sysdev_node_get_error(const struct sysdev_node *node)
{
	assert_return(node, -EINVAL);
	return node->error;
}

_public_ bool sysdev_node_is_truncated(const struct sysdev_node *node)
{
	assert_return(node, false);
	return node->truncated;
}

_public_ bool sysdev_node_has_next_sibling(const struct sysdev_node *node)
{
	assert_return(node, false);
	return node->has_next;
}

_public_ bool sysdev_node_has_entry(const struct sysdev_node *node, const char *name)
{
	assert_return(node, false);
	assert_return(name, false);
	return find_entry(node, name) != NULL;
}

_public_ int sysdev_node_get_entry_at(struct sysdev_node *node, size_t i, const char **ret_name,
				      unsigned char *ret_type)
{
	assert_return(node, -EINVAL);
	assert_return(ret_name, -EINVAL);
	if (i >= node->list.n)
		return -ENOENT;
	if (ret_type)
		*ret_type = dir_entry_type(node->fd, &node->list.v[i]);
	*ret_name = node->list.v[i].name;
	return 0;
}

_public_ int sysdev_node_get_device(struct sysdev_node *node, struct sysdev_device **ret)
{
	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(node, -EINVAL);
	if (!node->is_device || !node->dev_filled)
		return -ENODEV;
	*ret = node->dev;
	return 0;
}
