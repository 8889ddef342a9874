/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tools' own code below the command line: the escapers
 * (tools/common/escape.c), the JSON writer (tools/common/json-writer.c),
 * the column names (tools/tree/columns.c) and the selection a filtered tree
 * shows (tools/tree/select.c).  Every expected output is written by hand
 * from the rules in the sources' comments and man/sysdev-tree.1.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli.h"
#include "columns.h"
#include "escape.h"
#include "json-writer.h"
#include "libsysdev.h"
#include "module-aliases.h"
#include "names.h"
#include "tree.h"

/* What @write put in a stream, as a NUL-terminated string to free. */
struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static void out_open(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	assert_non_null(o->f);
}

static char *out_close(struct out *o)
{
	assert_int_equal(fclose(o->f), 0);
	return o->buf;
}

#define TEXT(in, len, want)                                                                        \
	do {                                                                                       \
		struct out o_;                                                                     \
		char *got_;                                                                        \
		out_open(&o_);                                                                     \
		fput_text_len(o_.f, in, len);                                                      \
		got_ = out_close(&o_);                                                             \
		assert_string_equal(got_, want);                                                   \
		free(got_);                                                                        \
	} while (0)

#define JSON(in, len, want)                                                                        \
	do {                                                                                       \
		struct out o_;                                                                     \
		char *got_;                                                                        \
		out_open(&o_);                                                                     \
		fput_json_string_len(o_.f, in, len);                                               \
		got_ = out_close(&o_);                                                             \
		assert_string_equal(got_, want);                                                   \
		free(got_);                                                                        \
	} while (0)

#define HEX(in, also, want)                                                                        \
	do {                                                                                       \
		struct out o_;                                                                     \
		char *got_;                                                                        \
		out_open(&o_);                                                                     \
		fput_hex_escaped(o_.f, in, also);                                                  \
		got_ = out_close(&o_);                                                             \
		assert_string_equal(got_, want);                                                   \
		free(got_);                                                                        \
	} while (0)

/* a literal with its length, NULs inside included */
#define TEXTS(lit, want) TEXT(lit, sizeof(lit) - 1, want)
#define JSONS(lit, want) JSON(lit, sizeof(lit) - 1, want)

