/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An LD_PRELOAD shim that makes one allocation fail, for the test that every
 * allocation failure ends in a clean error (test_failmalloc.py):
 *   FAILMALLOC_AT=N      the Nth call of malloc, calloc, realloc or
 *                        reallocarray (counted from 1) returns NULL, ENOMEM;
 *                        every other call succeeds
 *   FAILMALLOC_COUNT=F   at exit, the number of calls made is written to F
 *   FAILMALLOC_NO_OPENAT2=1
 *                        syscall(SYS_openat2) fails with ENOSYS, as on a
 *                        kernel before 5.6 or under a seccomp filter that
 *                        refuses it: the library's slower way of opening a
 *                        device below the root (which allocates) runs
 * glibc's own functions (strdup, fopen, asprintf) call the malloc a program
 * defines, so their allocations are counted and fail too; what is allocated
 * once exit() began is not counted.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static unsigned long calls, fail_at;
static int configured, exiting, no_openat2;

static void configure(void)
{
	const char *at = getenv("FAILMALLOC_AT");

	configured = 1;
	fail_at = at ? strtoul(at, NULL, 10) : 0;
	no_openat2 = getenv("FAILMALLOC_NO_OPENAT2") != NULL;
}

/* Whether this call is the one that fails; none once the program exits. */
static int fails(void)
{
	if (!configured)
		configure();
	if (exiting)
		return 0;
	if (++calls == fail_at) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	return fails() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	return fails() ? NULL : __libc_realloc(p, size);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

#ifdef SYS_openat2
/* Up to six arguments are passed on, as glibc's own syscall() does. */
long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	if (!configured)
		configure();
	if (nr == SYS_openat2 && no_openat2) {
		errno = ENOSYS;
		return -1;
	}
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
#endif

/*
 * What a program allocates once it called exit() (gcov writing its counters
 * in a coverage build, from the destructors) is not the program's and never
 * fails.  The handler is registered as main() starts: after the C library
 * registered the dynamic linker's handler that runs the destructors, so it
 * runs before it (a constructor of this library runs before that).
 */
static void exit_begins(void)
{
	exiting = 1;
}

/*
 * The tools fork only to guard an unpacked archive: the parent waits for the
 * child, which does the work, and ends with _exit().  The parent's
 * allocations after the fork are not the command's (a coverage build's
 * _exit() writes gcov's counters) and never fail; the child counts on.
 */
pid_t fork(void)
{
	static pid_t (*real)(void);
	pid_t pid;

	if (!real)
		real = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");
	pid = real();
	if (pid > 0)
		exiting = 1;
	return pid;
}

static int (*real_main)(int, char **, char **);

static int main_watching_exit(int argc, char **argv, char **envp)
{
	atexit(exit_begins);
	return real_main(argc, argv, envp);
}

int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv, void (*init)(void),
		      void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
	int (*real)(int (*)(int, char **, char **), int, char **, void (*)(void), void (*)(void),
		    void (*)(void), void *) =
	    (int (*)(int (*)(int, char **, char **), int, char **, void (*)(void), void (*)(void),
		     void (*)(void), void *))dlsym(RTLD_NEXT, "__libc_start_main");

	real_main = main;
	return real(main_watching_exit, argc, argv, init, fini, rtld_fini, stack_end);
}

__attribute__((destructor)) static void write_count(void)
{
	const char *path = getenv("FAILMALLOC_COUNT");
	char buf[32];
	int fd, len;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	len = snprintf(buf, sizeof(buf), "%lu\n", calls);
	if (write(fd, buf, (size_t)len) != len)
		abort();
	close(fd);
}
