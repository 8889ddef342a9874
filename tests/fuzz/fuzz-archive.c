/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fixture archive: archive_unpack_buffer() on any bytes.
 * Invariants: checking (no destination) and unpacking agree; an archive
 * that unpacks writes only below its destination (the scratch directory
 * around it stays as it was); packing what was unpacked gives an archive
 * that unpacks again and packs to the same bytes (a fixed point).
 */
#include "fuzz-common.h"
#include "archive.h"
#include "libsysdev.h"

static int basefd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	basefd = open(fuzz_mkdtemp("archive"), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0)
		abort();
	return 0;
}

static int fresh_dir(const char *name)
{
	fuzz_empty_dir(basefd);
	if (mkdirat(basefd, "a", 0700) < 0 && errno != EEXIST)
		abort();
	int afd = openat(basefd, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (afd < 0 || mkdirat(afd, name, 0700) < 0)
		abort();
	int fd = openat(afd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	close(afd);
	if (fd < 0)
		abort();
	return fd;
}

/* The scratch tree holds a/ and, inside it, only the named destinations. */
static void check_contained(const char *allowed1, const char *allowed2)
{
	int afd = openat(basefd, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd = dup(basefd);
	DIR *d = fdopendir(fd);

	FUZZ_ASSERT(afd >= 0 && d);
	for (struct dirent *de; (de = readdir(d));)
		FUZZ_ASSERT(!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
			    !strcmp(de->d_name, "a"));
	closedir(d);
	d = fdopendir(afd);
	FUZZ_ASSERT(d);
	for (struct dirent *de; (de = readdir(d));)
		FUZZ_ASSERT(!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
			    !strcmp(de->d_name, allowed1) ||
			    (allowed2 && !strcmp(de->d_name, allowed2)));
	closedir(d);
}

/* Pack @dirfd into a memory buffer (through an unnamed temp file). */
static char *pack(int dirfd, size_t *len)
{
	struct tree_counts st;
	int tfd = openat(basefd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	off_t end;
	char *buf;

	FUZZ_ASSERT(tfd >= 0);
	memset(&st, 0, sizeof(st));
	FUZZ_ASSERT(archive_pack(dirfd, tfd, 0, &st) == 0);
	end = lseek(tfd, 0, SEEK_END);
	FUZZ_ASSERT(end >= 0);
	buf = malloc((size_t)end + 1);
	FUZZ_ASSERT(buf);
	FUZZ_ASSERT(pread(tfd, buf, (size_t)end, 0) == end);
	close(tfd);
	*len = (size_t)end;
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t line_check = 0, line_real = 0, len1, len2;
	int check, real, dfd, dfd2;
	char *p1, *p2;

	if (size > 16384)
		return 0;
	check = archive_unpack_buffer((const char *)data, size, -1, &line_check);
	FUZZ_ASSERT(check <= 0);
	if (check == 0)
		FUZZ_ASSERT(line_check == 0);
	dfd = fresh_dir("dest");
	real = archive_unpack_buffer((const char *)data, size, dfd, &line_real);
	check_contained("dest", NULL);
	/*
	 * The check refuses exactly what unpacking refuses, for the same reason
	 * and on the same line: it tracks the declared paths as unpacking
	 * creates them (a child before its parent, an entry twice).
	 */
	if (check == 0) {
		FUZZ_ASSERT(real == 0);
	} else {
		FUZZ_ASSERT(real == check);
		FUZZ_ASSERT(line_real == line_check);
	}
	if (real == 0) {
		p1 = pack(dfd, &len1);
		dfd2 = openat(basefd, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		FUZZ_ASSERT(dfd2 >= 0);
		FUZZ_ASSERT(mkdirat(dfd2, "again", 0700) == 0);
		int again = openat(dfd2, "again", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		close(dfd2);
		FUZZ_ASSERT(again >= 0);
		FUZZ_ASSERT(archive_unpack_buffer(p1, len1, again, NULL) == 0);
		check_contained("dest", "again");
		p2 = pack(again, &len2);
		FUZZ_ASSERT(len1 == len2 && memcmp(p1, p2, len1) == 0);
		close(again);
		free(p1);
		free(p2);
	}
	close(dfd);
	fuzz_empty_dir(basefd);
	return 0;
}
