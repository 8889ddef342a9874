/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysdev-fixture: sysfs trees as text archives that live in git exactly.
 *
 *   sysdev-fixture pack DIR > F.sysfs
 *   sysdev-fixture unpack F.sysfs DIR
 *   sysdev-fixture check F.sysfs
 *   sysdev-fixture capture [--root S] [--full] NAME.sysfs [START]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev.h"

#ifndef SYSDEV_VERSION
#define SYSDEV_VERSION "unknown"
#endif

static const char *prog = "sysdev-fixture";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s pack DIR > F.sysfs\n"
		"       %s unpack F.sysfs DIR\n"
		"       %s check F.sysfs\n"
		"       %s capture [--root S] [--full] NAME.sysfs [START]\n"
		"\n"
		"pack     write the tree below DIR as a text archive on stdout\n"
		"unpack   recreate an archive's tree in DIR (created if missing, must be empty)\n"
		"check    parse an archive without writing anything\n"
		"capture  capture S/devices (or START, a devpath or SUBSYSTEM:NAME) from the\n"
		"         sysfs root S (default /sys) and pack it into NAME.sysfs.  Without\n"
		"         --full only what the walk reads keeps its contents (uevent, dev,\n"
		"         power/) and files others may not read are left empty.\n"
		"\n"
		"  -h, --help     show this help\n"
		"  -V, --version  show the version\n"
		"\n"
		"Exit status: 0 success, 1 runtime error, 2 bad usage.\n",
		prog, prog, prog, prog);
}

static int fail(const char *what, const char *msg, int err)
{
	fprintf(stderr, "%s: %s: %s", prog, what, msg);
	if (err)
		fprintf(stderr, ": %s", strerror(-err));
	fputc('\n', stderr);
	return 1;
}

static void summary(const char *what, const char *verb, const struct sysdev_capture_stats *st)
{
	fprintf(stderr,
		"%s: %s: %s %lu files, %lu directories, %lu links, %lu skipped "
		"(%lu truncated, %lu write-only, %lu emptied, %llu bytes)\n",
		prog, what, verb, st->files, st->dirs, st->links, st->skipped, st->truncated,
		st->write_only, st->emptied, st->bytes);
}

/* Remove everything below @fd (a directory we made), never following links. */
static int rm_below(int fd)
{
	DIR *d;
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -ENOMEM;
	}
	for (struct dirent *de; (de = readdir(d));) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int cfd;

			fchmodat(fd, de->d_name, 0700, 0);
			cfd = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd >= 0) {
				rm_below(cfd);
				close(cfd);
			}
			if (unlinkat(fd, de->d_name, AT_REMOVEDIR) < 0)
				err = -errno;
		} else if (unlinkat(fd, de->d_name, 0) < 0) {
			err = -errno;
		}
	}
	closedir(d);
	return err;
}

static int cmd_pack(int argc, char **argv)
{
	struct sysdev_capture_stats st;
	int fd, err;

	if (argc != 1) {
		usage(stderr);
		return 2;
	}
	fd = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(argv[0], "cannot open the directory", -errno);
	err = sysdev_archive_pack(fd, STDOUT_FILENO, 0, &st);
	close(fd);
	if (err < 0)
		return fail(argv[0], "pack failed", err);
	if (st.skipped) {
		summary(argv[0], "packed", &st);
		return fail(argv[0], "some entries could not be packed exactly", 0);
	}
	return 0;
}

static int open_empty_dir(const char *dir, int *fd, bool *created)
{
	*created = mkdir(dir, 0755) == 0;
	if (!*created && errno != EEXIST)
		return fail(dir, "cannot create the directory", -errno);
	*fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0) {
		int err = -errno;

		if (*created)
			rmdir(dir);
		return fail(dir, "cannot open the directory", err);
	}
	return 0;
}

