/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capture: copy S/devices (or the subtree at a devpath, with its ancestors)
 * and the parts of S/class, S/bus and S/dev that the walk and the device
 * lookups read, into an empty directory, so that the copy reads back as the
 * same tree.
 *
 * Safety: every file is created relative to a directory descriptor of the
 * destination, under a single-component name that came from getdents (never
 * "." or ".."), with O_EXCL and O_NOFOLLOW; directories are opened with
 * O_NOFOLLOW.  Nothing is ever written outside the destination, whatever
 * names or links the source holds.  Source files are opened only when they
 * are regular and readable by someone, with O_NONBLOCK, and read with a
 * bound.
 *
 * Built on the library's public API (the walker, sysdev_classify(), the
 * root) and src/shared only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "capture.h"
#include "dir-list.h"
#include "fd-util.h"
#include "libsysdev.h"
#include "macro.h"
#include "path-util.h"

/* ---- the capture ---- */

struct capture {
	unsigned flags;
	const char *root; /* sysdev_get_root(): resolves links found in the source */
	int root_fd;
	struct tree_counts *st;
	const char *start; /* devpath of the start */
	bool filter_links; /* keep only links into the start's subtree */
	int base_fd;	   /* destination directory that receives the start */
	dev_t dest_dev;	   /* the destination itself: never copied into itself */
	ino_t dest_ino;
	int *dfd;      /* destination directory per depth of the walk */
	mode_t *dmode; /* its mode, applied when the walk leaves it */
	size_t cap;
	char *buf; /* TREE_CAPTURE_BIN_MAX + 1 bytes */
};

/*
 * Copy the non-directory entry @name of @sfd into @dfd.  Source trouble is
 * counted as skipped; destination trouble is returned (negative errno).
 * @content: whether the file's bytes are wanted at all (slim captures).
 */
static int copy_nondir(struct capture *c, int sfd, int dfd, const char *name, bool content)
{
	struct stat st;
	bool truncated;
	ssize_t len = 0;
	char *target;
	int err;

	if (!name_is_single_component(name)) {
		c->st->skipped++;
		return 0;
	}
	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		c->st->skipped++; /* gone since it was listed */
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		err = readlink_alloc(sfd, name, &target);
		if (err < 0) {
			if (err == -ENOMEM)
				return err;
			c->st->skipped++;
			return 0;
		}
		/* the link's text, as it is: inside the capture it still resolves */
		err = symlinkat(target, dfd, name) < 0 ? -errno : 0;
		free(target);
		if (err < 0)
			return err;
		c->st->links++;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return 0; /* the caller's business */
	if (!S_ISREG(st.st_mode)) {
		c->st->skipped++; /* FIFO, socket, device node: never opened */
		return 0;
	}
	if (!(st.st_mode & (S_IRUSR | S_IRGRP | S_IROTH))) {
		c->st->write_only++;
	} else if (!content || ((c->flags & TREE_CAPTURE_PUBLIC) && !(st.st_mode & S_IROTH))) {
		c->st->emptied++;
	} else {
		/* sysfs gives text attributes a size of one page, binary ones their own */
		size_t bound = st.st_size > 4096 ? TREE_CAPTURE_BIN_MAX : TREE_CAPTURE_TEXT_MAX;

		len = copy_read_file(sfd, name, &st, c->buf, bound, &truncated);
		if (len < 0) {
			/* kept unreadable, not made an empty value: without read bits
			 * it reads back as unreadable (EACCES), as a write-only file */
			c->st->skipped++;
			c->st->unreadable++;
			st.st_mode &= ~(mode_t)(S_IRUSR | S_IRGRP | S_IROTH);
			len = 0;
		} else if (truncated) {
			c->st->truncated++;
		}
	}
	err = create_file_excl(dfd, name, c->buf, (size_t)len, st.st_mode);
	if (err < 0)
		return err;
	c->st->files++;
	c->st->bytes += (unsigned long long)len;
	return 0;
}