/* Text output: one name stays one line, printable ASCII and valid UTF-8 as they are. */
static void test_text_escape(void **state)
{
	(void)state;
	TEXTS("", "");
	TEXTS("plain name-1.0:x~ ", "plain name-1.0:x~ ");
	TEXTS("a\\b", "a\\\\b");
	TEXTS("a\nb\tc", "a\\nb\\tc");
	TEXTS("\r\x01\x1f\x7f", "\\x0d\\x01\\x1f\\x7f");
	TEXTS("a\0b", "a\\x00b");
	/* UTF-8: é, U+00A0, U+2027, U+FFFD and an emoji stay as they are */
	TEXTS("\xc3\xa9\xc2\xa0\xe2\x80\xa7\xef\xbf\xbd\xf0\x9f\x98\x80",
	      "\xc3\xa9\xc2\xa0\xe2\x80\xa7\xef\xbf\xbd\xf0\x9f\x98\x80");
	/* C1 controls U+0080, U+0085, U+009F and the separators U+2028, U+2029 */
	TEXTS("\xc2\x80\xc2\x85\xc2\x9f", "\\xc2\\x80\\xc2\\x85\\xc2\\x9f");
	TEXTS("\xe2\x80\xa8|\xe2\x80\xa9", "\\xe2\\x80\\xa8|\\xe2\\x80\\xa9");
	/* invalid: a lone continuation, 0xff, overlong forms, a surrogate, past U+10FFFF */
	TEXTS("\x80\xff", "\\x80\\xff");
	TEXTS("\xc1\x81", "\\xc1\\x81");
	TEXTS("\xe0\x80\x80", "\\xe0\\x80\\x80");
	TEXTS("\xed\xa0\x80", "\\xed\\xa0\\x80");
	TEXTS("\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf");
	TEXTS("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	TEXTS("\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80");
	/* the largest of each length is valid */
	TEXTS("\xdf\xbf\xed\x9f\xbf\xf4\x8f\xbf\xbf", "\xdf\xbf\xed\x9f\xbf\xf4\x8f\xbf\xbf");
	/* a sequence cut by the length is not read past it */
	TEXT("\xc3\xa9", 1, "\\xc3");
	TEXT("x\xe2\x82\xac", 3, "x\\xe2\\x82");
	{
		struct out o;
		char *got;

		out_open(&o);
		fput_text(o.f, "new\nline");
		got = out_close(&o);
		assert_string_equal(got, "new\\nline");
		free(got);
	}
}

/* JSON strings: quotes and backslashes escaped, invalid bytes as lone surrogates \udcNN. */
static void test_json_escape(void **state)
{
	(void)state;
	JSONS("", "\"\"");
	JSONS("a b~", "\"a b~\"");
	JSONS("q\"b\\", "\"q\\\"b\\\\\"");
	JSONS("\n\t\r", "\"\\n\\t\\r\"");
	JSONS("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	JSONS("a\0b", "\"a\\u0000b\"");
	/* valid UTF-8, the separators included, as it is */
	JSONS("\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\"");
	JSONS("\xff\x80", "\"\\udcff\\udc80\"");
	JSONS("\xed\xa0\x80", "\"\\udced\\udca0\\udc80\"");
	JSON("\xc3\xa9", 1, "\"\\udcc3\"");
	{
		struct out o;
		char *got;

		out_open(&o);
		fput_json_string(o.f, NULL);
		fputc(' ', o.f);
		fput_json_string(o.f, "x\"");
		got = out_close(&o);
		assert_string_equal(got, "null \"x\\\"\"");
		free(got);
	}
}

/* The lists' escape: controls, backslash, invalid UTF-8 and the bytes of @also as \xHH. */
static void test_hex_escape(void **state)
{
	(void)state;
	HEX("", "", "");
	HEX("a b=c", "", "a b=c");
	HEX("a b=c", " =", "a\\x20b\\x3dc");
	HEX("a\\b", "", "a\\x5cb");
	HEX("\x01\n\x1f\x7f", "", "\\x01\\x0a\\x1f\\x7f");
	HEX("\xc3\xa9\xe2\x80\xa7", "", "\xc3\xa9\xe2\x80\xa7");
	HEX("\xc2\x85\xe2\x80\xa9", "", "\\xc2\\x85\\xe2\\x80\\xa9");
	HEX("\xff\xc3", "", "\\xff\\xc3");
	HEX("\xe0\x80\x80", "", "\\xe0\\x80\\x80");
}

static char *json_of(void (*write)(struct jw *w))
{
	struct out o;
	struct jw w;

	out_open(&o);
	jw_init(&w, o.f);
	write(&w);
	jw_done(&w);
	return out_close(&o);
}

static void doc_members(struct jw *w)
{
	jw_begin_object(w);
	jw_member_string(w, "a", "x");
	jw_key(w, "b");
	jw_begin_array(w);
	jw_int(w, -1);
	jw_int(w, INT64_MIN);
	jw_uint(w, UINT64_MAX);
	jw_bool(w, true);
	jw_bool(w, false);
	jw_null(w);
	jw_string(w, NULL);
	jw_string_len(w, "n\0l", 3);
	jw_end_array(w);
	jw_member_uint(w, "c", 0);
	jw_key(w, "k\"");
	jw_begin_object(w);
	jw_end_object(w);
	jw_key(w, "e");
	jw_begin_array(w);
	jw_end_array(w);
	assert_int_equal(jw_depth(w), 1);
	jw_end_object(w);
	assert_int_equal(jw_depth(w), 0);
	/* a closing bracket at the top level writes nothing */
	jw_end_object(w);
	jw_end_array(w);
}

static void doc_breaks(struct jw *w)
{
	jw_begin_array(w);
	jw_break(w, 1);
	jw_int(w, 1);
	jw_break(w, 1);
	jw_begin_object(w);
	jw_break(w, 2);
	jw_member_uint(w, "k", 2);
	jw_break(w, 1);
	jw_end_object(w);
	jw_int(w, 3); /* no break asked: ", " */
	jw_break_spaces(w, 70);
	jw_int(w, 4);
	jw_break(w, 0);
	jw_end_array(w);
	/* a break before the bracket of an empty container is not written */
	jw_begin_array(w);
	jw_break(w, 3);
	jw_end_array(w);
}

static void doc_end(struct jw *w)
{
	jw_begin_object(w);
	jw_key(w, "a");
	jw_begin_array(w);
	jw_int(w, 1);
	jw_begin_object(w);
	jw_end_document(w);
	assert_int_equal(jw_depth(w), 0);
	/* an empty one */
	jw_begin_array(w);
	jw_end_document(w);
}

static void test_json_writer(void **state)
{
	char *got;
	char spaces[71];

	(void)state;
	got = json_of(doc_members);
	assert_string_equal(got, "{\"a\": \"x\", \"b\": [-1, -9223372036854775808, "
				 "18446744073709551615, true, false, null, null, \"n\\u0000l\"], "
				 "\"c\": 0, \"k\\\"\": {}, \"e\": []}");
	free(got);
	memset(spaces, ' ', 70);
	spaces[70] = 0;
	got = json_of(doc_breaks);
	{
		char want[256];

		snprintf(want, sizeof(want), "[\n  1,\n  {\n    \"k\": 2\n  }, 3,\n%s4\n][]",
			 spaces);
		assert_string_equal(got, want);
	}
	free(got);
	got = json_of(doc_end);
	assert_string_equal(got, "{\"a\": [1, {}\n  ]\n}\n[]\n");
	free(got);
}

static const char *names_of(const struct column **cols, size_t n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n; i++)
		used +=
		    (size_t)snprintf(buf + used, size - used, "%s%s", i ? "," : "", cols[i]->name);
	return buf;
}

