/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Resolving inside a root in user space, as openat2(RESOLVE_IN_ROOT) does in
 * the kernel, but refusing (-EXDEV) what would leave the root rather than
 * clamping it: a tree someone else prepared can name any file of the host
 * in a link, and none is ever opened.  Portable to kernels and filesystems
 * without openat2, and the same answer everywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "alloc-util.h"
#include "fd-util.h"
#include "in-root.h"
#include "path-util.h"

/* Components still to resolve, kept as one string consumed from the front. */
struct todo {
	char *s;
	size_t pos;
};

static int todo_prepend(struct todo *t, const char *head)
{
	size_t hlen = strlen(head), rest = strlen(t->s + t->pos);
	char *n = malloc(hlen + 1 + rest + 1);

	if (!n)
		return -ENOMEM;
	memcpy(n, head, hlen);
	n[hlen] = '/';
	memcpy(n + hlen + 1, t->s + t->pos, rest + 1);
	free(t->s);
	t->s = n;
	t->pos = 0;
	return 0;
}

static bool has_prefix_component(const char *s, const char *prefix, size_t len)
{
	return strncmp(s, prefix, len) == 0 && (s[len] == '/' || s[len] == '\0');
}

/* Where an absolute link target points inside the root, or NULL: outside. */
static const char *absolute_target_in_root(const char *root_path, const char *target)
{
	if (root_path && strcmp(root_path, "/") == 0)
		return target;
	if (root_path && *root_path && has_prefix_component(target, root_path, strlen(root_path)))
		return target + strlen(root_path);
	/* a capture of /sys that kept an absolute link: it meant this tree */
	if (has_prefix_component(target, "/sys", 4))
		return target + 4;
	return NULL;
}

/* Append "/@c" (@clen bytes) to the resolved path. */
static int done_push(char **done, size_t *dlen, size_t *dcap, const char *c, size_t clen)
{
	if (GROW_MIN(*done, *dcap, *dlen + 1 + clen + 1, 256) < 0)
		return -ENOMEM;
	(*done)[*dlen] = '/';
	memcpy(*done + *dlen + 1, c, clen);
	*dlen += 1 + clen;
	(*done)[*dlen] = '\0';
	return 0;
}

static int dup_root(int rootfd)
{
	int fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);

	return fd < 0 ? -errno : fd;
}

