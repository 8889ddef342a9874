/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev-tree: the command line.  Options, dispatch, and error words. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "device-id.h"
#include "columns.h"
#include "names.h"
#include "output.h"
#include "plural.h"
#include "root-archive.h"

#ifndef SYSDEV_VERSION
#define SYSDEV_VERSION "unknown"
#endif

const char *program_name = "sysdev-tree";

void warnx_(const char *what, const char *fmt, ...)
{
	char *msg;
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_name);
	if (what) {
		fput_text(stderr, what);
		fputs(": ", stderr);
	}
	va_start(ap, fmt);
	/* arguments may be paths or values a person typed: one message stays one line */
	if (vasprintf(&msg, fmt, ap) >= 0) {
		fput_text(stderr, msg);
		free(msg);
	}
	va_end(ap);
	fputc('\n', stderr);
}

const char *error_words(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such file or directory (ENOENT)";
	case -ENODEV:
		return "not a device: no uevent file there (ENODEV)";
	case -EXDEV:
		return "outside the sysfs root (EXDEV)";
	case -EINVAL:
		return "invalid argument (EINVAL)";
	case -EACCES:
		return "permission denied (EACCES)";
	case -EPERM:
		return "operation not permitted (EPERM)";
	case -ENOTDIR:
		return "not a directory (ENOTDIR)";
	case -ELOOP:
		return "too many levels of symbolic links (ELOOP)";
	case -ENAMETOOLONG:
		return "name too long (ENAMETOOLONG)";
	case -ENOMEM:
		return "out of memory (ENOMEM)";
	case -EFBIG:
		return "file too large (EFBIG)";
	case -EMFILE:
		return "too many open files (EMFILE)";
	case -EBADFD:
		return "not a regular file (EBADFD)";
	default:
		return strerror(-err);
	}
}

static char syspath_buf[PATH_MAX * 2];

const char *syspath_of(struct sysdev *ctx, const char *devpath)
{
	const char *root = sysdev_get_root(ctx);

	snprintf(syspath_buf, sizeof(syspath_buf), "%s%s", strcmp(root, "/") ? root : "", devpath);
	return syspath_buf;
}

/* Why a /dev/NODE argument names no device, in one line. */
static void warn_devnode(struct sysdev *ctx, const char *arg)
{
	struct stat st;

	if (stat(arg, &st) < 0)
		warnx_(arg, "no such device node: %s", error_words(-errno));
	else if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		warnx_(arg, "not a device node: expected a block or character device in /dev");
	else
		warnx_(arg, "no device under %s has this node: %s/dev/%s/%u:%u does not exist",
		       sysdev_get_root(ctx),
		       strcmp(sysdev_get_root(ctx), "/") ? sysdev_get_root(ctx) : "",
		       S_ISBLK(st.st_mode) ? "block" : "char", major(st.st_rdev),
		       minor(st.st_rdev));
}

static bool looks_like_subsystem_name(const char *arg)
{
	const char *colon = strchr(arg, ':');

	return colon && colon != arg && colon[1] && !strchr(arg, '/') && arg[0] != '.';
}

