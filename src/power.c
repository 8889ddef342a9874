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

	assert_return(text, -EINVAL);
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

struct sysdev_power {
	unsigned n_ref;
	char runtime_status[32]; /* "" when absent */
	char control[16];
	char wakeup[16];
	int64_t resume_latency_us; /* -1 absent, -2 "n/a" (no constraint), else us */
	int no_power_off;	   /* -1 absent, else 0/1 */
	int lt;			   /* the kind (> 0) or the negative errno of the read */
	int32_t lt_us;
	char lt_text[24]; /* with -EBADMSG: what the file holds (cut) */
};

static void power_free(struct sysdev_power *p)
{
	free(p);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev_power, sysdev_power, power_free);

static void read_str(int pfd, const char *name, char *out, size_t size)
{
	if (attribute_read_at(pfd, name, out, size) < 0)
		out[0] = '\0';
}

int power_read_at(int dirfd, struct sysdev_power **ret)
{
	_cleanup_close_ int pfd = -1;
	struct sysdev_power *p;
	char buf[64];

	pfd = openat(dirfd, "power", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOTDIR || errno == ELOOP ? -ENOENT : -errno;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->n_ref = 1;
	p->resume_latency_us = -1;
	p->no_power_off = -1;
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
	p->lt = latency_tolerance_read_text_at(dirfd, &p->lt_us, p->lt_text, sizeof(p->lt_text));
	*ret = p;
	return 0;
}

static int power_string(const char *s, const char **ret)
{
	if (!s[0])
		return -ENOENT;
	*ret = s;
	return 0;
}

_public_ int sysdev_power_get_runtime_status(struct sysdev_power *p, const char **ret)
{
	assert_return(p, -EINVAL);
	assert_return(ret, -EINVAL);
	return power_string(p->runtime_status, ret);
}

_public_ int sysdev_power_get_control(struct sysdev_power *p, const char **ret)
{
	assert_return(p, -EINVAL);
	assert_return(ret, -EINVAL);
	return power_string(p->control, ret);
}

_public_ int sysdev_power_get_wakeup(struct sysdev_power *p, const char **ret)
{
	assert_return(p, -EINVAL);
	assert_return(ret, -EINVAL);
	return power_string(p->wakeup, ret);
}

_public_ int sysdev_power_get_resume_latency_us(struct sysdev_power *p, int64_t *ret)
{
	assert_return(p, -EINVAL);
	assert_return(ret, -EINVAL);
	if (p->resume_latency_us == -2)
		return -ERANGE;
	if (p->resume_latency_us < 0)
		return -ENOENT;
	*ret = p->resume_latency_us;
	return 0;
}

_public_ int sysdev_power_get_no_power_off(struct sysdev_power *p, bool *ret)
{
	assert_return(p, -EINVAL);
	assert_return(ret, -EINVAL);
	if (p->no_power_off < 0)
		return -ENOENT;
	*ret = p->no_power_off;
	return 0;
}

_public_ int sysdev_power_get_latency_tolerance(struct sysdev_power *p, int32_t *ret_us)
{
	assert_return(p, -EINVAL);
	if (p->lt > 0 && ret_us)
		*ret_us = p->lt_us;
	return p->lt;
}

_public_ int sysdev_power_get_latency_tolerance_text(struct sysdev_power *p, const char **ret)
{
	assert_return(p, -EINVAL);
	assert_return(ret, -EINVAL);
	if (p->lt != -EBADMSG)
		return -ENOENT;
	*ret = p->lt_text;
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
	if (len == -ENOTDIR)
		return -ENOENT;
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

_public_ int sysdev_device_get_power(struct sysdev_device *dev, struct sysdev_power **ret)
{
	int fd;

	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(dev, -EINVAL);
	fd = device_fd(dev);
	if (fd < 0)
		return fd;
	return power_read_at(fd, ret);
}

_public_ int sysdev_device_get_latency_tolerance(struct sysdev_device *dev, int32_t *ret_us)
{
	int fd;

	assert_return(dev, -EINVAL);
	fd = device_fd(dev);
	if (fd < 0)
		return fd;
	return latency_tolerance_read_at(fd, ret_us);
}

_public_ int sysdev_device_set_latency_tolerance(struct sysdev_device *dev, const char *value)
{
	char text[32];
	struct stat st;
	int32_t us;
	int kind, pfd, fd, err = 0;
	size_t len;

	assert_return(dev, -EINVAL);
	assert_return(value, -EINVAL);
	kind = sysdev_parse_latency_tolerance(value, &us);
	if (kind < 0)
		return kind;
	if (kind == SYSDEV_LT_AUTO)
		strcpy(text, "auto\n");
	else if (kind == SYSDEV_LT_ANY)
		strcpy(text, "any\n");
	else
		snprintf(text, sizeof(text), "%d\n", us);
	fd = device_fd(dev);
	if (fd < 0)
		return fd;
	pfd = openat(fd, "power", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? -ENOENT : -errno;
	if (fstatat(pfd, LT_ATTR, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		err = -errno;
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
