/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/udev-db.c: udev's database files (data/ID) as systemd-udevd writes
 * them, the device ids that name them, and what a device answers from them.
 * The expected values are written here by hand from udev's format.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "device-private.h"
#include "tree.h"

static void parse(struct udev_db *db, const char *text, size_t len)
{
	memset(db, 0, sizeof(*db));
	db->cap = len + 1;
	db->buf = malloc(db->cap);
	memcpy(db->buf, text, len);
	assert_int_equal(udev_db_parse(db, len), 0);
}

static void test_parse_lines(void **state)
{
	static const char text[] = "S:disk/by-id/ata-X\n"
				   "S:disk/by-path/pci-0\n"
				   "S:disk/by-id/ata-X\n"
				   "L:-10\n"
				   "E:ID_SERIAL=X_1\n"
				   "E:ID_FS_TYPE=ext4\n"
				   "E:ID_SERIAL=X_2\n"
				   "E:=novalue\n"
				   "E:NOEQUALS\n"
				   "G:systemd\n"
				   "G:uaccess\n"
				   "G:systemd\n"
				   "G:bad:tag\n"
				   "Q:systemd\n"
				   "I:12345678\n"
				   "V:1\n"
				   "W:7\n"
				   "Z:whatever a later udev writes\n"
				   "no colon line\n"
				   "\n"
				   "S\n";
	struct udev_db db;

	(void)state;
	parse(&db, text, sizeof(text) - 1);
	assert_int_equal(db.n_links, 2);
	assert_string_equal(db.links[0], "disk/by-id/ata-X");
	assert_string_equal(db.links[1], "disk/by-path/pci-0");
	assert_true(db.has_priority);
	assert_int_equal(db.priority, -10);
	assert_int_equal(db.n_props, 3);
	assert_string_equal(udev_db_get(&db, "ID_SERIAL"), "X_2"); /* the last line wins */
	assert_string_equal(udev_db_get(&db, "ID_FS_TYPE"), "ext4");
	assert_null(udev_db_get(&db, "NOEQUALS"));
	assert_int_equal(db.n_tags, 2);
	assert_string_equal(db.tags[0], "systemd");
	assert_string_equal(db.tags[1], "uaccess");
	assert_int_equal(db.n_current_tags, 1);
	assert_true(udev_db_has(db.current_tags, db.n_current_tags, "systemd"));
	assert_false(udev_db_has(db.current_tags, db.n_current_tags, "uaccess"));
	assert_true(db.has_usec);
	assert_true(db.usec == 12345678);
	assert_true(db.has_version);
	assert_int_equal(db.version, 1);
	udev_db_free(&db);
}

static void test_parse_odd(void **state)
{
	/* no final newline, an embedded NUL, numbers that do not fit */
	static const char text[] = "I:99999999999999999999999\nE:A=1\0E:B=2\nL:x\nE:C=3";
	struct udev_db db;

	(void)state;
	parse(&db, text, sizeof(text) - 1);
	assert_false(db.has_usec);
	assert_false(db.has_priority);
	assert_false(db.has_version);
	assert_string_equal(udev_db_get(&db, "A"), "1");
	assert_null(udev_db_get(&db, "B")); /* cut by the NUL: the rest of the line is skipped */
	assert_string_equal(udev_db_get(&db, "C"), "3");
	udev_db_free(&db);
	parse(&db, "", 0);
	assert_int_equal(db.n_props + db.n_links + db.n_tags, 0);
	udev_db_free(&db);
	/* the edge of 64 bits: 2^64 - 1 is kept, 2^64 is not (it would wrap to 0) */
	parse(&db, "I:18446744073709551615\n", 23);
	assert_true(db.has_usec);
	assert_true(db.usec == UINT64_MAX);
	udev_db_free(&db);
	parse(&db, "I:18446744073709551616\n", 23);
	assert_false(db.has_usec);
	udev_db_free(&db);
}

