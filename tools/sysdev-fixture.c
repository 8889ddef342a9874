/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysdev-fixture: sysfs trees as text archives that live in git exactly.
 *
 *   sysdev-fixture pack DIR > F.sysfs
 *   sysdev-fixture unpack F.sysfs DIR
 *   sysdev-fixture check F.sysfs
 *   sysdev-fixture capture [--root S] [--full] [--sanitize] NAME.sysfs [START]
 *   sysdev-fixture export --umockdev ARCHIVE|DIR > FILE.umockdev
 *   sysdev-fixture import FILE.umockdev DIR
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

#include "alloc-util.h"
#include "dir-list.h"
#include "libsysdev.h"
#include "output.h"
#include "plural.h"
#include "root-archive.h"
#include "sanitize.h"
#include "umockdev.h"

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
		"       %s capture [--root S] [--full] [--sanitize] NAME.sysfs [START]\n"
		"       %s export --umockdev ARCHIVE|DIR > FILE.umockdev\n"
		"       %s import FILE.umockdev DIR\n"
		"\n"
		"pack     write the tree below DIR as a text archive on stdout\n"
		"unpack   recreate an archive's tree in DIR (created if missing, must be empty)\n"
		"check    parse an archive without writing anything\n"
		"capture  capture S/devices (or START, a devpath or SUBSYSTEM:NAME) from the\n"
		"         sysfs root S (default /sys) and pack it into NAME.sysfs.  Without\n"
		"         --full only what the walk reads keeps its contents (uevent, dev,\n"
		"         power/) and files others may not read are left empty.  With\n"
		"         --sanitize, serial numbers, MAC/WWN/EUI addresses, UUIDs and the like\n"
		"         become stable placeholders in contents, properties and names.\n"
		"export   write the devices of a tree (an archive, a directory holding\n"
		"         devices/, or a system root) as a umockdev recording on stdout, for\n"
		"         umockdev-run -d FILE -- PROGRAM\n"
		"import   lay out a umockdev recording (umockdev-record's output) as a tree\n"
		"         in DIR (created if missing, must be empty), for --root DIR\n"
		"\n"
		"  -h, --help     show this help\n"
		"  -V, --version  show the version\n"
		"\n"
		"Exit status: 0 success, 1 runtime error, 2 bad usage.\n",
		prog, prog, prog, prog, prog, prog);
}

static int fail(const char *what, const char *msg, int err)
{
	fprintf(stderr, "%s: %s: %s", prog, what, msg);
	if (err)
		fprintf(stderr, ": %s", strerror(-err));
	fputc('\n', stderr);
	return 1;
}

/* 0 when all of stdout was written (or its reader went away: no error of ours,
 * as for sysdev-tree); otherwise 1 after one line. */
static int check_stdout(void)
{
	int err = stdout_write_error();

	if (!err || err == EPIPE)
		return 0;
	return fail("stdout", "write error", -err);
}

/* The counters of a capture or a pack, as plain numbers. */
struct counts {
	unsigned long files, dirs, links, skipped, truncated, write_only, emptied, too_deep,
	    unsafe_links, unreadable;
	unsigned long long bytes;
};

/* The numbers of a counters' object (zeros for none). */
static void counts_of(const struct sysdev_capture_stats *s, struct counts *c)
{
#define GET(which) sysdev_capture_stats_get(s, SYSDEV_CAPTURE_COUNT_##which)
	*c = (struct counts){
	    .files = GET(FILES),
	    .dirs = GET(DIRS),
	    .links = GET(LINKS),
	    .skipped = GET(SKIPPED),
	    .truncated = GET(TRUNCATED),
	    .write_only = GET(WRITE_ONLY),
	    .emptied = GET(EMPTIED),
	    .too_deep = GET(TOO_DEEP),
	    .unsafe_links = GET(UNSAFE_LINKS),
	    .unreadable = GET(UNREADABLE),
	    .bytes = GET(BYTES),
	};
#undef GET
}