/* Which files keep their contents in a slim capture. */
static bool slim_wants(const struct capture *c, const char *name, bool in_power)
{
	if (!(c->flags & TREE_CAPTURE_SLIM))
		return true;
	return in_power || strcmp(name, "uevent") == 0 || strcmp(name, "dev") == 0;
}

/* List @sfd into @l: 0, 1 when it could not be listed (counted as skipped), or -ENOMEM. */
static int list_source(struct capture *c, int sfd, struct dir_list *l)
{
	int err = dir_list_read(l, sfd, DIR_LIST_REOPEN);

	if (err == 0)
		return 0;
	dir_list_free(l);
	if (err == -ENOMEM)
		return err;
	c->st->skipped++;
	return 1;
}

/* Copy every non-directory entry of @sfd into @dfd. */
static int copy_nondirs(struct capture *c, int sfd, int dfd, bool in_power)
{
	struct dir_list l = {0};
	int err;

	err = list_source(c, sfd, &l);
	if (err != 0)
		return err < 0 ? err : 0;
	for (size_t i = 0; i < l.n && err == 0; i++)
		if (l.v[i].type != DT_DIR)
			err = copy_nondir(c, sfd, dfd, l.v[i].name,
					  slim_wants(c, l.v[i].name, in_power));
	dir_list_free(&l);
	return err;
}

static int grow(struct capture *c, size_t depth)
{
	size_t ncap = c->cap, mcap = c->cap;

	if (depth < c->cap)
		return 0;
	if (GROW(c->dfd, ncap, depth + 1) < 0 || GROW(c->dmode, mcap, depth + 1) < 0)
		return -ENOMEM;
	for (size_t i = c->cap; i < ncap; i++)
		c->dfd[i] = -1;
	c->cap = ncap;
	return 0;
}

static int cap_enter(struct sysdev_node *node, void *data)
{
	struct capture *c = data;
	unsigned depth = sysdev_node_get_depth(node);
	const char *name = sysdev_node_get_name(node);
	int sfd = sysdev_node_get_dirfd(node);
	int pfd, fd, err;
	mode_t mode = 0755;
	struct stat st;
	bool in_power;
	const char *e;
	unsigned char type;

	err = grow(c, depth);
	if (err < 0)
		return err;
	c->dfd[depth] = -1;
	pfd = depth == 0 ? c->base_fd : c->dfd[depth - 1];
	if (pfd < 0)
		return SYSDEV_WALK_SKIP; /* below a skipped directory */
	if (!name_is_single_component(name)) {
		c->st->skipped++;
		return SYSDEV_WALK_SKIP;
	}
	if (sfd >= 0 && fstat(sfd, &st) == 0) {
		if (st.st_dev == c->dest_dev && st.st_ino == c->dest_ino) {
			/* the destination lies inside the source: not into itself */
			c->st->skipped++;
			return SYSDEV_WALK_SKIP;
		}
		mode = st.st_mode & 07777;
	}
	if (mkdirat(pfd, name, 0700) < 0)
		return -errno;
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	c->dfd[depth] = fd;
	c->dmode[depth] = mode;
	c->st->dirs++;
	if (sfd < 0 || sysdev_node_get_error(node) < 0) {
		c->st->skipped++; /* unreadable: kept as an empty directory */
		return 0;
	}
	in_power =
	    sysdev_node_get_kind(node) == SYSDEV_KIND_ATTR_GROUP && strcmp(name, "power") == 0;
	SYSDEV_NODE_FOREACH_ENTRY(node, e, type)
	{
		if (type == DT_DIR)
			continue; /* the walk comes to it */
		err = copy_nondir(c, sfd, fd, e, slim_wants(c, e, in_power));
		if (err < 0)
			return err;
	}
	return 0;
}

