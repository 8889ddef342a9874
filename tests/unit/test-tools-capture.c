/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tools/common/capture.c: a capture of the article's tree, and its counts: what it
 * copied, counted by hand. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "capture.h"
#include "libsysdev.h"
#include "tree.h"

#define LED_REL "devices/platform/omap_i2c.2/i2c-2/2-0045/leds/gta04:green:power"

static void test_capture(void **state)
{
	struct tree_counts st;
	char *root = tree_new(), *dest = tree_new(), *text;
	struct sysdev *ctx;
	int fd;

	(void)state;
	tree_article(root);
	assert_int_equal(sysdev_new(root, &ctx), 0);
	/* tree_new() made devices/ in the destination: not empty */
	fd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(tree_capture(ctx, NULL, fd, 0, &st), -ENOTEMPTY);
	assert_int_equal(unlinkat(fd, "devices", AT_REMOVEDIR), 0);
	/* one device and the ancestors above it; the counts are zeroed first */
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(tree_capture(ctx, "/" LED_REL, fd, 0, &st), 0);
	close(fd);
	text = tree_read(dest, LED_REL "/brightness");
	assert_string_equal(text, "100\n");
	free(text);
	/* the device's own files (uevent, brightness), and its ancestors' */
	assert_true(st.files >= 2);
	assert_true(st.dirs >= 6);
	assert_int_equal(st.skipped, 0);
	assert_true(st.bytes >= 4);
	/* an archive's limits, not a capture's */
	assert_int_equal(st.too_deep, 0);
	assert_int_equal(st.unsafe_links, 0);
	/* the checks at the entry */
	assert_int_equal(tree_capture(NULL, NULL, 0, 0, NULL), -EINVAL);
	assert_int_equal(tree_capture(ctx, NULL, -1, 0, NULL), -EINVAL);
	assert_int_equal(tree_capture(ctx, "devices", 0, 0, NULL), -EINVAL);
	sysdev_unref(ctx);
	tree_free(dest);
	tree_free(root);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_capture),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