static void test_read_bounds(void **state)
{
	char *root = tree_new(), *big;
	struct udev_db db = {0};
	int fd;

	(void)state;
	tree_file(root, "data/+x:ok", "E:A=1\n");
	big = malloc(UDEV_DB_FILE_MAX + 2);
	memset(big, 'x', UDEV_DB_FILE_MAX + 1);
	big[UDEV_DB_FILE_MAX + 1] = '\0';
	tree_file(root, "data/+x:big", big);
	/* as large as allowed, in lines: read whole (the buffer grows to the end) */
	for (size_t off = 0, i = 0; off + 32 < UDEV_DB_FILE_MAX; i++)
		off += (size_t)sprintf(big + off, "E:K%zu=%zu\n", i, i);
	tree_file(root, "data/+x:large", big);
	free(big);
	tree_link(root, "data/+x:link", "+x:ok");
	tree_dir(root, "data/+x:dir/");
	fd = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	int data = openat(fd, "data", O_RDONLY | O_DIRECTORY);
	assert_true(data >= 0);
	assert_true(mkfifoat(data, "+x:fifo", 0600) == 0);
	assert_int_equal(udev_db_read_at(&db, data, "+x:ok"), 0);
	assert_string_equal(udev_db_get(&db, "A"), "1");
	assert_int_equal(udev_db_read_at(&db, data, "+x:big"), -EFBIG);
	assert_int_equal(udev_db_read_at(&db, data, "+x:large"), 0);
	assert_string_equal(udev_db_get(&db, "K0"), "0");
	assert_string_equal(udev_db_get(&db, "K70000"), "70000"); /* far past the first read */
	assert_int_equal(udev_db_read_at(&db, data, "+x:link"), -EBADFD);
	assert_int_equal(udev_db_read_at(&db, data, "+x:dir"), -EBADFD);
	assert_int_equal(udev_db_read_at(&db, data, "+x:fifo"), -EBADFD);
	assert_int_equal(udev_db_read_at(&db, data, "+x:gone"), -ENOENT);
	/* a sysname with '!' gives an id with '/': never a path below data/ */
	assert_int_equal(udev_db_read_at(&db, data, "+x:../../etc"), -ENOENT);
	assert_int_equal(udev_db_read_at(&db, data, ".."), -ENOENT);
	/* a regular file whose read fails (a failing disk): the read's errno, EIO here
	 * (/proc/self/mem at offset 0, an address never mapped) */
	{
		int self = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		assert_true(self >= 0);
		assert_int_equal(udev_db_read_at(&db, self, "mem"), -EIO);
		close(self);
	}
	udev_db_free(&db);
	close(data);
	close(fd);
	tree_free(root);
}

/* A tree with a disk, a network interface, a platform device and a device without subsystem. */
static char *machine(const char *db_dir)
{
	char *root = tree_new(), path[4096];

	tree_device(root, "/devices/pci0/0000:00:01.0", "bus:pci", NULL,
		    "PCI_ID=1AF4:1001\nMODALIAS=pci:v1\n");
	tree_device(root, "/devices/pci0/0000:00:01.0/block/vda", "class:block", NULL,
		    "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\nID_FS_TYPE=fromuevent\n");
	tree_file(root, "devices/pci0/0000:00:01.0/block/vda/dev", "254:0\n");
	tree_link(root, "dev/block/254:0", "../../devices/pci0/0000:00:01.0/block/vda");
	tree_device(root, "/devices/virtual/net/eth0", "class:net", NULL,
		    "INTERFACE=eth0\nIFINDEX=2\n");
	tree_file(root, "devices/virtual/net/eth0/ifindex", "2\n");
	tree_device(root, "/devices/platform/serial8250", "bus:platform", NULL, "");
	tree_device(root, "/devices/pci0", NULL, NULL, "");
	tree_device(root, "/devices/virtual/mem/null", "class:mem", NULL,
		    "MAJOR=1\nMINOR=3\nDEVNAME=null\n");
	tree_file(root, "devices/virtual/mem/null/dev", "1:3\n");
	tree_link(root, "dev/char/1:3", "../../devices/virtual/mem/null");
	if (db_dir) {
		snprintf(path, sizeof(path), "%s/data/b254:0", db_dir);
		tree_file(root, path,
			  "S:disk/by-id/virtio-SER1\nS:disk/by-path/pci-0000:00:01.0\nL:0\n"
			  "I:1000\nE:ID_SERIAL=SER1\nE:ID_FS_TYPE=ext4\nG:systemd\nG:seat\n"
			  "Q:systemd\nV:1\n");
		snprintf(path, sizeof(path), "%s/data/n2", db_dir);
		tree_file(root, path, "I:2000\nE:ID_NET_NAME_PATH=enp0s1\nG:systemd\n");
		snprintf(path, sizeof(path), "%s/data/+platform:serial8250", db_dir);
		tree_file(root, path, "I:3000\nV:1\n");
		snprintf(path, sizeof(path), "%s/tags/systemd/b254:0", db_dir);
		tree_file(root, path, "");
		snprintf(path, sizeof(path), "%s/tags/systemd/n2", db_dir);
		tree_file(root, path, "");
		snprintf(path, sizeof(path), "%s/tags/systemd/b9:9", db_dir); /* stale */
		tree_file(root, path, "");
		snprintf(path, sizeof(path), "%s/tags/seat/b254:0", db_dir);
		tree_file(root, path, "");
	}
	return root;
}

