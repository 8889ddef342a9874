/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --check-udev: compare the walk with libudev's enumeration (sysdev(7)).
 *
 * Three views of one tree are collected:
 *   walk   every device directory under S/devices (libsysdev),
 *   lists  what S/bus/X/devices/Y and S/class/X/Y link to, resolved here,
 *          relative to the root (S/subsystem/X/devices/Y instead where the
 *          kernel has S/subsystem; S/block/Y too where S/class/block is absent),
 *   udev   udev_enumerate_scan_devices() with no match: all subsystems.
 * They agree when every device libudev lists is found by the walk, every
 * entry of the lists is a device libudev lists, and the devices both know
 * have the same subsystem, driver, devtype, devnum and parent.  Devices only
 * the walk finds, that no list links to, are the article's "implemented but
 * not linked" devices: counted, not a disagreement.
 *
 * libudev always reads /sys.  With --root other than /sys, the command
 * enters a private mount namespace (unshare(CLONE_NEWNS), then MS_PRIVATE
 * recursively on /, and only then a bind mount of the root over /sys), so
 * the host's /sys is never touched.
 *
 * Exit status: 0 agree, 1 disagree, 2 the check could not be made.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "dir-list.h"

#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

#define EXIT_TROUBLE 2

struct dev {
	char *devpath;
	char *subsystem, *driver, *devtype, *devnum, *parent;
	bool listed;    /* walk: libudev lists it */
	bool linked;    /* walk: an entry of the lists links to it */
};

struct devs {
	struct dev *v;
	size_t n, cap;
};

struct link {
	char *list;     /* "/class/net/lo" */
	char *target;   /* devpath it resolves to, or NULL */
	const char *reason;
	char *detail;   /* what made it fail, or NULL */
};

struct links {
	struct link *v;
	size_t n, cap;
};

struct diff {
	const char *devpath; /* owned by the walk's record */
	const char *field;
	const char *walk, *udev;
};

struct diffs {
	struct diff *v;
	size_t n, cap;
};

static int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct dev *)a)->devpath, ((const struct dev *)b)->devpath);
}

static int cmp_link(const void *a, const void *b)
{
	return strcmp(((const struct link *)a)->list, ((const struct link *)b)->list);
}

static struct dev *find_dev(const struct devs *d, const char *devpath)
{
	struct dev key = {.devpath = (char *)devpath};

	if (!d->n)
		return NULL;
	return bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_dev);
}

static void devs_free(struct devs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].devpath);
		free(d->v[i].subsystem);
		free(d->v[i].driver);
		free(d->v[i].devtype);
		free(d->v[i].devnum);
		free(d->v[i].parent);
	}
	free(d->v);
}

static void links_free(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].list);
		free(l->v[i].target);
		free(l->v[i].detail);
	}
	free(l->v);
}

