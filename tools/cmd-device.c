/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Questions about one device: --parents, --explain, latency tolerance. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "names.h"

/* With --attrs: the device's attributes, as `udevadm info -a` shows ATTR{}. */
static void device_attributes(const struct options *o, struct sysdev_device *dev)
{
	const char *name;
	char buf[ATTR_PAGE + 1];

	if (o->json)
		fputs(", \"attributes\": {", stdout);
	for (size_t i = 0; sysdev_device_get_attribute_at(dev, i, &name) == 0; i++) {
		ssize_t len = sysdev_device_read_attribute(dev, name, buf, sizeof(buf));

		if (o->json) {
			fputs(i ? ", " : "", stdout);
			fput_json_string(stdout, name);
			fputs(": ", stdout);
			attr_value_json(stdout, buf, len);
			continue;
		}
		fputs("          @", stdout);
		fput_text(stdout, name);
		attr_value_text(stdout, buf, len);
		fputc('\n', stdout);
	}
	if (o->json)
		fputs("}", stdout);
}

static void device_line(const struct options *o, struct sysdev_device *dev, bool first,
			struct names *names)
{
	const char *sub = dev_str(dev, sysdev_device_get_subsystem);
	const char *drv = dev_str(dev, sysdev_device_get_driver);
	const char *devname = dev_str(dev, sysdev_device_get_devname);
	const char *module = NULL;
	enum sysdev_placement placement;
	char num[32];

	/* the driver's kernel module (its module link), as the MODULE column; none when built in */
	if (drv && names)
		names_module(names, dev, &module);

	if (o->json) {
		fputs(first ? "\n    {\"path\": " : ",\n    {\"path\": ", stdout);
		fput_json_string(stdout, dev_str(dev, sysdev_device_get_devpath));
		fputs(", \"name\": ", stdout);
		fput_json_string(stdout, dev_str(dev, sysdev_device_get_name));
		fputs(", \"subsystem\": ", stdout);
		fput_json_string(stdout, sub);
		fputs(", \"subsystem_kind\": ", stdout);
		fput_json_string(stdout, dev_subsystem_kind(dev));
		fputs(", \"driver\": ", stdout);
		fput_json_string(stdout, drv);
		fputs(", \"module\": ", stdout);
		fput_json_string(stdout, module);
		fputs(", \"parent\": ", stdout);
		fput_json_string(stdout, dev_parent_devpath(dev));
		fputs(", \"class_dir\": ", stdout);
		fput_json_string(stdout, dev_str(dev, sysdev_device_get_class_dir));
		fputs(", \"placement\": ", stdout);
		fput_json_string(stdout, sysdev_device_get_placement(dev, &placement) >= 0
					     ? sysdev_placement_to_string(placement)
					     : NULL);
		fputs(", \"devnum\": ", stdout);
		fput_json_string(stdout, dev_devnum(dev, num, sizeof(num)));
		fputs(", \"devtype\": ", stdout);
		fput_json_string(stdout, dev_str(dev, sysdev_device_get_devtype));
		fputs(", \"devname\": ", stdout);
		fput_json_string(stdout, devname);
		if (o->attrs)
			device_attributes(o, dev);
		if (o->power) {
			struct sysdev_power *p;

			if (sysdev_device_get_power(dev, &p) < 0) {
				fputs(", \"power\": null", stdout);
			} else {
				power_json(stdout, p);
				sysdev_power_unref(p);
			}
		}
		fputs("}", stdout);
		return;
	}
	fputs(first ? "  device  " : "  parent  ", stdout);
	fput_text(stdout, dev_str(dev, sysdev_device_get_devpath));
	fputc('\n', stdout);
	fputs("          subsystem: ", stdout);
	if (sub) {
		fput_text(stdout, sub);
		fprintf(stdout, " (%s)", dev_subsystem_kind(dev) ?: "neither bus nor class");
	} else {
		fputs("none (no subsystem link)", stdout);
	}
	fputs("  driver: ", stdout);
	fput_text(stdout, drv ? drv : "none");
	if (module) {
		fputs("  module: ", stdout);
		fput_text(stdout, module);
	}
	if (dev_str(dev, sysdev_device_get_class_dir)) {
		fputs("  in class dir: ", stdout);
		fput_text(stdout, dev_str(dev, sysdev_device_get_class_dir));
	}
	if (devname) {
		fputs("  node: /dev/", stdout);
		fput_text(stdout, devname);
	}
	fputc('\n', stdout);
	if (o->power) {
		struct sysdev_power *p;

		fputs("        ", stdout);
		if (sysdev_device_get_power(dev, &p) < 0) {
			fputs("  power: none (no power/ group)", stdout);
		} else {
			power_text(stdout, p);
			sysdev_power_unref(p);
		}
		fputc('\n', stdout);
	}
	if (o->attrs)
		device_attributes(o, dev);
}

