/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules of sysdev(7): what each directory under S/devices is. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"
#include "rules.h"

bool rules_class_candidate(const struct dir_facts *f)
{
	return !f->is_root && !f->has_uevent && f->name_is_class &&
	       (f->parent_is_device || f->parent_is_virtual);
}

/* The rules, in the order sysdev(7) gives. */
enum sysdev_rule rules_rule(const struct dir_facts *f)
{
	if (f->is_root)
		return SYSDEV_RULE_ROOT;
	if (f->has_uevent)
		return SYSDEV_RULE_UEVENT;
	/* every rule below looks at the directory's entries, or at what it is not */
	if (f->unreadable)
		return SYSDEV_RULE_UNREADABLE;
	if (rules_class_candidate(f) && (f->empty || f->has_device_child))
		return SYSDEV_RULE_CLASS_DIR;
	if (f->below_device)
		return SYSDEV_RULE_BELOW_DEVICE;
	return SYSDEV_RULE_NO_DEVICE_ABOVE;
}

static const struct {
	const char *name;
	enum sysdev_kind kind;
} rule_table[] = {
    [SYSDEV_RULE_ROOT] = {"root", SYSDEV_KIND_ROOT},
    [SYSDEV_RULE_UEVENT] = {"uevent", SYSDEV_KIND_DEVICE},
    [SYSDEV_RULE_UNREADABLE] = {"unreadable", SYSDEV_KIND_UNKNOWN},
    [SYSDEV_RULE_CLASS_DIR] = {"class-dir", SYSDEV_KIND_CLASS_DIR},
    [SYSDEV_RULE_BELOW_DEVICE] = {"below-device", SYSDEV_KIND_ATTR_GROUP},
    [SYSDEV_RULE_NO_DEVICE_ABOVE] = {"no-device-above", SYSDEV_KIND_CONTAINER},
};

enum sysdev_kind rules_decide(const struct dir_facts *f)
{
	return rule_table[rules_rule(f)].kind;
}

_public_ const char *sysdev_rule_to_string(enum sysdev_rule rule)
{
	if ((unsigned)rule >= ARRAY_SIZE(rule_table))
		return NULL;
	return rule_table[rule].name;
}

