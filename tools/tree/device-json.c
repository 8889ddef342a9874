/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's fields and power in JSON, written once for the tree and --parents. */
#include "cli.h"
#include "json-writer.h"

void device_fields_jw(struct jw *w, struct sysdev_device *dev, const char *const *module)
{
	enum sysdev_placement placement;
	char num[32];

	jw_member_string(w, "subsystem", dev_str(dev, sysdev_device_get_subsystem));
	jw_member_string(w, "subsystem_kind", dev_subsystem_kind(dev));
	jw_member_string(w, "driver", dev_str(dev, sysdev_device_get_driver));
	if (module)
		jw_member_string(w, "module", *module);
	jw_member_string(w, "parent", dev_parent_devpath(dev));
	jw_member_string(w, "class_dir", dev_str(dev, sysdev_device_get_class_dir));
	jw_member_string(w, "placement",
			 sysdev_device_get_placement(dev, &placement) >= 0
			     ? sysdev_placement_to_string(placement)
			     : NULL);
	jw_member_string(w, "devnum", dev_devnum(dev, num, sizeof(num)));
	jw_member_string(w, "devtype", dev_str(dev, sysdev_device_get_devtype));
	jw_member_string(w, "devname", dev_str(dev, sysdev_device_get_devname));
}

void device_power_jw(struct jw *w, struct sysdev_device *dev)
{
	struct sysdev_power *p;

	if (oom_check(sysdev_device_get_power(dev, &p)) < 0) {
		power_jw(w, NULL);
	} else {
		power_jw(w, p);
		sysdev_power_unref(p);
	}
}
