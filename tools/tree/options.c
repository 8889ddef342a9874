/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev-tree's command line: getopt over main's option table, each mode's
 * options checked against main's mode table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "options.h"

#ifndef SYSDEV_VERSION
#define SYSDEV_VERSION "unknown"
#endif

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
		"  -O, --output-all         every column of --list-columns\n"
		"                           (ATTR:NAME, PROP:KEY: an attribute, a property)\n"
		"  -x, --sort COLUMN        sort the lists, or each node's children in the\n"
		"                           tree, by COLUMN (numbers by value)\n"
		"  -w, --width N            -l: lines of at most N columns (default: the\n"
		"                           terminal's), the widest column truncated\n"
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
		"      --tag TAG            devices udev has tagged TAG (repeat: any one)\n"
		"      --initialized-match, --initialized-nomatch\n"
		"                           devices udev has (not) initialized\n"
		"  -s NAME/DEVTYPE          devices of subsystem NAME whose DEVTYPE is DEVTYPE\n"
		"      --subsystem-nomatch NAME\n"
		"      --sysname-nomatch GLOB\n"
		"      --driver-nomatch GLOB\n"
		"      --nomatch KEY=GLOB   leave out the devices that match (repeat: any one);\n"
		"                           a device that lacks the field is kept\n"
		"  The tree shows the selected devices with their ancestors; no device\n"
		"  selected: nothing printed, exit 1.\n"
		"\n"
		"Questions and actions:\n"
		"      --parents DEVICE...  the parent chain of each DEVICE up to the root\n"
		"  -E, --explain DIR...     which rule makes each DIR the kind it is\n"
		"      --properties [DEVICE...]\n"
		"                           KEY=VALUE lines as udevadm info -q property,\n"
		"                           with vendor, model and module names; several\n"
		"                           DEVICEs, filters or none (every device): a block\n"
		"                           each, a blank line between\n"
		"      --export             --properties: KEY='VALUE', as udevadm info -x\n"
		"      --property KEY[,KEY...]\n"
		"                           --properties: only these keys (repeat: more)\n"
		"      --value              --properties: the values alone, one a line\n"
		"  -S, --stats              the article's measurements, see sysdev(7)\n"
		"      --get-latency-tolerance DEVICE\n"
		"                           print power/pm_qos_latency_tolerance_us\n"
		"      --set-latency-tolerance VALUE DEVICE\n"
		"                           set it: auto, any, or microseconds\n"
		"      --capture DIR        copy the tree (or START) into the empty DIR\n"
		"      --diff OLD NEW       compare two sysfs roots (exit 1 when they differ)\n"
		"      --format FORMAT      text, or json (as --json) in every mode that has it;\n"
		"                           the tree: dot (a Graphviz graph) too;\n"
		"                           --stats: openmetrics (Prometheus) too;\n"
		"                           --diff: jsonl (one change a line) too\n"
		"      --check-udev         compare the walk with libudev's enumeration\n"
		"      --watch              one line per kernel uevent (JSON lines with -J);\n"
		"                           a loss is one line, then what changed meanwhile\n"
		"      --udev               --watch: udevd's events instead of the kernel's\n"
		"      --properties         --watch: each event's properties too\n"
		"      --receive-buffer BYTES\n"
		"                           --watch: the socket's buffer (default 128M)\n"
		"  --watch filters: -s SUBSYSTEM[/DEVTYPE], --driver, --sysname, --match\n"
		"\n"
		"      --root ROOT          the sysfs root (default /sys): a directory holding\n"
		"                           devices/, a system root holding sys/devices/, or\n"
		"                           a .sysfs archive (unpacked privately, then removed)\n"
		"      --udev-db DIR|none   udev's database (default: S/run/udev, else\n"
		"                           S/../run/udev, as /run/udev for /sys)\n"
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

/* The GIVEN_* bits (options.h): GIVEN_PROPERTY is the last. */
enum { GIVEN_BITS = 29 };
_Static_assert(GIVEN_PROPERTY == 1u << (GIVEN_BITS - 1), "GIVEN_BITS follows options.h");

/*
 * How each GIVEN_* bit was first spelled on the command line ("--subsystem-nomatch",
 * "-s"), for the message that refuses it: one bit stands for several options.
 */
static void note_spelling(char (*spelled)[48], unsigned added, const struct option *longopts,
			  int longindex, int c)
{
	for (unsigned b = 0; b < GIVEN_BITS; b++) {
		if (!(added & (1u << b)) || spelled[b][0])
			continue;
		if (longindex >= 0)
			snprintf(spelled[b], sizeof(spelled[b]), "--%s", longopts[longindex].name);
		else
			snprintf(spelled[b], sizeof(spelled[b]), "-%c", c);
	}
}