static void summary(const char *what, const char *verb, const struct counts *st)
{
	fprintf(stderr,
		"%s: %s: %s %lu %s, %lu %s, %lu %s, %lu skipped "
		"(%lu truncated, %lu write-only, %lu unreadable, %lu emptied, %llu %s)\n",
		prog, what, verb, st->files, plural(st->files, "file", "files"), st->dirs,
		plural(st->dirs, "directory", "directories"), st->links,
		plural(st->links, "link", "links"), st->skipped, st->truncated, st->write_only,
		st->unreadable, st->emptied, st->bytes, plural(st->bytes, "byte", "bytes"));
}

/* What the archive's own limits and rules left out, one line each. */
static void report_left_out(const char *what, const struct counts *st)
{
	if (st->too_deep)
		fprintf(stderr,
			"%s: %s: %lu %s left out: deeper than 4096 directories or a path longer "
			"than 65536 bytes, the limits of an archive\n",
			prog, what, st->too_deep,
			plural(st->too_deep, "directory's entries", "directories' entries"));
	if (st->unsafe_links)
		fprintf(stderr,
			"%s: %s: %lu %s left out: %s absolute or %s above the top of the tree, "
			"which a reader refuses\n",
			prog, what, st->unsafe_links, plural(st->unsafe_links, "link", "links"),
			plural(st->unsafe_links, "its target is", "their targets are"),
			plural(st->unsafe_links, "climbs", "climb"));
}

static int cmd_pack(int argc, char **argv)
{
	struct sysdev_capture_stats *stats = NULL;
	struct counts st;
	int fd, err;

	if (argc != 1) {
		usage(stderr);
		return 2;
	}
	fd = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(argv[0], "cannot open the directory", -errno);
	err = sysdev_capture_stats_new(&stats);
	if (err >= 0)
		err = sysdev_archive_pack(fd, STDOUT_FILENO, 0, stats);
	close(fd);
	counts_of(stats, &st);
	sysdev_capture_stats_unref(stats);
	if (err < 0)
		return fail(argv[0], "pack failed", err);
	if (st.skipped || st.unsafe_links) {
		summary(argv[0], "packed", &st);
		report_left_out(argv[0], &st);
		return fail(argv[0], "some entries could not be packed exactly", 0);
	}
	return 0;
}

/*
 * Make (or take, when it exists) the directory @dir to fill.  A @dir whose
 * last component is a symbolic link is refused: unpacking through it would
 * write wherever it points.
 */