static int cap_leave(struct sysdev_node *node, void *data)
{
	struct capture *c = data;
	unsigned depth = sysdev_node_get_depth(node);
	int err = 0;

	if (depth >= c->cap || c->dfd[depth] < 0)
		return 0;
	if (fchmod(c->dfd[depth], c->dmode[depth]) < 0)
		err = -errno;
	close(c->dfd[depth]);
	c->dfd[depth] = -1;
	return err;
}

/*
 * Open (creating in the destination) subdirectory @name of @sfd / @dfd.
 * A source symlink is copied as a link and not entered: returns 0 with the
 * fds at -1, as for a missing source.  Returns 1 with both fds open.
 */
static int mirror_dir(struct capture *c, int sfd, int dfd, const char *name, int *nsfd, int *ndfd,
		      mode_t *mode)
{
	struct stat st;

	*nsfd = *ndfd = -1;
	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return S_ISLNK(st.st_mode) ? copy_nondir(c, sfd, dfd, name, false) : 0;
	*nsfd = openat(sfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*nsfd < 0) {
		c->st->skipped++;
		return 0;
	}
	if (mkdirat(dfd, name, 0700) < 0 ||
	    (*ndfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		int err = -errno;

		close(*nsfd);
		*nsfd = -1;
		return err;
	}
	*mode = st.st_mode & 07777;
	c->st->dirs++;
	return 1;
}

static int mirror_done(int sfd, int dfd, mode_t mode, int err)
{
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0) {
		if (fchmod(dfd, mode) < 0 && err == 0)
			err = -errno;
		close(dfd);
	}
	return err;
}

/* Whether @path is a directory above @start and below /devices. */
static bool is_ancestor_below_devices(const char *path, const char *start)
{
	size_t len = strlen(path);

	return len > strlen("/devices") && strncmp(path, "/devices/", 9) == 0 &&
	       strncmp(start, path, len) == 0 && start[len] == '/';
}

/* Whether a link found in @dir_devpath with @target is wanted in the capture. */
/* 1: the link is captured, 0: not, -ENOMEM. */
static int link_wanted(const struct capture *c, const char *dir_devpath, const char *target)
{
	size_t len = strlen(c->start);
	char *res;
	bool ok;

	if (!c->filter_links)
		return 1;
	res = resolve_link_target(c->root, dir_devpath, target);
	if (!res && errno == ENOMEM)
		return -ENOMEM;
	/* into the start's subtree, or to one of its ancestors below /devices:
	 * they are captured too, and their bus and class entries make them
	 * devices that are linked */
	ok = res && ((strncmp(res, c->start, len) == 0 && (res[len] == '/' || res[len] == '\0')) ||
		     is_ancestor_below_devices(res, c->start));
	free(res);
	return ok;
}

/* Copy the symlinks of @sfd (the directory at @devpath) that point where wanted. */
static int copy_links(struct capture *c, int sfd, int dfd, const char *devpath)
{
	struct dir_list l = {0};
	int err;

	err = list_source(c, sfd, &l);
	if (err != 0)
		return err < 0 ? err : 0;
	for (size_t i = 0; i < l.n && err == 0; i++) {
		char *target;

		if (l.v[i].type != DT_LNK && l.v[i].type != DT_UNKNOWN)
			continue;
		err = readlink_alloc(sfd, l.v[i].name, &target);
		if (err < 0) {
			err = err == -ENOMEM ? err : 0; /* not a link after all */
			continue;
		}
		err = link_wanted(c, devpath, target);
		if (err > 0)
			err = copy_nondir(c, sfd, dfd, l.v[i].name, false);
		free(target);
	}
	dir_list_free(&l);
	return err;
}

/* Directory names only (bus/NAME/drivers/DRIVER), each created empty. */
static int copy_dir_names(struct capture *c, int sfd, int dfd)
{
	struct dir_list l = {0};
	int err;

	err = dir_list_read(&l, sfd, DIR_LIST_REOPEN);
	if (err < 0) {
		dir_list_free(&l);
		return err == -ENOMEM ? err : 0;
	}
	for (size_t i = 0; i < l.n && err == 0; i++) {
		int s2, d2;
		mode_t mode;

		if (l.v[i].type != DT_DIR && l.v[i].type != DT_UNKNOWN)
			continue;
		err = mirror_dir(c, sfd, dfd, l.v[i].name, &s2, &d2, &mode);
		if (err > 0)
			err = mirror_done(s2, d2, mode, 0);
	}
	dir_list_free(&l);
	return err;
}