static struct sysdev_device *dev_of(struct sysdev *ctx, const char *spec)
{
	struct sysdev_device *dev = NULL;

	assert_int_equal(sysdev_device_new(ctx, spec, &dev), 0);
	return dev;
}

static void test_device_fields(void **state)
{
	char *root = machine("run/udev");
	struct sysdev *ctx;
	struct sysdev_device *dev;
	const char *s;
	uint64_t usec;
	bool init;
	int prio;

	(void)state;
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_non_null(sysdev_get_udev_db(ctx)); /* ROOT/run/udev, found at open */
	assert_non_null(strstr(sysdev_get_udev_db(ctx), "/run/udev"));

	dev = dev_of(ctx, "/devices/pci0/0000:00:01.0/block/vda");
	assert_int_equal(sysdev_device_get_udev_id(dev, &s), 0);
	assert_string_equal(s, "b254:0");
	assert_int_equal(sysdev_device_get_is_initialized(dev, &init), 0);
	assert_true(init);
	assert_int_equal(sysdev_device_get_usec_initialized(dev, &usec), 0);
	assert_true(usec == 1000);
	assert_int_equal(sysdev_device_get_devlink_priority(dev, &prio), 0);
	assert_int_equal(prio, 0);
	assert_int_equal(sysdev_device_get_devlink_at(dev, 0, &s), 0);
	assert_string_equal(s, "/dev/disk/by-id/virtio-SER1");
	assert_int_equal(sysdev_device_get_devlink_at(dev, 1, &s), 0);
	assert_string_equal(s, "/dev/disk/by-path/pci-0000:00:01.0");
	assert_int_equal(sysdev_device_get_devlink_at(dev, 2, &s), -ENOENT);
	assert_int_equal(sysdev_device_get_tag_at(dev, 0, &s), 0);
	assert_string_equal(s, "seat");
	assert_int_equal(sysdev_device_has_tag(dev, "systemd"), 1);
	assert_int_equal(sysdev_device_has_current_tag(dev, "seat"), 0);
	assert_int_equal(sysdev_device_has_current_tag(dev, "systemd"), 1);
	/* the database's E: wins over the uevent file's; udev's own keys from its lines */
	assert_int_equal(sysdev_device_get_udev_property(dev, "ID_FS_TYPE", &s), 0);
	assert_string_equal(s, "ext4");
	assert_int_equal(sysdev_device_get_udev_property(dev, "DEVNAME", &s), 0);
	assert_string_equal(s, "/dev/vda");
	assert_int_equal(sysdev_device_get_udev_property(dev, "DEVLINKS", &s), 0);
	assert_string_equal(s, "/dev/disk/by-id/virtio-SER1 /dev/disk/by-path/pci-0000:00:01.0");
	assert_int_equal(sysdev_device_get_udev_property(dev, "TAGS", &s), 0);
	assert_string_equal(s, ":seat:systemd:");
	assert_int_equal(sysdev_device_get_udev_property(dev, "CURRENT_TAGS", &s), 0);
	assert_string_equal(s, ":systemd:");
	assert_int_equal(sysdev_device_get_udev_property(dev, "USEC_INITIALIZED", &s), 0);
	assert_string_equal(s, "1000");
	assert_int_equal(sysdev_device_get_udev_property(dev, "SUBSYSTEM", &s), 0);
	assert_string_equal(s, "block");
	{
		/* every key once, in the order of first appearance: the uevent file's first */
		const char *k, *v, *keys[32];
		size_t n = 0;

		SYSDEV_DEVICE_FOREACH_UDEV_PROPERTY(dev, k, v)
		{
			assert_true(n < 32);
			for (size_t j = 0; j < n; j++)
				assert_string_not_equal(keys[j], k);
			keys[n++] = k;
		}
		assert_string_equal(keys[0], "MAJOR");
		assert_int_equal(n, 12); /* 5 uevent, DEVPATH, SUBSYSTEM, ID_SERIAL, 4 udev */
	}
	sysdev_device_unref(dev);

	dev = dev_of(ctx, "/devices/virtual/net/eth0");
	assert_int_equal(sysdev_device_get_udev_id(dev, &s), 0);
	assert_string_equal(s, "n2");
	/* no V: line: a database older than current tags, every tag current */
	assert_int_equal(sysdev_device_get_current_tag_at(dev, 0, &s), 0);
	assert_string_equal(s, "systemd");
	/* but no CURRENT_TAGS property: udev makes it of Q: lines alone */
	assert_int_equal(sysdev_device_get_udev_property(dev, "CURRENT_TAGS", &s), -ENOENT);
	assert_int_equal(sysdev_device_get_udev_property(dev, "TAGS", &s), 0);
	assert_string_equal(s, ":systemd:");
	sysdev_device_unref(dev);

	dev = dev_of(ctx, "/devices/virtual/mem/null");
	assert_int_equal(sysdev_device_get_udev_id(dev, &s), 0);
	assert_string_equal(s, "c1:3");
	assert_int_equal(sysdev_device_get_is_initialized(dev, &init), 0);
	assert_false(init); /* no file: not initialized, not an error */
	assert_int_equal(sysdev_device_get_usec_initialized(dev, &usec), -ENOENT);
	assert_int_equal(sysdev_device_get_udev_property(dev, "TAGS", &s), -ENOENT);
	sysdev_device_unref(dev);

	dev = dev_of(ctx, "/devices/platform/serial8250");
	assert_int_equal(sysdev_device_get_udev_id(dev, &s), 0);
	assert_string_equal(s, "+platform:serial8250");
	sysdev_device_unref(dev);

	dev = dev_of(ctx, "/devices/pci0");
	assert_int_equal(sysdev_device_get_udev_id(dev, &s), -ENOENT);
	assert_int_equal(sysdev_device_get_is_initialized(dev, &init), 0);
	assert_false(init);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	tree_free(root);
}