int resolve_arg(struct sysdev *ctx, const char *arg, char **devpath)
{
	const char *root = sysdev_get_root(ctx);
	struct sysdev_device *dev;
	struct device_id id;
	char *path = NULL;
	int err;

	*devpath = NULL;
	/* udev's device ids, parsed as the library parses them */
	if (device_id_parse(arg, &id)) {
		err = sysdev_device_new(ctx, arg, &dev);
		if (err < 0 && id.kind == DEVICE_ID_DEVNUM)
			warnx_(arg, "no device has this number: %s/dev/%s/%u:%u: %s",
			       strcmp(root, "/") ? root : "", id.type == 'b' ? "block" : "char",
			       id.major, id.minor, error_words(err));
		else if (err < 0 && id.kind == DEVICE_ID_IFINDEX)
			warnx_(arg,
			       "no network interface has this index: no %s/class/net/* has "
			       "ifindex %u: %s",
			       strcmp(root, "/") ? root : "", id.ifindex, error_words(err));
		else if (err < 0)
			warnx_(arg, "no such device: %s", error_words(err));
		if (err < 0)
			return err;
		*devpath = strdup(dev_str(dev, sysdev_device_get_devpath));
		sysdev_device_unref(dev);
		return *devpath ? 0 : -ENOMEM;
	}
	if (strncmp(arg, "/dev/", 5) == 0 || looks_like_subsystem_name(arg)) {
		err = sysdev_device_new(ctx, arg, &dev);
		if (err == 0) {
			*devpath = strdup(dev_str(dev, sysdev_device_get_devpath));
			sysdev_device_unref(dev);
			return *devpath ? 0 : -ENOMEM;
		}
		if (arg[0] == '/') {
			if (err == -ENOENT)
				warn_devnode(ctx, arg);
			else
				warnx_(arg, "%s", error_words(err));
			return err;
		}
		/* pci0000:00 typed in S/devices is a path, not SUBSYSTEM:NAME */
		if (err != -ENOENT || access(arg, F_OK) != 0) {
			if (err == -ENOENT)
				warnx_(arg,
				       "no such device: S/class/SUBSYSTEM/NAME and "
				       "S/bus/SUBSYSTEM/devices/NAME do not exist under %s",
				       root);
			else
				warnx_(arg, "%s", error_words(err));
			return err;
		}
	}
	err = sysdev_resolve_path(ctx, arg, &path);
	if (err == -EXDEV) {
		warnx_(arg,
		       "outside the sysfs root %s: expected a path below %s/devices, "
		       "SUBSYSTEM:NAME or /dev/NODE (EXDEV)",
		       root, strcmp(root, "/") ? root : "");
		return err;
	}
	if (err == -ENOTDIR) {
		warnx_(arg, "no such device or directory: the path goes through a file (ENOTDIR)");
		return err;
	}
	if (err < 0) {
		warnx_(arg, "%s", error_words(err));
		return err;
	}
	/* the root itself: the whole tree */
	if (strcmp(path, "/") == 0) {
		free(path);
		path = strdup("/devices");
		if (!path)
			return -ENOMEM;
	}
	if (strncmp(path, "/devices", 8) != 0 || (path[8] != '/' && path[8] != '\0')) {
		const char *real = syspath_of(ctx, path);

		warnx_(arg,
		       "not under %s/devices%s%s%s: expected a directory there, "
		       "SUBSYSTEM:NAME or /dev/NODE",
		       strcmp(root, "/") ? root : "", strcmp(real, arg) ? " (it is " : "",
		       strcmp(real, arg) ? real : "", strcmp(real, arg) ? ")" : "");
		free(path);
		return -EXDEV;
	}
	*devpath = path;
	return 0;
}

/* The start of a walk: any directory under S/devices, or any DEVICE form. */
int resolve_start(struct sysdev *ctx, const char *start, char **devpath)
{
	int err = resolve_arg(ctx, start, devpath);

	if (err < 0)
		return err;
	err = sysdev_classify(ctx, *devpath);
	if (err == -ENOTDIR)
		warnx_(start,
		       "a file, not a directory: expected a directory under %s/devices "
		       "(ENOTDIR)",
		       strcmp(sysdev_get_root(ctx), "/") ? sysdev_get_root(ctx) : "");
	else if (err < 0)
		warnx_(start, "%s", error_words(err));
	if (err < 0) {
		free(*devpath);
		*devpath = NULL;
	}
	return err;
}

void warn_root(const char *root, int err)
{
	if (err == -ENOENT)
		warnx_(root, "not a sysfs root: no such directory, or it has no devices/ "
			     "directory (ENOENT)");
	else if (err == -ENOTDIR)
		warnx_(root, "not a sysfs root: not a directory, or its devices/ is not a "
			     "directory (ENOTDIR)");
	else
		warnx_(root, "cannot open sysfs root: %s", error_words(err));
}

int start_or_warn(struct sysdev *ctx, const struct options *o, char **start)
{
	int err;

	*start = NULL;
	if (!o->start)
		return 0;
	err = resolve_start(ctx, o->start, start);
	return err;
}

struct sysdev_device *open_device_or_warn(struct sysdev *ctx, const char *spec)
{
	struct sysdev_device *dev = NULL;
	char *devpath;
	int err = resolve_arg(ctx, spec, &devpath);

	if (err < 0)
		return NULL;
	err = sysdev_device_new_from_devpath(ctx, devpath, &dev);
	if (err == -ENODEV) {
		int kind = sysdev_classify(ctx, devpath);

		if (kind >= 0)
			warnx_(spec, "%s is %s %s, not a device (it has no uevent file)",
			       syspath_of(ctx, devpath),
			       indefinite_article(sysdev_kind_to_string(kind)),
			       sysdev_kind_to_string(kind));
		else
			warnx_(spec, "%s is not a device directory (ENODEV)",
			       syspath_of(ctx, devpath));
	} else if (err < 0) {
		warnx_(spec, "%s", error_words(err));
	}
	free(devpath);
	return dev;
}

bool stdout_closed;

