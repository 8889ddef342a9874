/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysdev-tree: the option table and the mode table, and the run of one mode.
 * Helpers flow downward only: the mode files, then tools/common, then the
 * library; nothing calls back into this file.
 */
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "options.h"
#include "output.h"
#include "process.h"
#include "root-archive.h"

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
	    {"tag", required_argument, NULL, OPT_TAG},
	    {"initialized-match", no_argument, NULL, OPT_INITIALIZED_MATCH},
	    {"initialized-nomatch", no_argument, NULL, OPT_INITIALIZED_NOMATCH},
	    {"udev-db", required_argument, NULL, OPT_UDEV_DB},
	    {"subsystem-nomatch", required_argument, NULL, OPT_SUBSYSTEM_NOMATCH},
	    {"sysname-nomatch", required_argument, NULL, OPT_SYSNAME_NOMATCH},
	    {"driver-nomatch", required_argument, NULL, OPT_DRIVER_NOMATCH},
	    {"nomatch", required_argument, NULL, OPT_NOMATCH},
	    {"output", required_argument, NULL, 'o'},
	    {"output-all", no_argument, NULL, 'O'},
	    {"sort", required_argument, NULL, 'x'},
	    {"width", required_argument, NULL, 'w'},
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
	    {"udev", no_argument, NULL, OPT_UDEV},
	    {"receive-buffer", required_argument, NULL, OPT_RECEIVE_BUFFER},
	    {"property", required_argument, NULL, OPT_PROPERTY},
	    {"value", no_argument, NULL, OPT_VALUE},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {0},
	};
	/* what each mode does with the modifying options; the others are refused */
	static const struct mode modes[MODE_COUNT] = {
	    [MODE_TREE] = {NULL, TREE_ACCEPTS | GIVEN_SORT, 0, cmd_tree},
	    [MODE_JSON] = {NULL, TREE_ACCEPTS, 0, cmd_json},
	    [MODE_DOT] = {NULL, TREE_ACCEPTS, 0, cmd_dot},
	    /* -l, -r, -P: one line per device, in the walk's order */
	    [MODE_LIST] = {"--list",
			   GIVEN_ROOT | GIVEN_JSON | GIVEN_FILTERS | GIVEN_START | GIVEN_OUTPUT |
			       GIVEN_LIST | GIVEN_RAW | GIVEN_PAIRS | GIVEN_NOHEADINGS |
			       GIVEN_SORT | GIVEN_WIDTH,
			   0, cmd_list},
	    [MODE_LIST_COLUMNS] = {"--list-columns", GIVEN_ROOT | GIVEN_JSON, MODE_NO_ROOT,
				   cmd_list_columns},
	    [MODE_PARENTS] = {"--parents", GIVEN_ROOT | GIVEN_JSON | GIVEN_ATTRS | GIVEN_POWER, 0,
			      cmd_parents},
	    [MODE_EXPLAIN] = {"--explain", GIVEN_ROOT | GIVEN_JSON, 0, cmd_explain},
	    [MODE_PROPERTIES] = {"--properties",
				 GIVEN_ROOT | GIVEN_JSON | GIVEN_EXPORT | GIVEN_FILTERS |
				     GIVEN_PROPERTY,
				 0, cmd_properties},
	    [MODE_STATS] = {"--stats", GIVEN_ROOT | GIVEN_JSON | GIVEN_FORMAT, 0, cmd_stats},
	    [MODE_OPENMETRICS] = {"--stats", GIVEN_ROOT | GIVEN_JSON | GIVEN_FORMAT, 0,
				  cmd_stats_openmetrics},
	    [MODE_GET_LT] = {"--get-latency-tolerance", GIVEN_ROOT | GIVEN_JSON, 0,
			     cmd_latency_tolerance},
	    [MODE_SET_LT] = {"--set-latency-tolerance", GIVEN_ROOT, 0, cmd_latency_tolerance},
	    [MODE_CAPTURE] = {"--capture", GIVEN_ROOT | GIVEN_START, 0, cmd_capture},
	    /* --all: the moves a moved parent carried, one line each */
	    [MODE_DIFF] = {"--diff", GIVEN_JSON | GIVEN_ATTRS | GIVEN_FORMAT | GIVEN_ALL,
			   MODE_NO_CTX, cmd_diff},
	    [MODE_CHECK_UDEV] = {"--check-udev", GIVEN_ROOT | GIVEN_JSON | GIVEN_ALL, 0,
				 cmd_check_udev},
	    [MODE_WATCH] = {"--watch",
			    GIVEN_ROOT | GIVEN_JSON | GIVEN_SUBSYSTEM | GIVEN_DRIVER |
				GIVEN_SYSNAME | GIVEN_MATCH | GIVEN_UDEV | GIVEN_PROPERTIES |
				GIVEN_RECEIVE_BUFFER | GIVEN_TAG | GIVEN_NOMATCH,
			    0, cmd_watch},
	};
	/*
	 * The options live as long as the process: static, so that the lists
	 * they hold stay reachable on the many early exits (a usage error
	 * returns at once) and are freed at the normal end.
	 */
	static struct options o = {.depth = -1};
	const struct mode *mode;
	enum mode_id id;
	struct sysdev *ctx = NULL;
	int err, ret;

	program_name = "sysdev-tree";
	guard_std_fds();
	if (stdout_track_errors() < 0)
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	signal(SIGPIPE, SIG_IGN);
	ret = options_parse(argc, argv, longopts, modes, &o, &id);
	if (ret >= 0)
		return ret;
	mode = &modes[id];
	/* the tree is drawn with ASCII where the locale's charset is not UTF-8; the
	 * streamed lists (-r, -P, -J) measure nothing and skip loading a locale */
	if (id != MODE_LIST || (o.list_format == FORMAT_LIST && !o.json)) {
		setlocale(LC_CTYPE, "");
		o.ascii = o.ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	}
	if (mode->flags & MODE_NO_ROOT)
		return mode->run(NULL, &o) ?: check_output();
	raise_fd_limit();
	/* an archive as a root: unpacked privately, removed on every exit */
	o.diff_old_label = o.diff_old;
	o.diff_new_label = o.diff_new;
	if (root_prepare(program_name, &o.root) < 0 ||
	    (o.diff_old && (root_prepare(program_name, &o.diff_old) < 0 ||
			    root_prepare(program_name, &o.diff_new) < 0)))
		return error_exit_status;
	if (mode->flags & MODE_NO_CTX) {
		ret = mode->run(NULL, &o);
		return stdout_closed ? 0 : ret;
	}
	err = sysdev_new(o.root, &ctx);
	if (err < 0) {
		/* an empty --root names nothing: say which argument it was */
		const char *root = !o.root ? "/sys" : *o.root ? o.root : "--root ''";

		warn_root(root, err);
		return error_exit_status;
	}
	/* --udev-db: the database named, or none */
	if (o.udev_db &&
	    (err = sysdev_set_udev_db(ctx, strcmp(o.udev_db, "none") ? o.udev_db : NULL)) < 0) {
		warnx_(o.udev_db, "cannot open the udev database: %s", error_words(err));
		sysdev_unref(ctx);
		return error_exit_status;
	}
	ret = mode->run(ctx, &o);
	sysdev_unref(ctx);
	options_free(&o);
	names_print_stats();
	if (ret == 0)
		ret = check_output();
	else
		check_output();
	return stdout_closed ? 0 : ret;
}
