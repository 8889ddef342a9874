/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev_classify() and sysdev_explain(): the rules (rules.c) for one devpath. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"
#include "rules.h"

/* The facts about @devpath, looked up from the root down. */
static int facts_for(struct sysdev *ctx, const char *devpath, struct dir_facts *f,
		     struct ancestry *a)
{
	struct dir_probe d = {.parent_fd = -1};
	int err;

	memset(f, 0, sizeof(*f));
	err = ancestry_get(ctx, devpath, a);
	if (err < 0)
		return err;
	d.name = strrchr(devpath, '/') + 1;
	d.place = a->place;
	d.fd = a->fd;
	return rules_gather(ctx, &d, f);
}

_public_ int sysdev_classify(struct sysdev *ctx, const char *devpath)
{
	struct dir_facts f;
	struct ancestry a;
	int err;

	if (!ctx || !devpath)
		return -EINVAL;
	err = facts_for(ctx, devpath, &f, &a);
	ancestry_free(&a);
	if (err < 0)
		return err;
	return (int)rules_decide(&f);
}

_public_ int sysdev_explain(struct sysdev *ctx, const char *devpath, struct sysdev_reason *reason)
{
	struct dir_facts f;
	struct ancestry a;
	int err;

	if (!ctx || !devpath || !reason)
		return -EINVAL;
	memset(reason, 0, sizeof(*reason));
	err = facts_for(ctx, devpath, &f, &a);
	if (err < 0) {
		ancestry_free(&a);
		return err;
	}
	reason->rule = rules_rule(&f);
	reason->kind = rules_decide(&f);
	reason->has_uevent = f.has_uevent;
	reason->name_is_class = f.name_is_class;
	reason->parent_is_device = f.parent_is_device;
	reason->parent_is_virtual = f.parent_is_virtual;
	reason->below_device = f.below_device;
	reason->empty = f.empty;
	reason->has_device_child = f.has_device_child;
	reason->unreadable = f.unreadable;
	reason->parent_devpath = a.parent_devpath;
	a.parent_devpath = NULL;
	ancestry_free(&a);
	return (int)reason->kind;
}

_public_ void sysdev_reason_clear(struct sysdev_reason *reason)
{
	if (!reason)
		return;
	free(reason->parent_devpath);
	memset(reason, 0, sizeof(*reason));
}