int check_output(void)
{
	static int failed; /* said once: a later check only repeats the status */
	int err;

	if (stdout_closed)
		return 0;
	if (failed)
		return EXIT_RUNTIME;
	err = stdout_write_error();
	if (!err)
		return 0;
	/* the reader went away (| head): not our error, as for lsblk */
	if (err == EPIPE) {
		stdout_closed = true;
		return 0;
	}
	failed = err;
	warnx_("stdout", "write error: %s", strerror(err));
	return EXIT_RUNTIME;
}

/* SYSDEV_NAMES_STATS=1: what the names cost, on stderr (for the benchmark). */
static void names_print_stats(void)
{
	const char *e = getenv("SYSDEV_NAMES_STATS");
	struct names_stats st;

	if (!e || strcmp(e, "1") != 0)
		return;
	names_get_total_stats(&st);
	fflush(stdout);
	fprintf(stderr,
		"%s: names: modalias_reads=%lu distinct_modaliases=%lu database_lookups=%lu "
		"module_links=%lu\n",
		program_name, st.modalias_reads, st.modaliases, st.lookups, st.module_links);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [options] [START]\n"
		"\n"
		"Show the device tree under /sys/devices, each directory classified as\n"
		"root, container, device, class-dir or attr-group (unknown when unreadable).\n"
		"\n"
		"START is a directory under S/devices or a DEVICE: a syspath\n"
		"(/sys/devices/...), a devpath (/devices/...), SUBSYSTEM:NAME (net:eth0),\n"
		"a device node (/dev/vda), or a device id (b8:0 block, c1:3 char,\n"
		"n2 network interface index 2, +net:lo).\n"
		"\n"
		"Output:\n"
		"  -J, --json               print JSON (every mode that prints)\n"
		"  -a, --all                show attribute groups too\n"
		"  -A, --attrs              show attribute names and values of devices\n"
		"  -p, --power              show the power annotation (latency tolerance too)\n"
		"  -d, --depth N            descend at most N levels below START (0 to 8192)\n"
		"  -o, --output LIST        columns to show, comma-separated; +LIST adds to the\n"
		"                           default (tree: NAME,KIND,SUBSYSTEM,DRIVER,DEVNAME;\n"
		"                           lists: DEVPATH,SUBSYSTEM,DRIVER,DEVNAME)\n"
		"      --list-columns       every column with a one-line description\n"
		"  -l, --list               one line per device, columns aligned\n"
		"  -r, --raw                one line per device, values separated by one space\n"
		"  -P, --pairs              one line per device, NAME=\"value\" pairs\n"
		"  -n, --noheadings         no header line\n"
		"  -i, --ascii              draw the tree with ASCII characters\n"
		"      --color[=WHEN]       colour the output: auto (default), always, never\n"
		"\n"
		"Filters (different options: all must hold):\n"
		"  -s, --subsystem NAME     devices of subsystem NAME (repeat: any one)\n"
		"      --driver GLOB        devices whose driver matches (repeat: any one)\n"
		"      --sysname GLOB       devices whose name matches (repeat: any one)\n"
		"      --match KEY=GLOB     a uevent property, or else an attribute, matches\n"
		"                           (repeat: every one)\n"
		"      --unlinked           devices that no S/bus/*/devices or S/class/* entry\n"
		"                           links to\n"
		"  The tree shows the selected devices with their ancestors; no device\n"
		"  selected: nothing printed, exit 1.\n"
		"\n"
		"Questions and actions:\n"
		"      --parents DEVICE     the parent chain of DEVICE up to the root\n"
		"  -E, --explain DIR        which rule makes DIR the kind it is\n"
		"      --properties DEVICE  KEY=VALUE lines as udevadm info -q property,\n"
		"                           with vendor, model and module names\n"
		"      --export             --properties: KEY='VALUE', as udevadm info -x\n"
		"  -S, --stats              the article's measurements, see sysdev(7)\n"
		"      --get-latency-tolerance DEVICE\n"
		"                           print power/pm_qos_latency_tolerance_us\n"
		"      --set-latency-tolerance VALUE DEVICE\n"
		"                           set it: auto, any, or microseconds\n"
		"      --capture DIR        copy the tree (or START) into the empty DIR\n"
		"      --diff OLD NEW       compare two sysfs roots (exit 1 when they differ)\n"
		"      --format FORMAT      text, or json (as --json) in every mode that has it;\n"
		"                           --stats: openmetrics (Prometheus) too;\n"
		"                           --diff: jsonl (one change a line) too\n"
		"      --check-udev         compare the walk with libudev's enumeration\n"
		"      --watch              one line per kernel uevent (JSON lines with -J)\n"
		"\n"
		"      --root ROOT          the sysfs root (default /sys): a directory holding\n"
		"                           devices/, a system root holding sys/devices/, or\n"
		"                           a .sysfs archive (unpacked privately, then removed)\n"
		"  -h, --help               show this help\n"
		"  -V, --version            show the version\n"
		"\n"
		"DEVICE and DIR may also follow the options as the positional argument.\n"
		"\n"
		"Exit status: 0 success (also when the reader of the output goes away),\n"
		"1 runtime error, 2 bad usage; --diff and --check-udev: 1 when they differ.\n"
		"See sysdev-tree(1).\n",
		program_name);
}