static int unpack_or_check(const char *file, const char *dir)
{
	size_t line = 0;
	int in, out = -1, err;
	bool created = false;

	in = open(file, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail(file, "cannot open", -errno);
	if (dir && open_empty_dir(dir, &out, &created) != 0) {
		close(in);
		return 1;
	}
	err = sysdev_archive_unpack(in, out, &line);
	close(in);
	/* a failed unpack leaves nothing of its own: the entries it wrote, and the
	 * directory if it made it (a directory that was not empty was not touched) */
	if (out >= 0 && err < 0 && err != -ENOTEMPTY) {
		rm_below(out);
		if (created)
			rmdir(dir);
	}
	if (out >= 0)
		close(out);
	if (err == -ENOTEMPTY)
		return fail(dir, "not empty: unpacking needs an empty directory", 0);
	if (err < 0) {
		const char *why = err == -EBADMSG ? "malformed line"
				  : err == -EINVAL ? "unsafe path or link target"
				  : err == -EEXIST ? "entry given twice"
				  : err == -ENOENT ? "parent directory not created before"
						   : "cannot create";

		if (line)
			fprintf(stderr, "%s: %s:%zu: %s (%s)\n", prog, file, line, why,
				strerror(-err));
		else
			fprintf(stderr, "%s: %s: %s (%s)\n", prog, file, why, strerror(-err));
		return 1;
	}
	return 0;
}

static int cmd_capture(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"root", required_argument, NULL, 'r'},
		{"full", no_argument, NULL, 'f'},
		{0},
	};
	const char *root = NULL, *out, *start = NULL;
	struct sysdev_capture_stats st;
	unsigned flags = SYSDEV_CAPTURE_SLIM | SYSDEV_CAPTURE_PUBLIC;
	struct sysdev *ctx = NULL;
	char *devpath = NULL, *tmpout = NULL, tmpl[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	int c, err, dfd = -1, ofd = -1, ret = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+r:f", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			root = optarg;
			break;
		case 'f':
			flags = 0;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		usage(stderr);
		return 2;
	}
	out = argv[optind];
	if (argc - optind == 2)
		start = argv[optind + 1];
	err = sysdev_new(root, &ctx);
	if (err < 0)
		return fail(root ? root : "/sys", "not a sysfs root", err);
	if (start && strncmp(start, "/devices", 8) == 0) {
		devpath = strdup(start);
	} else if (start) {
		struct sysdev_device *dev;

		err = sysdev_device_new(ctx, start, &dev);
		if (err < 0) {
			fail(start, "no such device", err);
			goto out;
		}
		devpath = strdup(sysdev_device_get_devpath(dev));
		sysdev_device_unref(dev);
	}
	if (start && !devpath) {
		fail(start, "out of memory", -ENOMEM);
		goto out;
	}
	snprintf(tmpl, sizeof(tmpl), "%s/sysdev-fixture.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		fail(tmpl, "cannot create a temporary directory", -errno);
		goto out;
	}
	dfd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		fail(tmpl, "cannot open", -errno);
		goto rm;
	}
	err = sysdev_capture(ctx, devpath, dfd, flags, &st);
	if (err < 0) {
		fail(start ? start : sysdev_get_root(ctx), "capture failed", err);
		goto rm;
	}
	summary(out, "captured", &st);
	if (asprintf(&tmpout, "%s.tmp", out) < 0) {
		tmpout = NULL;
		goto rm;
	}
	ofd = open(tmpout, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (ofd < 0) {
		fail(tmpout, "cannot create", -errno);
		goto rm;
	}
	err = sysdev_archive_pack(dfd, ofd, 0, &st);
	if (err == 0 && close(ofd) < 0)
		err = -errno;
	ofd = -1;
	if (err < 0 || st.skipped) {
		fail(out, "pack failed", err);
		unlink(tmpout);
		goto rm;
	}
	if (rename(tmpout, out) < 0) {
		fail(out, "cannot rename into place", -errno);
		unlink(tmpout);
		goto rm;
	}
	ret = 0;
rm:
	if (ofd >= 0)
		close(ofd);
	if (dfd >= 0) {
		rm_below(dfd);
		close(dfd);
	}
	rmdir(tmpl);
out:
	free(tmpout);
	free(devpath);
	sysdev_unref(ctx);
	return ret;
}

int main(int argc, char **argv)
{
	struct rlimit rl;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", prog, SYSDEV_VERSION);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	/* one descriptor per level of a walk, twice in a capture */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (strcmp(argv[1], "pack") == 0)
		return cmd_pack(argc - 2, argv + 2);
	if (strcmp(argv[1], "unpack") == 0) {
		if (argc != 4) {
			usage(stderr);
			return 2;
		}
		return unpack_or_check(argv[2], argv[3]);
	}
	if (strcmp(argv[1], "check") == 0) {
		if (argc != 3) {
			usage(stderr);
			return 2;
		}
		return unpack_or_check(argv[2], NULL);
	}
	if (strcmp(argv[1], "capture") == 0)
		return cmd_capture(argc - 1, argv + 1);
	fprintf(stderr, "%s: %s: unknown command\n", prog, argv[1]);
	usage(stderr);
	return 2;
}