/* -o LIST: whole names in any case; "+LIST" after the defaults; a prefix is no name. */
static void test_columns_parse(void **state)
{
	const struct column **cols = (const struct column **)1;
	size_t n = 7;
	char buf[256];

	(void)state;
	assert_int_equal(columns_parse("name,Devname,DRIVER", "KIND", &cols, &n), 0);
	assert_string_equal(names_of(cols, n, buf, sizeof(buf)), "NAME,DEVNAME,DRIVER");
	free(cols);
	assert_int_equal(columns_parse(NULL, "NAME,KIND", &cols, &n), 0);
	assert_string_equal(names_of(cols, n, buf, sizeof(buf)), "NAME,KIND");
	free(cols);
	assert_int_equal(columns_parse("+driver,name", "NAME,KIND", &cols, &n), 0);
	assert_string_equal(names_of(cols, n, buf, sizeof(buf)), "NAME,KIND,DRIVER,NAME");
	free(cols);
	assert_int_equal(columns_parse(COLUMNS_TREE_DEFAULT, NULL, &cols, &n), 0);
	assert_string_equal(names_of(cols, n, buf, sizeof(buf)), COLUMNS_TREE_DEFAULT);
	free(cols);
	/* what is not a whole name: a prefix of DEVNAME and DEVPATH, a name with more,
	 * an empty name anywhere */
	const char *bad[] = {"dev",   "DEVNAM",	    "DEVNAMEX", "NAME,dev", "",	   "NAME,",
			     ",NAME", "NAME,,KIND", "NAM",	"+",	    "+dev"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cols = (const struct column **)1;
		n = 7;
		assert_int_equal(columns_parse(bad[i], "NAME", &cols, &n), -EINVAL);
		assert_null(cols);
		assert_int_equal(n, 0);
	}
	/* every column of the table by its own name, and by its key */
	for (size_t i = 0; i < n_columns; i++) {
		assert_int_equal(columns_parse(columns[i].name, NULL, &cols, &n), 0);
		assert_int_equal(n, 1);
		assert_ptr_equal(cols[0], &columns[i]);
		free(cols);
		assert_int_equal(columns_parse(columns[i].key, NULL, &cols, &n), 0);
		assert_ptr_equal(cols[0], &columns[i]);
		free(cols);
	}
	/* VENDOR, MODEL, MODULE need the hwdb's names; NAME and DEVPATH not */
	assert_int_equal(columns_parse("NAME,DEVPATH", NULL, &cols, &n), 0);
	assert_false(columns_need(cols, n, COL_NAMES));
	free(cols);
	assert_int_equal(columns_parse("NAME,model", NULL, &cols, &n), 0);
	assert_true(columns_need(cols, n, COL_NAMES));
	assert_true(columns_need(cols, n, COL_UEVENT));
	free(cols);
	assert_false(columns_need(NULL, 0, COL_NAMES));
}

