/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udev's database beside a capture: the files data/ID and the tag index
 * tags/TAG/ID of the root's database, copied to DEST/run/udev, where a
 * root finds its own database (libsysdev(3), sysdev-archive(5)).  Only
 * names that are udev device ids (and tags that name a directory) are
 * copied, each file bounded; nothing else of /run/udev (its sockets,
 * watches, links/ index) is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture-db.h"
#include "device-id.h"
#include "fd-util.h"
#include "macro.h"
#include "name-set.h"

/* A database file is a few hundred bytes; the library reads at most this. */
#define DB_FILE_MAX (1024 * 1024)

static bool is_id(const char *name)
{
	struct device_id id;

	return device_id_parse(name, &id) && !strchr(name, '/');
}

static bool is_tag(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/') &&
	       !strchr(name, ':');
}

/* mkdirat, a directory that exists being fine; then opened without following a link. */
static int make_dir(int dirfd, const char *name)
{
	if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	return open_dir_at(dirfd, name);
}

static int copy_data(int src, int dst, struct capture_db_counts *c)
{
	struct name_set set;
	char *buf = malloc(DB_FILE_MAX + 1);
	int err;

	if (!buf)
		return -ENOMEM;
	err = name_set_load_fd(src, &set);
	for (size_t i = 0; err >= 0 && i < set.n; i++) {
		ssize_t len;

		if (!is_id(set.names[i])) {
			c->skipped++;
			continue;
		}
		len = read_file_at(src, set.names[i], buf, DB_FILE_MAX + 1, true);
		if (len < 0) {
			c->skipped++; /* vanished, too large, not a regular file */
			continue;
		}
		err = create_file_excl(dst, set.names[i], buf, (size_t)len, 0644);
		if (err >= 0)
			c->files++;
	}
	name_set_free(&set);
	free(buf);
	return err < 0 ? err : 0;
}

static int copy_tags(int src, int dst, struct capture_db_counts *c)
{
	struct name_set tags;
	int err = name_set_load_fd(src, &tags);

	for (size_t i = 0; err >= 0 && i < tags.n; i++) {
		_cleanup_close_ int s = -1, d = -1;
		struct name_set ids;

		if (!is_tag(tags.names[i]) || (s = open_dir_at(src, tags.names[i])) < 0) {
			c->skipped++;
			continue;
		}
		d = make_dir(dst, tags.names[i]);
		if (d < 0) {
			err = d;
			break;
		}
		err = name_set_load_fd(s, &ids);
		if (err < 0) {
			err = err == -ENOMEM ? err : 0; /* a tag that is not a directory */
			continue;
		}
		for (size_t j = 0; err >= 0 && j < ids.n; j++) {
			if (!is_id(ids.names[j])) {
				c->skipped++;
				continue;
			}
			err = create_file_excl(d, ids.names[j], "", 0, 0644);
			if (err >= 0)
				c->tags++;
		}
		name_set_free(&ids);
	}
	name_set_free(&tags);
	return err < 0 ? err : 0;
}

int capture_udev_db(struct sysdev *ctx, int dest_dirfd, struct capture_db_counts *c)
{
	_cleanup_close_ int db = -1, run = -1, udev = -1, src = -1, dst = -1;
	const char *path = sysdev_get_udev_db(ctx);
	int err = 0;

	memset(c, 0, sizeof(*c));
	if (!path)
		return 0;
	db = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (db < 0)
		return -errno;
	run = make_dir(dest_dirfd, "run");
	udev = run < 0 ? run : make_dir(run, "udev");
	if (udev < 0)
		return udev;
	src = open_dir_at(db, "data");
	if (src >= 0) {
		dst = make_dir(udev, "data");
		err = dst < 0 ? dst : copy_data(src, dst, c);
	}
	if (err < 0)
		return err;
	close(src);
	close(dst);
	dst = -1;
	src = open_dir_at(db, "tags");
	if (src >= 0) {
		dst = make_dir(udev, "tags");
		err = dst < 0 ? dst : copy_tags(src, dst, c);
	}
	return err;
}
