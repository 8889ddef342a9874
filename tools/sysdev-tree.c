/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev-tree: the command line.  Options, dispatch, and error words. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"

#ifndef SYSDEV_VERSION
#define SYSDEV_VERSION "unknown"
#endif

const char *program_name = "sysdev-tree";

void warnx_(const char *what, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_name);
	if (what) {
		fput_text(stderr, what);
		fputs(": ", stderr);
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
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
	default:
		return strerror(-err);
	}
}

static char syspath_buf[PATH_MAX * 2];

const char *syspath_of(struct sysdev *ctx, const char *devpath)
{
	const char *root = sysdev_get_root(ctx);

	snprintf(syspath_buf, sizeof(syspath_buf), "%s%s", strcmp(root, "/") ? root : "",
		 devpath);
	return syspath_buf;
}

/* The start of a walk: any directory under S/devices, or any DEVICE form. */
int resolve_start(struct sysdev *ctx, const char *start, char **devpath)
{
	const char *root = sysdev_get_root(ctx);
	size_t rlen = strlen(root);
	struct sysdev_device *dev;
	const char *rel = NULL;
	int err;

	if (strcmp(root, "/") != 0 && strncmp(start, root, rlen) == 0 &&
	    strncmp(start + rlen, "/devices", 8) == 0)
		rel = start + rlen;
	else if (strncmp(start, "/sys/devices", 12) == 0)
		rel = start + 4;
	else if (strncmp(start, "/devices", 8) == 0)
		rel = start;
	if (rel && (rel[8] == '/' || rel[8] == '\0')) {
		size_t len = strlen(rel);

		*devpath = strdup(rel);
		if (!*devpath)
			return -ENOMEM;
		while (len > 8 && (*devpath)[len - 1] == '/')
			(*devpath)[--len] = '\0';
		err = sysdev_classify(ctx, *devpath);
		if (err < 0) {
			free(*devpath);
			*devpath = NULL;
			return err;
		}
		return 0;
	}
	err = sysdev_device_new(ctx, start, &dev);
	if (err < 0)
		return err;
	*devpath = strdup(sysdev_device_get_devpath(dev));
	sysdev_device_unref(dev);
	return *devpath ? 0 : -ENOMEM;
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
	if (err < 0)
		warnx_(o->start, "%s", error_words(err));
	return err;
}

struct sysdev_device *open_device_or_warn(struct sysdev *ctx, const char *spec)
{
	struct sysdev_device *dev;
	int err = sysdev_device_new(ctx, spec, &dev);

	if (err == 0)
		return dev;
	if (err == -EINVAL)
		warnx_(spec, "not a device name: expected /sys/devices/..., /devices/..., "
			     "SUBSYSTEM:NAME or /dev/NODE");
	else if (err == -ENOENT)
		warnx_(spec, "no such device under %s", sysdev_get_root(ctx));
	else
		warnx_(spec, "%s", error_words(err));
	return NULL;
}

int check_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return EXIT_RUNTIME;
		warnx_("stdout", "write error: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [options] [START]\n"
		"\n"
		"Show the device tree under /sys/devices, each directory classified as\n"
		"root, container, device, class-dir or attr-group.\n"
		"\n"
		"START is a directory under S/devices or a DEVICE: a syspath\n"
		"(/sys/devices/...), a devpath (/devices/...), SUBSYSTEM:NAME (net:eth0),\n"
		"or a device node (/dev/vda).\n"
		"\n"
		"Output:\n"
		"  -J, --json               print JSON\n"
		"  -a, --all                show attribute groups too\n"
		"  -A, --attrs              show attribute names and values of devices\n"
		"  -p, --power              show the power annotation (latency tolerance too)\n"
		"  -d, --depth N            descend at most N directory levels below START\n"
		"  -s, --subsystem NAME     list only devices of subsystem NAME\n"
		"      --color[=WHEN]       colour the output: auto (default), always, never\n"
		"\n"
		"Questions and actions:\n"
		"  -P, --parents DEVICE     the parent chain of DEVICE up to the root\n"
		"  -E, --explain PATH       which rule makes PATH the kind it is\n"
		"  -S, --stats              the article's measurements (SPEC section 4)\n"
		"      --get-latency-tolerance DEVICE\n"
		"                           print power/pm_qos_latency_tolerance_us\n"
		"      --set-latency-tolerance VALUE DEVICE\n"
		"                           set it: auto, any, or microseconds\n"
		"      --capture DIR        copy the tree (or START) into the empty DIR\n"
		"      --diff OLD NEW       compare two sysfs roots (exit 1 when they differ)\n"
		"      --check-udev         compare the walk with libudev's enumeration\n"
		"\n"
		"  -r, --root DIR           the sysfs root (default /sys)\n"
		"  -h, --help               show this help\n"
		"  -V, --version            show the version\n"
		"\n"
		"Exit status: 0 success, 1 runtime error, 2 bad usage.\n"
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
};