/* S/class/NAME: its links. */
static int copy_class(struct capture *c, int sfd, int dfd, const char *name)
{
	char *devpath;
	int err;

	if (asprintf(&devpath, "/class/%s", name) < 0)
		return -ENOMEM;
	err = copy_links(c, sfd, dfd, devpath);
	free(devpath);
	return err;
}

/* S/bus/NAME: the links of devices/ and the names of drivers/. */
static int copy_bus(struct capture *c, int sfd, int dfd, const char *name)
{
	char *devpath;
	int err, s3, d3;
	mode_t m3;

	err = mirror_dir(c, sfd, dfd, "devices", &s3, &d3, &m3);
	if (err > 0) {
		if (asprintf(&devpath, "/bus/%s/devices", name) < 0) {
			err = -ENOMEM;
		} else {
			err = copy_links(c, s3, d3, devpath);
			free(devpath);
		}
		err = mirror_done(s3, d3, m3, err);
	}
	if (err == 0) {
		err = mirror_dir(c, sfd, dfd, "drivers", &s3, &d3, &m3);
		if (err > 0)
			err = mirror_done(s3, d3, m3, copy_dir_names(c, s3, d3));
	}
	return err;
}

/* Mirror S/@top and, in each of its subdirectories, what @copy_one copies. */
static int copy_subsystem_dirs(struct capture *c, int dest, const char *top,
			       int (*copy_one)(struct capture *c, int sfd, int dfd,
					       const char *name))
{
	int err, sfd, dfd;
	struct dir_list l = {0};
	mode_t mode;

	err = mirror_dir(c, c->root_fd, dest, top, &sfd, &dfd, &mode);
	if (err <= 0)
		return err;
	err = dir_list_read(&l, sfd, DIR_LIST_REOPEN);
	if (err == 0) {
		for (size_t i = 0; i < l.n && err == 0; i++) {
			int s2, d2;
			mode_t m2;

			err = mirror_dir(c, sfd, dfd, l.v[i].name, &s2, &d2, &m2);
			if (err <= 0)
				continue;
			err = mirror_done(s2, d2, m2, copy_one(c, s2, d2, l.v[i].name));
		}
	} else if (err != -ENOMEM) {
		c->st->skipped++;
		err = 0;
	}
	dir_list_free(&l);
	return mirror_done(sfd, dfd, mode, err);
}

/* S/class/NAME/LINK, S/bus/NAME/{devices/LINK,drivers/NAME}, S/dev/{block,char}/LINK. */
static int copy_subsystems(struct capture *c, int dest)
{
	int root = c->root_fd, err, sfd, dfd;
	mode_t mode;

	err = copy_subsystem_dirs(c, dest, "class", copy_class);
	if (err < 0)
		return err;
	err = copy_subsystem_dirs(c, dest, "bus", copy_bus);
	if (err < 0)
		return err;

	/* dev */
	err = mirror_dir(c, root, dest, "dev", &sfd, &dfd, &mode);
	if (err > 0) {
		static const char *const kinds[] = {"block", "char"};

		err = 0;
		for (size_t i = 0; i < ARRAY_SIZE(kinds) && err == 0; i++) {
			int s2, d2;
			mode_t m2;

			err = mirror_dir(c, sfd, dfd, kinds[i], &s2, &d2, &m2);
			if (err <= 0)
				continue;
			err = copy_links(c, s2, d2, i == 0 ? "/dev/block" : "/dev/char");
			err = mirror_done(s2, d2, m2, err);
		}
		err = mirror_done(sfd, dfd, mode, err);
	}
	return err < 0 ? err : 0;
}

