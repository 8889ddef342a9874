/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysdev_device_new(): every DEVICE form of sysdev-tree(1) (syspath, devpath,
 * SUBSYSTEM:NAME, /dev/NODE, udev's device ids b8:0, c1:3, n1, +SUBSYSTEM:NAME)
 * on any string, against a small fixture tree
 * built at start: real devices, class and bus links, S/dev entries, link
 * loops, links that leave the root.  An input that starts with byte 0x01 has
 * it replaced by the fixture's root, to reach the "ROOT/devices/..." form.
 *
 * Invariants: the result is 0 or one of the documented errors; on success
 * the devpath is a valid devpath below /devices naming a directory with a
 * regular uevent inside the root, the name is its last component, and the
 * parent chain ends, each parent a prefix of its child.
 */
#include <limits.h>

#include "fuzz-common.h"
#include "libsysdev.h"

static struct sysdev *ctx;
static char *root;
static int rootfd = -1;

static void mk(const char *path, const char *content)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if (!content) {
		mkdir(p, 0755);
		return;
	}
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, content, strlen(content)) < 0)
		abort();
	close(fd);
}

static void ln(const char *path, const char *target)
{
	char p[PATH_MAX];

	mk(path, "");
	snprintf(p, sizeof(p), "%s/%s", root, path);
	unlink(p);
	if (symlink(target, p) < 0)
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	root = strdup(fuzz_mkdtemp("device"));
	mk("devices/platform/uevent", "");
	mk("devices/platform/serial8250/uevent", "DRIVER=serial8250\n");
	ln("devices/platform/serial8250/subsystem", "../../../bus/platform");
	ln("devices/platform/serial8250/driver", "../../../bus/platform/drivers/serial8250");
	mk("devices/platform/serial8250/tty/ttyS0/uevent", "MAJOR=4\nMINOR=64\nDEVNAME=ttyS0\n");
	mk("devices/platform/serial8250/tty/ttyS0/dev", "4:64\n");
	ln("devices/platform/serial8250/tty/ttyS0/subsystem", "../../../../../class/tty");
	mk("devices/platform/serial8250/power/pm_qos_latency_tolerance_us", "auto\n");
	mk("devices/platform/noattr/uevent", "");
	ln("devices/platform/linkdir", "..");
	ln("devices/platform/loop", "loop");
	mk("devices/pci0000:00/0000:00:02.0/uevent", "PCI_ID=1AF4:1001\n");
	mk("devices/pci0000:00/0000:00:02.0/virtio1/uevent", "");
	mk("devices/pci0000:00/0000:00:02.0/virtio1/block/vda/uevent",
	   "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n");
	mk("devices/pci0000:00/0000:00:02.0/virtio1/block/vda/dev", "254:0\n");
	mk("devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1/uevent",
	   "MAJOR=254\nMINOR=1\nDEVNAME=vda1\nDEVTYPE=partition\n");
	mk("devices/virtual/net/lo/uevent", "INTERFACE=lo\nIFINDEX=1\n");
	mk("devices/virtual/net/lo/ifindex", "1\n");
	mk("devices/virtual/net/lo/power", NULL);
	mk("devices/system/cpu/cpu0/uevent", "");
	ln("class/net/lo", "../../devices/virtual/net/lo");
	ln("class/block/vda", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
	ln("class/block/vda1", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1");
	ln("class/tty/ttyS0", "../../devices/platform/serial8250/tty/ttyS0");
	ln("class/loop/a", "b");
	ln("class/loop/b", "a");
	ln("class/loop/self", "self");
	ln("class/esc/out", "/etc");
	ln("class/esc/up", "../../../../../../../../../..");
	ln("class/esc/sysabs", "/sys/devices/platform/serial8250");
	ln("class/esc/dangling", "../../devices/nowhere");
	ln("bus/platform/devices/serial8250", "../../../devices/platform/serial8250");
	ln("bus/platform/devices/cycle", "../devices");
	mk("bus/platform/drivers/serial8250", NULL);
	ln("bus/cpu/devices/cpu0", "../../../devices/system/cpu/cpu0");
	ln("dev/block/254:0", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
	ln("dev/block/254:1", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1");
	ln("dev/char/4:64", "../../devices/platform/serial8250/tty/ttyS0");
	ln("dev/char/1:1", "1:1");
	ln("dev/char/1:2", "/etc");
	if (sysdev_new(root, &ctx) < 0)
		abort();
	rootfd = sysdev_get_root_fd(ctx);
	return 0;
}

static bool devpath_ok(const char *p)
{
	if (strncmp(p, "/devices/", 9) != 0)
		return false;
	for (const char *s = p; *s; s++)
		if (*s == '/' && (s[1] == '/' || s[1] == '\0' ||
				  (s[1] == '.' && (s[2] == '/' || s[2] == '\0')) ||
				  (s[1] == '.' && s[2] == '.' && (s[3] == '/' || s[3] == '\0'))))
			return false;
	return true;
}

static void check_device(struct sysdev_device *dev)
{
	const char *devpath = NULL, *name = NULL;
	char path[PATH_MAX + 16];
	struct sysdev_device *cur = sysdev_device_ref(dev), *parent;
	struct sysdev_power *p = NULL;
	struct stat st;
	char buf[256];
	int depth = 0;

	FUZZ_ASSERT(sysdev_device_get_devpath(dev, &devpath) == 0);
	FUZZ_ASSERT(sysdev_device_get_name(dev, &name) == 0);
	FUZZ_ASSERT(devpath && devpath_ok(devpath));
	FUZZ_ASSERT(name && strcmp(name, strrchr(devpath, '/') + 1) == 0);
	snprintf(path, sizeof(path), "%s/uevent", devpath + 1);
	FUZZ_ASSERT(fstatat(rootfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode));
	while (sysdev_device_get_parent(cur, &parent) == 0) {
		const char *pp = NULL, *cp = NULL;

		FUZZ_ASSERT(sysdev_device_get_devpath(parent, &pp) == 0);
		FUZZ_ASSERT(sysdev_device_get_devpath(cur, &cp) == 0);
		FUZZ_ASSERT(strlen(pp) < strlen(cp) && strncmp(pp, cp, strlen(pp)) == 0 &&
			    cp[strlen(pp)] == '/');
		/* the parent is lent by its child: kept before the child goes */
		sysdev_device_ref(parent);
		sysdev_device_unref(cur);
		cur = parent;
		FUZZ_ASSERT(++depth < 64);
	}
	sysdev_device_unref(cur);
	/* the accessors a caller would use next */
	const char *attr;
	char *link;

	if (sysdev_device_get_link(dev, "subsystem", &link) == 0)
		free(link);
	if (sysdev_device_get_link(dev, "driver", &link) == 0)
		free(link);
	for (size_t i = 0; sysdev_device_get_attribute_at(dev, i, &attr) == 0; i++)
		(void)sysdev_device_read_attribute(dev, attr, buf, sizeof(buf));
	(void)sysdev_device_get_group_at(dev, 0, &attr);
	if (sysdev_device_get_power(dev, &p) == 0)
		sysdev_power_unref(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sysdev_device *dev = NULL;
	char *spec;
	int err;

	if (size > 8192)
		return 0;
	if (size > 0 && data[0] == 0x01) {
		size_t rlen = strlen(root);

		spec = malloc(rlen + size);
		FUZZ_ASSERT(spec);
		memcpy(spec, root, rlen);
		memcpy(spec + rlen, data + 1, size - 1);
		spec[rlen + size - 1] = '\0';
	} else {
		spec = fuzz_strndup(data, size);
	}
	err = sysdev_device_new(ctx, spec, &dev);
	if (err == 0) {
		FUZZ_ASSERT(dev);
		check_device(dev);
		sysdev_device_unref(dev);
	} else {
		FUZZ_ASSERT(!dev);
		FUZZ_ASSERT(err == -ENOENT || err == -ENODEV || err == -EXDEV || err == -EINVAL ||
			    err == -ELOOP || err == -ENAMETOOLONG);
	}
	/* the same text as a devpath */
	err = sysdev_device_new_from_devpath(ctx, spec, &dev);
	if (err == 0) {
		check_device(dev);
		sysdev_device_unref(dev);
	}
	free(spec);
	return 0;
}
