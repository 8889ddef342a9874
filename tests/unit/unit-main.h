/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The main() of every unit test: each case runnable by name.
 *
 *     test-x                 every case
 *     test-x NAME...         only the named cases (in the array's order)
 *     test-x --list          the case names, one a line
 *
 * A NAME is a case's name (its function, "test_normalize") or that name
 * without "test_" ("normalize"), or a glob of either ("normalize*").  A NAME
 * that matches no case is an error (exit 2): a typo never passes as a run of
 * nothing.  Include after <cmocka.h>; main() becomes
 *
 *     int main(int argc, char **argv)
 *     {
 *             const struct CMUnitTest tests[] = { ... };
 *
 *             return UNIT_MAIN(tests, group_setup, group_teardown);
 *     }
 */
#ifndef SYSDEV_TEST_UNIT_MAIN_H
#define SYSDEV_TEST_UNIT_MAIN_H

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int unit_name_matches(const char *pattern, const char *name)
{
	if (fnmatch(pattern, name, 0) == 0)
		return 1;
	return strncmp(name, "test_", 5) == 0 && fnmatch(pattern, name + 5, 0) == 0;
}

static inline int unit_main(int argc, char **argv, const struct CMUnitTest *tests, size_t n,
			    CMFixtureFunction setup, CMFixtureFunction teardown)
{
	const char *prog = argc > 0 ? strrchr(argv[0], '/') : NULL;
	struct CMUnitTest *run;
	size_t nrun = 0;
	int ret;

	prog = prog ? prog + 1 : argc > 0 ? argv[0] : "test";
	if (argc == 2 && (strcmp(argv[1], "--list") == 0 || strcmp(argv[1], "-l") == 0)) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: %s [--list] [NAME...]\n"
		       "Runs the named cases (a case's name, without \"test_\" too, or a glob),\n"
		       "every case without a NAME; --list prints the names.\n",
		       prog);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		size_t hits = 0;

		for (size_t i = 0; i < n; i++)
			hits += (size_t)unit_name_matches(argv[a], tests[i].name);
		if (hits == 0) {
			fprintf(stderr, "%s: no case named '%s' (--list shows them)\n", prog,
				argv[a]);
			return 2;
		}
	}
	run = calloc(n ? n : 1, sizeof(*run));
	if (!run) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		int want = argc < 2;

		for (int a = 1; a < argc && !want; a++)
			want = unit_name_matches(argv[a], tests[i].name);
		if (want)
			run[nrun++] = tests[i];
	}
	ret = _cmocka_run_group_tests(prog, run, nrun, setup, teardown);
	free(run);
	return ret;
}

#define UNIT_MAIN(tests, setup, teardown)                                                          \
	unit_main(argc, argv, (tests), sizeof(tests) / sizeof((tests)[0]), (setup), (teardown))

#endif
