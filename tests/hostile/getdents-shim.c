/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An LD_PRELOAD shim: getdents64() as a filesystem that does not fill in
 * d_type (XFS made without ftype, some network and FUSE filesystems) answers
 * it, every entry DT_UNKNOWN; with $GETDENTS_SHIM_EINTR set, every other call
 * fails with EINTR first, as a call on a FUSE or NFS directory that a signal
 * interrupts.  What it did (entries rewritten, calls interrupted) is written
 * to $GETDENTS_SHIM_COUNT at exit, so that a test can tell that it ran.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

static unsigned long rewritten, interrupted;

ssize_t getdents64(int fd, void *buf, size_t size)
{
	static ssize_t (*real)(int, void *, size_t);
	static int flip;
	ssize_t n;

	if (!real)
		real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "getdents64");
	if (getenv("GETDENTS_SHIM_EINTR") && (flip ^= 1)) {
		interrupted++;
		errno = EINTR;
		return -1;
	}
	n = real(fd, buf, size);
	for (ssize_t off = 0; off < n;) {
		struct dirent64 *d = (struct dirent64 *)((char *)buf + off);

		d->d_type = DT_UNKNOWN;
		rewritten++;
		off += d->d_reclen;
	}
	return n;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("GETDENTS_SHIM_COUNT");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%lu %lu\n", rewritten, interrupted);
	fclose(f);
}
