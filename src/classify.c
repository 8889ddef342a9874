/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev_classify() and sysdev_explain(): the rules (rules.c) for one devpath. */
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

_public_ int sysdev_explain(struct sysdev *ctx, const char *devpath, char *buf, size_t size)
{
	struct dir_facts f;
	struct ancestry a;
	enum sysdev_kind kind;
	const char *name;
	int err;

	if (!ctx || !devpath || !buf || size == 0)
		return -EINVAL;
	err = facts_for(ctx, devpath, &f, &a);
	if (err < 0) {
		ancestry_free(&a);
		return err;
	}
	kind = rules_decide(&f);
	name = strrchr(devpath, '/') + 1;
	switch (kind) {
	case SYSDEV_KIND_ROOT:
		snprintf(buf, size, "root: this is S/devices itself, the top of the device tree");
		break;
	case SYSDEV_KIND_DEVICE:
		snprintf(buf, size,
			 "device: it holds a regular file named 'uevent' (every directory with a "
			 "uevent file represents a device); %s%s",
			 a.parent_devpath ? "its parent device is " : "it has no parent device",
			 a.parent_devpath ? a.parent_devpath : "");
		break;
	case SYSDEV_KIND_CLASS_DIR:
		snprintf(buf, size,
			 "class-dir: not a device, named after the class '%s' (an entry of S/class), "
			 "its parent is %s, and it %s: a class grouping directory",
			 name, f.parent_is_device ? "a device" : "S/devices/virtual",
			 f.empty ? "is empty" : "holds device directories");
		break;
	case SYSDEV_KIND_ATTR_GROUP:
		if (rules_class_candidate(&f))
			snprintf(buf, size,
				 "attr-group: named after class '%s' but holds no device directory "
				 "and is not empty, so not a grouping directory; it lies below device "
				 "%s",
				 name, a.parent_devpath ? a.parent_devpath : "?");
		else if (f.name_is_class)
			snprintf(buf, size,
				 "attr-group: named after class '%s' but its parent is neither a "
				 "device nor S/devices/virtual; it lies below device %s",
				 name, a.parent_devpath ? a.parent_devpath : "?");
		else
			snprintf(buf, size,
				 "attr-group: no uevent file and not a class name; it lies below "
				 "device %s, so it groups attributes (like power/ or id/)",
				 a.parent_devpath ? a.parent_devpath : "?");
		break;
	case SYSDEV_KIND_CONTAINER:
		snprintf(buf, size,
			 "container: no uevent file, not a class grouping directory, and no device "
			 "above it: a place for parentless devices (like virtual/ or system/)");
		break;
	default:
		buf[0] = '\0';
	}
	ancestry_free(&a);
	return (int)kind;
}
