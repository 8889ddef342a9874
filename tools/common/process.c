/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What both programs do first: guard the standard descriptors, raise the fd limit. */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "process.h"

/*
 * A closed stdin, stdout or stderr would be the next descriptor open()
 * returns: the walk's, or a file --capture writes, would then receive our
 * output.  Park /dev/null there, read-only, so that writes to a closed
 * stdout or stderr still fail (EBADF) as they would have.
 */
void guard_std_fds(void)
{
	/* in order: the lower ones are open when @fd is looked at, so open() returns @fd */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			(void)open("/dev/null", O_RDONLY | O_NOCTTY);
}

void raise_fd_limit(void)
{
	struct rlimit rl;

	/* one descriptor per level of the walk: deep trees need more than 1024 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}