static int parse_depth(const char *arg, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > SYSDEV_MAX_DEPTH)
		return -EINVAL;
	*out = (int)v;
	return 0;
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
		{"root", required_argument, NULL, 'r'},
		{"json", no_argument, NULL, 'J'},
		{"all", no_argument, NULL, 'a'},
		{"attrs", no_argument, NULL, 'A'},
		{"power", no_argument, NULL, 'p'},
		{"depth", required_argument, NULL, 'd'},
		{"subsystem", required_argument, NULL, 's'},
		{"parents", required_argument, NULL, 'P'},
		{"explain", required_argument, NULL, 'E'},
		{"stats", no_argument, NULL, 'S'},
		{"color", optional_argument, NULL, OPT_COLOR},
		{"colour", optional_argument, NULL, OPT_COLOR},
		{"set-latency-tolerance", required_argument, NULL, OPT_SET_LT},
		{"get-latency-tolerance", required_argument, NULL, OPT_GET_LT},
		{"capture", required_argument, NULL, OPT_CAPTURE},
		{"diff", no_argument, NULL, OPT_DIFF},
		{"check-udev", no_argument, NULL, OPT_CHECK_UDEV},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	struct options o = {.depth = -1};
	enum color_mode color = COLOR_AUTO;
	struct sysdev *ctx = NULL;
	int c, err, modes = 0, ret, cur = 1;
	bool diff = false;

	guard_std_fds();
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	signal(SIGPIPE, SIG_IGN);
	/* our own messages: getopt's start with argv[0], a full path when run so */
	opterr = 0;
	while ((cur = optind, c = getopt_long(argc, argv, ":r:JaApd:s:P:E:ShV", longopts, NULL)) != -1) {
		switch (c) {
		case ':':
		case '?': {
			char shortopt[3] = {'-', (char)optopt, '\0'};
			const char *what = cur < argc && strncmp(argv[cur], "--", 2) == 0 ? argv[cur]
											   : shortopt;

			warnx_(what, "%s", c == ':' ? "this option needs an argument"
					       : "unknown option, or a value given to an option that takes none");
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		case 'r':
			o.root = optarg;
			break;
		case 'J':
			o.json = true;
			break;
		case 'a':
			o.all = true;
			break;
		case 'A':
			o.attrs = true;
			break;
		case 'p':
			o.power = true;
			break;
		case 'd':
			if (parse_depth(optarg, &o.depth) < 0) {
				warnx_("--depth", "'%s' is not a number from 0 to %d", optarg,
				       SYSDEV_MAX_DEPTH);
				return EXIT_USAGE;
			}
			break;
		case 's':
			o.subsystem = optarg;
			break;
		case 'P':
			o.parents = optarg;
			modes++;
			break;
		case 'E':
			o.explain = optarg;
			modes++;
			break;
		case 'S':
			o.stats = true;
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
			modes++;
			break;
		case OPT_GET_LT:
			o.lt_device = optarg;
			o.get_lt = true;
			modes++;
			break;
		case OPT_CAPTURE:
			o.capture_dir = optarg;
			modes++;
			break;
		case OPT_DIFF:
			/* OLD and NEW are the positional arguments, so options may follow */
			diff = true;
			modes++;
			break;
		case OPT_CHECK_UDEV:
			o.check_udev = true;
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
		warnx_(NULL, "choose one of --parents, --explain, --stats, --capture, --diff, "
			     "--check-udev, --get-/--set-latency-tolerance");
		return EXIT_USAGE;
	}
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
	} else if (optind < argc) {
		o.start = argv[optind++];
	}
	if (optind < argc) {
		warnx_(argv[optind], "unexpected argument");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	if (color == COLOR_ALWAYS)
		o.color = true;
	else if (color == COLOR_AUTO) {
		const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

		o.color = isatty(STDOUT_FILENO) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
	}
	raise_fd_limit();

	if (o.diff_old)
		return cmd_diff(&o);

	err = sysdev_new(o.root, &ctx);
	if (err < 0) {
		/* an empty --root names nothing: say which argument it was */
		const char *root = !o.root ? "/sys" : *o.root ? o.root : "--root ''";

		warn_root(root, err);
		return EXIT_RUNTIME;
	}
	if (o.stats)
		ret = cmd_stats(ctx, &o);
	else if (o.parents)
		ret = cmd_parents(ctx, &o);
	else if (o.explain)
		ret = cmd_explain(ctx, &o);
	else if (o.lt_device)
		ret = cmd_latency_tolerance(ctx, &o);
	else if (o.capture_dir)
		ret = cmd_capture(ctx, &o);
	else if (o.check_udev)
		ret = cmd_check_udev(ctx, &o);
	else if (o.subsystem)
		ret = cmd_list_subsystem(ctx, &o);
	else if (o.json)
		ret = cmd_json(ctx, &o);
	else
		ret = cmd_tree(ctx, &o);
	sysdev_unref(ctx);
	if (ret == 0)
		ret = check_output();
	else
		check_output();
	return ret;
}