/* A mode in a message: its option, or "the tree". */
static const char *mode_name(const struct mode *m)
{
	return m->name ? m->name : "the tree";
}

/* An argument of a filter list; none kept when the lists could not be had. */
static void list_add(const char **list, size_t *n, const char *arg)
{
	if (list)
		list[(*n)++] = arg;
}

int options_parse(int argc, char **argv, const struct option *longopts, const struct mode *modes,
		  struct options *o, enum mode_id *mode)
{
	enum mode_id m = MODE_TREE;
	const char **want_arg = NULL; /* a mode's DEVICE given as the positional argument */
	const char **lists;
	const char *output = NULL, *sort = NULL;
	bool output_all = false;
	enum color_mode color = COLOR_AUTO;
	struct stat st;
	int c, modes_given = 0, cur = 1, longindex;
	unsigned given = 0, before = 0, accepts;
	char spelled[GIVEN_BITS][48] = {{0}};
	bool diff = false, properties_given = false;

	/*
	 * Room for every argument in each filter list.  Without it the options
	 * are still read (and no list kept), so that the exit status of "out of
	 * memory" is the mode's (2 for --diff), said after them.
	 */
	lists = calloc(10 * (size_t)argc, sizeof(*lists));
	if (lists) {
		o->subsystems = lists;
		o->drivers = lists + argc;
		o->sysnames = lists + 2 * argc;
		o->matches = lists + 3 * argc;
		o->tags = lists + 4 * argc;
		o->nomatch_subsystems = lists + 5 * argc;
		o->nomatch_sysnames = lists + 6 * argc;
		o->nomatch_drivers = lists + 7 * argc;
		o->nomatches = lists + 8 * argc;
		o->property_keys = lists + 9 * argc;
	}
	/* our own messages: getopt's start with argv[0], a full path when run so */
	opterr = 0;
	while ((cur = optind, longindex = -1, before = given,
		c = getopt_long(argc, argv, ":JaApd:s:E:Sho:lrPniVOx:w:", longopts, &longindex)) !=
	       -1) {
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
			o->root = optarg;
			given |= GIVEN_ROOT;
			break;
		case 'o':
			output = optarg;
			given |= GIVEN_OUTPUT;
			break;
		case 'O':
			output_all = true;
			given |= GIVEN_OUTPUT;
			break;
		case 'x':
			sort = optarg;
			given |= GIVEN_SORT;
			break;
		case 'w': {
			int w;

			/* a count of display columns, as --depth's digits */
			if (parse_depth(optarg, &w) < 0 || w < 1) {
				warnx_("--width", "'%s' is not a number from 1 to %d", optarg,
				       SYSDEV_MAX_DEPTH);
				return EXIT_USAGE;
			}
			o->width = (size_t)w;
			given |= GIVEN_WIDTH;
			break;
		}
		case OPT_LIST_COLUMNS:
			m = MODE_LIST_COLUMNS;
			modes_given++;
			break;
		case 'l':
			if (o->list_format == FORMAT_TREE)
				o->list_format = FORMAT_LIST;
			given |= GIVEN_LIST;
			break;
		case 'r':
		case 'P':
			if (o->list_format > FORMAT_LIST &&
			    o->list_format != (c == 'r' ? FORMAT_RAW : FORMAT_PAIRS)) {
				warnx_(NULL, "choose one of --raw and --pairs");
				return EXIT_USAGE;
			}
			o->list_format = c == 'r' ? FORMAT_RAW : FORMAT_PAIRS;
			given |= c == 'r' ? GIVEN_RAW : GIVEN_PAIRS;
			break;
		case 'n':
			o->noheadings = true;
			given |= GIVEN_NOHEADINGS;
			break;
		case 'i':
			o->ascii = true;
			given |= GIVEN_ASCII;
			break;
		case OPT_DRIVER:
			list_add(o->drivers, &o->n_drivers, optarg);
			given |= GIVEN_DRIVER;
			break;
		case OPT_SYSNAME:
			list_add(o->sysnames, &o->n_sysnames, optarg);
			given |= GIVEN_SYSNAME;
			break;
		case OPT_MATCH:
		case OPT_NOMATCH:
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				warnx_(c == OPT_MATCH ? "--match" : "--nomatch",
				       "'%s' is not KEY=GLOB", optarg);
				return EXIT_USAGE;
			}
			if (c == OPT_MATCH)
				list_add(o->matches, &o->n_matches, optarg);
			else
				list_add(o->nomatches, &o->n_nomatches, optarg);
			given |= c == OPT_MATCH ? GIVEN_MATCH : GIVEN_NOMATCH;
			break;
		case OPT_SUBSYSTEM_NOMATCH:
			list_add(o->nomatch_subsystems, &o->n_nomatch_subsystems, optarg);
			given |= GIVEN_NOMATCH;
			break;
		case OPT_SYSNAME_NOMATCH:
			list_add(o->nomatch_sysnames, &o->n_nomatch_sysnames, optarg);
			given |= GIVEN_NOMATCH;
			break;
		case OPT_DRIVER_NOMATCH:
			list_add(o->nomatch_drivers, &o->n_nomatch_drivers, optarg);
			given |= GIVEN_NOMATCH;
			break;
		case OPT_UDEV_DB:
			o->udev_db = optarg;
			break;
		case OPT_TAG:
			list_add(o->tags, &o->n_tags, optarg);
			given |= GIVEN_TAG;
			break;
		case OPT_INITIALIZED_MATCH:
		case OPT_INITIALIZED_NOMATCH:
			if (o->initialized &&
			    o->initialized != (c == OPT_INITIALIZED_MATCH ? 1 : -1)) {
				warnx_(NULL, "choose one of --initialized-match and "
					     "--initialized-nomatch");
				return EXIT_USAGE;
			}
			o->initialized = c == OPT_INITIALIZED_MATCH ? 1 : -1;
			given |= GIVEN_INITIALIZED;
			break;
		case OPT_UNLINKED:
			o->unlinked = true;
			given |= GIVEN_UNLINKED;
			break;
		case 'J':
			o->json = true;
			given |= GIVEN_JSON;
			break;
		case 'a':
			o->all = true;
			given |= GIVEN_ALL;
			break;
		case 'A':
			o->attrs = true;
			given |= GIVEN_ATTRS;
			break;
		case 'p':
			o->power = true;
			given |= GIVEN_POWER;
			break;
		case 'd':
			if (parse_depth(optarg, &o->depth) < 0) {
				warnx_("--depth", "'%s' is not a number from 0 to %d", optarg,
				       SYSDEV_MAX_DEPTH);
				return EXIT_USAGE;
			}
			given |= GIVEN_DEPTH;
			break;
		case 's':
			list_add(o->subsystems, &o->n_subsystems, optarg);
			given |= GIVEN_SUBSYSTEM;
			break;
		case OPT_PARENTS:
			o->parents = optarg;
			if (!optarg)
				want_arg = &o->parents;
			m = MODE_PARENTS;
			modes_given++;
			break;
		case 'E':
			o->explain = optarg;
			if (!optarg)
				want_arg = &o->explain;
			m = MODE_EXPLAIN;
			modes_given++;
			break;
		case OPT_PROPERTIES:
			properties_given = true;
			/* DEVICEs follow as the positional arguments; none: the filters' or all */
			o->properties = optarg;
			m = MODE_PROPERTIES;
			modes_given++;
			break;
		case OPT_RECEIVE_BUFFER: {
			char *end;
			unsigned long long v;

			errno = 0;
			v = optarg[0] >= '0' && optarg[0] <= '9' ? strtoull(optarg, &end, 10) : 0;
			if (v && *end && !end[1] && strchr("KMG", *end))
				v <<= *end == 'K' ? 10 : *end == 'M' ? 20 : 30, end++;
			if (!v || *end || errno || v > (1ull << 30)) {
				warnx_("--receive-buffer",
				       "'%s': expected bytes (K, M, G suffixes), "
				       "1 to 1G",
				       optarg);
				return EXIT_USAGE;
			}
			o->receive_buffer = (size_t)v;
			given |= GIVEN_RECEIVE_BUFFER;
			break;
		}
		case OPT_UDEV:
			o->udev = true;
			given |= GIVEN_UDEV;
			break;
		case OPT_PROPERTY:
			list_add(o->property_keys, &o->n_property_keys, optarg);
			given |= GIVEN_PROPERTY;
			break;
		case OPT_VALUE:
			o->value_only = true;
			given |= GIVEN_PROPERTY;
			break;
		case OPT_EXPORT:
			o->export_values = true;
			given |= GIVEN_EXPORT;
			break;
		case 'S':
			o->stats = true;
			m = MODE_STATS;
			modes_given++;
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
			o->set_lt_value = optarg;
			m = MODE_SET_LT;
			modes_given++;
			break;
		case OPT_GET_LT:
			o->lt_device = optarg;
			if (!optarg)
				want_arg = &o->lt_device;
			o->get_lt = true;
			m = MODE_GET_LT;
			modes_given++;
			break;
		case OPT_CAPTURE:
			o->capture_dir = optarg;
			m = MODE_CAPTURE;
			modes_given++;
			break;
		case OPT_DIFF:
			/* OLD and NEW are the positional arguments, so options may follow */
			diff = true;
			m = MODE_DIFF;
			modes_given++;
			break;
		case OPT_FORMAT:
			o->format = optarg;
			given |= GIVEN_FORMAT;
			break;
		case OPT_CHECK_UDEV:
			o->check_udev = true;
			m = MODE_CHECK_UDEV;
			modes_given++;
			break;
		case OPT_WATCH:
			o->watch = true;
			m = MODE_WATCH;
			modes_given++;
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
		note_spelling(spelled, given & ~before, longopts, longindex, c);
	}
	/* their 1 says "different", as diff(1)'s: what could not be compared is 2 */
	if (m == MODE_DIFF || m == MODE_CHECK_UDEV)
		error_exit_status = EXIT_TROUBLE;
	if (!lists)
		exit_out_of_memory();
	/* --watch --properties: each event's properties, as udevadm monitor -p */
	if (o->watch && properties_given && !o->properties) {
		modes_given--;
		m = MODE_WATCH;
		if (want_arg == &o->properties)
			want_arg = NULL;
		o->watch_properties = true;
		given |= GIVEN_PROPERTIES;
		snprintf(spelled[__builtin_ctz(GIVEN_PROPERTIES)], sizeof(spelled[0]),
			 "--properties");
	}
	if (modes_given > 1) {
		warnx_(NULL,
		       "choose one of --parents, --explain, --properties, --stats, --capture, "
		       "--diff, --check-udev, --watch, --list-columns, "
		       "--get-/--set-latency-tolerance");
		return EXIT_USAGE;
	}
	if (m == MODE_TREE && o->list_format != FORMAT_TREE)
		m = MODE_LIST;
	if (o->set_lt_value) {
		if (optind + 1 != argc) {
			warnx_("--set-latency-tolerance", "needs VALUE and DEVICE");
			return EXIT_USAGE;
		}
		o->lt_device = argv[optind++];
	} else if (diff) {
		if (optind + 2 != argc) {
			warnx_("--diff", "needs OLD and NEW");
			return EXIT_USAGE;
		}
		o->diff_old = argv[optind++];
		o->diff_new = argv[optind++];
	} else if (m == MODE_PROPERTIES) {
		if (!o->properties && optind < argc)
			o->properties = argv[optind++];
		o->properties_more = (const char **)argv + optind;
		o->n_properties_more = (size_t)(argc - optind);
		optind = argc;
	} else if (want_arg) {
		if (optind + 1 != argc &&
		    !(optind < argc && (m == MODE_PARENTS || m == MODE_EXPLAIN))) {
			if (optind == argc)
				warnx_(modes[m].name, "needs a DEVICE");
			else
				warnx_(argv[optind + 1], "unexpected argument: %s takes one DEVICE",
				       modes[m].name);
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		*want_arg = argv[optind++];
	}
	if ((m == MODE_PARENTS || m == MODE_EXPLAIN) && (o->parents || o->explain) &&
	    optind < argc) {
		/* several DEVICEs, as udevadm info takes them: each in turn */
		o->more_devices = argv + optind;
		o->n_more_devices = (size_t)(argc - optind);
		optind = argc;
	} else if (!want_arg && optind < argc) {
		o->start = argv[optind++];
		given |= GIVEN_START;
	}
	if (optind < argc) {
		warnx_(argv[optind], "unexpected argument: %s takes %s", mode_name(&modes[m]),
		       m == MODE_TREE || m == MODE_LIST || m == MODE_CAPTURE ? "one START"
									     : "no more");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	if ((given & GIVEN_SORT) && m == MODE_TREE &&
	    (o->json || (o->format && strcmp(o->format, "dot") == 0))) {
		warnx_("--sort", "sorts the lists and the text tree, not %s",
		       o->json ? "the tree's JSON" : "--format=dot");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	accepts = modes[m].accepts;
	if (accepts & GIVEN_JSON)
		accepts |=
		    GIVEN_FORMAT; /* --format=json is --json, --format=text the plain output */
	for (unsigned i = 0; i < GIVEN_BITS; i++) {
		if ((given & (1u << i)) && !(accepts & (1u << i))) {
			if (1u << i == GIVEN_START)
				warnx_(o->start, "unexpected argument: %s takes no START",
				       modes[m].name);
			else
				warnx_(spelled[i], "cannot be used with %s", mode_name(&modes[m]));
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
	}
	if (o->format) {
		/*
		 * text and json are every mode's plain and --json output, as
		 * --format=json is --json; openmetrics and jsonl are --stats's and
		 * --diff's own.
		 */
		bool ok = strcmp(o->format, "text") == 0 || strcmp(o->format, "json") == 0 ||
			  (m == MODE_TREE && strcmp(o->format, "dot") == 0) ||
			  (m == MODE_STATS && strcmp(o->format, "openmetrics") == 0) ||
			  (m == MODE_DIFF && strcmp(o->format, "jsonl") == 0);

		if (!ok) {
			warnx_("--format", "'%s' is not a format of %s: expected text or json%s",
			       o->format, mode_name(&modes[m]),
			       m == MODE_STATS	? " (or openmetrics)"
			       : m == MODE_DIFF ? " (or jsonl)"
			       : m == MODE_TREE ? " (or dot)"
						: "");
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		if (o->json && strcmp(o->format, "json") != 0) {
			warnx_("--json", "cannot be used with --format=%s", o->format);
			fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
			return EXIT_USAGE;
		}
		if (strcmp(o->format, "json") == 0)
			o->json = true;
	}
	if (o->json && o->list_format > FORMAT_LIST) {
		warnx_(o->format ? "--format=json" : "--json", "cannot be used with %s",
		       o->list_format == FORMAT_RAW ? "--raw" : "--pairs");
		return EXIT_USAGE;
	}
	if (m == MODE_TREE && o->json && (output || output_all)) {
		warnx_("--output", "cannot be used with the tree's --json (it holds every field): "
				   "--list --json shows columns");
		return EXIT_USAGE;
	}
	if (output_all && output) {
		warnx_("--output-all", "cannot be used with --output");
		return EXIT_USAGE;
	}
	if ((m == MODE_TREE || m == MODE_LIST) &&
	    oom_check(columns_parse(output,
				    output_all	     ? NULL
				    : m == MODE_LIST ? COLUMNS_LIST_DEFAULT
						     : COLUMNS_TREE_DEFAULT,
				    &o->cols, &o->n_cols)) < 0)
		return EXIT_USAGE;
	if (sort) {
		const struct column **one = NULL;
		size_t n = 0;

		if (strchr(sort, ',') || oom_check(columns_parse(sort, "", &one, &n)) < 0) {
			if (strchr(sort, ','))
				warnx_("--sort", "'%s': one COLUMN", sort);
			return EXIT_USAGE;
		}
		o->sort = one[0];
		free(one); /* the array; the column is the options' now */
	}
	if (o->value_only && (o->json || o->export_values)) {
		warnx_("--value", "cannot be used with %s", o->json ? "--json" : "--export");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	if (o->export_values && o->json) {
		warnx_("--export", "cannot be used with --json");
		fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
		return EXIT_USAGE;
	}
	if (o->set_lt_value && sysdev_parse_latency_tolerance(o->set_lt_value, NULL) < 0) {
		warnx_(o->set_lt_value,
		       "invalid latency tolerance: expected auto, any, or a number of "
		       "microseconds from 0 to %d (EINVAL)",
		       SYSDEV_LT_MAX_US);
		return EXIT_USAGE;
	}
	if (color == COLOR_ALWAYS)
		o->color = true;
	else if (color == COLOR_AUTO) {
		const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

		o->color =
		    isatty(STDOUT_FILENO) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
	}

	/* an archive root is read-only: a write would go to a private copy, removed on exit */
	if (o->set_lt_value && o->root && stat(o->root, &st) == 0 && S_ISREG(st.st_mode)) {
		warnx_(o->root,
		       "a .sysfs archive is read-only: --set-latency-tolerance would change "
		       "only a private copy that is removed on exit (EROFS)");
		return EXIT_RUNTIME;
	}
	if (m == MODE_TREE && o->json)
		m = MODE_JSON;
	else if (m == MODE_TREE && o->format && strcmp(o->format, "dot") == 0)
		m = MODE_DOT;
	else if (m == MODE_STATS && o->format && strcmp(o->format, "openmetrics") == 0)
		m = MODE_OPENMETRICS;
	*mode = m;
	return -1;
}

void options_free(struct options *o)
{
	columns_free(o->cols, o->n_cols);
	o->cols = NULL;
	o->n_cols = 0;
	column_free(o->sort);
	o->sort = NULL;
	free(o->subsystems); /* the one allocation of the four filter lists */
	o->subsystems = o->drivers = o->sysnames = o->matches = NULL;
	o->nomatch_subsystems = o->nomatch_sysnames = o->nomatch_drivers = o->nomatches = NULL;
	o->property_keys = NULL;
}
