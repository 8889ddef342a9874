/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/alloc-util.c: growing arrays, strdup_or_null(), cmp_strp(). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alloc-util.h"

/* From nothing: the capacity starts at @min and doubles until it is enough. */
static void test_grow_from_empty(void **state)
{
	int *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW_MIN(v, cap, 1, 4), 0);
	assert_non_null(v);
	assert_int_equal(cap, 4);
	assert_int_equal(GROW_MIN(v, cap, 5, 4), 0);
	assert_int_equal(cap, 8);
	/* 8 -> 16 -> 32 -> 64: the smallest power-of-two multiple that holds 33 */
	assert_int_equal(GROW_MIN(v, cap, 33, 4), 0);
	assert_int_equal(cap, 64);
	/* every element of the capacity is writable (ASan checks the bound) */
	for (size_t i = 0; i < cap; i++)
		v[i] = (int)i;
	free(v);
}

/* GROW() starts at 64 elements, as the header says. */
static void test_grow_default_min(void **state)
{
	char **v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW(v, cap, 1), 0);
	assert_int_equal(cap, 64);
	assert_int_equal(GROW(v, cap, 64), 0);
	assert_int_equal(cap, 64);
	assert_int_equal(GROW(v, cap, 65), 0);
	assert_int_equal(cap, 128);
	free(v);
}

/* min 0 means 1: 1 -> 2 -> 4 */
static void test_grow_min_zero(void **state)
{
	long *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW_MIN(v, cap, 1, 0), 0);
	assert_int_equal(cap, 1);
	assert_int_equal(GROW_MIN(v, cap, 3, 0), 0);
	assert_int_equal(cap, 4);
	free(v);
}

/* Enough room already: nothing moves. */
static void test_grow_enough_is_noop(void **state)
{
	int *v = NULL, *before;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW_MIN(v, cap, 10, 16), 0);
	before = v;
	assert_int_equal(GROW_MIN(v, cap, 16, 16), 0);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 16);
	assert_int_equal(GROW_MIN(v, cap, 0, 16), 0);
	assert_int_equal(cap, 16);
	free(v);
}

/* The contents survive a move. */
static void test_grow_keeps_contents(void **state)
{
	unsigned *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW_MIN(v, cap, 3, 2), 0);
	for (unsigned i = 0; i < 3; i++)
		v[i] = 0xa5a50000u + i;
	assert_int_equal(GROW_MIN(v, cap, 1000, 2), 0);
	assert_int_equal(cap, 1024);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(v[i], 0xa5a50000u + i);
	free(v);
}

/* A count whose size does not fit in size_t: -ENOMEM, the array left as it was. */
static void test_grow_overflow(void **state)
{
	uint64_t *v = NULL, *before;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW_MIN(v, cap, 2, 2), 0);
	v[0] = 42;
	v[1] = 43;
	before = v;
	assert_int_equal(GROW_MIN(v, cap, SIZE_MAX, 2), -ENOMEM);
	assert_int_equal(GROW_MIN(v, cap, SIZE_MAX / sizeof(*v) + 1, 2), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 2);
	assert_int_equal(v[0], 42);
	assert_int_equal(v[1], 43);
	/* the raw call too, with an element as large as it gets */
	assert_int_equal(grow_array_min((void **)&v, &cap, 3, SIZE_MAX / 2, 1), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 2);
	free(v);
}

static void test_strdup_or_null(void **state)
{
	static const char name[] = "gta04:green:power";
	char *s;

	(void)state;
	assert_null(strdup_or_null(NULL));
	s = strdup_or_null(name);
	assert_non_null(s);
	assert_ptr_not_equal(s, name);
	assert_string_equal(s, name);
	free(s);
	s = strdup_or_null("");
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	/* bytes are bytes: a newline and invalid UTF-8 are copied as they are */
	s = strdup_or_null("a\nb\xff");
	assert_memory_equal(s, "a\nb\xff", 5);
	free(s);
}

/* cmp_strp() sorts bytewise, as the directory lister does: unsigned, not by locale. */
static void test_cmp_strp_sort(void **state)
{
	const char *v[] = {"r.", "cpu2", "\xc3\xa9", "cpu10", "r", "Z", "cpu1", "cpu"};
	static const char *const want[] = {"Z",	   "cpu", "cpu1", "cpu10",
					   "cpu2", "r",	  "r.",	  "\xc3\xa9"};

	(void)state;
	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), cmp_strp);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_string_equal(v[i], want[i]);
}

/* And bsearch() with it finds the whole name, never a prefix or an extension. */
static void test_cmp_strp_bsearch(void **state)
{
	static const char *const v[] = {"cpu1", "cpu10", "r", "r."};
	const char *key;
	const char *const *hit;

	(void)state;
	key = "cpu1";
	hit = bsearch(&key, v, 4, sizeof(v[0]), cmp_strp);
	assert_non_null(hit);
	assert_ptr_equal(hit, &v[0]);
	key = "r";
	hit = bsearch(&key, v, 4, sizeof(v[0]), cmp_strp);
	assert_ptr_equal(hit, &v[2]);
	key = "cpu";
	assert_null(bsearch(&key, v, 4, sizeof(v[0]), cmp_strp));
	key = "cpu100";
	assert_null(bsearch(&key, v, 4, sizeof(v[0]), cmp_strp));
	key = "r..";
	assert_null(bsearch(&key, v, 4, sizeof(v[0]), cmp_strp));
	assert_int_equal(cmp_strp(&v[0], &v[0]), 0);
	assert_true(cmp_strp(&v[0], &v[1]) < 0);
	assert_true(cmp_strp(&v[3], &v[2]) > 0);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_grow_from_empty),	cmocka_unit_test(test_grow_default_min),
	    cmocka_unit_test(test_grow_min_zero),	cmocka_unit_test(test_grow_enough_is_noop),
	    cmocka_unit_test(test_grow_keeps_contents), cmocka_unit_test(test_grow_overflow),
	    cmocka_unit_test(test_strdup_or_null),	cmocka_unit_test(test_cmp_strp_sort),
	    cmocka_unit_test(test_cmp_strp_bsearch),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
