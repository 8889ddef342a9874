/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's uevent messages on NETLINK_KOBJECT_UEVENT: "ACTION@DEVPATH",
 * a NUL, then KEY=VALUE strings each ended by a NUL.  Parsed without trust:
 * a message that does not hold together is refused whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libsysdev-private.h"

static bool valid_action(const char *a)
{
	static const char *const actions[] = {"add",	"remove",  "change", "move",
					      "online", "offline", "bind",   "unbind"};

	for (size_t i = 0; i < ARRAY_SIZE(actions); i++)
		if (strcmp(a, actions[i]) == 0)
			return true;
	return false;
}

void uevent_message_free(struct uevent_message *m)
{
	free(m->buf);
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

const char *uevent_message_get(const struct uevent_message *m, const char *key)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->keys[i], key) == 0)
			return m->values[i];
	return NULL;
}

int uevent_message_parse(struct uevent_message *m, const char *data, size_t len)
{
	const char *head_end, *at, *action, *devpath;
	size_t pos;

	memset(m, 0, sizeof(*m));
	/* udev's own messages start "libudev\0" with a binary header: not the kernel's */
	if (len < 3 || len > UEVENT_MESSAGE_MAX || data[len - 1] != '\0')
		return -EBADMSG;
	m->buf = malloc(len);
	if (!m->buf)
		return -ENOMEM;
	memcpy(m->buf, data, len);
	m->len = len;
	head_end = memchr(m->buf, '\0', len);
	at = strchr(m->buf, '@');
	if (!head_end || !at || at > head_end)
		goto bad;
	m->buf[at - m->buf] = '\0';
	action = m->buf;
	devpath = at + 1;
	if (!valid_action(action) || devpath[0] != '/')
		goto bad;
	pos = (size_t)(head_end - m->buf) + 1;
	while (pos < len) {
		char *kv = m->buf + pos, *eq;
		size_t kvlen = strlen(kv);

		pos += kvlen + 1;
		eq = strchr(kv, '=');
		if (!eq || eq == kv)
			goto bad;
		*eq = '\0';
		size_t kcap = m->cap;

		if (GROW_MIN(m->keys, kcap, m->n + 1, 16) < 0 ||
		    GROW_MIN(m->values, m->cap, m->n + 1, 16) < 0)
			goto nomem;
		m->keys[m->n] = kv;
		m->values[m->n] = eq + 1;
		m->n++;
	}
	m->action = uevent_message_get(m, "ACTION");
	m->devpath = uevent_message_get(m, "DEVPATH");
	m->subsystem = uevent_message_get(m, "SUBSYSTEM");
	/* the header and the properties must tell the same story */
	if (!m->action || !m->devpath || strcmp(m->action, action) != 0 ||
	    strcmp(m->devpath, devpath) != 0)
		goto bad;
	{
		const char *seq = uevent_message_get(m, "SEQNUM");
		char *end;

		if (!seq || !*seq)
			goto bad;
		if (seq[0] < '0' || seq[0] > '9')
			goto bad; /* strtoull() would take a sign or blanks */
		errno = 0;
		m->seqnum = strtoull(seq, &end, 10);
		if (*end || errno == ERANGE)
			goto bad;
	}
	return 0;
bad:
	uevent_message_free(m);
	return -EBADMSG;
nomem:
	uevent_message_free(m);
	return -ENOMEM;
}
