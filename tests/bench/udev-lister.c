/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The benchmark's reference for sysdev-tree's filtered lists: a small libudev
 * lister, as a script author would write it: DEVPATH DEVNAME DRIVER of every
 * device of the subsystems named (every device without one).
 */
#include <libudev.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e = udev ? udev_enumerate_new(udev) : NULL;
	struct udev_list_entry *item;

	if (!e)
		return 1;
	for (int i = 1; i < argc; i++)
		udev_enumerate_add_match_subsystem(e, argv[i]);
	if (udev_enumerate_scan_devices(e) < 0)
		return 1;
	udev_list_entry_foreach(item, udev_enumerate_get_list_entry(e))
	{
		struct udev_device *d =
		    udev_device_new_from_syspath(udev, udev_list_entry_get_name(item));
		const char *node, *driver;

		if (!d)
			continue;
		node = udev_device_get_devnode(d);
		driver = udev_device_get_driver(d);
		printf("%s %s %s\n", udev_device_get_devpath(d), node ? node : "",
		       driver ? driver : "");
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	return 0;
}