static int open_empty_dir(const char *dir, int *fd, bool *created)
{
	char *name = strdup(dir);
	size_t len;
	int err = 0;

	*created = false;
	*fd = -1;
	if (!name)
		return fail(dir, "out of memory", -ENOMEM);
	/* "link/" would follow the link: the last component without its slashes */
	len = strlen(name);
	while (len > 1 && name[len - 1] == '/')
		name[--len] = '\0';
	*created = mkdir(name, 0755) == 0;
	if (!*created && errno != EEXIST)
		err = fail(dir, "cannot create the directory", -errno);
	if (err == 0) {
		struct stat st;

		/* O_NOFOLLOW as well: a link put there after the lstat is not followed */
		*fd = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (*fd < 0 && lstat(name, &st) == 0 && S_ISLNK(st.st_mode))
			err = fail(dir, "a symbolic link: refusing to write where it points", 0);
		else if (*fd < 0)
			err = fail(dir, "cannot open the directory", -errno);
		if (*fd < 0 && *created)
			rmdir(name);
	}
	free(name);
	return err;
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
		remove_below(out);
		if (created)
			rmdir(dir);
	}
	if (out >= 0)
		close(out);
	if (err == -ENOTEMPTY)
		return fail(dir, "not empty: unpacking needs an empty directory", 0);
	if (err < 0) {
		const char *why = err == -EBADMSG  ? "malformed line"
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

/* One line: how many identifiers of each kind were replaced, and where. */
static void sanitize_summary(const char *out, const struct sanitize_stats *st)
{
	const char *sep = " (";

	fprintf(stderr, "%s: %s: sanitized %lu %s", prog, out, st->values,
		plural(st->values, "identifier", "identifiers"));
	for (int k = 0; k < SANITIZE_KINDS; k++) {
		if (!st->kinds[k])
			continue;
		fprintf(stderr, "%s%lu %s", sep, st->kinds[k], sanitize_kind_name(k, st->kinds[k]));
		sep = ", ";
	}
	fprintf(
	    stderr,
	    "%s: %lu %s and %lu %s rewritten, %lu %s replaced, %lu binary identifier %s emptied "
	    "or cut\n",
	    st->values ? ")" : "", st->files, plural(st->files, "file", "files"), st->links,
	    plural(st->links, "link", "links"), st->renamed, plural(st->renamed, "name", "names"),
	    st->emptied, plural(st->emptied, "file", "files"));
}

/* The devpath of a capture's START: a path below the root, or a device. */
static int capture_start(struct sysdev *ctx, const char *start, char **devpath)
{
	struct sysdev_device *dev;
	const char *path;
	int err;

	*devpath = NULL;
	if (strncmp(start, "/devices", 8) == 0) {
		*devpath = strdup(start);
		return *devpath ? 0 : fail(start, "out of memory", -ENOMEM);
	}
	if (start[0] == '/' && strncmp(start, "/dev/", 5) != 0) {
		/* a directory, device or not, as sysdev-tree --capture takes it */
		err = sysdev_resolve_path(ctx, start, devpath);
		if (err < 0)
			return fail(start, "no such directory in the sysfs root", err);
		if (strncmp(*devpath, "/devices", 8) != 0 ||
		    ((*devpath)[8] != '/' && (*devpath)[8] != '\0')) {
			fprintf(stderr, "%s: %s: not under %s/devices (it is %s)\n", prog, start,
				sysdev_get_root(ctx), *devpath);
			free(*devpath);
			*devpath = NULL;
			return 1;
		}
		return 0;
	}
	err = sysdev_device_new(ctx, start, &dev);
	if (err < 0)
		return fail(start, "no such device", err);
	*devpath = sysdev_device_get_devpath(dev, &path) >= 0 ? strdup(path) : NULL;
	sysdev_device_unref(dev);
	return *devpath ? 0 : fail(start, "out of memory", -ENOMEM);
}

/*
 * The temporary file beside @out, created exclusively (mkstemp: O_EXCL, so
 * nothing planted there, a symbolic link least of all, is opened), before
 * anything is captured: a target that cannot be written fails at once.
 */
static int open_target_tmp(const char *out, char **tmpout)
{
	struct stat st;
	mode_t mask;
	int fd;

	if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
		fail(out, "a directory: the archive is a file", 0);
		return -1;
	}
	if (asprintf(tmpout, "%s.XXXXXX", out) < 0) {
		*tmpout = NULL;
		fail(out, "out of memory", -ENOMEM);
		return -1;
	}
	fd = mkostemp(*tmpout, O_CLOEXEC);
	if (fd < 0) {
		fail(out, "cannot create the archive beside it", -errno);
		free(*tmpout);
		*tmpout = NULL;
		return -1;
	}
	/* mkstemp makes it 0600; the archive gets the usual 0666 less the umask */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return fd;
}