static void test_lookups(void **state)
{
	char *root = machine("run/udev");
	struct sysdev *ctx;
	struct sysdev_device *dev;
	const char *s;

	(void)state;
	/* the ifindex attribute alone (a uevent file without IFINDEX), and IFINDEX alone
	 * (a capture that kept the uevent file but not the attribute's value) */
	tree_device(root, "/devices/virtual/net/eth7", "class:net", NULL, "INTERFACE=eth7\n");
	tree_file(root, "devices/virtual/net/eth7/ifindex", "7\n");
	tree_device(root, "/devices/virtual/net/eth8", "class:net", NULL,
		    "INTERFACE=eth8\nIFINDEX=8\n");
	/* the loopback's index is 1, the kernel's first */
	tree_device(root, "/devices/virtual/net/lo", "class:net", NULL,
		    "INTERFACE=lo\nIFINDEX=1\n");
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_int_equal(sysdev_device_new_from_ifindex(ctx, 7, &dev), 0);
	assert_int_equal(sysdev_device_get_name(dev, &s), 0);
	assert_string_equal(s, "eth7");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new_from_ifindex(ctx, 8, &dev), 0);
	assert_int_equal(sysdev_device_get_name(dev, &s), 0);
	assert_string_equal(s, "eth8");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new_from_ifindex(ctx, 1, &dev), 0);
	assert_int_equal(sysdev_device_get_name(dev, &s), 0);
	assert_string_equal(s, "lo");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new_from_device_id(ctx, "b254:0", &dev), 0);
	assert_int_equal(sysdev_device_get_name(dev, &s), 0);
	assert_string_equal(s, "vda");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new_from_device_id(ctx, "vda", &dev), -EINVAL);
	assert_int_equal(sysdev_device_new_from_ifindex(ctx, 2, &dev), 0);
	assert_int_equal(sysdev_device_get_name(dev, &s), 0);
	assert_string_equal(s, "eth0");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new_from_ifindex(ctx, 3, &dev), -ENOENT);
	assert_int_equal(sysdev_device_new_from_ifindex(ctx, 0, &dev), -EINVAL);
	assert_int_equal(sysdev_device_new_from_ifname(ctx, "eth0", &dev), 0);
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new_from_ifname(ctx, "eth9", &dev), -ENOENT);
	/* a link below /dev that is not there: through the database's S: lines */
	assert_int_equal(sysdev_device_new(ctx, "/dev/disk/by-id/virtio-SER1", &dev), 0);
	assert_int_equal(sysdev_device_get_name(dev, &s), 0);
	assert_string_equal(s, "vda");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new(ctx, "/dev/disk/by-id/none", &dev), -ENOENT);
	/* without the database the link is unknown */
	assert_int_equal(sysdev_set_udev_db(ctx, NULL), 0);
	assert_null(sysdev_get_udev_db(ctx));
	assert_int_equal(sysdev_device_new(ctx, "/dev/disk/by-id/virtio-SER1", &dev), -ENOENT);
	sysdev_unref(ctx);
	tree_free(root);
}

