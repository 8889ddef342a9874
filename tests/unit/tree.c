/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"

static void die(const char *what, const char *path)
{
	fprintf(stderr, "tree: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

char *tree_new(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path;

	if (asprintf(&path, "%s/sysdev-unit-XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		abort();
	if (!mkdtemp(path))
		die("mkdtemp", path);
	tree_dir(path, "devices/");
	return path;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void tree_free(char *root)
{
	nftw(root, rm_one, 64, FTW_DEPTH | FTW_PHYS);
	free(root);
}

static void mkparents(const char *full)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", full);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			die("mkdir", buf);
		*p = '/';
	}
}

void tree_dir(const char *root, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s/%s%s", root, path,
		 path[strlen(path) - 1] == '/' ? "" : "/");
	mkparents(full);
}

void tree_file(const char *root, const char *path, const char *content)
{
	char full[PATH_MAX];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	mkparents(full);
	f = fopen(full, "w");
	if (!f)
		die("fopen", full);
	fputs(content, f);
	fclose(f);
}

void tree_link(const char *root, const char *path, const char *target)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s/%s", root, path);
	mkparents(full);
	if (symlink(target, full) < 0)
		die("symlink", full);
}

char *tree_read(const char *root, const char *path)
{
	char full[PATH_MAX], *buf = calloc(1, 65536);
	int fd;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	fd = open(full, O_RDONLY);
	if (fd < 0)
		die("open", full);
	if (read(fd, buf, 65535) < 0)
		die("read", full);
	close(fd);
	return buf;
}

/* "../" repeated once per component of @devpath's directory, to reach the root */
static void up_to_root(const char *devpath, char *out, size_t size)
{
	out[0] = '\0';
	for (const char *p = devpath + 1; *p; p++)
		if (*p == '/')
			strncat(out, "../", size - strlen(out) - 1);
	/* devpath "/devices/x" has one '/', its dir is 2 below the root */
	strncat(out, "../", size - strlen(out) - 1);
}

void tree_device(const char *root, const char *devpath, const char *subsystem, const char *driver,
		 const char *uevent)
{
	char path[PATH_MAX], target[PATH_MAX], up[PATH_MAX];

	snprintf(path, sizeof(path), "%s/uevent", devpath + 1);
	tree_file(root, path, uevent ? uevent : "");
	snprintf(path, sizeof(path), "%s/power/runtime_status", devpath + 1);
	tree_file(root, path, "unsupported\n");
	up_to_root(devpath, up, sizeof(up));
	if (subsystem) {
		const char *colon = strchr(subsystem, ':');
		const char *name = colon + 1;
		bool bus = strncmp(subsystem, "bus:", 4) == 0;
		char entry[PATH_MAX];

		snprintf(path, sizeof(path), "%s/subsystem", devpath + 1);
		snprintf(target, sizeof(target), "%s%s/%s", up, bus ? "bus" : "class", name);
		tree_link(root, path, target);
		/* and the subsystem's list entry pointing back */
		const char *base = strrchr(devpath, '/') + 1;

		if (bus)
			snprintf(entry, sizeof(entry), "bus/%s/devices/%s", name, base);
		else
			snprintf(entry, sizeof(entry), "class/%s/%s", name, base);
		snprintf(target, sizeof(target), "%s%s", bus ? "../../../" : "../../", devpath + 1);
		tree_link(root, entry, target);
	}
	if (driver) {
		const char *colon = subsystem ? strchr(subsystem, ':') : NULL;

		snprintf(path, sizeof(path), "%s/driver", devpath + 1);
		snprintf(target, sizeof(target), "%sbus/%s/drivers/%s", up,
			 colon ? colon + 1 : "none", driver);
		tree_link(root, path, target);
		snprintf(path, sizeof(path), "bus/%s/drivers/%s/", colon ? colon + 1 : "none",
			 driver);
		tree_dir(root, path);
	}
}

void tree_article(const char *root)
{
	tree_dir(root, "class/leds/");
	tree_dir(root, "class/i2c-adapter/");
	tree_dir(root, "class/block/");
	tree_dir(root, "class/net/");
	tree_dir(root, "class/mei/");
	tree_dir(root, "bus/mei/");
	tree_dir(root, "bus/platform/");
	tree_dir(root, "bus/i2c/");
	tree_dir(root, "bus/usb/");
	tree_device(root, "/devices/platform", NULL, NULL, "");
	tree_device(root, "/devices/platform/omap_i2c.2", "bus:platform", "omap_i2c",
		    "DRIVER=omap_i2c\nOF_NAME=i2c\n");
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2", "bus:i2c", NULL,
		    "DEVTYPE=i2c_adapter\n");
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045", "bus:i2c", "leds-tca6507",
		    "DRIVER=leds-tca6507\nMODALIAS=i2c:tca6507\n");
	tree_file(root,
		  "devices/platform/omap_i2c.2/i2c-2/2-0045/power/pm_qos_latency_tolerance_us",
		  "auto\n");
	tree_file(root, "devices/platform/omap_i2c.2/i2c-2/2-0045/name", "tca6507\n");
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:green:power",
		    "class:leds", NULL, "");
	tree_file(root,
		  "devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:green:power/brightness",
		  "100\n");
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:red:aux",
		    "class:leds", NULL, "");
	/* a usb-endpoint-like device: no subsystem link */
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045/ep_00", NULL, NULL,
		    "DEVTYPE=usb_endpoint\nMAJOR=189\nMINOR=7\nDEVNAME=bus/usb/001/ep00\n");
	/* nested attribute groups */
	tree_file(root, "devices/platform/omap_i2c.2/i2c-2/2-0045/engine/state0/latency", "5\n");
	/* a class-named directory holding only files: an attr-group */
	tree_file(root, "devices/platform/omap_i2c.2/i2c-2/2-0045/net/carrier", "1\n");
	/* disk with a partition: a class device under a class device */
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda", "class:block",
		    NULL, "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n");
	tree_file(root, "devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda/dev", "8:0\n");
	tree_device(root, "/devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda/sda1", "class:block",
		    NULL, "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n");
	tree_file(root, "devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda/sda1/dev", "8:1\n");
	tree_link(root, "dev/block/8:0",
		  "../../devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda");
	tree_link(root, "dev/block/8:1",
		  "../../devices/platform/omap_i2c.2/i2c-2/2-0045/block/sda/sda1");
	/* parentless devices */
	tree_device(root, "/devices/virtual/net/lo", "class:net", NULL,
		    "INTERFACE=lo\nIFINDEX=1\n");
	tree_file(root, "devices/virtual/net/lo/queues/rx-0/rps_cpus", "0\n");
	tree_dir(root, "devices/virtual/leds/"); /* empty class grouping dir */
	tree_device(root, "/devices/system/cpu", NULL, NULL, "");
	tree_device(root, "/devices/system/cpu/cpu0", "bus:cpu", NULL, "");
	tree_dir(root, "devices/system/cpu/cpu0/cpuidle/state0/");
	tree_dir(root, "devices/system/memory/"); /* container: no uevent */
	tree_device(root, "/devices/toplevel0", "bus:mei", NULL, "");
}
