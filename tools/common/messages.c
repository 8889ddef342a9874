/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tools' messages: one line on stderr, the words for an errno, and stdout's end. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "messages.h"
#include "output.h"

const char *program_name = "sysdev";
int error_exit_status = EXIT_RUNTIME;

void warnx_(const char *what, const char *fmt, ...)
{
	char buf[1024], *msg = NULL;
	va_list ap;
	int len;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_name);
	if (what) {
		fput_text(stderr, what);
		fputs(": ", stderr);
	}
	/* arguments may be paths or values a person typed: one message stays one line;
	 * a message that fits the stack needs no memory (it may say memory ran out) */
	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len >= 0 && (size_t)len >= sizeof(buf)) {
		va_start(ap, fmt);
		if (vasprintf(&msg, fmt, ap) < 0)
			msg = NULL;
		va_end(ap);
	}
	fput_text(stderr, msg ? msg : len >= 0 ? buf : "(message lost)");
	free(msg);
	fputc('\n', stderr);
}

void exit_out_of_memory(void)
{
	/* no allocation on this way out: fprintf of constant text */
	fflush(stdout);
	fprintf(stderr, "%s: out of memory\n", program_name);
	exit(error_exit_status);
}

const char *error_words(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such file or directory (ENOENT)";
	case -ENODEV:
		return "not a device: no uevent file there (ENODEV)";
	case -EXDEV:
		return "outside the sysfs root (EXDEV)";
	case -EINVAL:
		return "invalid argument (EINVAL)";
	case -EACCES:
		return "permission denied (EACCES)";
	case -EPERM:
		return "operation not permitted (EPERM)";
	case -ENOTDIR:
		return "not a directory (ENOTDIR)";
	case -ELOOP:
		return "too many levels of symbolic links (ELOOP)";
	case -ENAMETOOLONG:
		return "name too long (ENAMETOOLONG)";
	case -ENOMEM:
		return "out of memory (ENOMEM)";
	case -EFBIG:
		return "file too large (EFBIG)";
	case -EMFILE:
		return "too many open files (EMFILE)";
	case -EBADFD:
		return "not a regular file (EBADFD)";
	default:
		return strerror(-err);
	}
}

bool stdout_closed;

int check_output(void)
{
	static int failed; /* said once: a later check only repeats the status */
	int err;

	if (stdout_closed)
		return 0;
	if (failed)
		return EXIT_RUNTIME;
	err = stdout_write_error();
	if (!err)
		return 0;
	/* the reader went away (| head): not our error, as for lsblk */
	if (err == EPIPE) {
		stdout_closed = true;
		return 0;
	}
	failed = err;
	warnx_("stdout", "write error: %s", error_words(-err));
	return EXIT_RUNTIME;
}