/*
 * A program that closed its standard input: the root and the database are
 * found all the same, and neither descriptor is kept where stdin belongs.
 */
static void test_stdin_closed(void **state)
{
	char *root = machine("run/udev");
	struct sysdev_device *dev;
	struct sysdev *ctx;
	const char *s;
	bool init;
	int saved = dup(0);

	(void)state;
	assert_true(saved > 2);
	close(0);
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_true(sysdev_get_root_fd(ctx) > 2);
	assert_non_null(sysdev_get_udev_db(ctx));
	/* nothing the context keeps sits on 0: the next descriptor opened is 0 */
	assert_int_equal(dup(saved), 0);
	close(0);
	dev = dev_of(ctx, "/devices/pci0/0000:00:01.0/block/vda");
	assert_int_equal(sysdev_device_get_is_initialized(dev, &init), 0);
	assert_true(init);
	assert_int_equal(sysdev_device_get_udev_property(dev, "ID_SERIAL", &s), 0);
	assert_string_equal(s, "SER1");
	/* the device's own directory may sit on 0: it is used, and closed with it */
	for (int i = 0; i < 2; i++) {
		char *target;

		assert_int_equal(sysdev_device_get_link(dev, "subsystem", &target), 0);
		assert_string_equal(target, "/class/block");
		free(target);
	}
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	assert_int_equal(dup(saved), 0);
	close(saved);
	tree_free(root);
}

static void test_no_database(void **state)
{
	char *root = machine(NULL), path[4096];
	struct sysdev *ctx;
	struct sysdev_device *dev;
	const char *s;
	bool init;

	(void)state;
	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_null(sysdev_get_udev_db(ctx));
	dev = dev_of(ctx, "/devices/pci0/0000:00:01.0/block/vda");
	assert_int_equal(sysdev_device_get_is_initialized(dev, &init), 0);
	assert_false(init);
	assert_int_equal(sysdev_device_get_udev_property(dev, "ID_FS_TYPE", &s), 0);
	assert_string_equal(s, "fromuevent");
	assert_int_equal(sysdev_device_get_devlink_at(dev, 0, &s), -ENOENT);
	sysdev_device_unref(dev);
	/* a database named by hand */
	snprintf(path, sizeof(path), "%s/elsewhere/data/b254:0", root);
	tree_file("/", path, "E:ID_FS_TYPE=xfs\n");
	snprintf(path, sizeof(path), "%s/elsewhere", root);
	assert_int_equal(sysdev_set_udev_db(ctx, path), 0);
	assert_string_equal(sysdev_get_udev_db(ctx), path);
	dev = dev_of(ctx, "b254:0");
	assert_int_equal(sysdev_device_get_udev_property(dev, "ID_FS_TYPE", &s), 0);
	assert_string_equal(s, "xfs");
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_set_udev_db(ctx, "/nonexistent/db"), -ENOENT);
	sysdev_unref(ctx);
	tree_free(root);
}

