/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tools' messages: one line each on stderr, errors in words, stdout's end. */
#ifndef SYSDEV_TOOLS_MESSAGES_H
#define SYSDEV_TOOLS_MESSAGES_H

#include <errno.h>
#include <stdbool.h>
#include <sys/types.h>

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
/*
 * --diff and --check-udev answer a question, as diff(1) and cmp(1) do: 0 the
 * same, 1 different; so a comparison that could not be made is 2, as there.
 */
#define EXIT_TROUBLE 2

/*
 * The exit status of a run that could not be done: EXIT_RUNTIME, or
 * EXIT_TROUBLE for the commands whose 1 means "different" (main() sets it).
 */
extern int error_exit_status;
/* The program's name in messages; each main() sets it first. */
extern const char *program_name;
/* One line on stderr: "PROGRAM: WHAT: MESSAGE" (WHAT may be NULL). */
void warnx_(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * An allocation failed, here or in the library (its -ENOMEM): what was
 * written stays, one line says so, and the program exits, as
 * util-linux's tools do (xalloc.h), error_exit_status.  Never a field
 * shown as absent.
 */
_Noreturn void exit_out_of_memory(void);
/* @r (an answer or a length), after exit_out_of_memory() when it is -ENOMEM. */
static inline ssize_t oom_check(ssize_t r)
{
	if (r == -ENOMEM)
		exit_out_of_memory();
	return r;
}
/* Words for a negative errno, the one way the tools name an error. */
const char *error_words(int err);
/* Flush stdout: 0, or EXIT_RUNTIME after saying why (once).  A closed pipe is no
 * error: it sets stdout_closed, and the program then exits 0, as lsblk does; any
 * other write error (a full disk, /dev/full) is. */
int check_output(void);
extern bool stdout_closed;

#endif