static int devs_add(struct devs *d, const char *devpath, const char *subsystem,
		    const char *driver, const char *devtype, const char *devnum, const char *parent)
{
	struct dev *x;

	if (grow_array((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) < 0)
		return -ENOMEM;
	x = &d->v[d->n];
	*x = (struct dev){
		.devpath = strdup(devpath),
		.subsystem = strdup_or_null(subsystem),
		.driver = strdup_or_null(driver),
		.devtype = strdup_or_null(devtype),
		.devnum = strdup_or_null(devnum),
		.parent = strdup_or_null(parent),
	};
	d->n++;
	if (!x->devpath || (subsystem && !x->subsystem) || (driver && !x->driver) ||
	    (devtype && !x->devtype) || (devnum && !x->devnum) || (parent && !x->parent))
		return -ENOMEM;
	return 0;
}

/* ---------------------------------------------------------------- */
/* The walk                                                           */
/* ---------------------------------------------------------------- */

struct walk_state {
	struct sysdev *ctx;
	struct devs *devs;
	struct walk_errors errors;
};

static int on_node(const struct sysdev_node *node, void *data)
{
	struct walk_state *w = data;
	int err = sysdev_node_get_error(node);

	if (err) {
		walk_error_note(&w->errors, w->ctx, node);
	}
	if (sysdev_node_get_kind(node) != SYSDEV_KIND_DEVICE)
		return 0;
	return devs_add(w->devs, sysdev_node_get_devpath(node), sysdev_node_get_subsystem(node),
			sysdev_node_get_driver(node), sysdev_node_get_devtype(node),
			sysdev_node_get_devnum(node), sysdev_node_get_parent(node));
}

/* ---------------------------------------------------------------- */
/* The lists: S/bus/X/devices/Y, S/class/X/Y, resolved here          */
/* ---------------------------------------------------------------- */

/*
 * Resolve @path (relative to the root, no leading slash) as the kernel would
 * with the root mounted at /sys: symbolic links are followed, ".." above the
 * root leaves it (-EXDEV), an absolute target "/sys/..." means the root.  Returns 0 and the
 * devpath ("/devices/...") in *@out, or a negative errno with *@detail
 * naming the component that failed (a relative path, or the raw link text
 * for -EXDEV).
 */
static int resolve_in_root(int rootfd, const char *path, char **out, char **detail)
{
	char *cur = NULL, *pending = NULL, *last = NULL; /* last: the last link's text */
	size_t curlen = 0;
	unsigned hops = 0;
	int err = 0;

	*out = NULL;
	*detail = NULL;
	cur = malloc(PATH_MAX + 1);
	pending = strdup(path);
	if (!cur || !pending) {
		err = -ENOMEM;
		goto out;
	}
	cur[0] = '\0';
	while (*pending) {
		char *slash = strchr(pending, '/');
		size_t clen = slash ? (size_t)(slash - pending) : strlen(pending);
		char *rest = slash ? slash + 1 : pending + clen;
		struct stat st;

		if (clen == 0 || (clen == 1 && pending[0] == '.')) {
			memmove(pending, rest, strlen(rest) + 1);
			continue;
		}
		if (clen == 2 && pending[0] == '.' && pending[1] == '.') {
			char *up = strrchr(cur, '/');

			if (curlen == 0) {
				/* above the root: with the root at /sys, that is the host */
				*detail = last;
				last = NULL;
				err = -EXDEV;
				break;
			}
			curlen = up ? (size_t)(up - cur) : 0;
			cur[curlen] = '\0';
			memmove(pending, rest, strlen(rest) + 1);
			continue;
		}
		if (curlen + 1 + clen > PATH_MAX) {
			err = -ENAMETOOLONG;
			break;
		}
		if (curlen)
			cur[curlen++] = '/';
		memcpy(cur + curlen, pending, clen);
		curlen += clen;
		cur[curlen] = '\0';
		if (fstatat(rootfd, cur, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			err = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX + 1];
			ssize_t len;
			char *np;
			const char *t;

			if (++hops > 40) {
				err = -ELOOP;
				break;
			}
			len = readlinkat(rootfd, cur, target, sizeof(target) - 1);
			if (len < 0) {
				err = -errno;
				break;
			}
			target[len] = '\0';
			free(last);
			last = strdup(target);
			t = target;
			if (target[0] == '/') {
				if (strncmp(target, "/sys", 4) != 0 ||
				    (target[4] != '/' && target[4] != '\0')) {
					*detail = strdup(target);
					err = -EXDEV;
					break;
				}
				t = target + 4;
				curlen = 0;
			} else {
				/* relative to the link's directory */
				char *up = strrchr(cur, '/');

				curlen = up ? (size_t)(up - cur) : 0;
			}
			cur[curlen] = '\0';
			np = malloc(strlen(t) + 1 + strlen(rest) + 1);
			if (!np) {
				err = -ENOMEM;
				break;
			}
			sprintf(np, "%s/%s", t, rest);
			free(pending);
			pending = np;
			continue;
		}
		if (!S_ISDIR(st.st_mode) && *rest) {
			err = -ENOTDIR;
			break;
		}
		memmove(pending, rest, strlen(rest) + 1);
	}
	if (!err) {
		struct stat st;

		if (fstatat(rootfd, curlen ? cur : ".", &st, AT_SYMLINK_NOFOLLOW) < 0)
			err = -errno;
		else if (!S_ISDIR(st.st_mode))
			err = -ENOTDIR;
	}
	if (!err) {
		*out = malloc(curlen + 2);
		if (!*out)
			err = -ENOMEM;
		else
			sprintf(*out, "/%s", cur);
	} else if (!*detail) {
		*detail = malloc(curlen + 2);
		if (*detail)
			sprintf(*detail, "/%s", cur);
	}
out:
	free(cur);
	free(pending);
	free(last);
	return err;
}

static int add_link(int rootfd, struct links *l, const char *list)
{
	struct link *x;
	struct stat st;
	int err;

	/* attribute files such as S/class/firmware/timeout are no entries (libudev skips them) */
	if (fstatat(rootfd, list + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode) &&
	    !S_ISDIR(st.st_mode))
		return 0;
	if (grow_array((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		return -ENOMEM;
	x = &l->v[l->n];
	*x = (struct link){.list = strdup(list)};
	l->n++;
	if (!x->list)
		return -ENOMEM;
	err = resolve_in_root(rootfd, list + 1, &x->target, &x->detail);
	if (err == -ENOMEM)
		return err;
	switch (err) {
	case 0:
		break;
	case -ENOENT:
		x->reason = "dangling link: no such file or directory";
		break;
	case -EXDEV:
		x->reason = "link points outside the sysfs root";
		break;
	case -ELOOP:
		x->reason = "too many levels of symbolic links";
		break;
	case -ENOTDIR:
		x->reason = "does not lead to a directory";
		break;
	default:
		x->reason = "cannot be resolved";
		break;
	}
	return 0;
}

/* Entries of directory @dir (relative to the root fd), sorted, dotfiles left out. */
static int list_dir(int rootfd, const char *dir, char ***names, size_t *n)
{
	struct dir_list l = {0};
	int fd, err;

	*names = NULL;
	*n = 0;
	fd = openat(rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = dir_list_read(&l, fd, DIR_LIST_NO_HIDDEN);
	close(fd);
	if (err == 0) {
		*names = dir_list_names(&l);
		if (*names)
			*n = l.n;
		else
			err = -ENOMEM;
	}
	dir_list_free(&l);
	return err;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * Every entry of BASE/X/SUB/ (SUB may be NULL: BASE/X/) as a link.
 * A missing BASE is no error: a tree may have no buses.
 */
static int scan_lists(int rootfd, struct links *l, const char *base, const char *sub)
{
	char **outer, **inner;
	size_t nouter, ninner;
	int err;

	err = list_dir(rootfd, base, &outer, &nouter);
	if (err == -ENOENT)
		return 0;
	if (err < 0)
		return err;
	for (size_t i = 0; i < nouter && err >= 0; i++) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s/%s%s%s", base, outer[i], sub ? "/" : "",
			 sub ? sub : "");
		if (list_dir(rootfd, dir, &inner, &ninner) < 0)
			continue; /* not a directory (or no devices/): libudev skips it too */
		for (size_t j = 0; j < ninner && err >= 0; j++) {
			char list[PATH_MAX * 2];

			snprintf(list, sizeof(list), "/%s/%s", dir, inner[j]);
			err = add_link(rootfd, l, list);
		}
		free_names(inner, ninner);
	}
	free_names(outer, nouter);
	return err;
}

/* ---------------------------------------------------------------- */
/* libudev                                                            */
/* ---------------------------------------------------------------- */

static int udev_collect(struct devs *out)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e;
	struct udev_list_entry *entry;
	int err = 0;

	if (!udev)
		return -errno ? -errno : -ENOMEM;
	e = udev_enumerate_new(udev);
	if (!e) {
		err = -errno ? -errno : -ENOMEM;
		udev_unref(udev);
		return err;
	}
	err = udev_enumerate_scan_devices(e);
	if (err < 0)
		warnx_("libudev", "scanning /sys reported an error: %s (the list may be "
				  "incomplete)", strerror(-err));
	err = 0;
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e)) {
		const char *syspath = udev_list_entry_get_name(entry);
		struct udev_device *d = udev_device_new_from_syspath(udev, syspath);
		struct udev_device *p;
		const char *devpath, *parent = NULL;
		char devnum[32], *devnum_s = NULL;

		if (!d) {
			/* gone since the scan, or refused: list it with no fields */
			devpath = strncmp(syspath, "/sys/", 5) == 0 ? syspath + 4 : syspath;
			err = devs_add(out, devpath, NULL, NULL, NULL, NULL, NULL);
			if (err < 0)
				break;
			continue;
		}
		devpath = udev_device_get_devpath(d);
		if (!devpath)
			devpath = strncmp(syspath, "/sys/", 5) == 0 ? syspath + 4 : syspath;
		if (major(udev_device_get_devnum(d)) || minor(udev_device_get_devnum(d))) {
			snprintf(devnum, sizeof(devnum), "%u:%u", major(udev_device_get_devnum(d)),
				 minor(udev_device_get_devnum(d)));
			devnum_s = devnum;
		}
		p = udev_device_get_parent(d); /* owned by d */
		if (p)
			parent = udev_device_get_devpath(p);
		err = devs_add(out, devpath, udev_device_get_subsystem(d), udev_device_get_driver(d),
			       udev_device_get_devtype(d), devnum_s, parent);
		udev_device_unref(d);
		if (err < 0)
			break;
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return err;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, (size_t)len) != len)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

/* Enter a new user and mount namespace, mapping ourselves to root in it. */
static int map_self(void)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char map[64];
	int err;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return -errno;
	err = write_file("/proc/self/setgroups", "deny");
	if (err < 0 && err != -ENOENT) {
		errno = -err;
		return err;
	}
	snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
	err = write_file("/proc/self/uid_map", map);
	if (err >= 0) {
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
		err = write_file("/proc/self/gid_map", map);
	}
	if (err < 0)
		errno = -err;
	return err;
}

