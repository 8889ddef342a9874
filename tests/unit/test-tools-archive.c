/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tools/common/archive.c's reader on buffers that end where the memory does:
 * the last bytes of a page whose next page may not be touched, so that a read
 * one byte past the archive is a crash here, not a quiet look at whatever
 * follows.  A line that ends inside a field is refused with its number.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "archive.h"

/* @text copied to the very end of a readable page, the next page inaccessible */
static const char *at_page_end(const char *text, void **map, size_t *maplen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = strlen(text);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, page, PROT_NONE), 0);
	assert_true(len <= page);
	memcpy(m + page - len, text, len);
	*map = m;
	*maplen = 2 * page;
	return m + page - len;
}

static void test_cut_at_the_end(void **state)
{
	static const char *const cut[] = {
	    "sysdev-archive 1\nd 07",
	    "sysdev-archive 1\nd 0",
	    "sysdev-archive 1\nd ",
	    "sysdev-archive 1\nd",
	    "sysdev-archive 1\nd 0755",
	    "sysdev-archive 1\nd 0755 ",
	    "sysdev-archive 1\nd 0755 \"devices",
	    "sysdev-archive 1\nf 0644 \"devices/x\" \"ab",
	    "sysdev-archive 1\nf 0644 \"devices/x\" \"a\\",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		size_t maplen, line = 0;
		void *map;
		const char *buf = at_page_end(cut[i], &map, &maplen);

		if (archive_unpack_buffer(buf, strlen(cut[i]), -1, &line) != -EBADMSG || line != 2)
			fail_msg("'%s' (no newline at the end) not refused at line 2 (line %zu)",
				 cut[i], line);
		munmap(map, maplen);
	}
}

/* The same archive, whole and with its last newline: the reader accepts it there too. */
static void test_whole_at_the_end(void **state)
{
	size_t maplen, line = 0;
	void *map;
	const char *text = "sysdev-archive 1\nd 0755 \"devices\"\nf 0644 \"devices/x\" \"a\"";
	const char *buf = at_page_end(text, &map, &maplen);

	(void)state;
	assert_int_equal(archive_unpack_buffer(buf, strlen(text), -1, &line), 0);
	munmap(map, maplen);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cut_at_the_end),
	    cmocka_unit_test(test_whole_at_the_end),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
