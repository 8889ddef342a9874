/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/uevent-message.c: the kernel's messages on NETLINK_KOBJECT_UEVENT, as
 * lib/kobject_uevent.c writes them: "ACTION@DEVPATH", a NUL, then
 * "ACTION=", "DEVPATH=", "SUBSYSTEM=", the device's own properties and
 * "SEQNUM=", each ended by a NUL.  udevd's messages ("libudev\0" and a
 * binary header) are not the kernel's and are refused.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libsysdev-private.h"

/* The strings given, each ended by a NUL, into @buf; the length. */
static size_t msg(char *buf, size_t size, ...)
{
	size_t len = 0;
	const char *s;
	va_list ap;

	va_start(ap, size);
	while ((s = va_arg(ap, const char *))) {
		size_t n = strlen(s) + 1;

		assert_true(len + n <= size);
		memcpy(buf + len, s, n);
		len += n;
	}
	va_end(ap);
	return len;
}

#define MSG(buf, ...) msg(buf, sizeof(buf), __VA_ARGS__, (const char *)NULL)

static int parse(const char *data, size_t len)
{
	struct uevent_message m;
	int err = uevent_message_parse(&m, data, len);

	if (err == 0)
		uevent_message_free(&m);
	else
		assert_null(m.buf); /* nothing held after a failure */
	return err;
}

/* A network interface added, as the kernel sends it. */
static void test_kernel_add(void **state)
{
	char buf[512];
	size_t len =
	    MSG(buf, "add@/devices/virtual/net/lo", "ACTION=add", "DEVPATH=/devices/virtual/net/lo",
		"SUBSYSTEM=net", "INTERFACE=lo", "IFINDEX=1", "SEQNUM=2049");
	struct uevent_message m;

	(void)state;
	assert_int_equal(uevent_message_parse(&m, buf, len), 0);
	assert_string_equal(m.action, "add");
	assert_string_equal(m.devpath, "/devices/virtual/net/lo");
	assert_string_equal(m.subsystem, "net");
	assert_int_equal(m.seqnum, 2049);
	assert_int_equal(m.n, 6);
	assert_string_equal(m.keys[0], "ACTION");
	assert_string_equal(m.keys[5], "SEQNUM");
	assert_string_equal(uevent_message_get(&m, "INTERFACE"), "lo");
	assert_string_equal(uevent_message_get(&m, "IFINDEX"), "1");
	assert_null(uevent_message_get(&m, "SEQ"));
	assert_null(uevent_message_get(&m, "SEQNUMX"));
	assert_null(uevent_message_get(&m, "add@/devices/virtual/net/lo"));
	/* a copy: the caller's bytes may go */
	memset(buf, 0, sizeof(buf));
	assert_string_equal(m.devpath, "/devices/virtual/net/lo");
	uevent_message_free(&m);
	assert_null(m.buf);
	assert_int_equal(m.n, 0);
}

/* Every action the kernel sends (kobject_actions[]), and no other. */
static void test_actions(void **state)
{
	static const char *const ok[] = {"add",	   "remove",  "change", "move",
					 "online", "offline", "bind",	"unbind"};
	static const char *const bad[] = {"ADD", "added", "ad", "", "exit", "add ", " add"};
	char buf[256], head[64], act[64];
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct uevent_message m;

		snprintf(head, sizeof(head), "%s@/devices/x", ok[i]);
		snprintf(act, sizeof(act), "ACTION=%s", ok[i]);
		len = MSG(buf, head, act, "DEVPATH=/devices/x", "SEQNUM=1");
		assert_int_equal(uevent_message_parse(&m, buf, len), 0);
		assert_string_equal(m.action, ok[i]);
		/* no SUBSYSTEM: none */
		assert_null(m.subsystem);
		uevent_message_free(&m);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(head, sizeof(head), "%s@/devices/x", bad[i]);
		snprintf(act, sizeof(act), "ACTION=%s", bad[i]);
		len = MSG(buf, head, act, "DEVPATH=/devices/x", "SEQNUM=1");
		if (parse(buf, len) != -EBADMSG)
			fail_msg("action '%s' taken", bad[i]);
	}
}

