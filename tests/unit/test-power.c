/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* power/ parsing and the latency tolerance (sysdev(7)) on a temp copy. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "libsysdev.h"
#include "tree.h"

#define CLIENT_REL "devices/platform/omap_i2c.2/i2c-2/2-0045"
#define CLIENT "/" CLIENT_REL
#define LT_FILE "devices/platform/omap_i2c.2/i2c-2/2-0045/power/pm_qos_latency_tolerance_us"

/* The tolerance file's path below @root (a static buffer). */
static const char *LT_PATH(const char *root)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, LT_FILE);
	return path;
}

static int setup(void **state)
{
	char *root = tree_new();

	tree_article(root);
	tree_file(root, CLIENT_REL "/power/control", "auto\n");
	tree_file(root, CLIENT_REL "/power/runtime_status", "suspended\n");
	tree_file(root, CLIENT_REL "/power/pm_qos_resume_latency_us", "n/a\n");
	tree_file(root, CLIENT_REL "/power/pm_qos_no_power_off", "1\n");
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tree_free(*state);
	return 0;
}

static void test_parse(void **state)
{
	int32_t us;

	(void)state;
	assert_int_equal(sysdev_parse_latency_tolerance("auto", &us), SYSDEV_LT_AUTO);
	assert_int_equal(us, -1);
	assert_int_equal(sysdev_parse_latency_tolerance("any\n", &us), SYSDEV_LT_ANY);
	assert_int_equal(us, 2147483647);
	assert_int_equal(sysdev_parse_latency_tolerance("100", &us), SYSDEV_LT_VALUE);
	assert_int_equal(us, 100);
	assert_int_equal(sysdev_parse_latency_tolerance("0", &us), SYSDEV_LT_VALUE);
	assert_int_equal(sysdev_parse_latency_tolerance("2147483647", &us), SYSDEV_LT_VALUE);
	assert_int_equal(us, 2147483647);
	static const char *const bad[] = {"-5", "abc",	"",	"2147483648", "99999999999",
					  " 1", "1 ",	"0x10", "auto\n\n",   "AUTO",
					  "+1", "any ", "1\n2", NULL};
	for (int i = 0; bad[i]; i++)
		if (sysdev_parse_latency_tolerance(bad[i], &us) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
	assert_int_equal(sysdev_parse_latency_tolerance(NULL, &us), -EINVAL);
}

static void test_power(void **state)
{
	struct sysdev_device *dev;
	struct sysdev_power *p;
	struct sysdev *ctx;
	const char *v;
	int64_t lat;
	bool npo;
	int32_t us;

	assert_int_equal(sysdev_new(*state, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_power(dev, &p), 0);
	assert_int_equal(sysdev_power_get_runtime_status(p, &v), 0);
	assert_string_equal(v, "suspended");
	assert_int_equal(sysdev_power_get_control(p, &v), 0);
	assert_string_equal(v, "auto");
	assert_int_equal(sysdev_power_get_wakeup(p, &v), -ENOENT);
	/* "n/a": no constraint, a value of its own */
	assert_int_equal(sysdev_power_get_resume_latency_us(p, &lat), -ERANGE);
	assert_int_equal(sysdev_power_get_no_power_off(p, &npo), 0);
	assert_true(npo);
	assert_int_equal(sysdev_power_get_latency_tolerance(p, &us), SYSDEV_LT_AUTO);
	assert_int_equal(sysdev_power_get_latency_tolerance_text(p, &v), -ENOENT);
	/* a reference of its own: it outlives the device */
	sysdev_device_unref(dev);
	assert_ptr_equal(sysdev_power_ref(p), p);
	assert_null(sysdev_power_unref(p));
	assert_int_equal(sysdev_power_get_control(p, &v), 0);
	assert_null(sysdev_power_unref(p));

	assert_int_equal(sysdev_device_new(ctx, "/devices/platform/omap_i2c.2/i2c-2", &dev), 0);
	assert_int_equal(sysdev_device_get_power(dev, &p), 0);
	assert_int_equal(sysdev_power_get_latency_tolerance(p, &us), -ENOENT);
	assert_int_equal(sysdev_power_get_resume_latency_us(p, &lat), -ENOENT);
	assert_int_equal(sysdev_power_get_no_power_off(p, &npo), -ENOENT);
	sysdev_power_unref(p);
	sysdev_device_unref(dev);
	sysdev_unref(ctx);
}

/* assert_return() at the entries: NULL is -EINVAL (or nothing), never a crash. */
static void test_power_null(void **state)
{
	struct sysdev_power *p = (struct sysdev_power *)1;
	const char *v;
	int32_t us;

	(void)state;
	assert_int_equal(sysdev_device_get_power(NULL, &p), -EINVAL);
	assert_null(p);
	assert_int_equal(sysdev_power_get_runtime_status(NULL, &v), -EINVAL);
	assert_int_equal(sysdev_power_get_latency_tolerance(NULL, &us), -EINVAL);
	assert_int_equal(sysdev_device_get_latency_tolerance(NULL, &us), -EINVAL);
	assert_int_equal(sysdev_device_set_latency_tolerance(NULL, "1"), -EINVAL);
	assert_null(sysdev_power_ref(NULL));
	assert_null(sysdev_power_unref(NULL));
}

/* Values the kernel never writes read as absent, never as a number. */
static void test_power_garbage(void **state)
{
	static const char *const bad_npo[] = {"x\n", "2\n", "10\n", "01\n", "1x\n", "", NULL};
	static const char *const bad_lat[] = {"12abc\n", "-3\n", "abc\n", "", NULL};
	const char *root = *state;
	struct sysdev_device *dev;
	struct sysdev_power *p;
	struct sysdev *ctx;
	int64_t lat;
	bool npo;

	assert_int_equal(sysdev_new(root, &ctx), 0);
	for (int i = 0; bad_npo[i]; i++) {
		tree_file(root, CLIENT_REL "/power/pm_qos_no_power_off", bad_npo[i]);
		assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
		assert_int_equal(sysdev_device_get_power(dev, &p), 0);
		if (sysdev_power_get_no_power_off(p, &npo) != -ENOENT)
			fail_msg("pm_qos_no_power_off '%s' read as %d, not absent", bad_npo[i],
				 npo);
		sysdev_power_unref(p);
		sysdev_device_unref(dev);
	}
	tree_file(root, CLIENT_REL "/power/pm_qos_no_power_off", "0\n");
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_power(dev, &p), 0);
	assert_int_equal(sysdev_power_get_no_power_off(p, &npo), 0);
	assert_false(npo);
	sysdev_power_unref(p);
	sysdev_device_unref(dev);
	tree_file(root, CLIENT_REL "/power/pm_qos_no_power_off", "1\n");

	for (int i = 0; bad_lat[i]; i++) {
		tree_file(root, CLIENT_REL "/power/pm_qos_resume_latency_us", bad_lat[i]);
		assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
		assert_int_equal(sysdev_device_get_power(dev, &p), 0);
		if (sysdev_power_get_resume_latency_us(p, &lat) != -ENOENT)
			fail_msg("pm_qos_resume_latency_us '%s' read as %lld, not absent",
				 bad_lat[i], (long long)lat);
		sysdev_power_unref(p);
		sysdev_device_unref(dev);
	}
	tree_file(root, CLIENT_REL "/power/pm_qos_resume_latency_us", "25\n");
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_power(dev, &p), 0);
	assert_int_equal(sysdev_power_get_resume_latency_us(p, &lat), 0);
	assert_int_equal(lat, 25);
	sysdev_power_unref(p);
	sysdev_device_unref(dev);
	tree_file(root, CLIENT_REL "/power/pm_qos_resume_latency_us", "n/a\n");
	sysdev_unref(ctx);
}

