/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared helpers of the fuzz targets: a check that aborts, temp trees. */
#ifndef SYSDEV_FUZZ_COMMON_H
#define SYSDEV_FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A broken invariant is a finding: abort, so libFuzzer keeps the input. */
#define FUZZ_ASSERT(cond)                                                                      \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__,   \
				#cond);                                                        \
			abort();                                                               \
		}                                                                              \
	} while (0)

static inline void fuzz_empty_dir(int dirfd);

/* Scratch directories, removed when the fuzzer exits. */
static char fuzz_scratch[4][4096];
static int fuzz_nscratch;

static void fuzz_cleanup(void)
{
	for (int i = 0; i < fuzz_nscratch; i++) {
		int fd = open(fuzz_scratch[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0) {
			fuzz_empty_dir(fd);
			close(fd);
		}
		rmdir(fuzz_scratch[i]);
	}
	fuzz_nscratch = 0;
}

/* Scratch space: tmpfs when there is one (fast), else TMPDIR or /tmp. */
static inline char *fuzz_mkdtemp(const char *tag)
{
	const char *base = getenv("SYSDEV_FUZZ_TMPDIR");
	static char path[4096];
	struct stat st;

	if (!base && stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
		base = "/dev/shm";
	if (!base)
		base = getenv("TMPDIR");
	if (!base)
		base = "/tmp";
	snprintf(path, sizeof(path), "%s/sysdev-fuzz-%s-XXXXXX", base, tag);
	if (!mkdtemp(path)) {
		perror(path);
		abort();
	}
	if (fuzz_nscratch < 4) {
		if (fuzz_nscratch == 0)
			atexit(fuzz_cleanup);
		memcpy(fuzz_scratch[fuzz_nscratch++], path, sizeof(path));
	}
	return path;
}

/* Remove everything below @dirfd (not itself), whatever the modes. */
static inline void fuzz_empty_dir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	for (struct dirent *de; (de = readdir(d));) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int cfd;

			fchmodat(dirfd, de->d_name, 0700, 0);
			cfd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd >= 0) {
				fuzz_empty_dir(cfd);
				close(cfd);
			}
			unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
		} else {
			unlinkat(dirfd, de->d_name, 0);
		}
	}
	closedir(d);
}

/* The input as a NUL-terminated string (a copy: the input has no NUL). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
