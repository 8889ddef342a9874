/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/hex-util.h: hexval(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hex-util.h"

static void test_digits(void **state)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";

	(void)state;
	for (int i = 0; i < 16; i++) {
		assert_int_equal(hexval(lower[i]), i);
		assert_int_equal(hexval(upper[i]), i);
	}
}

/* Every other byte is none: the neighbours of each range, NUL, and bytes >= 0x80
 * (negative where char is signed). */
static void test_non_digits(void **state)
{
	static const char near[] = {'/', ':', '@',  'G',  '`', 'g', 'x',
				    'X', ' ', '\n', '\0', '-', '+'};

	(void)state;
	for (size_t i = 0; i < sizeof(near); i++)
		assert_int_equal(hexval(near[i]), -1);
	for (int c = 0; c < 256; c++) {
		int want = (c >= '0' && c <= '9')   ? c - '0'
			   : (c >= 'a' && c <= 'f') ? c - 'a' + 10
			   : (c >= 'A' && c <= 'F') ? c - 'A' + 10
						    : -1;

		assert_int_equal(hexval((char)c), want);
	}
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_digits),
	    cmocka_unit_test(test_non_digits),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
