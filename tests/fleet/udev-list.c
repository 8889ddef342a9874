/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * List what libudev sees (run inside umockdev-run's testbed by the fleet
 * tests): per device, lines "D devpath", "S subsystem", "R driver",
 * "N devnode" ("-" when absent) and "E KEY=VALUE" per property.
 */
#include <libudev.h>
#include <stdio.h>

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

int main(void)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e;
	struct udev_list_entry *entry, *p;

	if (!udev)
		return 1;
	e = udev_enumerate_new(udev);
	if (!e || udev_enumerate_scan_devices(e) < 0)
		return 1;
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *d =
		    udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));

		if (!d)
			continue;
		printf("D %s\nS %s\nR %s\nN %s\n", udev_device_get_devpath(d),
		       or_dash(udev_device_get_subsystem(d)), or_dash(udev_device_get_driver(d)),
		       or_dash(udev_device_get_devnode(d)));
		udev_list_entry_foreach(p, udev_device_get_properties_list_entry(d))
		    printf("E %s=%s\n", udev_list_entry_get_name(p),
			   or_dash(udev_list_entry_get_value(p)));
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return fflush(stdout) ? 1 : 0;
}