enum {
	OPT_COLOR = 0x100,
	OPT_SET_LT,
	OPT_GET_LT,
	OPT_CAPTURE,
	OPT_DIFF,
	OPT_CHECK_UDEV,
	OPT_WATCH,
	OPT_FORMAT,
	OPT_ROOT,
	OPT_PARENTS,
	OPT_LIST_COLUMNS,
	OPT_DRIVER,
	OPT_SYSNAME,
	OPT_MATCH,
	OPT_UNLINKED,
	OPT_PROPERTIES,
	OPT_EXPORT,
};

/* Decimal digits only: no sign, no blank on either side, 0..SYSDEV_MAX_DEPTH. */
static int parse_depth(const char *arg, int *out)
{
	long v = 0;

	if (!*arg)
		return -EINVAL;
	for (const char *p = arg; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (*p - '0');
		if (v > SYSDEV_MAX_DEPTH)
			return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

/*
 * getopt_long() refuses an abbreviation that more than one option begins
 * with, but with opterr = 0 it says only '?': say what getopt's own message
 * says ("option '--ex' is ambiguous; possibilities: '--explain'
 * '--export'").  Spellings of one option (--color, --colour) are one.
 * Returns whether @arg ("--NAME" or "--NAME=VALUE") was ambiguous.
 */
static bool warn_ambiguous(const struct option *longopts, const char *arg)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *first = NULL;
	bool ambiguous = false;

	for (const struct option *p = longopts; p->name; p++) {
		if (strncmp(p->name, name, len) != 0)
			continue;
		if (strlen(p->name) == len)
			return false; /* an exact match is never ambiguous */
		if (!first)
			first = p;
		else if (p->has_arg != first->has_arg || p->val != first->val)
			ambiguous = true;
	}
	if (!ambiguous || len == 0)
		return false;
	fflush(stdout);
	fprintf(stderr, "%s: option '--%.*s' is ambiguous; possibilities:", program_name, (int)len,
		name);
	for (const struct option *p = longopts; p->name; p++)
		if (strncmp(p->name, name, len) == 0)
			fprintf(stderr, " '--%s'", p->name);
	fputc('\n', stderr);
	return true;
}

/* Options that modify a mode; each mode accepts a set of them. */
enum {
	GIVEN_ROOT = 1u << 0,
	GIVEN_JSON = 1u << 1,
	GIVEN_ALL = 1u << 2,
	GIVEN_ATTRS = 1u << 3,
	GIVEN_POWER = 1u << 4,
	GIVEN_DEPTH = 1u << 5,
	GIVEN_SUBSYSTEM = 1u << 6,
	GIVEN_START = 1u << 7,
	GIVEN_FORMAT = 1u << 8,
	GIVEN_OUTPUT = 1u << 9,
	GIVEN_LIST = 1u << 10,
	GIVEN_RAW = 1u << 11,
	GIVEN_PAIRS = 1u << 12,
	GIVEN_NOHEADINGS = 1u << 13,
	GIVEN_ASCII = 1u << 14,
	GIVEN_DRIVER = 1u << 15,
	GIVEN_SYSNAME = 1u << 16,
	GIVEN_MATCH = 1u << 17,
	GIVEN_UNLINKED = 1u << 18,
	GIVEN_EXPORT = 1u << 19,
};
#define GIVEN_FILTERS                                                                              \
	(GIVEN_SUBSYSTEM | GIVEN_DRIVER | GIVEN_SYSNAME | GIVEN_MATCH | GIVEN_UNLINKED)

static const char *const given_names[] = {
    "--root",  "--json",   "--all",	"--attrs", "--power",	 "--depth", "--subsystem",
    "START",   "--format", "--output",	"--list",  "--raw",	 "--pairs", "--noheadings",
    "--ascii", "--driver", "--sysname", "--match", "--unlinked", "--export"};

struct mode {
	const char *name; /* NULL: the tree */
	unsigned accepts;
};

/* A mode in a message: its option, or "the tree". */
static const char *mode_name(const struct mode *m)
{
	return m->name ? m->name : "the tree";
}

/*
 * A closed stdin, stdout or stderr would be the next descriptor open()
 * returns: the walk's, or a file --capture writes, would then receive our
 * output.  Park /dev/null there, read-only, so that writes to a closed
 * stdout or stderr still fail (EBADF) as they would have.
 */
static void guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int nfd = open("/dev/null", O_RDONLY | O_NOCTTY);

		if (nfd >= 0 && nfd != fd) {
			/* a lower one was closed too and got it: it is guarded as well */
			dup2(nfd, fd);
			if (nfd > 2)
				close(nfd);
		}
	}
}