#define CPU "/devices/system/cpu"

/* cpu1, cpu1/cache, cpu10 and cpu2: names that extend each other are siblings. */
static char *cpu_tree(void)
{
	char *root = tree_new();

	tree_dir(root, "bus/cpu/");
	tree_dir(root, "class/net/");
	tree_device(root, "/devices/system", NULL, NULL, "");
	tree_device(root, CPU, NULL, NULL, "");
	tree_device(root, CPU "/cpu1", "bus:cpu", NULL, "");
	tree_device(root, CPU "/cpu1/cache", NULL, NULL, "");
	tree_device(root, CPU "/cpu10", "bus:cpu", NULL, "");
	tree_device(root, CPU "/cpu2", "bus:cpu", NULL, "");
	tree_device(root, "/devices/virtual/net/lo", "class:net", NULL, "INTERFACE=lo\n");
	return root;
}

static void test_select(void **state)
{
	const char *cpu[] = {"cpu"}, *lo[] = {"lo"};
	struct options o;
	struct selection sel;
	struct sysdev *ctx;
	char *root = cpu_tree();
	long i1, i10, i2;

	(void)state;
	assert_int_equal(sysdev_new(root, &ctx), 0);
	memset(&o, 0, sizeof(o));
	assert_false(filters_given(&o));
	o.subsystems = cpu;
	o.n_subsystems = 1;
	assert_true(filters_given(&o));
	/* -s cpu: the three cpus and their ancestors, in walk order, no duplicates */
	assert_int_equal(selection_build(ctx, &o, NULL, &sel), 0);
	assert_int_equal(sel.n, 6);
	assert_string_equal(sel.paths[0], "/devices");
	assert_string_equal(sel.paths[1], "/devices/system");
	assert_string_equal(sel.paths[2], CPU);
	assert_string_equal(sel.paths[3], CPU "/cpu1");
	assert_string_equal(sel.paths[4], CPU "/cpu10");
	assert_string_equal(sel.paths[5], CPU "/cpu2");
	i1 = selection_find(&sel, CPU "/cpu1");
	i10 = selection_find(&sel, CPU "/cpu10");
	i2 = selection_find(&sel, CPU "/cpu2");
	assert_int_equal(i1, 3);
	assert_int_equal(i10, 4);
	assert_int_equal(i2, 5);
	assert_int_equal(selection_find(&sel, CPU "/cpu1/cache"), -1);
	assert_int_equal(selection_find(&sel, "/devices/virtual"), -1);
	assert_int_equal(selection_find(&sel, CPU "/cpu"), -1);
	/* cpu10 is cpu1's later sibling, not its child; cpu2 is the last */
	assert_int_equal(sel.next[i1], 1);
	assert_int_equal(sel.next[i10], 1);
	assert_int_equal(sel.next[i2], 0);
	assert_int_equal(sel.next[0], 0);
	assert_int_equal(sel.next[2], 0);
	selection_free(&sel);
	assert_int_equal(sel.n, 0);

	/* below cpu1: cpu1 alone, not cpu10 */
	assert_int_equal(selection_build(ctx, &o, CPU "/cpu1", &sel), 0);
	assert_int_equal(sel.n, 1);
	assert_string_equal(sel.paths[0], CPU "/cpu1");
	selection_free(&sel);

	/* two filters of different kinds: both must hold (a cpu named lo: none) */
	o.sysnames = lo;
	o.n_sysnames = 1;
	assert_int_equal(selection_build(ctx, &o, NULL, &sel), EXIT_RUNTIME);
	assert_int_equal(sel.n, 0);
	o.n_subsystems = 0;
	assert_int_equal(selection_build(ctx, &o, NULL, &sel), 0);
	assert_int_equal(sel.n, 4);
	assert_string_equal(sel.paths[3], "/devices/virtual/net/lo");
	/* /devices and /devices/virtual have no later sibling in the selection */
	for (size_t i = 0; i < sel.n; i++)
		assert_int_equal(sel.next[i], 0);
	selection_free(&sel);
	sysdev_unref(ctx);
	tree_free(root);
}