static int cmd_capture(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"root", required_argument, NULL, 'r'},
	    {"full", no_argument, NULL, 'f'},
	    {"sanitize", no_argument, NULL, 's'},
	    {0},
	};
	bool sanitize = false;
	const char *root = NULL, *out, *start = NULL;
	struct sysdev_capture_stats *stats = NULL;
	struct counts st, pst;
	unsigned flags = SYSDEV_CAPTURE_SLIM | SYSDEV_CAPTURE_PUBLIC;
	struct sysdev *ctx = NULL;
	char *devpath = NULL, *tmpout = NULL, tmpl[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	int c, err, dfd = -1, ofd = -1, ret = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+r:fs", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			sanitize = true;
			break;
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
	if (root && root_prepare(prog, &root) < 0)
		return 1;
	err = sysdev_new(root, &ctx);
	if (err < 0)
		return fail(root ? root : "/sys", "not a sysfs root", err);
	if (start && capture_start(ctx, start, &devpath) != 0)
		goto out;
	ofd = open_target_tmp(out, &tmpout);
	if (ofd < 0)
		goto out;
	snprintf(tmpl, sizeof(tmpl), "%s/sysdev-fixture.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		fail(tmpl, "cannot create a temporary directory", -errno);
		tmpl[0] = '\0';
		goto rm;
	}
	dfd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		fail(tmpl, "cannot open", -errno);
		goto rm;
	}
	err = sysdev_capture_stats_new(&stats);
	if (err >= 0)
		err = sysdev_capture(ctx, devpath, dfd, flags, stats);
	counts_of(stats, &st);
	if (err < 0) {
		fail(start ? start : sysdev_get_root(ctx), "capture failed", err);
		goto rm;
	}
	if (sanitize) {
		struct sanitize_stats sst = {0};

		err = sanitize_tree(dfd, &sst);
		if (err == -ELOOP) {
			/* the sanitizer's depth limit (the archive's too), not a link loop */
			fail(out,
			     "sanitizing failed: the tree is deeper than 4096 directories, the "
			     "limit of an archive",
			     0);
			goto rm;
		}
		if (err < 0) {
			fail(out, "sanitizing failed", err);
			goto rm;
		}
		sanitize_summary(out, &sst);
	}
	err = sysdev_archive_pack(dfd, ofd, 0, stats);
	counts_of(stats, &pst);
	if (err == 0 && close(ofd) < 0)
		err = -errno;
	else if (err < 0)
		close(ofd);
	ofd = -1;
	/* what the archive could not hold is skipped too */
	st.skipped += pst.skipped;
	summary(out, "captured", &st);
	report_left_out(out, &pst);
	if (err < 0 || pst.skipped) {
		if (err < 0)
			fail(out, "pack failed", err);
		else
			fprintf(stderr, "%s: %s: not written: %lu %s could not be packed exactly\n",
				prog, out, pst.skipped, pst.skipped == 1 ? "entry" : "entries");
		goto rm;
	}
	if (rename(tmpout, out) < 0) {
		fail(out, "cannot rename into place", -errno);
		goto rm;
	}
	free(tmpout);
	tmpout = NULL;
	ret = 0;
rm:
	if (ofd >= 0)
		close(ofd);
	if (tmpout)
		unlink(tmpout);
	if (dfd >= 0) {
		remove_below(dfd);
		close(dfd);
	}
	if (tmpl[0])
		rmdir(tmpl);
out:
	free(tmpout);
	free(devpath);
	sysdev_capture_stats_unref(stats);
	sysdev_unref(ctx);
	return ret;
}

static int cmd_export(int argc, char **argv)
{
	struct umockdev_stats st = {0};
	struct sysdev *ctx;
	const char *src;
	int err;

	/* one format today; an option other than --umockdev is bad usage */
	if (argc != 2 || strcmp(argv[0], "--umockdev") != 0 || argv[1][0] == '-') {
		if (argc >= 1 && argv[0][0] == '-' && strcmp(argv[0], "--umockdev") != 0)
			fprintf(stderr, "%s: export: %s: unknown option\n", prog, argv[0]);
		else if (argc == 1) {
			fprintf(stderr,
				"%s: export: %s: no format given: --umockdev is the one there is "
				"(export --umockdev %s)\n",
				prog, argv[0], argv[0]);
			return 2;
		}
		usage(stderr);
		return 2;
	}
	src = argv[1];
	if (root_prepare(prog, &src) < 0)
		return 1;
	err = sysdev_new(src, &ctx);
	if (err < 0)
		return fail(argv[1],
			    "not a sysfs root (a directory holding devices/ or sys/devices/) "
			    "nor an archive",
			    err);
	err = umockdev_export(ctx, stdout, &st);
	sysdev_unref(ctx);
	if (err < 0)
		return fail(argv[1], "export failed", err);
	if (check_stdout() != 0)
		return 1;
	fprintf(stderr,
		"%s: %s: exported %lu %s; left out %lu %s without a subsystem, %lu %s "
		"umockdev cannot hold (not UTF-8, a line break, a node outside /dev), %lu %s "
		"outside the tree, %lu unreadable %s\n",
		prog, argv[1], st.devices, plural(st.devices, "device", "devices"), st.no_subsystem,
		plural(st.no_subsystem, "device", "devices"), st.skipped_names,
		plural(st.skipped_names, "name or value", "names or values"), st.skipped_links,
		plural(st.skipped_links, "link that points", "links that point"), st.unreadable,
		plural(st.unreadable, "file", "files"));
	return 0;
}

