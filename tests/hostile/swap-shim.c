/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An LD_PRELOAD shim that wins a race on purpose: the first openat() of a
 * file named $SWAP_SHIM_NAME first renames $SWAP_SHIM_WITH (in the same
 * directory) over it, as a hostile tree would swap a FIFO or a directory in
 * between a reader's check and its open.  The number of swaps made is
 * written to $SWAP_SHIM_COUNT at exit, so that a test can tell that it ran.
 */
/* both symbols are defined here: neither may be renamed to the other */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static unsigned long swaps;

static void maybe_swap(int dirfd, const char *path)
{
	const char *name = getenv("SWAP_SHIM_NAME"), *with = getenv("SWAP_SHIM_WITH");
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!name || !with || swaps || strcmp(base, name) != 0 || base != path)
		return;
	if (renameat(dirfd, with, dirfd, name) == 0)
		swaps++;
}

static int open_swapped(const char *symbol, int dirfd, const char *path, int flags, mode_t mode)
{
	int (*real)(int, const char *, int, ...) =
	    (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, symbol);

	maybe_swap(dirfd, path);
	return real(dirfd, path, flags, mode);
}

#define MODE_ARG(flags, mode)                                                                      \
	do {                                                                                       \
		if ((flags) & (O_CREAT | O_TMPFILE)) {                                            \
			va_list ap;                                                                \
			va_start(ap, flags);                                                       \
			mode = va_arg(ap, mode_t);                                                 \
			va_end(ap);                                                                \
		}                                                                                  \
	} while (0)

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return open_swapped("openat", dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return open_swapped("openat64", dirfd, path, flags, mode);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("SWAP_SHIM_COUNT");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%lu\n", swaps);
	fclose(f);
}
