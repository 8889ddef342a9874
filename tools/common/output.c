/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Why stdout failed, for sysdev-tree and sysdev-fixture. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "output.h"

static int first_write_errno; /* 0 until a write to descriptor 1 fails */
static FILE *tracked;	      /* the stream stdout_track_errors() made */
static FILE *original_stdout; /* glibc's own, put back at exit */

static ssize_t write_stdout(void *cookie, const char *buf, size_t size)
{
	size_t done = 0;

	(void)cookie;
	while (done < size) {
		ssize_t n = write(STDOUT_FILENO, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!first_write_errno)
				first_write_errno = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	/* fewer bytes than asked marks the stream in error (fopencookie(3)) */
	return (ssize_t)done;
}

/* Free the stream at exit, so that memcheck sees nothing still reachable;
 * whatever it still holds is flushed first, as exit() would. */
static void release_tracked(void)
{
	if (!tracked || stdout != tracked)
		return;
	stdout = original_stdout;
	fclose(tracked);
	tracked = NULL;
}

int stdout_track_errors(void)
{
	static const cookie_io_functions_t io = {.write = write_stdout};
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return -errno;
	if (setvbuf(f, NULL, _IOFBF, 1 << 16) != 0) {
		fclose(f);
		return -ENOMEM;
	}
	/* glibc's stdout is a variable one may set (the GNU C Library manual,
	 * "Standard Streams"); the old stream has nothing buffered yet */
	if (!tracked && atexit(release_tracked) != 0) {
		fclose(f);
		return -ENOMEM;
	}
	fflush(stdout);
	original_stdout = stdout;
	tracked = f;
	stdout = f;
	return 0;
}

int stdout_write_error(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	/* a stream not made by stdout_track_errors(): errno is the best guess */
	return first_write_errno ? first_write_errno : errno ? errno : EIO;
}
