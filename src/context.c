/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The context: an opened sysfs root and the names of its classes and buses. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "libsysdev-private.h"

static void context_free(struct sysdev *ctx)
{
	if (ctx->root_fd >= 0)
		close(ctx->root_fd);
	if (ctx->udev_db_fd >= 0)
		close(ctx->udev_db_fd);
	if (ctx->udev_data_fd >= 0)
		close(ctx->udev_data_fd);
	for (size_t i = 0; i < 2; i++)
		if (ctx->devnum_fd[i] >= 0)
			close(ctx->devnum_fd[i]);
	free(ctx->udev_db);
	name_set_free(&ctx->classes);
	name_set_free(&ctx->buses);
	free(ctx->root);
	free(ctx);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev, sysdev, context_free);

_public_ int sysdev_new(const char *root, struct sysdev **out)
{
	_cleanup_(sysdev_unrefp) struct sysdev *ctx = NULL;
	struct stat st, live;
	size_t len;
	int err;

	assert_return(out, -EINVAL);
	*out = NULL;
	if (!root)
		root = "/sys";
	assert_return(*root, -EINVAL);
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->n_ref = 1;
	ctx->root_fd = -1;
	ctx->udev_db_fd = ctx->udev_data_fd = -1;
	ctx->devnum_fd[0] = ctx->devnum_fd[1] = -1;
	ctx->root = strdup(root);
	if (!ctx->root)
		return -ENOMEM;
	len = strlen(ctx->root);
	while (len > 1 && ctx->root[len - 1] == '/')
		ctx->root[--len] = '\0';

	ctx->root_fd = open(ctx->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->root_fd < 0)
		return -errno;
	/* The root must hold a real devices/ directory, or be a system root
	 * (as lsblk --sysroot takes) whose sys/ holds one: then sys/ is the root. */
	if (fstatat(ctx->root_fd, "devices", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		err = -errno;
		if (err == -ENOENT && lstat_below(ctx->root_fd, "sys/devices", &st) == 0 &&
		    S_ISDIR(st.st_mode)) {
			int sys_fd = openat(ctx->root_fd, "sys",
					    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			char *sys_root;

			if (sys_fd < 0)
				return -errno;
			if (asprintf(&sys_root, "%s%s", strcmp(ctx->root, "/") ? ctx->root : "",
				     "/sys") < 0) {
				close(sys_fd);
				return -ENOMEM;
			}
			close(ctx->root_fd);
			ctx->root_fd = sys_fd;
			free(ctx->root);
			ctx->root = sys_root;
			err = 0;
		}
		if (err < 0)
			return err;
	}
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* kept for the context's life: never where a program's stdin belongs */
	ctx->root_fd = fd_move_above_stdio(ctx->root_fd);
	{
		struct statfs sfs;

		ctx->sysfs =
		    fstatfs(ctx->root_fd, &sfs) == 0 && sfs.f_type == 0x62656572; /* SYSFS_MAGIC */
	}
	/* The running system's sysfs (device nodes in /dev then belong to it). */
	if (fstat(ctx->root_fd, &st) == 0 && stat("/sys", &live) == 0)
		ctx->live = st.st_dev == live.st_dev && st.st_ino == live.st_ino;

	/* A root without class/ or bus/ is legal (a partial capture): empty sets. */
	err = name_set_load(ctx->root_fd, "class", &ctx->classes);
	if (err < 0 && err != -ENOENT && err != -ENOTDIR)
		return err;
	err = name_set_load(ctx->root_fd, "bus", &ctx->buses);
	if (err < 0 && err != -ENOENT && err != -ENOTDIR)
		return err;
	err = context_find_udev_db(ctx);
	if (err < 0)
		return err;
	*out = TAKE_PTR(ctx);
	return 0;
}

static void set_udev_db(struct sysdev *ctx, int fd, char *path)
{
	if (ctx->udev_db_fd >= 0)
		close(ctx->udev_db_fd);
	if (ctx->udev_data_fd >= 0)
		close(ctx->udev_data_fd);
	free(ctx->udev_db);
	ctx->udev_db_fd = fd_move_above_stdio(fd);
	ctx->udev_data_fd = -1;
	ctx->udev_db = path;
}

/*
 * S/run/udev (a captured or imported tree keeps its database there), else
 * S/../run/udev: /sys gives /run/udev, a system root R gives R/run/udev.
 * Neither: no database, and every answer is sysfs's alone.
 */
int context_find_udev_db(struct sysdev *ctx)
{
	char *path;
	int fd;

	fd = open_below(ctx->root_fd, "run/udev", NULL);
	if (fd >= 0) {
		if (asprintf(&path, "%s/run/udev", strcmp(ctx->root, "/") ? ctx->root : "") < 0) {
			close(fd);
			return -ENOMEM;
		}
		set_udev_db(ctx, fd, path);
		return 0;
	}
	fd = openat(ctx->root_fd, "../run/udev", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		const char *slash = strrchr(ctx->root, '/');
		const char *last = slash ? slash + 1 : ctx->root;
		int r;

		/* "/sys" -> "/run/udev", "/x/sys" -> "/x/run/udev"; "." or ".." kept as given */
		if (!slash)
			r = asprintf(&path, "%s",
				     strcmp(last, "..") ? "run/udev" : "../../run/udev");
		else if (strcmp(last, ".") && strcmp(last, "..") && *last)
			r = asprintf(&path, "%.*s/run/udev", (int)(last - ctx->root) - !!slash,
				     ctx->root);
		else
			r = asprintf(&path, "%s/../run/udev", ctx->root);
		if (r < 0) {
			close(fd);
			return -ENOMEM;
		}
		set_udev_db(ctx, fd, path);
	}
	return 0;
}

_public_ int sysdev_set_udev_db(struct sysdev *ctx, const char *dir)
{
	char *path;
	int fd;

	assert_return(ctx, -EINVAL);
	if (!dir) {
		set_udev_db(ctx, -1, NULL);
		return 0;
	}
	assert_return(*dir, -EINVAL);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	path = strdup(dir);
	if (!path) {
		close(fd);
		return -ENOMEM;
	}
	set_udev_db(ctx, fd, path);
	return 0;
}

_public_ const char *sysdev_get_udev_db(const struct sysdev *ctx)
{
	assert_return(ctx, NULL);
	return ctx->udev_db;
}

_public_ const char *sysdev_get_root(const struct sysdev *ctx)
{
	assert_return(ctx, NULL);
	return ctx->root;
}

_public_ int sysdev_get_root_fd(const struct sysdev *ctx)
{
	assert_return(ctx, -EINVAL);
	return ctx->root_fd;
}

_public_ bool sysdev_is_class_name(const struct sysdev *ctx, const char *name)
{
	assert_return(ctx, false);
	assert_return(name, false);
	return name_set_has(&ctx->classes, name);
}

_public_ bool sysdev_is_bus_name(const struct sysdev *ctx, const char *name)
{
	assert_return(ctx, false);
	assert_return(name, false);
	return name_set_has(&ctx->buses, name);
}

_public_ const char *sysdev_kind_to_string(enum sysdev_kind kind)
{
	static const char *const names[] = {
	    [SYSDEV_KIND_ROOT] = "root",
	    [SYSDEV_KIND_CONTAINER] = "container",
	    [SYSDEV_KIND_DEVICE] = "device",
	    [SYSDEV_KIND_CLASS_DIR] = "class-dir",
	    [SYSDEV_KIND_ATTR_GROUP] = "attr-group",
	    [SYSDEV_KIND_UNKNOWN] = "unknown",
	};

	assert_return((unsigned)kind < ARRAY_SIZE(names), NULL);
	return names[kind];
}

_public_ const char *sysdev_subsystem_kind_to_string(enum sysdev_subsystem_kind kind)
{
	switch (kind) {
	case SYSDEV_SUBSYSTEM_BUS:
		return "bus";
	case SYSDEV_SUBSYSTEM_CLASS:
		return "class";
	default:
		return NULL;
	}
}

_public_ const char *sysdev_placement_to_string(enum sysdev_placement placement)
{
	switch (placement) {
	case SYSDEV_PLACEMENT_VIRTUAL:
		return "virtual";
	case SYSDEV_PLACEMENT_SYSTEM:
		return "system";
	case SYSDEV_PLACEMENT_DEVICES:
		return "devices";
	}
	return NULL;
}
