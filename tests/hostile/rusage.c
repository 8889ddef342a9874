/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hostile-rusage OUTFILE PROGRAM [ARG...]: run PROGRAM, then write
 * "<wait status> <peak RSS in KiB>" to OUTFILE and exit 0.
 *
 * The peak RSS a process reports includes what it inherited at fork, and a
 * child forked from the Python driver inherits ~20 MiB; forked from this
 * small program it inherits almost nothing, so the figure is the CLI's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OUTFILE PROGRAM [ARG...]\n", argv[0]);
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		;
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	fprintf(f, "%d %ld\n", status, ru.ru_maxrss);
	return fclose(f) == 0 ? 0 : 2;
}