/* S/../run/udev: a system root R gives R/run/udev (R/sys the root) */
static void test_beside_root(void **state)
{
	char *top = tree_new(), path[4096];
	struct sysdev *ctx;

	(void)state;
	tree_device(top, "/sys/devices/platform/x", "bus:platform", NULL, "");
	tree_file(top, "run/udev/data/+platform:x", "I:5\n");
	assert_int_equal(sysdev_new(top, &ctx), 0);
	snprintf(path, sizeof(path), "%s/run/udev", top);
	assert_string_equal(sysdev_get_udev_db(ctx), path);
	sysdev_unref(ctx);
	snprintf(path, sizeof(path), "%s/sys", top);
	assert_int_equal(sysdev_new(path, &ctx), 0);
	snprintf(path, sizeof(path), "%s/run/udev", top);
	assert_string_equal(sysdev_get_udev_db(ctx), path);
	sysdev_unref(ctx);
	/* a root whose last component is "." or "..": the path is kept as given,
	 * and names the same directory (TOP/sys/./../run/udev is TOP/run/udev) */
	for (int i = 0; i < 2; i++) {
		char want[4096], *got;

		snprintf(path, sizeof(path), i ? "%s/sys/devices/.." : "%s/sys/.", top);
		assert_int_equal(sysdev_new(path, &ctx), 0);
		assert_non_null(sysdev_get_udev_db(ctx));
		snprintf(want, sizeof(want), "%s/run/udev", top);
		got = realpath(sysdev_get_udev_db(ctx), NULL);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
		sysdev_unref(ctx);
	}
	tree_free(top);
}

static size_t enum_count(struct sysdev *ctx, const char *tag, bool initialized, const char **first)
{
	struct sysdev_enumerator *e;
	struct sysdev_device *dev;
	size_t n;

	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	if (tag)
		assert_int_equal(sysdev_enumerator_add_match_tag(e, tag), 0);
	if (initialized)
		assert_int_equal(sysdev_enumerator_add_match_is_initialized(e), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	n = sysdev_enumerator_get_count(e);
	if (first && n) {
		static char name[256];
		const char *s;

		assert_int_equal(sysdev_enumerator_get_device_at(e, 0, &dev), 0);
		assert_int_equal(sysdev_device_get_name(dev, &s), 0);
		snprintf(name, sizeof(name), "%s", s);
		*first = name;
	}
	sysdev_enumerator_unref(e);
	return n;
}

static void test_enumerate(void **state)
{
	char *root = machine("run/udev");
	struct sysdev *ctx;
	struct sysdev_enumerator *e;
	const char *first = NULL;

	(void)state;
	assert_int_equal(sysdev_new(root, &ctx), 0);
	/* tags/systemd names vda, eth0 and a device that is gone */
	assert_int_equal(enum_count(ctx, "systemd", false, &first), 2);
	assert_string_equal(first, "vda"); /* the walk's order: /devices/pci0 first */
	assert_int_equal(enum_count(ctx, "seat", false, &first), 1);
	assert_int_equal(enum_count(ctx, "nosuchtag", false, NULL), 0);
	/* with subsystem devices pci, vda, eth0, serial8250, null: null has a number
	 * and no file, the rest are initialized or need no udev (the pci device) */
	assert_int_equal(enum_count(ctx, NULL, true, NULL), 4);
	assert_int_equal(enum_count(ctx, NULL, false, NULL), 5);
	/* property matches see the database */
	assert_int_equal(sysdev_enumerator_new(ctx, &e), 0);
	assert_int_equal(sysdev_enumerator_add_match_property(e, "ID_SERIAL", "SER*"), 0);
	assert_int_equal(sysdev_enumerator_scan(e), 0);
	assert_int_equal(sysdev_enumerator_get_count(e), 1);
	sysdev_enumerator_unref(e);
	sysdev_unref(ctx);
	tree_free(root);
}

/* A file that cannot be read: every answer from the database says why. */
static void test_unreadable(void **state)
{
	char *root = machine("run/udev"), path[4096];
	struct sysdev *ctx;
	struct sysdev_device *dev;
	const char *s;
	bool init;

	(void)state;
	snprintf(path, sizeof(path), "%s/run/udev/data/n2", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(sysdev_new(root, &ctx), 0);
	dev = dev_of(ctx, "n2");
	assert_int_equal(sysdev_device_get_is_initialized(dev, &init), -EBADFD);
	assert_int_equal(sysdev_device_get_tag_at(dev, 0, &s), -EBADFD);
	assert_int_equal(sysdev_device_get_udev_property_at(dev, 0, &s, NULL), -EBADFD);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
	tree_free(root);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_lines), cmocka_unit_test(test_parse_odd),
	    cmocka_unit_test(test_read_bounds), cmocka_unit_test(test_device_fields),
	    cmocka_unit_test(test_lookups),	cmocka_unit_test(test_no_database),
	    cmocka_unit_test(test_beside_root), cmocka_unit_test(test_enumerate),
	    cmocka_unit_test(test_unreadable),	cmocka_unit_test(test_stdin_closed),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
