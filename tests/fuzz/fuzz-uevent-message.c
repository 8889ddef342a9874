/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uevent_message_parse(): a netlink uevent, any bytes.  An oracle written
 * apart from the parser says whether the message is a whole, consistent
 * kernel message ("ACTION@DEVPATH\0" then KEY=VALUE strings, ACTION, DEVPATH
 * and a decimal SEQNUM among them agreeing with the header); the parser must
 * agree, and its keys and values must be exactly the message's strings.
 */
#include "fuzz-common.h"
#include "libsysdev-private.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static const char *first_value(const uint8_t *d, size_t size, size_t start, const char *key)
{
	size_t klen = strlen(key);

	for (size_t p = start; p < size;) {
		const char *s = (const char *)d + p;
		size_t n = strnlen(s, size - p);

		if (n > klen && memcmp(s, key, klen) == 0 && s[klen] == '=')
			return s + klen + 1;
		p += n + 1;
	}
	return NULL;
}

static bool oracle(const uint8_t *d, size_t size)
{
	static const char *const actions[] = {"add",	"remove",  "change", "move",
					      "online", "offline", "bind",   "unbind"};
	const char *head = (const char *)d, *at, *a, *dp, *seq;
	size_t hlen, alen, start;
	bool known = false;

	if (size < 3 || size > UEVENT_MESSAGE_MAX || d[size - 1] != 0)
		return false;
	hlen = strnlen(head, size);
	at = memchr(head, '@', hlen);
	if (!at)
		return false;
	alen = (size_t)(at - head);
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		known |= strlen(actions[i]) == alen && memcmp(actions[i], head, alen) == 0;
	if (!known || at[1] != '/')
		return false;
	start = hlen + 1;
	/* every string after the header is KEY=VALUE with a non-empty key */
	for (size_t p = start; p < size;) {
		const char *s = head + p;
		size_t n = strnlen(s, size - p);
		const char *eq = memchr(s, '=', n);

		if (!eq || eq == s)
			return false;
		p += n + 1;
	}
	a = first_value(d, size, start, "ACTION");
	dp = first_value(d, size, start, "DEVPATH");
	seq = first_value(d, size, start, "SEQNUM");
	if (!a || !dp || !seq || strlen(a) != alen || memcmp(a, head, alen) != 0 ||
	    strcmp(dp, at + 1) != 0 || !*seq)
		return false;
	for (const char *c = seq; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	/* fits an unsigned long long: leading zeros aside, at most its 20 digits */
	while (seq[0] == '0' && seq[1])
		seq++;
	return strlen(seq) < 20 || (strlen(seq) == 20 && strcmp(seq, "18446744073709551615") <= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uevent_message m;
	bool want = oracle(data, size);
	int r = uevent_message_parse(&m, (const char *)data, size);

	FUZZ_ASSERT(r == 0 || r == -EBADMSG);
	FUZZ_ASSERT((r == 0) == want);
	if (r == 0) {
		size_t p = strnlen((const char *)data, size) + 1, i = 0;

		/* the keys and values are the message's strings, in order, nothing else */
		while (p < size) {
			const char *s = (const char *)data + p;
			size_t n = strlen(s);
			const char *eq = strchr(s, '=');

			FUZZ_ASSERT(i < m.n);
			FUZZ_ASSERT(strlen(m.keys[i]) == (size_t)(eq - s));
			FUZZ_ASSERT(memcmp(m.keys[i], s, (size_t)(eq - s)) == 0);
			FUZZ_ASSERT(strcmp(m.values[i], eq + 1) == 0);
			p += n + 1;
			i++;
		}
		FUZZ_ASSERT(i == m.n);
		FUZZ_ASSERT(m.devpath[0] == '/');
		uevent_message_free(&m);
	}
	return 0;
}
