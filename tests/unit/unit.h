/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * main() of a unit test: `test-x` runs every case, `test-x NAME` only the
 * cases whose name matches NAME (cmocka's filter: a name, or a glob with '*').
 */
#ifndef SYSDEV_TEST_UNIT_H
#define SYSDEV_TEST_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define UNIT_MAIN(tests, setup, teardown)                                                          \
	int main(int argc, char **argv)                                                            \
	{                                                                                          \
		if (argc > 1)                                                                      \
			cmocka_set_test_filter(argv[1]);                                           \
		return cmocka_run_group_tests(tests, setup, teardown);                             \
	}

#endif