/*
 * libudev reads /sys: make /sys show @root, in a private mount namespace.
 * Returns 0 when /sys already is the root, 1 when bound, or a negative errno
 * (with *@step naming what failed).
 */
static int bind_root_over_sys(const char *root, const char **step)
{
	struct stat a, b;
	char *real;

	*step = "stat";
	if (stat(root, &a) < 0)
		return -errno;
	if (stat("/sys", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return 0;
	real = realpath(root, NULL);
	if (!real)
		return -errno;
	*step = "unshare(CLONE_NEWNS)";
	if (unshare(CLONE_NEWNS) < 0) {
		if (errno != EPERM || geteuid() == 0)
			goto fail;
		/* unprivileged: a user namespace of our own, as unshare -mr does */
		*step = "unshare(CLONE_NEWUSER|CLONE_NEWNS)";
		if (map_self() < 0)
			goto fail;
	}
	/* never let the bind mount propagate back to the host */
	*step = "mount --make-rprivate /";
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		goto fail;
	*step = "mount --rbind ROOT /sys";
	if (mount(real, "/sys", "none", MS_BIND | MS_REC, NULL) < 0)
		goto fail;
	free(real);
	return 1;
fail:
	free(real);
	return -errno;
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
	struct sysdev_walk_stats st;
	int rootfd = sysdev_get_root_fd(ctx);
	const char *root = sysdev_get_root(ctx);
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
		warnx_(root, "libudev reads /sys only, and binding this root over /sys in a "
			     "private mount namespace failed: %s: %s",
		       step, strerror(-err));
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

	err = sysdev_walk(ctx, NULL, SYSDEV_WALK_UEVENT | SYSDEV_WALK_ATTR_GROUPS, -1, on_node,
			  NULL, &ws, &st);
	/* an incomplete walk proves nothing: report_walk() says why, exit 2 says no check */
	if (report_walk(ctx, "/devices", err, &st, &ws.errors) != 0 || ws.errors.n)
		goto out;
	if (walk.n)
		qsort(walk.v, walk.n, sizeof(*walk.v), cmp_dev);

	if (faccessat(rootfd, "subsystem", F_OK, 0) == 0) {
		err = scan_lists(rootfd, &links, "subsystem", "devices");
	} else {
		err = scan_lists(rootfd, &links, "bus", "devices");
		if (err >= 0)
			err = scan_lists(rootfd, &links, "class", NULL);
		if (err >= 0 && faccessat(rootfd, "class/block", F_OK, 0) < 0 &&
		    faccessat(rootfd, "block", F_OK, 0) == 0) {
			/* old kernels: block devices are listed in S/block */
			char **names;
			size_t n;

			err = list_dir(rootfd, "block", &names, &n);
			for (size_t i = 0; i < n && err >= 0; i++) {
				char list[PATH_MAX];

				snprintf(list, sizeof(list), "/block/%s", names[i]);
				err = add_link(rootfd, &links, list);
			}
			free_names(names, n);
		}
	}
	if (err < 0) {
		warnx_(root, "reading S/bus and S/class: %s", error_words(err));
		goto out;
	}
	if (links.n)
		qsort(links.v, links.n, sizeof(*links.v), cmp_link);

	err = udev_collect(&udev);
	if (err < 0) {
		warnx_("libudev", "enumeration failed: %s", strerror(-err));
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
			warnx_(root, "%s", error_words(-ENOMEM));
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
		bool first;

		fputs("{\n  \"sysfs\": ", stdout);
		fput_json_string(stdout, root);
		printf(",\n  \"agree\": %s,\n", listed ? "true" : "false");
		printf("  \"counts\": {\"walk\": %zu, \"udev\": %zu, \"links\": %zu, \"both\": %zu, "
		       "\"udev_only\": %zu, \"links_udev_misses\": %zu, \"differences\": %zu, "
		       "\"not_linked\": %zu, \"with_subsystem_not_listed\": %zu},\n",
		       walk.n, udev.n, links.n, n_both, n_udev_only, n_bad_links, diffs.n,
		       n_not_linked, n_sub_unlisted);
		fputs("  \"udev_only\": [", stdout);
		first = true;
		for (size_t i = 0; i < udev.n; i++) {
			if (udev.v[i].listed)
				continue;
			fputs(first ? "\n    {\"path\": " : ",\n    {\"path\": ", stdout);
			first = false;
			fput_json_string(stdout, udev.v[i].devpath);
			fputs(", \"subsystem\": ", stdout);
			fput_json_string(stdout, udev.v[i].subsystem);
			fputs("}", stdout);
		}
		fputs(first ? "],\n" : "\n  ],\n", stdout);
		fputs("  \"links_udev_misses\": [", stdout);
		first = true;
		for (size_t i = 0; i < links.n; i++) {
			struct link *x = &links.v[i];
			struct dev *w = x->target ? find_dev(&walk, x->target) : NULL;

			if (x->target && find_dev(&udev, x->target))
				continue;
			fputs(first ? "\n    {\"link\": " : ",\n    {\"link\": ", stdout);
			first = false;
			fput_json_string(stdout, x->list);
			fputs(", \"target\": ", stdout);
			fput_json_string(stdout, x->target);
			fputs(", \"reason\": ", stdout);
			fput_json_string(stdout, link_why_word(x, w));
			fputs(", \"detail\": ", stdout);
			fput_json_string(stdout, x->detail);
			fputs("}", stdout);
		}
		fputs(first ? "],\n" : "\n  ],\n", stdout);
		fputs("  \"differences\": [", stdout);
		for (size_t i = 0; i < diffs.n; i++) {
			fputs(i ? ",\n    {\"path\": " : "\n    {\"path\": ", stdout);
			fput_json_string(stdout, diffs.v[i].devpath);
			fputs(", \"field\": ", stdout);
			fput_json_string(stdout, diffs.v[i].field);
			fputs(", \"walk\": ", stdout);
			fput_json_string(stdout, diffs.v[i].walk);
			fputs(", \"udev\": ", stdout);
			fput_json_string(stdout, diffs.v[i].udev);
			fputs("}", stdout);
		}
		fputs(diffs.n ? "\n  ],\n" : "],\n", stdout);
		for (int pass = 0; pass < 2; pass++) {
			fputs(pass ? "  \"with_subsystem_not_listed\": [" : "  \"not_linked\": [",
			      stdout);
			first = true;
			for (size_t i = 0; i < walk.n; i++) {
				struct dev *w = &walk.v[i];

				if (w->listed || w->linked || !w->subsystem != !pass)
					continue;
				fputs(first ? "\n    " : ",\n    ", stdout);
				first = false;
				fput_json_string(stdout, w->devpath);
			}
			fputs(first ? "]" : "\n  ]", stdout);
			fputs(pass ? "\n}\n" : ",\n", stdout);
		}
		goto out;
	}

	fputs("check-udev ", stdout);
	fput_text(stdout, root);
	if (listed)
		printf(": agree: libudev lists %zu devices, all found by the walk with the same "
		       "fields; S/bus and S/class link to no other device\n",
		       udev.n);
	else
		printf(": DISAGREE: %zu listed by libudev but not found by the walk, %zu entries of "
		       "S/bus or S/class that libudev does not list, %zu field differences\n",
		       n_udev_only, n_bad_links, diffs.n);
	printf("  walk: %zu devices; libudev: %zu devices; S/bus and S/class: %zu entries\n",
	       walk.n, udev.n, links.n);
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
	       n_not_linked && !o->all ? "; --all lists them" : "");
	if (n_sub_unlisted)
		printf("not linked although they have a subsystem link: %zu device%s%s\n",
		       n_sub_unlisted, n_sub_unlisted == 1 ? "" : "s",
		       o->all ? "" : "; --all lists them");
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