/* udevd's messages: "libudev\0", struct udev_monitor_netlink_header, properties. */
static void test_libudev_refused(void **state)
{
	struct {
		char prefix[8];
		uint32_t magic, header_size, properties_off, properties_len;
		uint32_t filter_subsystem_hash, filter_devtype_hash, filter_tag_bloom_hi,
		    filter_tag_bloom_lo;
	} h = {"libudev", htonl(0xfeedcafe), sizeof(h), sizeof(h), 0, 0, 0, 0, 0};
	char props[256], buf[512];
	size_t plen = MSG(props, "ACTION=add", "DEVPATH=/devices/virtual/net/lo", "SUBSYSTEM=net",
			  "SEQNUM=2049", "USEC_INITIALIZED=123");

	(void)state;
	h.properties_len = (uint32_t)plen;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), props, plen);
	assert_int_equal(parse(buf, sizeof(h) + plen), -EBADMSG);
	/* even with an '@' in a property after the header */
	plen = MSG(props, "ACTION=add", "DEVPATH=/devices/a@b", "SEQNUM=1");
	memcpy(buf + sizeof(h), props, plen);
	assert_int_equal(parse(buf, sizeof(h) + plen), -EBADMSG);
}

/* The header and the properties must agree. */
static void test_header_mismatch(void **state)
{
	char buf[256];
	size_t len;

	(void)state;
	len = MSG(buf, "add@/devices/x", "ACTION=remove", "DEVPATH=/devices/x", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/y", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	/* a prefix is not the devpath: cpu1 beside cpu10 */
	len = MSG(buf, "add@/devices/system/cpu/cpu1", "ACTION=add",
		  "DEVPATH=/devices/system/cpu/cpu10", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	len = MSG(buf, "add@/devices/x", "DEVPATH=/devices/x", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	len = MSG(buf, "add@/devices/x", "ACTION=add", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	/* a devpath is absolute */
	len = MSG(buf, "add@devices/x", "ACTION=add", "DEVPATH=devices/x", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	len = MSG(buf, "add@", "ACTION=add", "DEVPATH=", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	/* no '@' in the header (one in a property does not count) */
	len = MSG(buf, "add", "ACTION=add", "DEVPATH=/devices/a@b", "SEQNUM=1");
	assert_int_equal(parse(buf, len), -EBADMSG);
	/* the first '@' splits: a devpath may hold one */
	len = MSG(buf, "add@/devices/a@b", "ACTION=add", "DEVPATH=/devices/a@b", "SEQNUM=1");
	assert_int_equal(parse(buf, len), 0);
}

/* SEQNUM: decimal digits only, in 64 bits. */
static void test_seqnum(void **state)
{
	static const char *const bad[] = {
	    "SEQNUM=",	 "SEQNUM=-1", "SEQNUM= 1",  "SEQNUM=+1",
	    "SEQNUM=1 ", "SEQNUM=1x", "SEQNUM=0x1", "SEQNUM=18446744073709551616"};
	char buf[256];
	size_t len;
	struct uevent_message m;

	(void)state;
	len = MSG(buf, "change@/devices/x", "ACTION=change", "DEVPATH=/devices/x",
		  "SEQNUM=18446744073709551615");
	assert_int_equal(uevent_message_parse(&m, buf, len), 0);
	assert_true(m.seqnum == UINT64_MAX);
	uevent_message_free(&m);
	len = MSG(buf, "change@/devices/x", "ACTION=change", "DEVPATH=/devices/x", "SEQNUM=0");
	assert_int_equal(uevent_message_parse(&m, buf, len), 0);
	assert_int_equal(m.seqnum, 0);
	uevent_message_free(&m);
	len = MSG(buf, "change@/devices/x", "ACTION=change", "DEVPATH=/devices/x");
	assert_int_equal(parse(buf, len), -EBADMSG);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		len = MSG(buf, "change@/devices/x", "ACTION=change", "DEVPATH=/devices/x", bad[i]);
		if (parse(buf, len) != -EBADMSG)
			fail_msg("'%s' taken", bad[i]);
	}
}

/* Properties: KEY=VALUE each, the value anything (a newline, invalid UTF-8, '='). */
static void test_properties(void **state)
{
	char buf[256];
	size_t len;
	struct uevent_message m;

	(void)state;
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "MODALIAS=of:Nx=y",
		  "ODD=a\nb\xff", "EMPTY=", "SEQNUM=7");
	assert_int_equal(uevent_message_parse(&m, buf, len), 0);
	assert_string_equal(uevent_message_get(&m, "MODALIAS"), "of:Nx=y");
	assert_string_equal(uevent_message_get(&m, "ODD"), "a\nb\xff");
	assert_string_equal(uevent_message_get(&m, "EMPTY"), "");
	uevent_message_free(&m);
	/* a string without '=', with an empty key, or empty: not a kernel message */
	len =
	    MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "NOEQUALS", "SEQNUM=7");
	assert_int_equal(parse(buf, len), -EBADMSG);
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "=v", "SEQNUM=7");
	assert_int_equal(parse(buf, len), -EBADMSG);
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "", "SEQNUM=7");
	assert_int_equal(parse(buf, len), -EBADMSG);
}

/* The framing: whole messages only, NUL-terminated, bounded. */
static void test_framing(void **state)
{
	char buf[256], *big;
	size_t len;

	(void)state;
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "SEQNUM=1");
	assert_int_equal(parse(buf, len), 0);
	/* cut: the last string not ended */
	assert_int_equal(parse(buf, len - 1), -EBADMSG);
	assert_int_equal(parse(buf, len - 3), -EBADMSG);
	/* the header alone */
	assert_int_equal(parse(buf, strlen(buf) + 1), -EBADMSG);
	assert_int_equal(parse(buf, 0), -EBADMSG);
	assert_int_equal(parse("a\0", 2), -EBADMSG);
	assert_int_equal(parse("\0\0\0", 3), -EBADMSG);
	/* UEVENT_MESSAGE_MAX bytes at most */
	big = malloc(UEVENT_MESSAGE_MAX + 2);
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "SEQNUM=1");
	memcpy(big, buf, len);
	memcpy(big + len, "PAD=", 4);
	memset(big + len + 4, 'p', UEVENT_MESSAGE_MAX - len - 5);
	big[UEVENT_MESSAGE_MAX - 1] = '\0';
	assert_int_equal(parse(big, UEVENT_MESSAGE_MAX), 0);
	big[UEVENT_MESSAGE_MAX - 1] = 'p';
	big[UEVENT_MESSAGE_MAX] = '\0';
	assert_int_equal(parse(big, UEVENT_MESSAGE_MAX + 1), -EBADMSG);
	free(big);
}

/* Many properties: the arrays grow. */
static void test_many_properties(void **state)
{
	char buf[4096];
	size_t len;
	struct uevent_message m;

	(void)state;
	len = MSG(buf, "add@/devices/x", "ACTION=add", "DEVPATH=/devices/x");
	for (int i = 0; i < 100; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "K%d=%d", i, i) + 1;
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "SEQNUM=5") + 1;
	assert_int_equal(uevent_message_parse(&m, buf, len), 0);
	assert_int_equal(m.n, 103);
	assert_string_equal(uevent_message_get(&m, "K0"), "0");
	assert_string_equal(uevent_message_get(&m, "K99"), "99");
	assert_string_equal(uevent_message_get(&m, "K9"), "9");
	assert_int_equal(m.seqnum, 5);
	uevent_message_free(&m);
}

#include "unit-main.h"

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kernel_add),	    cmocka_unit_test(test_actions),
	    cmocka_unit_test(test_libudev_refused), cmocka_unit_test(test_header_mismatch),
	    cmocka_unit_test(test_seqnum),	    cmocka_unit_test(test_properties),
	    cmocka_unit_test(test_framing),	    cmocka_unit_test(test_many_properties),
	};

	return UNIT_MAIN(tests, NULL, NULL);
}
