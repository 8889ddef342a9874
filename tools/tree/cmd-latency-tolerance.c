/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --get-latency-tolerance DEVICE and --set-latency-tolerance VALUE DEVICE. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json-writer.h"

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
		struct jw w;

		jw_init(&w, stdout);
		jw_begin_object(&w);
		jw_member_string(&w, "path", dev_str(dev, sysdev_device_get_devpath));
		jw_key(&w, "pm_qos_latency_tolerance_us");
		if (err == SYSDEV_LT_VALUE)
			jw_int(&w, us);
		else
			jw_string(&w, err == SYSDEV_LT_AUTO ? "auto" : "any");
		jw_end_object(&w);
		putchar('\n');
		jw_done(&w);
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
