/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The power/ group, and the latency-tolerance PM QoS request (sysdev(7)). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device-private.h"

#define LT_ATTR "pm_qos_latency_tolerance_us"

_public_ int sysdev_parse_latency_tolerance(const char *text, int32_t *us)
{
	size_t len;
	int64_t v = 0;

	if (!text)
		return -EINVAL;
	len = strlen(text);
	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (len == 4 && memcmp(text, "auto", 4) == 0) {
		if (us)
			*us = -1;
		return SYSDEV_LT_AUTO;
	}
	if (len == 3 && memcmp(text, "any", 3) == 0) {
		if (us)
			*us = SYSDEV_LT_MAX_US;
		return SYSDEV_LT_ANY;
	}
	/* Decimal only: the kernel's base-0 parse would read "010" as octal. */
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -EINVAL;
		v = v * 10 + (text[i] - '0');
		if (v > SYSDEV_LT_MAX_US)
			return -EINVAL;
	}
	if (us)
		*us = (int32_t)v;
	return SYSDEV_LT_VALUE;
}

static void read_str(int pfd, const char *name, char *out, size_t size)
{
	if (attribute_read_at(pfd, name, out, size) < 0)
		out[0] = '\0';
}

int power_read_at(int dirfd, struct sysdev_power *p)
{
	char buf[64];
	int32_t us;
	int r, pfd;

	memset(p, 0, sizeof(*p));
	p->resume_latency_us = -1;
	p->no_power_off = -1;
	pfd = openat(dirfd, "power", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOTDIR || errno == ELOOP ? -ENOENT : -errno;
	read_str(pfd, "runtime_status", p->runtime_status, sizeof(p->runtime_status));
	read_str(pfd, "control", p->control, sizeof(p->control));
	read_str(pfd, "wakeup", p->wakeup, sizeof(p->wakeup));
	if (attribute_read_at(pfd, "pm_qos_resume_latency_us", buf, sizeof(buf)) > 0) {
		char *end;
		long long v;

		if (strcmp(buf, "n/a") == 0) {
			p->resume_latency_us = -2;
		} else {
			errno = 0;
			v = strtoll(buf, &end, 10);
			if (!errno && *end == '\0' && v >= 0)
				p->resume_latency_us = v;
		}
	}
	if (attribute_read_at(pfd, "pm_qos_no_power_off", buf, sizeof(buf)) > 0 &&
	    (strcmp(buf, "0") == 0 || strcmp(buf, "1") == 0))
		p->no_power_off = buf[0] == '1';
	r = latency_tolerance_read_text_at(dirfd, &us, p->lt_text, sizeof(p->lt_text));
	if (r > 0) {
		p->lt_kind = (enum sysdev_latency_tolerance_kind)r;
		p->lt_us = us;
	} else if (r != -EOPNOTSUPP) {
		/* there, but not a value: say so rather than leave it out */
		p->lt_kind = SYSDEV_LT_INVALID;
		p->lt_error = r;
	}
	close(pfd);
	return 0;
}

int latency_tolerance_read_text_at(int dirfd, int32_t *us, char *text, size_t size)
{
	char buf[64];
	ssize_t len;
	int kind;

	if (text && size)
		text[0] = '\0';
	len = attribute_read_at(dirfd, "power/" LT_ATTR, buf, sizeof(buf));
	if (len == -ENOENT || len == -ENOTDIR)
		return -EOPNOTSUPP;
	if (len == -EINVAL)
		return -EBADFD; /* a directory, FIFO or device node where the file should be */
	if (len < 0)
		return (int)len;
	/* What the kernel shows: auto, any or a number; anything else is not ours to guess. */
	kind = sysdev_parse_latency_tolerance(buf, us);
	if (kind < 0 && text && size) {
		strncpy(text, buf, size - 1);
		text[size - 1] = '\0';
	}
	return kind < 0 ? -EBADMSG : kind;
}

int latency_tolerance_read_at(int dirfd, int32_t *us)
{
	return latency_tolerance_read_text_at(dirfd, us, NULL, 0);
}

_public_ int sysdev_device_get_power(struct sysdev_device *dev, struct sysdev_power *p)
{
	if (!dev || !p)
		return -EINVAL;
	if (device_fd(dev) < 0)
		return dev->fd;
	return power_read_at(dev->fd, p);
}

_public_ int sysdev_node_get_power(const struct sysdev_node *node, struct sysdev_power *p)
{
	if (!node || !p || sysdev_node_get_dirfd(node) < 0)
		return -EINVAL;
	return power_read_at(sysdev_node_get_dirfd(node), p);
}

_public_ int sysdev_device_get_latency_tolerance(struct sysdev_device *dev, int32_t *us)
{
	if (!dev)
		return -EINVAL;
	if (device_fd(dev) < 0)
		return dev->fd;
	return latency_tolerance_read_at(dev->fd, us);
}

_public_ int sysdev_device_set_latency_tolerance(struct sysdev_device *dev, const char *value)
{
	char text[32];
	struct stat st;
	int32_t us;
	int kind, pfd, fd, err = 0;
	size_t len;

	if (!dev || !value)
		return -EINVAL;
	kind = sysdev_parse_latency_tolerance(value, &us);
	if (kind < 0)
		return kind;
	if (kind == SYSDEV_LT_AUTO)
		strcpy(text, "auto\n");
	else if (kind == SYSDEV_LT_ANY)
		strcpy(text, "any\n");
	else
		snprintf(text, sizeof(text), "%d\n", us);
	if (device_fd(dev) < 0)
		return dev->fd;
	pfd = openat(dev->fd, "power", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? -EOPNOTSUPP : -errno;
	if (fstatat(pfd, LT_ATTR, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		err = errno == ENOENT ? -EOPNOTSUPP : -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EBADFD; /* as the read says: there, but no attribute file */
		goto out;
	}
	/* a second name elsewhere: a tree may link a file of the host here, never written */
	if (st.st_nlink > 1) {
		err = -EMLINK;
		goto out;
	}
	fd = openat(pfd, LT_ATTR, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	/* the file opened, checked again: it may have been replaced since the lstat */
	if (fstat(fd, &st) < 0)
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EBADFD;
	else if (st.st_nlink > 1)
		err = -EMLINK;
	if (err < 0) {
		close(fd);
		goto out;
	}
	/* truncated only now, as a shell's '>' would (sysfs ignores it, a captured file needs it)
	 */
	if (!dev->ctx->sysfs && ftruncate(fd, 0) < 0) {
		err = -errno;
		close(fd);
		goto out;
	}
	len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	if (close(fd) < 0 && err == 0)
		err = -errno;
out:
	close(pfd);
	return err;
}
