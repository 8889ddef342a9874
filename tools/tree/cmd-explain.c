/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --explain DIR: which rule makes DIR the kind it is, in words. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json-writer.h"

/* The reason in words: which rule decided, and the facts it looked at. */
static void reason_words(const char *devpath, struct sysdev_reason *r, char *buf, size_t size)
{
	const char *name = strrchr(devpath, '/') + 1;
	struct sysdev_device *parent = NULL;
	const char *parent_devpath = oom_check(sysdev_reason_get_parent(r, &parent)) >= 0
					 ? dev_str(parent, sysdev_device_get_devpath)
					 : NULL;
	const char *above = parent_devpath ? parent_devpath : "?";
	bool parent_is_device = sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_DEVICE);
	bool parent_is_virtual = sysdev_reason_has_fact(r, SYSDEV_FACT_PARENT_IS_VIRTUAL);
	bool name_is_class = sysdev_reason_has_fact(r, SYSDEV_FACT_NAME_IS_CLASS);

	switch (sysdev_reason_get_rule(r)) {
	case SYSDEV_RULE_ROOT:
		snprintf(buf, size, "root: this is S/devices itself, the top of the device tree");
		break;
	case SYSDEV_RULE_UEVENT:
		snprintf(buf, size,
			 "device: it holds a regular file named 'uevent' (every directory with a "
			 "uevent file represents a device); %s%s",
			 parent_devpath ? "its parent device is " : "it has no parent device",
			 parent_devpath ? parent_devpath : "");
		break;
	case SYSDEV_RULE_CLASS_DIR:
		snprintf(
		    buf, size,
		    "class-dir: not a device, named after the class '%s' (an entry of S/class), "
		    "its parent is %s, and it %s: a class grouping directory",
		    name, parent_is_device ? "a device" : "S/devices/virtual",
		    sysdev_reason_has_fact(r, SYSDEV_FACT_EMPTY) ? "is empty"
								 : "holds device directories");
		break;
	case SYSDEV_RULE_BELOW_DEVICE:
		if (name_is_class && (parent_is_device || parent_is_virtual))
			snprintf(
			    buf, size,
			    "attr-group: named after class '%s' but holds no device directory "
			    "and is not empty, so not a grouping directory; it lies below device "
			    "%s",
			    name, above);
		else if (name_is_class)
			snprintf(buf, size,
				 "attr-group: named after class '%s' but its parent is neither a "
				 "device nor S/devices/virtual; it lies below device %s",
				 name, above);
		else
			snprintf(buf, size,
				 "attr-group: no uevent file and not a class name; it lies below "
				 "device %s, so it groups attributes (like power/ or id/)",
				 above);
		break;
	case SYSDEV_RULE_NO_DEVICE_ABOVE:
		snprintf(buf, size,
			 "container: no uevent file, not a class grouping directory, and no device "
			 "above it: a place for parentless devices (like virtual/ or system/)");
		break;
	case SYSDEV_RULE_UNREADABLE:
		snprintf(buf, size,
			 "unknown: it could not be listed and no uevent file was seen in it");
		break;
	default:
		buf[0] = '\0';
	}
}

/* The facts of enum sysdev_fact, by name (JSON members). */
static const char *const fact_names[_SYSDEV_FACT_MAX] = {
    [SYSDEV_FACT_HAS_UEVENT] = "has_uevent",
    [SYSDEV_FACT_NAME_IS_CLASS] = "name_is_class",
    [SYSDEV_FACT_PARENT_IS_DEVICE] = "parent_is_device",
    [SYSDEV_FACT_PARENT_IS_VIRTUAL] = "parent_is_virtual",
    [SYSDEV_FACT_BELOW_DEVICE] = "below_device",
    [SYSDEV_FACT_EMPTY] = "empty",
    [SYSDEV_FACT_HAS_DEVICE_CHILD] = "has_device_child",
    [SYSDEV_FACT_UNREADABLE] = "unreadable",
};

static int explain_one(struct sysdev *ctx, const struct options *o, const char *arg)
{
	struct sysdev_reason *r;
	char reason[1024];
	char *devpath = NULL;
	int kind;

	kind = resolve_start(ctx, arg, &devpath);
	if (kind < 0)
		return EXIT_RUNTIME;
	kind = sysdev_explain(ctx, devpath, &r);
	if (kind < 0) {
		warnx_(arg, "%s", error_words(kind));
		free(devpath);
		return EXIT_RUNTIME;
	}
	reason_words(devpath, r, reason, sizeof(reason));
	if (o->json) {
		struct sysdev_device *parent = NULL;
		struct jw w;

		jw_init(&w, stdout);
		jw_begin_object(&w);
		jw_member_string(&w, "path", devpath);
		jw_member_string(&w, "kind", sysdev_kind_to_string(kind));
		jw_member_string(&w, "reason", reason);
		/* what the library decided from: the rule, its facts, the device above */
		jw_member_string(&w, "rule", sysdev_rule_to_string(sysdev_reason_get_rule(r)));
		jw_key(&w, "facts");
		jw_begin_object(&w);
		for (int f = 0; f < _SYSDEV_FACT_MAX; f++) {
			jw_key(&w, fact_names[f]);
			jw_bool(&w, sysdev_reason_has_fact(r, (enum sysdev_fact)f));
		}
		jw_end_object(&w);
		jw_member_string(&w, "parent",
				 oom_check(sysdev_reason_get_parent(r, &parent)) >= 0
				     ? dev_str(parent, sysdev_device_get_devpath)
				     : NULL);
		jw_end_object(&w);
		putchar('\n');
		jw_done(&w);
	} else {
		fput_text(stdout, devpath);
		fputs(": ", stdout);
		fput_text(stdout, reason);
		fputc('\n', stdout);
	}
	sysdev_reason_unref(r);
	free(devpath);
	return 0;
}

/* Each DIR in turn (JSON lines with several); exit 1 when any could not be explained. */
int cmd_explain(struct sysdev *ctx, const struct options *o)
{
	int ret = 0;

	for (size_t i = 0; i <= o->n_more_devices; i++)
		if (explain_one(ctx, o, i ? o->more_devices[i - 1] : o->explain))
			ret = EXIT_RUNTIME;
	return ret;
}