bool dir_has_uevent(int fd)
{
	struct stat st;

	return fstatat(fd, "uevent", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

bool child_has_uevent(int dirfd, const char *name)
{
	char path[NAME_MAX + 16];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/uevent", name) >= (int)sizeof(path))
		return false;
	return fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

/* Whether one of the entries of directory @fd is a device directory. */
static bool any_device_child(int fd, struct dir_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (dir_entry_type(fd, &l->v[i]) == DT_DIR && child_has_uevent(fd, l->v[i].name))
			return true;
	return false;
}

int rules_gather(const struct sysdev *ctx, const struct dir_probe *d, struct dir_facts *f)
{
	struct dir_list own = {0};
	int fd, err;

	memset(f, 0, sizeof(*f));
	f->is_root = d->place.is_root;
	f->parent_is_device = d->place.parent_is_device;
	f->parent_is_virtual = d->place.parent_is_virtual;
	f->below_device = d->place.below_device;
	if (f->is_root)
		return 0;
	f->name_is_class = name_set_has(&ctx->classes, d->name);
	f->unreadable = d->error != 0;
	if (d->list && !d->error) {
		struct dir_entry *ue = dir_list_find(d->list, "uevent");

		f->has_uevent = ue && dir_entry_type(d->fd, ue) == DT_REG;
		f->empty = d->list->n == 0;
	} else if (d->fd >= 0) {
		/* read, or searched but not listed (an O_PATH fd): uevent by name */
		f->has_uevent = dir_has_uevent(d->fd);
	} else if (d->parent_fd >= 0) {
		f->has_uevent = child_has_uevent(d->parent_fd, d->name);
	}
	if (!rules_class_candidate(f) || f->unreadable)
		return 0;
	/* a class-named directory: a grouping directory when empty or holding devices */
	if (d->list) {
		f->has_device_child = !f->empty && any_device_child(d->fd, d->list);
		return 0;
	}
	fd = d->fd >= 0 ? d->fd : open_dir_at(d->parent_fd, d->name);
	if (fd < 0)
		return fd;
	err = dir_list_read(
	    &own, fd, d->list_flags | DIR_LIST_UNSORTED | (fd == d->fd ? DIR_LIST_REOPEN : 0));
	if (err == 0) {
		f->empty = own.n == 0;
		f->has_device_child = any_device_child(fd, &own);
	}
	dir_list_free(&own);
	if (fd != d->fd)
		close(fd);
	return err;
}

void ancestry_free(struct ancestry *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	free(a->parent_devpath);
	free(a->parent_dirname);
	a->parent_devpath = NULL;
	a->parent_dirname = NULL;
}

void ancestry_take(struct ancestry *a, char **parent_devpath, char **class_dir)
{
	*parent_devpath = a->parent_devpath;
	a->parent_devpath = NULL;
	if (a->parent_is_class_dir) {
		*class_dir = a->parent_dirname;
		a->parent_dirname = NULL;
	}
}

/*
 * Open @devpath component by component, noting which ancestors are devices.
 * Costs a fstatat per level; used for single lookups, not for the walk.
 */
int ancestry_get(struct sysdev *ctx, const char *devpath, struct ancestry *a)
{
	size_t len = strlen(devpath), pos;
	bool prev_is_device = false, prev_prev_is_device = false;
	int fd;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (!devpath_is_valid(devpath))
		return -EINVAL;
	a->place.is_root = strcmp(devpath, "/devices") == 0;
	fd = open_dir_at(ctx->root_fd, "devices");
	if (fd < 0)
		return fd;
	pos = 8; /* past "/devices" */
	while (pos < len) {
		const char *c = devpath + pos + 1;
		size_t clen = strcspn(c, "/");
		char comp[NAME_MAX + 1];
		bool listable;
		int nfd;

		if (clen > NAME_MAX) {
			close(fd);
			ancestry_free(a);
			return -ENAMETOOLONG;
		}
		memcpy(comp, c, clen);
		comp[clen] = '\0';
		/* the directory we stand in is the parent of the next one */
		prev_prev_is_device = prev_is_device;
		prev_is_device = pos > 8 && dir_has_uevent(fd);
		if (prev_is_device) {
			a->place.below_device = true;
			free(a->parent_devpath);
			a->parent_devpath = strndup(devpath, pos);
			if (!a->parent_devpath) {
				close(fd);
				return -ENOMEM;
			}
		}
		nfd = open_dir_searchable_at(fd, comp, &listable);
		if (nfd < 0) {
			close(fd);
			ancestry_free(a);
			return nfd == -ELOOP ? -ENOTDIR : nfd;
		}
		if (pos + 1 + clen >= len) {
			/* fd is the parent of devpath */
			const char *pname = devpath + pos;
			struct dir_facts pf = {0};

			while (pname > devpath && pname[-1] != '/')
				pname--;
			a->parent_dirname = strndup(pname, (size_t)(devpath + pos - pname));
			a->place.parent_is_device = prev_is_device;
			a->place.parent_is_virtual =
			    strncmp(devpath, "/devices/virtual", pos) == 0 && pos == 16;
			if (!a->parent_dirname) {
				close(fd);
				close(nfd);
				ancestry_free(a);
				return -ENOMEM;
			}
			/* the parent is a class grouping dir when it is a candidate */
			pf.is_root = pos == 8;
			pf.has_uevent = prev_is_device;
			pf.name_is_class = name_set_has(&ctx->classes, a->parent_dirname);
			pf.parent_is_device = prev_prev_is_device;
			pf.parent_is_virtual = pos > 16 &&
					       strncmp(devpath, "/devices/virtual/", 17) == 0 &&
					       memchr(devpath + 17, '/', pos - 17) == NULL;
			a->parent_is_class_dir = rules_class_candidate(&pf);
		}
		close(fd);
		fd = nfd;
		pos += 1 + clen;
	}
	a->fd = fd;
	return 0;
}
