/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An LD_PRELOAD shim for the host-side test of --watch's loss handling: the
 * kernel's uevent socket is made as usual, but what recvmsg() returns on it
 * comes from the script in $WATCH_SHIM_SCRIPT, one line an item, so that no
 * uevent is ever generated on the host:
 *   msg ACTION DEVPATH SEQNUM [KEY=VALUE...]   a message from the kernel
 *   forged ACTION DEVPATH SEQNUM               the same from a process (pid 1)
 *   raw TEXT                                    TEXT with '|' for NUL, as the kernel
 *   enobufs                                     recvmsg() fails with ENOBUFS
 *   eagain                                      recvmsg() finds nothing pending
 *   run COMMAND                                 system(COMMAND), then the next item
 * At the end of the script the process gets SIGINT.  recvmmsg() hands out
 * the msg, forged and raw items that follow one another, up to the batch's
 * size: a run, enobufs or eagain item ends a batch, as what happens at that
 * point comes after the messages before it.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int uevent_fd = -1;
static char pushed_back[8192]; /* a line read ahead by recvmmsg(), or "" */

int socket(int domain, int type, int protocol)
{
	static int (*real)(int, int, int);
	int fd;

	if (!real)
		real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	fd = real(domain, type, protocol);
	if (fd >= 0 && domain == AF_NETLINK && protocol == NETLINK_KOBJECT_UEVENT)
		uevent_fd = fd;
	return fd;
}

/*
 * The script's next line that is not a comment, as it is, or NULL at its end.
 * Read with read() into a static buffer, never through stdio: beside the
 * failmalloc shim, a malloc() here would be one of the program's that fail.
 */
static char *read_line(char *buf, size_t size)
{
	static char text[1 << 16];
	static size_t len, pos;
	static int fd = -1;

	if (pushed_back[0]) {
		snprintf(buf, size, "%s", pushed_back);
		pushed_back[0] = '\0';
		return buf;
	}
	if (fd < 0) {
		const char *path = getenv("WATCH_SHIM_SCRIPT");
		ssize_t n;

		fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		if (fd < 0)
			abort();
		while (len < sizeof(text) && (n = read(fd, text + len, sizeof(text) - len)) > 0)
			len += (size_t)n;
		if (len == sizeof(text))
			abort(); /* a script this long is not one of ours */
	}
	do {
		size_t end = pos, n;

		if (pos >= len)
			return NULL;
		while (end < len && text[end] != '\n')
			end++;
		n = end - pos < size - 1 ? end - pos : size - 1;
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos = end + 1;
	} while (!buf[0] || buf[0] == '#');
	return buf;
}

/* The next item's line, without its newline, or NULL at the end (SIGINT sent). */
static char *next_line(char *buf, size_t size)
{
	for (;;) {
		if (!read_line(buf, size)) {
			raise(SIGINT);
			return NULL;
		}
		if (strncmp(buf, "run ", 4) == 0) {
			if (system(buf + 4) != 0)
				abort();
			continue;
		}
		return buf;
	}
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static int (*real)(struct pollfd *, nfds_t, int);

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	for (nfds_t i = 0; i < n; i++)
		if (fds[i].fd == uevent_fd && uevent_fd >= 0) {
			fds[i].revents = POLLIN;
			return 1;
		}
	return real(fds, n, timeout);
}

/* "ACTION@DEVPATH\0ACTION=..\0DEVPATH=..\0SEQNUM=..\0KEY=VALUE.." in @out */
static size_t make_message(char *line, char *out, size_t size)
{
	char *action = strtok(line, " "), *devpath = strtok(NULL, " "), *seqnum = strtok(NULL, " ");
	size_t len;

	len = (size_t)snprintf(out, size, "%s@%s%cACTION=%s%cDEVPATH=%s%cSEQNUM=%s", action,
			       devpath, 0, action, 0, devpath, 0, seqnum) +
	      1;
	for (char *kv = strtok(NULL, " "); kv; kv = strtok(NULL, " "))
		len += (size_t)snprintf(out + len, size - len, "%s", kv) + 1;
	return len;
}

ssize_t recvmsg(int fd, struct msghdr *mh, int flags)
{
	static ssize_t (*real)(int, struct msghdr *, int);
	char line[8192], msg[8192];
	struct ucred cred = {0};
	struct cmsghdr *c;
	size_t len;

	if (!real)
		real = (ssize_t(*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
	if (fd != uevent_fd || uevent_fd < 0)
		return real(fd, mh, flags);
	if (!next_line(line, sizeof(line))) {
		errno = EAGAIN;
		return -1;
	}
	if (strcmp(line, "enobufs") == 0 || strcmp(line, "eagain") == 0) {
		errno = line[0] == 'e' && line[1] == 'n' ? ENOBUFS : EAGAIN;
		return -1;
	}
	if (strncmp(line, "msg ", 4) == 0) {
		len = make_message(line + 4, msg, sizeof(msg));
	} else if (strncmp(line, "forged ", 7) == 0) {
		len = make_message(line + 7, msg, sizeof(msg));
		cred.pid = 1;
	} else if (strncmp(line, "raw ", 4) == 0) {
		len = strlen(line + 4);
		for (size_t i = 0; i < len; i++)
			msg[i] = line[4 + i] == '|' ? '\0' : line[4 + i];
	} else {
		abort();
	}
	if (len > mh->msg_iov[0].iov_len)
		abort();
	memcpy(mh->msg_iov[0].iov_base, msg, len);
	if (mh->msg_name) {
		struct sockaddr_nl *from = mh->msg_name;

		memset(from, 0, sizeof(*from));
		from->nl_family = AF_NETLINK;
		mh->msg_namelen = sizeof(*from);
	}
	c = CMSG_FIRSTHDR(mh);
	if (!c)
		abort();
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cred));
	memcpy(CMSG_DATA(c), &cred, sizeof(cred));
	mh->msg_controllen = CMSG_SPACE(sizeof(cred));
	mh->msg_flags = 0;
	return (ssize_t)len;
}

/* The messages that follow one another in the script, as one batch. */
int recvmmsg(int fd, struct mmsghdr *v, unsigned int vlen, int flags, struct timespec *timeout)
{
	static int (*real)(int, struct mmsghdr *, unsigned int, int, struct timespec *);
	char line[8192];
	unsigned int n = 0;

	if (!real)
		real = (int (*)(int, struct mmsghdr *, unsigned int, int, struct timespec *))dlsym(
		    RTLD_NEXT, "recvmmsg");
	if (fd != uevent_fd || uevent_fd < 0)
		return real(fd, v, vlen, flags, timeout);
	while (n < vlen) {
		ssize_t len;

		if (n > 0) {
			if (!read_line(line, sizeof(line)))
				break;
			snprintf(pushed_back, sizeof(pushed_back), "%s", line);
			if (strncmp(line, "msg ", 4) != 0 && strncmp(line, "forged ", 7) != 0 &&
			    strncmp(line, "raw ", 4) != 0)
				break;
		}
		len = recvmsg(fd, &v[n].msg_hdr, flags);
		if (len < 0)
			return n > 0 ? (int)n : -1;
		v[n++].msg_len = (unsigned int)len;
	}
	return (int)n;
}