/* Open the last component @comp of @fd (known not to be a link) as asked. */
static int open_last(int fd, const char *comp, enum in_root_open how)
{
	struct stat st;
	int nfd;

	switch (how) {
	case IN_ROOT_OPEN_DIR:
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		return nfd < 0 ? (errno == ELOOP ? -ENOTDIR : -errno) : nfd;
	case IN_ROOT_OPEN_FILE:
		/* before the open: opening a device node can have effects of its own */
		if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (!S_ISREG(st.st_mode))
			return -EINVAL;
		nfd = openat(fd, comp, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
		if (nfd < 0)
			return errno == ELOOP ? -EINVAL : -errno;
		/* and after it: it may have been replaced in between */
		if (fstat(nfd, &st) < 0 || !S_ISREG(st.st_mode)) {
			close(nfd);
			return -EINVAL;
		}
		return nfd;
	default:
		nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		return nfd < 0 ? -errno : nfd;
	}
}

int in_root_resolve(int rootfd, const char *root_path, const char *path, enum in_root_open how,
		    struct in_root *r)
{
	struct todo t = {.s = strdup(path)};
	size_t dlen = 0, dcap = 64, depth = 0;
	char *done = malloc(dcap); /* the resolved path: "" or "/a/b" */
	char *last_link = NULL;	   /* the text of the last link followed */
	int fd = -1, links = 0, err = 0;
	bool ready = false; /* fd is the last component, opened as asked */

	*r = (struct in_root){.fd = -1};
	if (!t.s || !done) {
		err = -ENOMEM;
		goto out;
	}
	done[0] = '\0';
	fd = dup_root(rootfd);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	for (;;) {
		char comp[NAME_MAX + 1], *target;
		const char *c;
		size_t clen;
		bool final;
		int nfd;

		while (t.s[t.pos] == '/')
			t.pos++;
		if (!t.s[t.pos])
			break;
		c = t.s + t.pos;
		clen = strcspn(c, "/");
		t.pos += clen;
		if (clen == 1 && c[0] == '.')
			continue;
		ready = false;
		if (clen > NAME_MAX) {
			err = -ENAMETOOLONG;
			goto out;
		}
		memcpy(comp, c, clen);
		comp[clen] = '\0';
		if (strcmp(comp, "..") == 0) {
			if (depth == 0) {
				err = -EXDEV; /* above the root */
				goto out;
			}
			nfd = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (nfd < 0) {
				err = -errno;
				goto out;
			}
			close(fd);
			fd = nfd;
			depth--;
			while (dlen > 0 && done[dlen - 1] != '/')
				dlen--;
			dlen = dlen > 0 ? dlen - 1 : 0;
			done[dlen] = '\0';
			continue;
		}
		err = readlink_alloc(fd, comp, &target);
		if (err == -EINVAL) { /* not a link: step into it (a file ends the walk) */
			size_t p = t.pos;

			while (t.s[p] == '/' ||
			       (t.s[p] == '.' && (t.s[p + 1] == '/' || !t.s[p + 1])))
				p++;
			final = !t.s[p];
			err = done_push(&done, &dlen, &dcap, comp, clen);
			if (err < 0)
				goto out;
			nfd = final ? open_last(fd, comp, how)
				    : open_last(fd, comp, IN_ROOT_OPEN_PATH);
			if (nfd < 0) {
				err = nfd;
				goto out;
			}
			close(fd);
			fd = nfd;
			depth++;
			ready = final;
			continue;
		}
		if (err < 0) {
			/* -ENOENT, -ENOTDIR (a file on the way), ... */
			done_push(&done, &dlen, &dcap, comp, clen);
			goto out;
		}
		if (++links > IN_ROOT_MAX_LINKS) {
			free(target);
			done_push(&done, &dlen, &dcap, comp, clen);
			err = -ELOOP;
			goto out;
		}
		free(last_link);
		last_link = target;
		if (target[0] == '/') {
			const char *in = absolute_target_in_root(root_path, target);

			if (!in) {
				err = -EXDEV;
				goto out;
			}
			nfd = dup_root(rootfd);
			if (nfd < 0) {
				err = nfd;
				goto out;
			}
			close(fd);
			fd = nfd;
			depth = dlen = 0;
			done[0] = '\0';
			err = todo_prepend(&t, in);
		} else {
			err = todo_prepend(&t, target); /* relative to the link's own directory */
		}
		if (err < 0)
			goto out;
	}
	/* the root itself, or a path that ended in "..": a directory, open as O_PATH */
	if (!ready && how == IN_ROOT_OPEN_FILE) {
		err = -EINVAL;
		goto out;
	}
	if (!ready && how == IN_ROOT_OPEN_DIR) {
		int nfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (nfd < 0) {
			err = -errno;
			goto out;
		}
		close(fd);
		fd = nfd;
	}
	if (how == IN_ROOT_OPEN_NONE) {
		close(fd);
		fd = -1;
	}
	err = 0;
	if (dlen == 0)
		strcpy(done, "/");
	r->path = done;
	r->fd = fd;
	done = NULL;
	fd = -1;
out:
	if (err < 0) {
		if (err == -EXDEV && last_link)
			r->detail = strdup(last_link);
		else if (err != -EXDEV && done)
			r->detail = dlen ? strdup(done) : strdup("/");
	}
	if (fd >= 0)
		close(fd);
	free(last_link);
	free(done);
	free(t.s);
	return err;
}

void in_root_free(struct in_root *r)
{
	free(r->path);
	free(r->detail);
	if (r->fd >= 0)
		close(r->fd);
	*r = (struct in_root){.fd = -1};
}

int lstat_below(int dirfd, const char *path, struct stat *st)
{
	const char *last = NULL;
	int fd, err = 0;

	fd = open_below(dirfd, path, &last);
	if (fd < 0)
		return fd;
	if (fstatat(fd, last ? last : ".", st, AT_SYMLINK_NOFOLLOW) < 0)
		err = -errno;
	close(fd);
	return err;
}

/*
 * The directory holding @path's last component in one openat2() where the
 * kernel can refuse every link on the way: -ENOTDIR for a link, -ENOENT,
 * or 1 when only the component-by-component walk can say (no openat2, a
 * "." or "..", an absolute path, any other error).
 */
static int open_parent_fast(int dirfd, const char *path, const char **last)
{
#ifdef SYS_openat2
	struct open_how how = {
	    .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	const char *slash = strrchr(path, '/'), *p = path, *c;
	char parent[PATH_MAX];
	size_t clen;
	long fd;

	if (!slash || path[0] == '/' || !slash[1] || (size_t)(slash - path) >= sizeof(parent))
		return 1;
	while ((c = path_next_component(&p, &clen)))
		if ((clen == 1 && c[0] == '.') || (clen == 2 && c[0] == '.' && c[1] == '.'))
			return 1;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = '\0';
	fd = syscall(SYS_openat2, dirfd, parent, &how, sizeof(how));
	if (fd >= 0) {
		*last = slash + 1;
		return (int)fd;
	}
	if (errno == ELOOP || errno == ENOTDIR)
		return -ENOTDIR;
	if (errno == ENOENT)
		return -ENOENT;
#else
	(void)dirfd, (void)path, (void)last;
#endif
	return 1;
}

int readlink_below(int dirfd, const char *path, char **target)
{
	const char *last = NULL;
	int fd, err;

	/* the index entries (S/dev/block/8:0, S/bus/pci/devices/X) are read per device */
	fd = open_parent_fast(dirfd, path, &last);
	if (fd != 1) {
		if (fd < 0)
			return fd;
		err = readlink_alloc(fd, last, target);
		close(fd);
		return err;
	}
	fd = open_below(dirfd, path, &last);
	if (fd < 0)
		return fd;
	err = last ? readlink_alloc(fd, last, target) : -EINVAL;
	close(fd);
	return err;
}

int open_dir_searchable_at(int dirfd, const char *name, bool *listable)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	struct stat st;

	*listable = fd >= 0;
	if (fd >= 0 || errno != EACCES)
		return fd < 0 ? -errno : fd;
	fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -EACCES;
	/* O_PATH needs no permission at all: only a directory this user may search will do */
	if (fstatat(fd, ".", &st, 0) < 0) {
		close(fd);
		return -EACCES;
	}
	return fd;
}

bool fd_is_path_only(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_PATH);
}
