/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Power attributes.  sysdev_parse_latency_tolerance() on any string, checked
 * against an independent reading of the rules in sysdev(7) (auto, any, or decimal
 * 0..S32_MAX, one trailing newline allowed); then power_read_at() on a
 * power/ directory whose files hold pieces of the input (split at NUL).
 */
#include "fuzz-common.h"
#include "libsysdev-private.h"

static int dirfd_ = -1, powerfd = -1;
static const char *const power_files[] = {
    "runtime_status",
    "control",
    "wakeup",
    "pm_qos_resume_latency_us",
    "pm_qos_no_power_off",
    "pm_qos_latency_tolerance_us",
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *dir = fuzz_mkdtemp("power");

	(void)argc;
	(void)argv;
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0 || mkdirat(dirfd_, "power", 0755) < 0)
		abort();
	powerfd = openat(dirfd_, "power", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (powerfd < 0)
		abort();
	return 0;
}

/* The rules, written out plainly: -1 invalid, else the kind; *us set. */
static int reference(const char *s, size_t len, int64_t *us)
{
	if (len && s[len - 1] == '\n')
		len--;
	if (memchr(s, '\0', len))
		return -1;
	if (len == 4 && !memcmp(s, "auto", 4))
		return *us = -1, SYSDEV_LT_AUTO;
	if (len == 3 && !memcmp(s, "any", 3))
		return *us = SYSDEV_LT_MAX_US, SYSDEV_LT_ANY;
	if (len == 0)
		return -1;
	*us = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*us = *us * 10 + (s[i] - '0');
		if (*us > SYSDEV_LT_MAX_US)
			return -1;
	}
	return SYSDEV_LT_VALUE;
}

static void check_parse(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	size_t len = strlen(s); /* the C API sees the string up to its NUL */
	int32_t us = 12345;
	int64_t ref_us = 0;
	int kind = sysdev_parse_latency_tolerance(s, &us);
	int ref = reference(s, len, &ref_us);

	if (ref < 0) {
		FUZZ_ASSERT(kind == -EINVAL);
	} else {
		FUZZ_ASSERT(kind == ref);
		FUZZ_ASSERT(us == ref_us);
		/* what the library would write parses back to the same */
		char text[32];
		int32_t us2;

		if (kind == SYSDEV_LT_VALUE) {
			snprintf(text, sizeof(text), "%d\n", us);
			FUZZ_ASSERT(sysdev_parse_latency_tolerance(text, &us2) == SYSDEV_LT_VALUE);
			FUZZ_ASSERT(us2 == us);
		}
	}
	FUZZ_ASSERT(sysdev_parse_latency_tolerance(s, NULL) == kind);
	free(s);
}

static void check_power_dir(const uint8_t *data, size_t size)
{
	struct sysdev_power *p = NULL;
	const char *text;
	int64_t latency;
	bool no_power_off;
	const uint8_t *piece = data, *end = data + size;
	int32_t us, us2;
	int r;

	for (size_t i = 0; i < sizeof(power_files) / sizeof(power_files[0]); i++) {
		const uint8_t *nul =
		    piece < end ? memchr(piece, '\0', (size_t)(end - piece)) : NULL;
		size_t n = piece < end ? (nul ? (size_t)(nul - piece) : (size_t)(end - piece)) : 0;
		int fd;

		/* an absent piece: no file at all */
		if (piece >= end) {
			unlinkat(powerfd, power_files[i], 0);
			continue;
		}
		fd =
		    openat(powerfd, power_files[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		FUZZ_ASSERT(fd >= 0);
		FUZZ_ASSERT(write(fd, piece, n) == (ssize_t)n);
		close(fd);
		piece += n + 1;
	}
	FUZZ_ASSERT(power_read_at(dirfd_, &p) == 0);
	FUZZ_ASSERT(sysdev_power_get_runtime_status(p, &text) == 0 ? strlen(text) < 32 : 1);
	FUZZ_ASSERT(sysdev_power_get_control(p, &text) == 0 ? strlen(text) < 16 : 1);
	FUZZ_ASSERT(sysdev_power_get_wakeup(p, &text) == 0 ? strlen(text) < 16 : 1);
	r = sysdev_power_get_resume_latency_us(p, &latency);
	FUZZ_ASSERT(r == -ENOENT || r == -ERANGE || (r == 0 && latency >= 0));
	r = sysdev_power_get_no_power_off(p, &no_power_off);
	FUZZ_ASSERT(r == -ENOENT || r == 0);
	r = latency_tolerance_read_at(dirfd_, &us);
	FUZZ_ASSERT(r == -ENOENT || r == -EBADMSG || r == -EBADFD || r == -EFBIG ||
		    (r >= SYSDEV_LT_AUTO && r <= SYSDEV_LT_VALUE));
	/* the power annotation says the same, with the same cause */
	FUZZ_ASSERT(sysdev_power_get_latency_tolerance(p, &us2) == r);
	if (r > 0) {
		FUZZ_ASSERT(us2 == us);
		FUZZ_ASSERT(us >= -1);
	}
	if (r == -EBADMSG)
		FUZZ_ASSERT(sysdev_power_get_latency_tolerance_text(p, &text) == 0 &&
			    strlen(text) < 24);
	else
		FUZZ_ASSERT(sysdev_power_get_latency_tolerance_text(p, &text) == -ENOENT);
	sysdev_power_unref(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	check_parse(data, size);
	check_power_dir(data, size);
	return 0;
}
