/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/shared/utf8-util.h against RFC 3629's table of well-formed sequences
 * (section 4): U+0000..U+007F one byte; C2..DF then one continuation byte;
 * E0 A0..BF, E1..EC, ED 80..9F, EE..EF then continuations; F0 90..BF,
 * F1..F3, F4 80..8F then continuations.  Nothing else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "utf8-util.h"

static size_t seq(const char *s, size_t n)
{
	return utf8_seq_len((const unsigned char *)s, n);
}

static void test_valid_sequences(void **state)
{
	(void)state;
	assert_int_equal(seq("A", 1), 1);
	assert_int_equal(seq("\x7f", 1), 1);
	assert_int_equal(seq("\xc2\x80", 2), 2);	 /* U+0080, the first of two bytes */
	assert_int_equal(seq("\xc3\xa9", 2), 2);	 /* U+00E9 */
	assert_int_equal(seq("\xdf\xbf", 2), 2);	 /* U+07FF */
	assert_int_equal(seq("\xe0\xa0\x80", 3), 3);	 /* U+0800 */
	assert_int_equal(seq("\xe2\x82\xac", 3), 3);	 /* U+20AC */
	assert_int_equal(seq("\xed\x9f\xbf", 3), 3);	 /* U+D7FF, below the surrogates */
	assert_int_equal(seq("\xee\x80\x80", 3), 3);	 /* U+E000, above them */
	assert_int_equal(seq("\xef\xbf\xbf", 3), 3);	 /* U+FFFF */
	assert_int_equal(seq("\xf0\x90\x80\x80", 4), 4); /* U+10000 */
	assert_int_equal(seq("\xf0\x9f\x98\x80", 4), 4); /* U+1F600 */
	assert_int_equal(seq("\xf4\x8f\xbf\xbf", 4), 4); /* U+10FFFF, the last */
	/* the length of the first sequence only, whatever follows */
	assert_int_equal(seq("\xc3\xa9zz", 4), 2);
}

static void test_invalid_sequences(void **state)
{
	(void)state;
	assert_int_equal(seq("\x80", 1), 0); /* a stray continuation */
	assert_int_equal(seq("\xbf", 1), 0);
	assert_int_equal(seq("\xc0\x80", 2), 0);	 /* overlong NUL */
	assert_int_equal(seq("\xc1\xbf", 2), 0);	 /* overlong U+007F */
	assert_int_equal(seq("\xe0\x80\x80", 3), 0);	 /* overlong */
	assert_int_equal(seq("\xe0\x9f\xbf", 3), 0);	 /* overlong U+07FF */
	assert_int_equal(seq("\xed\xa0\x80", 3), 0);	 /* U+D800 */
	assert_int_equal(seq("\xed\xbf\xbf", 3), 0);	 /* U+DFFF */
	assert_int_equal(seq("\xf0\x8f\xbf\xbf", 4), 0); /* overlong U+FFFF */
	assert_int_equal(seq("\xf4\x90\x80\x80", 4), 0); /* U+110000 */
	assert_int_equal(seq("\xf5\x80\x80\x80", 4), 0);
	assert_int_equal(seq("\xf8\x88\x80\x80\x80", 5), 0); /* the old five-byte form */
	assert_int_equal(seq("\xfe", 1), 0);
	assert_int_equal(seq("\xff", 1), 0);
	/* a lead byte whose continuation is not one */
	assert_int_equal(seq("\xc3\x28", 2), 0);
	assert_int_equal(seq("\xe2\x82\x28", 3), 0);
	assert_int_equal(seq("\xf0\x9f\x98\xc0", 4), 0);
	assert_int_equal(seq("\xc3\xc3", 2), 0);
}

/* A sequence cut by the end of the buffer: the bytes past @n are never read. */
static void test_cut_sequences(void **state)
{
	(void)state;
	assert_int_equal(seq("\xc3\xa9", 1), 0);
	assert_int_equal(seq("\xe2\x82\xac", 2), 0);
	assert_int_equal(seq("\xe2\x82\xac", 1), 0);
	assert_int_equal(seq("\xf0\x9f\x98\x80", 3), 0);
	assert_false(utf8_valid("ok\xe2\x82", 4));
	assert_false(utf8_valid("ok\xf0\x9f\x98", 5));
}

static void test_valid_strings(void **state)
{
	static const char mixed[] = "eth0 \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80.";

	(void)state;
	assert_true(utf8_valid("", 0));
	assert_true(utf8_valid("gta04:green:power", 17));
	assert_true(utf8_valid(mixed, strlen(mixed)));
	/* a newline is a character like any other here */
	assert_true(utf8_valid("a\nb", 3));
	/* only @n bytes count: an invalid byte past them does not */
	assert_true(utf8_valid("ab\xff", 2));
	assert_false(utf8_valid("ab\xff", 3));
	/* one bad byte anywhere spoils the whole */
	assert_false(utf8_valid("\xffgood", 5));
	assert_false(utf8_valid("good\xff", 5));
	assert_false(utf8_valid("go\x80od", 5));
	assert_false(utf8_valid("\xed\xa0\x80\xed\xb0\x80", 6)); /* a CESU-8 surrogate pair */
	assert_false(utf8_valid("\xc0\xaf", 2));		 /* overlong '/' */
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid_sequences),
	    cmocka_unit_test(test_invalid_sequences),
	    cmocka_unit_test(test_cut_sequences),
	    cmocka_unit_test(test_valid_strings),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