static int cmd_import(int argc, char **argv)
{
	struct umockdev_stats st = {0};
	struct umockdev_tree *tree = NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, line = 0;
	int in, out = -1, err, ret = 1;
	bool created = false;

	if (argc != 2 || argv[0][0] == '-' || argv[1][0] == '-') {
		if (argc >= 1 && (argv[0][0] == '-' || (argc > 1 && argv[1][0] == '-')))
			fprintf(stderr, "%s: import: takes no options\n", prog);
		usage(stderr);
		return 2;
	}
	in = open(argv[0], O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0)
		return fail(argv[0], "cannot open", -errno);
	for (;;) {
		ssize_t r;

		if (len == cap) {
			if (cap >= (size_t)256 << 20) {
				close(in);
				free(buf);
				return fail(argv[0], "larger than 256 MiB", 0);
			}
			if (GROW_MIN(buf, cap, len + 1, 1 << 16) < 0) {
				close(in);
				free(buf);
				return fail(argv[0], "out of memory", -ENOMEM);
			}
		}
		r = read(in, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			close(in);
			free(buf);
			return fail(argv[0], "cannot read", err);
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(in);
	err = umockdev_parse(buf, len, &tree, &line, &st);
	free(buf);
	if (err < 0) {
		const char *why = err == -EBADMSG ? "malformed line, or a device without SUBSYSTEM"
				  : err == -EINVAL
				      ? "unsafe path (not below /devices, or with . or ..)"
				  : err == -EEXIST ? "a path that is both a file and a directory"
						   : strerror(-err);

		if (line)
			fprintf(stderr, "%s: %s:%zu: not a umockdev recording: %s\n", prog, argv[0],
				line, why);
		else
			fprintf(stderr, "%s: %s: not a umockdev recording: %s\n", prog, argv[0],
				why);
		return 1;
	}
	if (open_empty_dir(argv[1], &out, &created) != 0) {
		umockdev_tree_free(tree);
		return 1;
	}
	/* made entry by entry below its open parent: a long path is never looked up again */
	err = dir_is_empty(out);
	if (err >= 0)
		err = err == 0 ? -ENOTEMPTY : umockdev_tree_lay_out(tree, out, &line);
	umockdev_tree_free(tree);
	if (err < 0 && err != -ENOTEMPTY) {
		remove_below(out);
		if (created)
			rmdir(argv[1]);
	}
	close(out);
	if (err == -ENOTEMPTY)
		return fail(argv[1], "not empty: importing needs an empty directory", 0);
	if (err < 0)
		return fail(argv[1], "cannot lay out the tree", err);
	if (st.skipped_links)
		fprintf(stderr, "%s: %s: %lu %s outside the tree left out\n", prog, argv[0],
			st.skipped_links,
			plural(st.skipped_links, "link that points", "links that point"));
	if (st.long_links)
		fprintf(stderr,
			"%s: %s: %lu %s left out: their targets are longer than a symbolic "
			"link can hold (%d bytes)\n",
			prog, argv[0], st.long_links, plural(st.long_links, "link", "links"),
			PATH_MAX - 1);
	ret = 0;
	return ret;
}

int main(int argc, char **argv)
{
	struct rlimit rl;

	stdout_track_errors();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return check_stdout();
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", prog, SYSDEV_VERSION);
		return check_stdout();
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
	if (strcmp(argv[1], "export") == 0)
		return cmd_export(argc - 2, argv + 2);
	if (strcmp(argv[1], "import") == 0)
		return cmd_import(argc - 2, argv + 2);
	fprintf(stderr, "%s: %s: unknown command\n", prog, argv[1]);
	usage(stderr);
	return 2;
}