/* A tolerance file that is there but holds no value: the errno and the text. */
static void test_power_bad_tolerance(void **state)
{
	const char *root = *state;
	struct sysdev_device *dev;
	struct sysdev_power *p;
	struct sysdev *ctx;
	const char *v;
	int32_t us;

	assert_int_equal(sysdev_new(root, &ctx), 0);
	tree_file(root, LT_FILE, "bogus\n");
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_power(dev, &p), 0);
	assert_int_equal(sysdev_power_get_latency_tolerance(p, &us), -EBADMSG);
	assert_int_equal(sysdev_power_get_latency_tolerance_text(p, &v), 0);
	assert_string_equal(v, "bogus");
	sysdev_power_unref(p);
	sysdev_device_unref(dev);
	/* a directory where the file should be: not a regular file */
	unlink(LT_PATH(root));
	tree_dir(root, LT_FILE "/");
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), -EBADFD);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "5"), -EBADFD);
	sysdev_device_unref(dev);
	rmdir(LT_PATH(root));
	tree_file(root, LT_FILE, "auto\n");
	sysdev_unref(ctx);
}

static void test_set(void **state)
{
	const char *root = *state;
	struct sysdev_device *dev;
	struct sysdev *ctx;
	int32_t us;
	char *text;

	assert_int_equal(sysdev_new(root, &ctx), 0);
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), SYSDEV_LT_AUTO);

	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "100"), 0);
	text = tree_read(root, LT_FILE);
	assert_string_equal(text, "100\n");
	free(text);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), SYSDEV_LT_VALUE);
	assert_int_equal(us, 100);

	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "any"), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), SYSDEV_LT_ANY);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "auto"), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), SYSDEV_LT_AUTO);

	/* refused before writing: nothing changes */
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "-5"), -EINVAL);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "garbage"), -EINVAL);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, ""), -EINVAL);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "99999999999"), -EINVAL);
	text = tree_read(root, LT_FILE);
	assert_string_equal(text, "auto\n");
	free(text);
	sysdev_device_unref(dev);

	/* a device without the attribute: absent, ENOENT both ways */
	assert_int_equal(sysdev_device_new(ctx, "/devices/platform/omap_i2c.2/i2c-2", &dev), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), -ENOENT);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "100"), -ENOENT);
	sysdev_device_unref(dev);

	/* power/ a link (to a device that has the file) or a file: no power/ of its own */
	tree_file(root, "devices/virtual/misc/linked/uevent", "");
	tree_link(root, "devices/virtual/misc/linked/power",
		  "../../../platform/omap_i2c.2/i2c-2/2-0045/power");
	tree_file(root, "devices/virtual/misc/flat/uevent", "");
	tree_file(root, "devices/virtual/misc/flat/power", "");
	assert_int_equal(sysdev_device_new(ctx, "/devices/virtual/misc/linked", &dev), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), -ENOENT);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "100"), -ENOENT);
	sysdev_device_unref(dev);
	assert_int_equal(sysdev_device_new(ctx, "/devices/virtual/misc/flat", &dev), 0);
	assert_int_equal(sysdev_device_set_latency_tolerance(dev, "100"), -ENOENT);
	sysdev_device_unref(dev);
	text = tree_read(root, LT_FILE);
	assert_string_equal(text, "auto\n");
	free(text);

	/* a value the kernel would never show */
	tree_file(root, LT_FILE, "bogus\n");
	assert_int_equal(sysdev_device_new(ctx, CLIENT, &dev), 0);
	assert_int_equal(sysdev_device_get_latency_tolerance(dev, &us), -EBADMSG);
	sysdev_device_unref(dev);
	tree_file(root, LT_FILE, "auto\n");
	sysdev_unref(ctx);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_power),
	    cmocka_unit_test(test_power_null),
	    cmocka_unit_test(test_power_garbage),
	    cmocka_unit_test(test_power_bad_tolerance),
	    cmocka_unit_test(test_set),
	};

	return UNIT_MAIN(tests, setup, teardown);
}