/* udev's hwdb key of a USB device without a modalias, by hand from udev's rules. */
static void test_usb_modalias(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(names_usb_modalias("046d\n", "c52b\n", "USB Receiver", buf, sizeof(buf)),
			 27);
	assert_string_equal(buf, "usb:v046DpC52B:USB Receiver");
	assert_int_equal(names_usb_modalias(" 0x1d6b", "2", NULL, buf, sizeof(buf)), 15);
	assert_string_equal(buf, "usb:v1D6Bp0002:");
	/* cut to the buffer, the length it needed */
	assert_int_equal(names_usb_modalias("1", "2", "xyz", buf, 8), 18);
	assert_string_equal(buf, "usb:v00");
	/* no id, or not one: a missing attribute, a number past 0xffff, a word */
	assert_int_equal(names_usb_modalias(NULL, "2", "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(names_usb_modalias("1", NULL, "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(names_usb_modalias("10000", "2", "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(names_usb_modalias("", "2", "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(names_usb_modalias("1\n\n", "2", "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(names_usb_modalias("0xg", "2", "", buf, sizeof(buf)), -EINVAL);
}

/* modules.alias text by hand: lookups as kmod answers them, @bad_line optional. */
static void test_module_aliases(void **state)
{
	static const char text[] = "# Aliases extracted from modules themselves.\n"
				   "alias pci:v00008086d*sv*sd*bc02sc00i* e1000e\n"
				   "alias pci:v00008086d000010D3sv*sd*bc*sc*i* e1000e\n"
				   "alias pci:v00008086d*sv*sd*bc0Csc03i* ehci-pci\n"
				   "alias usb:v1D6Bp0002d*dc*dsc*dp*ic*isc*ip*in* usb-hub\n";
	struct module_aliases *a;
	char *mods;
	size_t bad = 7;

	(void)state;
	/* no line number asked for: fine, as the header says */
	assert_int_equal(module_aliases_parse(text, sizeof(text) - 1, &a, NULL), 0);
	assert_int_equal(module_aliases_count(a), 4);
	assert_int_equal(module_aliases_lookup(a, "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00",
					       &mods, NULL),
			 0);
	assert_string_equal(mods, "e1000e"); /* two patterns, one module, once */
	free(mods);
	assert_int_equal(module_aliases_lookup(a, "pci:v00008086d00002934sv0sd0bc0Csc03i00", &mods,
					       NULL),
			 0);
	assert_string_equal(mods, "ehci-pci"); /* the name as the file writes it */
	free(mods);
	assert_int_equal(module_aliases_lookup(a, "acpi:PNP0A03:", &mods, NULL), 0);
	assert_null(mods);
	module_aliases_free(a);
	/* with one: 0 when every line is fine */
	assert_int_equal(module_aliases_parse(text, sizeof(text) - 1, &a, &bad), 0);
	assert_int_equal(bad, 0);
	module_aliases_free(a);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_escape),	  cmocka_unit_test(test_json_escape),
	    cmocka_unit_test(test_hex_escape),	  cmocka_unit_test(test_json_writer),
	    cmocka_unit_test(test_columns_parse), cmocka_unit_test(test_select), cmocka_unit_test(test_usb_modalias), cmocka_unit_test(test_module_aliases),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
