/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/shared/device-id.c: udev's device ids (b8:0, c1:3, n2, +SUBSYSTEM:SYSNAME). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "device-id.h"

static void test_devnum(void **state)
{
	struct device_id id;

	(void)state;
	assert_true(device_id_parse("b8:0", &id));
	assert_int_equal(id.kind, DEVICE_ID_DEVNUM);
	assert_int_equal(id.type, 'b');
	assert_int_equal(id.major, 8);
	assert_int_equal(id.minor, 0);
	assert_true(device_id_parse("c1:3", &id));
	assert_int_equal(id.kind, DEVICE_ID_DEVNUM);
	assert_int_equal(id.type, 'c');
	assert_int_equal(id.major, 1);
	assert_int_equal(id.minor, 3);
	assert_true(device_id_parse("c189:1023", &id));
	assert_int_equal(id.major, 189);
	assert_int_equal(id.minor, 1023);
	/* the largest numbers that fit */
	assert_true(device_id_parse("b4294967295:4294967295", &id));
	assert_int_equal(id.major, 4294967295u);
	assert_int_equal(id.minor, 4294967295u);
}

static void test_devnum_refused(void **state)
{
	static const char *const bad[] = {
	    "b",
	    "b8",
	    "b8:",
	    "b:0",
	    "b8:0:",
	    "b8:0x",
	    "b8:0\n",
	    "b8:0 ",
	    " b8:0",
	    "b 8:0",
	    "b8: 0",
	    "b+8:0",
	    "b-8:0",
	    "b8:-0",
	    "b0x8:0",
	    "B8:0",
	    "C1:3",
	    "d8:0",
	    "b8.0",
	    "b8/0",
	    "b4294967296:0",
	    "b0:4294967296",
	    "c99999999999999999999:0",
	};
	struct device_id id;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (device_id_parse(bad[i], &id))
			fail_msg("'%s' taken as a device id", bad[i]);
}

static void test_ifindex(void **state)
{
	struct device_id id;

	(void)state;
	assert_true(device_id_parse("n1", &id));
	assert_int_equal(id.kind, DEVICE_ID_IFINDEX);
	assert_int_equal(id.ifindex, 1);
	assert_true(device_id_parse("n2", &id));
	assert_int_equal(id.ifindex, 2);
	assert_true(device_id_parse("n4294967295", &id));
	assert_int_equal(id.ifindex, 4294967295u);
	/* the kernel's ifindex starts at 1 */
	assert_false(device_id_parse("n0", &id));
	assert_false(device_id_parse("n", &id));
	assert_false(device_id_parse("n-1", &id));
	assert_false(device_id_parse("n+1", &id));
	assert_false(device_id_parse("n 1", &id));
	assert_false(device_id_parse("n1 ", &id));
	assert_false(device_id_parse("n1\n", &id));
	assert_false(device_id_parse("n1x", &id));
	assert_false(device_id_parse("n1:0", &id));
	assert_false(device_id_parse("n4294967296", &id));
	assert_false(device_id_parse("N1", &id));
}

static void test_subsystem_sysname(void **state)
{
	struct device_id id;

	(void)state;
	assert_true(device_id_parse("+net:lo", &id));
	assert_int_equal(id.kind, DEVICE_ID_SUBSYSTEM_SYSNAME);
	assert_int_equal(id.subsystem_len, 3);
	assert_memory_equal(id.subsystem, "net", 3);
	assert_string_equal(id.sysname, "lo");
	/* the first colon ends the subsystem: the sysname keeps its own */
	assert_true(device_id_parse("+pci:0000:00:02.0", &id));
	assert_int_equal(id.subsystem_len, 3);
	assert_memory_equal(id.subsystem, "pci", 3);
	assert_string_equal(id.sysname, "0000:00:02.0");
	/* udev's driver ids: +drivers:SUBSYSTEM:DRIVER */
	assert_true(device_id_parse("+drivers:pci:e1000e", &id));
	assert_int_equal(id.subsystem_len, 7);
	assert_memory_equal(id.subsystem, "drivers", 7);
	assert_string_equal(id.sysname, "pci:e1000e");
	/* the pointers are into the string given */
	{
		static const char s[] = "+leds:gta04:green:power";

		assert_true(device_id_parse(s, &id));
		assert_ptr_equal(id.subsystem, s + 1);
		assert_ptr_equal(id.sysname, s + 6);
	}
}

static void test_subsystem_sysname_refused(void **state)
{
	static const char *const bad[] = {
	    "+", "+net", "+net:", "+:lo", "+:", "++", "+a/b:x", "+/:x", "+../..:x", "+net/:lo",
	};
	struct device_id id;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (device_id_parse(bad[i], &id))
			fail_msg("'%s' taken as a device id", bad[i]);
}

/* None of the forms: a devpath, a name, nothing. */
static void test_other_strings(void **state)
{
	static const char *const bad[] = {
	    "", "/devices/virtual/net/lo", "lo", "sda", "8:0", "-b8:0", "x8:0", "\xff",
	};
	struct device_id id;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&id, 0x5a, sizeof(id));
		if (device_id_parse(bad[i], &id))
			fail_msg("'%s' taken as a device id", bad[i]);
	}
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_devnum),
	    cmocka_unit_test(test_devnum_refused),
	    cmocka_unit_test(test_ifindex),
	    cmocka_unit_test(test_subsystem_sysname),
	    cmocka_unit_test(test_subsystem_sysname_refused),
	    cmocka_unit_test(test_other_strings),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