int cmd_parents(struct sysdev *ctx, const struct options *o)
{
	struct sysdev_device *dev = open_device_or_warn(ctx, o->parents), *parent;
	struct names *names = NULL;
	bool first = true;
	int err;

	if (!dev)
		return EXIT_RUNTIME;
	if (names_new(ctx, &names) < 0) {
		warnx_(NULL, "%s", error_words(-ENOMEM));
		sysdev_device_unref(dev);
		return EXIT_RUNTIME;
	}
	if (o->json) {
		fputs("{\n  \"sysfs\": ", stdout);
		fput_json_string(stdout, sysdev_get_root(ctx));
		fputs(",\n  \"chain\": [", stdout);
	}
	/* like `udevadm info -a`: the device, then each parent up to the top */
	while (dev) {
		device_line(o, dev, first, names);
		first = false;
		err = sysdev_device_get_parent(dev, &parent);
		if (err < 0 && err != -ENOENT) {
			warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
			       "its parent device: %s", error_words(err));
			sysdev_device_unref(dev);
			names_free(names);
			return EXIT_RUNTIME;
		}
		/* the parent is lent by its child: kept before the child goes */
		parent = err < 0 ? NULL : sysdev_device_ref(parent);
		sysdev_device_unref(dev);
		dev = parent;
	}
	names_free(names);
	if (o->json)
		fputs("\n  ]\n}\n", stdout);
	return 0;
}

/* The reason in words: which rule decided, and the facts it looked at. */
static void reason_words(const char *devpath, struct sysdev_reason *r, char *buf, size_t size)
{
	const char *name = strrchr(devpath, '/') + 1;
	struct sysdev_device *parent = NULL;
	const char *parent_devpath = sysdev_reason_get_parent(r, &parent) >= 0
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

int cmd_explain(struct sysdev *ctx, const struct options *o)
{
	struct sysdev_reason *r;
	char reason[1024];
	char *devpath = NULL;
	int kind;

	kind = resolve_start(ctx, o->explain, &devpath);
	if (kind < 0)
		return EXIT_RUNTIME;
	kind = sysdev_explain(ctx, devpath, &r);
	if (kind < 0) {
		warnx_(o->explain, "%s", error_words(kind));
		free(devpath);
		return EXIT_RUNTIME;
	}
	reason_words(devpath, r, reason, sizeof(reason));
	sysdev_reason_unref(r);
	if (o->json) {
		fputs("{\"path\": ", stdout);
		fput_json_string(stdout, devpath);
		fputs(", \"kind\": ", stdout);
		fput_json_string(stdout, sysdev_kind_to_string(kind));
		fputs(", \"reason\": ", stdout);
		fput_json_string(stdout, reason);
		fputs("}\n", stdout);
	} else {
		fput_text(stdout, devpath);
		fputs(": ", stdout);
		fput_text(stdout, reason);
		fputc('\n', stdout);
	}
	free(devpath);
	return 0;
}

int cmd_latency_tolerance(struct sysdev *ctx, const struct options *o)
{
	struct sysdev_device *dev;
	int32_t us;
	int err;

	dev = open_device_or_warn(ctx, o->lt_device);
	if (!dev)
		return EXIT_RUNTIME;
	if (o->set_lt_value)
		err = sysdev_device_set_latency_tolerance(dev, o->set_lt_value);
	else
		err = sysdev_device_get_latency_tolerance(dev, &us);
	if (err == -ENOENT && !dev_str(dev, sysdev_device_get_driver)) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "this device has no power/pm_qos_latency_tolerance_us: it has no driver, "
		       "and only a driver can provide latency tolerance (ENOENT)");
	} else if (err == -ENOENT) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "this device has no power/pm_qos_latency_tolerance_us: its driver '%s' does "
		       "not provide latency tolerance (ENOENT)",
		       dev_str(dev, sysdev_device_get_driver));
	} else if (err == -EBADFD) {
		/* the same words for get and set: the cause is the file, not the action */
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "power/pm_qos_latency_tolerance_us is not a regular file (a directory, FIFO "
		       "or device node): not a latency-tolerance attribute");
	} else if (err == -EMLINK) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "power/pm_qos_latency_tolerance_us has more than one hard link: it may be a "
		       "file outside the tree, never written (EMLINK)");
	} else if (err == -EINVAL && o->set_lt_value) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "the kernel refused latency tolerance '%s' (EINVAL)", o->set_lt_value);
	} else if (err == -EACCES || err == -EPERM) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "not allowed to %s power/pm_qos_latency_tolerance_us: %s",
		       o->set_lt_value ? "write" : "read", error_words(err));
	} else if (err == -EBADMSG) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "power/pm_qos_latency_tolerance_us holds neither auto, any nor a number "
		       "(EBADMSG)");
	} else if (err < 0) {
		warnx_(syspath_of(ctx, dev_str(dev, sysdev_device_get_devpath)),
		       "power/pm_qos_latency_tolerance_us: %s", error_words(err));
	} else if (!o->set_lt_value && o->json) {
		fputs("{\"path\": ", stdout);
		fput_json_string(stdout, dev_str(dev, sysdev_device_get_devpath));
		fputs(", \"pm_qos_latency_tolerance_us\": ", stdout);
		if (err == SYSDEV_LT_VALUE)
			printf("%d}\n", us);
		else
			printf("\"%s\"}\n", err == SYSDEV_LT_AUTO ? "auto" : "any");
	} else if (!o->set_lt_value) {
		if (err == SYSDEV_LT_AUTO)
			puts("auto");
		else if (err == SYSDEV_LT_ANY)
			puts("any");
		else
			printf("%d\n", us);
	}
	sysdev_device_unref(dev);
	return err < 0 ? EXIT_RUNTIME : 0;
}