struct ancestor {
	int fd;
	mode_t mode;
};

int tree_capture(struct sysdev *ctx, const char *start, int dest_dirfd, unsigned flags,
		 struct tree_counts *counts)
{
	struct tree_counts local;
	struct capture c = {0};
	struct sysdev_walker *w = NULL;
	struct ancestor *anc = NULL;
	size_t nanc = 0, anc_cap = 0;
	struct stat st;
	char *path = NULL;
	int err, sfd = -1;

	assert_return(ctx, -EINVAL);
	assert_return(dest_dirfd >= 0, -EINVAL);
	if (!start)
		start = "/devices";
	assert_return(devpath_is_valid(start), -EINVAL);
	if (!counts)
		counts = &local;
	*counts = (struct tree_counts){0};
	if (fstat(dest_dirfd, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	err = dir_is_empty(dest_dirfd);
	if (err < 0)
		return err;
	if (err == 0)
		return -ENOTEMPTY;
	err = sysdev_classify(ctx, start); /* the start exists and is under S/devices */
	if (err < 0)
		return err;

	c.root = sysdev_get_root(ctx);
	c.root_fd = sysdev_get_root_fd(ctx);
	c.flags = flags;
	c.st = counts;
	c.start = start;
	c.filter_links = strcmp(start, "/devices") != 0;
	c.dest_dev = st.st_dev;
	c.dest_ino = st.st_ino;
	c.buf = malloc(TREE_CAPTURE_BIN_MAX + 1);
	path = strdup(start);
	if (!c.buf || !path) {
		err = -ENOMEM;
		goto out;
	}

	/* The ancestors of the start: directories with their files and links. */
	c.base_fd = dest_dirfd;
	sfd = openat(c.root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sfd < 0) {
		err = -errno;
		goto out;
	}
	for (char *comp = path + 1, *slash; (slash = strchr(comp, '/')); comp = slash + 1) {
		int s2, d2;
		mode_t mode = 0755;

		*slash = '\0';
		if (GROW(anc, anc_cap, nanc + 1) < 0) {
			err = -ENOMEM;
			goto out;
		}
		err = mirror_dir(&c, sfd, c.base_fd, comp, &s2, &d2, &mode);
		if (err <= 0) {
			err = err < 0 ? err : -ENOENT;
			goto out;
		}
		anc[nanc].fd = d2;
		anc[nanc].mode = mode;
		nanc++;
		close(sfd);
		sfd = s2;
		c.base_fd = d2;
		if (nanc > 1) { /* "devices" itself holds no files worth a look */
			err = copy_nondirs(&c, sfd, d2, false);
			if (err < 0)
				goto out;
		}
	}

	err = sysdev_walker_new(ctx, start, &w);
	if (err >= 0)
		err = sysdev_walker_set_flags(w, SYSDEV_WALK_ATTR_GROUPS | SYSDEV_WALK_NO_LINKS);
	if (err >= 0)
		err = sysdev_walker_set_callbacks(w, cap_enter, cap_leave, &c);
	if (err >= 0)
		err = sysdev_walker_run(w);
	if (w)
		counts->skipped += sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_TOO_DEEP) +
				   sysdev_walker_get_count(w, SYSDEV_WALK_COUNT_VANISHED);
	if (err < 0)
		goto out;
	err = copy_subsystems(&c, dest_dirfd);
out:
	for (size_t i = 0; i < c.cap; i++)
		if (c.dfd[i] >= 0)
			close(c.dfd[i]);
	for (size_t i = nanc; i-- > 0;) {
		if (fchmod(anc[i].fd, anc[i].mode) < 0 && err == 0)
			err = -errno;
		close(anc[i].fd);
	}
	if (sfd >= 0)
		close(sfd);
	free(anc);
	free(c.dfd);
	free(c.dmode);
	free(c.buf);
	free(path);
	sysdev_walker_unref(w);
	return err;
}