static void raise_fd_limit(void)
{
	struct rlimit rl;

	/* one descriptor per level of the walk: deep trees need more than 1024 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"root", required_argument, NULL, OPT_ROOT},
	    {"json", no_argument, NULL, 'J'},
	    {"all", no_argument, NULL, 'a'},
	    {"attrs", no_argument, NULL, 'A'},
	    {"power", no_argument, NULL, 'p'},
	    {"depth", required_argument, NULL, 'd'},
	    {"subsystem", required_argument, NULL, 's'},
	    {"driver", required_argument, NULL, OPT_DRIVER},
	    {"sysname", required_argument, NULL, OPT_SYSNAME},
	    {"match", required_argument, NULL, OPT_MATCH},
	    {"unlinked", no_argument, NULL, OPT_UNLINKED},
	    {"output", required_argument, NULL, 'o'},
	    {"list-columns", no_argument, NULL, OPT_LIST_COLUMNS},
	    {"list", no_argument, NULL, 'l'},
	    {"raw", no_argument, NULL, 'r'},
	    {"pairs", no_argument, NULL, 'P'},
	    {"noheadings", no_argument, NULL, 'n'},
	    {"ascii", no_argument, NULL, 'i'},
	    /* optional: "--parents --json DEVICE" must not take --json for DEVICE */
	    {"parents", optional_argument, NULL, OPT_PARENTS},
	    {"explain", optional_argument, NULL, 'E'},
	    {"stats", no_argument, NULL, 'S'},
	    {"color", optional_argument, NULL, OPT_COLOR},
	    {"colour", optional_argument, NULL, OPT_COLOR},
	    {"set-latency-tolerance", required_argument, NULL, OPT_SET_LT},
	    {"get-latency-tolerance", optional_argument, NULL, OPT_GET_LT},
	    {"capture", required_argument, NULL, OPT_CAPTURE},
	    {"diff", no_argument, NULL, OPT_DIFF},
	    {"check-udev", no_argument, NULL, OPT_CHECK_UDEV},
	    {"watch", no_argument, NULL, OPT_WATCH},
	    {"format", required_argument, NULL, OPT_FORMAT},
	    {"properties", optional_argument, NULL, OPT_PROPERTIES},
	    {"export", no_argument, NULL, OPT_EXPORT},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {0},
	};
	/* what each mode does with the modifying options; the others are refused */
	static const struct mode tree = {
	    NULL, GIVEN_ROOT | GIVEN_JSON | GIVEN_ALL | GIVEN_ATTRS | GIVEN_POWER | GIVEN_DEPTH |
		      GIVEN_FILTERS | GIVEN_START | GIVEN_OUTPUT | GIVEN_NOHEADINGS | GIVEN_ASCII};
	/* -l, -r, -P: one line per device, in the walk's order */
	static const struct mode list = {"--list", GIVEN_ROOT | GIVEN_JSON | GIVEN_FILTERS |
						       GIVEN_START | GIVEN_OUTPUT | GIVEN_LIST |
						       GIVEN_RAW | GIVEN_PAIRS | GIVEN_NOHEADINGS};
	static const struct mode list_columns = {"--list-columns", GIVEN_ROOT | GIVEN_JSON};
	static const struct mode parents = {"--parents",
					    GIVEN_ROOT | GIVEN_JSON | GIVEN_ATTRS | GIVEN_POWER};
	static const struct mode explain = {"--explain", GIVEN_ROOT | GIVEN_JSON};
	static const struct mode properties = {"--properties",
					       GIVEN_ROOT | GIVEN_JSON | GIVEN_EXPORT};
	static const struct mode stats = {"--stats", GIVEN_ROOT | GIVEN_JSON | GIVEN_FORMAT};
	static const struct mode get_lt = {"--get-latency-tolerance", GIVEN_ROOT | GIVEN_JSON};
	static const struct mode set_lt = {"--set-latency-tolerance", GIVEN_ROOT};
	static const struct mode capture = {"--capture", GIVEN_ROOT | GIVEN_START};
	/* --all: the moves a moved parent carried, one line each */
	static const struct mode diff_mode = {"--diff",
					      GIVEN_JSON | GIVEN_ATTRS | GIVEN_FORMAT | GIVEN_ALL};
	static const struct mode check_udev = {"--check-udev", GIVEN_ROOT | GIVEN_JSON | GIVEN_ALL};
	static const struct mode watch = {"--watch", GIVEN_JSON | GIVEN_SUBSYSTEM | GIVEN_DRIVER |
							 GIVEN_SYSNAME | GIVEN_MATCH};
	const struct mode *mode = &tree;
	const char **want_arg = NULL; /* a mode's DEVICE given as the positional argument */
	/*
	 * The options live as long as the process: static, so that the lists
	 * they hold stay reachable on the many early exits (a usage error
	 * returns at once) and are freed at the normal end.
	 */
	static struct options o = {.depth = -1};
	static const char **lists;
	const char *output = NULL;
	enum color_mode color = COLOR_AUTO;
	struct stat st;
	struct sysdev *ctx = NULL;
	int c, err, modes = 0, ret, cur = 1;
	unsigned given = 0, accepts;
	bool diff = false;

	guard_std_fds();
	/* room for every argument in each filter list */
	lists = calloc(4 * (size_t)argc, sizeof(*lists));
	if (!lists)
		return EXIT_RUNTIME;
	o.subsystems = lists;
	o.drivers = lists + argc;
	o.sysnames = lists + 2 * argc;
	o.matches = lists + 3 * argc;
	/* the tree is drawn with ASCII where the locale's charset is not UTF-8 */
	setlocale(LC_CTYPE, "");
	o.ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if (stdout_track_errors() < 0)
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	signal(SIGPIPE, SIG_IGN);
	/* our own messages: getopt's start with argv[0], a full path when run so */
	opterr = 0;
	while ((cur = optind,
		c = getopt_long(argc, argv, ":JaApd:s:E:Sho:lrPniV", longopts, NULL)) != -1) {
		switch (c) {
		case ':':
		case '?': {
			char shortopt[3] = {'-', (char)optopt, '\0'};
			const char *what =
			    cur < argc && strncmp(argv[cur], "--", 2) == 0 ? argv[cur] : shortopt;

			if (c == '?' && what == argv[cur] && warn_ambiguous(longopts, what)) {
				fprintf(stderr, "Try '%s --help' for more information.\n",
					program_name);
				return EXIT_USAGE;
			}
			warnx_(
			    what, "%s",
			    c == ':'
				? "this option needs an argument"
				: "unknown option, or a value given to an option that takes none");
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		case OPT_ROOT:
			o.root = optarg;
			given |= GIVEN_ROOT;
			break;
		case 'o':
			output = optarg;
			given |= GIVEN_OUTPUT;
			break;
		case OPT_LIST_COLUMNS:
			mode = &list_columns;
			modes++;
			break;
		case 'l':
			if (o.list_format == FORMAT_TREE)
				o.list_format = FORMAT_LIST;
			given |= GIVEN_LIST;
			break;
		case 'r':
		case 'P':
			if (o.list_format > FORMAT_LIST &&
			    o.list_format != (c == 'r' ? FORMAT_RAW : FORMAT_PAIRS)) {
				warnx_(NULL, "choose one of --raw and --pairs");
				return EXIT_USAGE;
			}
			o.list_format = c == 'r' ? FORMAT_RAW : FORMAT_PAIRS;
			given |= c == 'r' ? GIVEN_RAW : GIVEN_PAIRS;
			break;
		case 'n':
			o.noheadings = true;
			given |= GIVEN_NOHEADINGS;
			break;
		case 'i':
			o.ascii = true;
			given |= GIVEN_ASCII;
			break;
		case OPT_DRIVER:
			o.drivers[o.n_drivers++] = optarg;
			given |= GIVEN_DRIVER;
			break;
		case OPT_SYSNAME:
			o.sysnames[o.n_sysnames++] = optarg;
			given |= GIVEN_SYSNAME;
			break;
		case OPT_MATCH:
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				warnx_("--match", "'%s' is not KEY=GLOB", optarg);
				return EXIT_USAGE;
			}
			o.matches[o.n_matches++] = optarg;
			given |= GIVEN_MATCH;
			break;
		case OPT_UNLINKED:
			o.unlinked = true;
			given |= GIVEN_UNLINKED;
			break;
		case 'J':
			o.json = true;
			given |= GIVEN_JSON;
			break;
		case 'a':
			o.all = true;
			given |= GIVEN_ALL;
			break;
		case 'A':
			o.attrs = true;
			given |= GIVEN_ATTRS;
			break;
		case 'p':
			o.power = true;
			given |= GIVEN_POWER;
			break;
		case 'd':
			if (parse_depth(optarg, &o.depth) < 0) {
				warnx_("--depth", "'%s' is not a number from 0 to %d", optarg,
				       SYSDEV_MAX_DEPTH);
				return EXIT_USAGE;
			}
			given |= GIVEN_DEPTH;
			break;
		case 's':
			o.subsystems[o.n_subsystems++] = optarg;
			given |= GIVEN_SUBSYSTEM;
			break;
		case OPT_PARENTS:
			o.parents = optarg;
			if (!optarg)
				want_arg = &o.parents;
			mode = &parents;
			modes++;
			break;
		case 'E':
			o.explain = optarg;
			if (!optarg)
				want_arg = &o.explain;
			mode = &explain;
			modes++;
			break;
		case OPT_PROPERTIES:
			o.properties = optarg;
			if (!optarg)
				want_arg = &o.properties;
			mode = &properties;
			modes++;
			break;
		case OPT_EXPORT:
			o.export_values = true;
			given |= GIVEN_EXPORT;
			break;
		case 'S':
			o.stats = true;
			mode = &stats;
			modes++;
			break;
		case OPT_COLOR:
			if (!optarg || strcmp(optarg, "auto") == 0)
				color = COLOR_AUTO;
			else if (strcmp(optarg, "always") == 0)
				color = COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				color = COLOR_NEVER;
			else {
				warnx_("--color", "'%s': expected auto, always or never", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_SET_LT:
			o.set_lt_value = optarg;
			mode = &set_lt;
			modes++;
			break;
		case OPT_GET_LT:
			o.lt_device = optarg;
			if (!optarg)
				want_arg = &o.lt_device;
			o.get_lt = true;
			mode = &get_lt;
			modes++;
			break;
		case OPT_CAPTURE:
			o.capture_dir = optarg;
			mode = &capture;
			modes++;
			break;
		case OPT_DIFF:
			/* OLD and NEW are the positional arguments, so options may follow */
			diff = true;
			mode = &diff_mode;
			modes++;
			break;
		case OPT_FORMAT:
			o.format = optarg;
			given |= GIVEN_FORMAT;
			break;
		case OPT_CHECK_UDEV:
			o.check_udev = true;
			mode = &check_udev;
			modes++;
			break;
		case OPT_WATCH:
			o.watch = true;
			mode = &watch;
			modes++;
			break;
		case 'h':
			usage(stdout);
			return check_output();
		case 'V':
			printf("%s %s\n", program_name, SYSDEV_VERSION);
			return check_output();
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
	}
	if (modes > 1) {
		warnx_(NULL,
		       "choose one of --parents, --explain, --properties, --stats, --capture, "
		       "--diff, --check-udev, --watch, --list-columns, "
		       "--get-/--set-latency-tolerance");
		return EXIT_USAGE;
	}
	if (mode == &tree && o.list_format != FORMAT_TREE)
		mode = &list;
	if (o.set_lt_value) {
		if (optind + 1 != argc) {
			warnx_("--set-latency-tolerance", "needs VALUE and DEVICE");
			return EXIT_USAGE;
		}
		o.lt_device = argv[optind++];
	} else if (diff) {
		if (optind + 2 != argc) {
			warnx_("--diff", "needs OLD and NEW");
			return EXIT_USAGE;
		}
		o.diff_old = argv[optind++];
		o.diff_new = argv[optind++];
	} else if (want_arg) {
		if (optind + 1 != argc) {
			if (optind == argc)
				warnx_(mode->name, "needs a DEVICE");
			else
				warnx_(argv[optind + 1], "unexpected argument: %s takes one DEVICE",
				       mode->name);
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		*want_arg = argv[optind++];
	} else if (optind < argc) {
		o.start = argv[optind++];
		given |= GIVEN_START;
	}
	if (optind < argc) {
		warnx_(argv[optind], "unexpected argument: %s takes %s", mode_name(mode),
		       mode == &tree || mode == &list || mode == &capture ? "one START"
									  : "no more");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	accepts = mode->accepts;
	if (accepts & GIVEN_JSON)
		accepts |=
		    GIVEN_FORMAT; /* --format=json is --json, --format=text the plain output */
	for (unsigned i = 0; i < sizeof(given_names) / sizeof(given_names[0]); i++) {
		if ((given & (1u << i)) && !(accepts & (1u << i))) {
			if (1u << i == GIVEN_START)
				warnx_(o.start, "unexpected argument: %s takes no START",
				       mode->name);
			else
				warnx_(given_names[i], "cannot be used with %s", mode_name(mode));
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
	}
	if (o.format) {
		/*
		 * text and json are every mode's plain and --json output, as
		 * --format=json is --json; openmetrics and jsonl are --stats's and
		 * --diff's own.
		 */
		bool ok = strcmp(o.format, "text") == 0 || strcmp(o.format, "json") == 0 ||
			  (mode == &stats && strcmp(o.format, "openmetrics") == 0) ||
			  (mode == &diff_mode && strcmp(o.format, "jsonl") == 0);

		if (!ok) {
			warnx_("--format", "'%s' is not a format of %s: expected text or json%s",
			       o.format, mode_name(mode),
			       mode == &stats	    ? " (or openmetrics)"
			       : mode == &diff_mode ? " (or jsonl)"
						    : "");
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		if (o.json && strcmp(o.format, "json") != 0) {
			warnx_("--json", "cannot be used with --format=%s", o.format);
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		if (strcmp(o.format, "json") == 0)
			o.json = true;
	}
	if (mode == &list_columns)
		return cmd_list_columns(o.json) ?: check_output();
	if (o.json && o.list_format > FORMAT_LIST) {
		warnx_(o.format ? "--format=json" : "--json", "cannot be used with %s",
		       o.list_format == FORMAT_RAW ? "--raw" : "--pairs");
		return EXIT_USAGE;
	}
	if (mode == &tree && o.json && output) {
		warnx_("--output", "cannot be used with the tree's --json (it holds every field): "
				   "--list --json shows columns");
		return EXIT_USAGE;
	}
	if ((mode == &tree || mode == &list) &&
	    columns_parse(output, mode == &list ? COLUMNS_LIST_DEFAULT : COLUMNS_TREE_DEFAULT,
			  &o.cols, &o.n_cols) < 0)
		return EXIT_USAGE;
	if (o.export_values && o.json) {
		warnx_("--export", "cannot be used with --json");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	if (o.set_lt_value && sysdev_parse_latency_tolerance(o.set_lt_value, NULL) < 0) {
		warnx_(o.set_lt_value,
		       "invalid latency tolerance: expected auto, any, or a number of "
		       "microseconds from 0 to %d (EINVAL)",
		       SYSDEV_LT_MAX_US);
		return EXIT_USAGE;
	}
	if (color == COLOR_ALWAYS)
		o.color = true;
	else if (color == COLOR_AUTO) {
		const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

		o.color = isatty(STDOUT_FILENO) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
	}
	raise_fd_limit();

	/* an archive root is read-only: a write would go to a private copy, removed on exit */
	if (o.set_lt_value && o.root && stat(o.root, &st) == 0 && S_ISREG(st.st_mode)) {
		warnx_(o.root,
		       "a .sysfs archive is read-only: --set-latency-tolerance would change "
		       "only a private copy that is removed on exit (EROFS)");
		return EXIT_RUNTIME;
	}
	/* an archive as a root: unpacked privately, removed on every exit */
	o.diff_old_label = o.diff_old;
	o.diff_new_label = o.diff_new;
	if (root_prepare(program_name, &o.root) < 0 ||
	    (o.diff_old && (root_prepare(program_name, &o.diff_old) < 0 ||
			    root_prepare(program_name, &o.diff_new) < 0)))
		return EXIT_RUNTIME;
	if (o.diff_old) {
		ret = cmd_diff(&o);
		return stdout_closed ? 0 : ret;
	}

	err = sysdev_new(o.root, &ctx);
	if (err < 0) {
		/* an empty --root names nothing: say which argument it was */
		const char *root = !o.root ? "/sys" : *o.root ? o.root : "--root ''";

		warn_root(root, err);
		return EXIT_RUNTIME;
	}
	if (o.stats && o.format && strcmp(o.format, "openmetrics") == 0)
		ret = cmd_stats_openmetrics(ctx, &o);
	else if (o.stats)
		ret = cmd_stats(ctx, &o);
	else if (o.parents)
		ret = cmd_parents(ctx, &o);
	else if (o.explain)
		ret = cmd_explain(ctx, &o);
	else if (o.properties)
		ret = cmd_properties(ctx, &o);
	else if (o.lt_device)
		ret = cmd_latency_tolerance(ctx, &o);
	else if (o.capture_dir)
		ret = cmd_capture(ctx, &o);
	else if (o.check_udev)
		ret = cmd_check_udev(ctx, &o);
	else if (o.watch)
		ret = cmd_watch(ctx, &o);
	else if (mode == &list)
		ret = cmd_list(ctx, &o);
	else if (o.json)
		ret = cmd_json(ctx, &o);
	else
		ret = cmd_tree(ctx, &o);
	sysdev_unref(ctx);
	free(o.cols);
	free(lists);
	names_print_stats();
	if (ret == 0)
		ret = check_output();
	else
		check_output();
	return stdout_closed ? 0 : ret;
}
