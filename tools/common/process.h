/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SYSDEV_TOOLS_PROCESS_H
#define SYSDEV_TOOLS_PROCESS_H

/* Park /dev/null on a closed stdin, stdout or stderr, so that no file we open
 * becomes one of them. */
void guard_std_fds(void);
/* One descriptor per level of a walk: raise the soft limit (up to 65536). */
void raise_fd_limit(void);

#endif
