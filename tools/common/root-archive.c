/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A sysfs root named on the command line: a directory (holding devices/, or
 * a system root holding sys/devices/, which the library takes as it is), or
 * a .sysfs archive.  An archive is unpacked into a private directory
 * (mkdtemp, mode 0700, under $TMPDIR or /tmp) that is removed on every exit
 * the program controls: a normal exit, an error, SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, and a closed pipe (SIGPIPE is ignored, so a write fails with
 * EPIPE and the program exits normally).
 *
 * The removal is done by a guard: before the first archive is unpacked the
 * process forks; the child goes on and does the work, the parent waits for
 * it, forwards the signals above to it, removes the directory once the
 * child is gone (however it ended), and then exits the way the child did
 * (the same status, or the same signal).  So nothing runs inside a signal
 * handler but kill(2), and a child that crashes still leaves nothing behind.
 *
 * One of those signals that was ignored when the program started (nohup(1)
 * ignores SIGHUP, a shell SIGINT and SIGQUIT for a background job) stays
 * ignored, as a POSIX shell leaves it: the guard installs no forwarder for
 * it, the worker inherits the ignore, the program goes on, and the
 * directory is removed when it ends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dir-list.h"
#include "messages.h"
#include "fd-util.h"
#include "archive.h"
#include "libsysdev.h"
#include "root-archive.h"

static char private_dir[PATH_MAX];
static unsigned n_unpacked;
/* the trees handed out: they live as long as the program (reachable from here) */
static char *unpacked[16];
/* the archives they came from, as given: what messages and outputs name */
static const char *archive_of[16];
static volatile sig_atomic_t child_pid;

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

int remove_below(int fd)
{
	struct dir_list l = {0};
	int err = dir_list_read(&l, fd, DIR_LIST_REOPEN | DIR_LIST_UNSORTED);

	for (size_t i = 0; i < l.n; i++) {
		const char *name = l.v[i].name;
		struct stat st;

		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			int cfd;

			/* an archive may hold directories without write or search bits */
			fchmodat(fd, name, 0700, 0);
			cfd = open_dir_at(fd, name);
			if (cfd >= 0) {
				remove_below(cfd);
				close(cfd);
			}
			if (unlinkat(fd, name, AT_REMOVEDIR) < 0)
				err = -errno;
		} else if (unlinkat(fd, name, 0) < 0) {
			err = -errno;
		}
	}
	dir_list_free(&l);
	return err;
}

static void remove_private_dir(void)
{
	int fd;

	if (!private_dir[0])
		return;
	fd = open(private_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		remove_below(fd);
		close(fd);
	}
	rmdir(private_dir);
	private_dir[0] = '\0';
}

static void forward_signal(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/*
 * Fork: the child returns 0 and goes on; the parent never returns.  Called
 * with the private directory made and nothing in it yet.
 */
static int start_guard(const char *prog)
{
	sigset_t block, old;
	pid_t pid;
	int status;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(guarded_signals) / sizeof(guarded_signals[0]); i++)
		sigaddset(&block, guarded_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		return err;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	child_pid = pid;
	for (size_t i = 0; i < sizeof(guarded_signals) / sizeof(guarded_signals[0]); i++) {
		struct sigaction sa = {.sa_handler = forward_signal, .sa_flags = SA_RESTART};
		struct sigaction was;

		/* ignored on entry: stays ignored, here and in the worker */
		if (sigaction(guarded_signals[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
			continue;
		sigemptyset(&sa.sa_mask);
		sigaction(guarded_signals[i], &sa, NULL);
	}
	/* the reader of our output sees its end when the child's copy closes */
	{
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			if (null > STDERR_FILENO)
				close(null);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: waiting for the worker: %s\n", prog,
				error_words(-errno));
			status = 1 << 8;
			break;
		}
	}
	remove_private_dir();
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		signal(sig, SIG_DFL);
		sigemptyset(&block);
		sigaddset(&block, sig);
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

int root_prepare(const char *prog, const char **root)
{
	struct stat st;
	char dir[PATH_MAX + 16];
	size_t line = 0;
	int in, out, err;

	if (!*root || !**root || stat(*root, &st) < 0 || !S_ISREG(st.st_mode))
		return 0; /* a directory, or an error the library will name */
	in = open(*root, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0) {
		fprintf(stderr, "%s: %s: cannot open the archive: %s\n", prog, *root,
			error_words(-errno));
		return -1;
	}
	if (!private_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(private_dir, sizeof(private_dir), "%s/%s.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp", prog);
		if (!mkdtemp(private_dir)) {
			fprintf(stderr, "%s: %s: cannot make a private directory: %s\n", prog,
				private_dir, error_words(-errno));
			private_dir[0] = '\0';
			close(in);
			return -1;
		}
		err = start_guard(prog);
		if (err < 0) {
			fprintf(stderr, "%s: cannot start: %s\n", prog, error_words(err));
			remove_private_dir();
			close(in);
			return -1;
		}
	}
	if (n_unpacked >= sizeof(unpacked) / sizeof(unpacked[0])) {
		fprintf(stderr, "%s: %s: too many archives\n", prog, *root);
		close(in);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/%u", private_dir, n_unpacked);
	if (mkdir(dir, 0700) < 0 || (out = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: %s: cannot make a directory: %s\n", prog, dir,
			error_words(-errno));
		close(in);
		return -1;
	}
	err = archive_unpack(in, out, &line);
	close(in);
	close(out);
	if (err == -ENOMEM)
		exit_out_of_memory(); /* not the archive's fault; the guard removes the rest */
	if (err < 0) {
		if (line)
			fprintf(stderr, "%s: %s:%zu: not a sysfs archive: %s\n", prog, *root, line,
				err == -EBADMSG ? "malformed line" : error_words(err));
		else
			fprintf(stderr, "%s: %s: not a sysfs archive: %s\n", prog, *root,
				err == -EBADMSG ? "malformed" : error_words(err));
		return -1;
	}
	unpacked[n_unpacked] = strdup(dir);
	archive_of[n_unpacked] = *root;
	*root = unpacked[n_unpacked++];
	if (!*root) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	return 1;
}

const char *root_shown(const char *root)
{
	for (unsigned i = 0; root && i < n_unpacked; i++)
		if (unpacked[i] && strcmp(root, unpacked[i]) == 0)
			return archive_of[i];
	return root;
}
