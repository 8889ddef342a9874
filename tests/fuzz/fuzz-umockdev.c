/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysdev-fixture import's parser of umockdev recordings (tools/fixture/umockdev.c):
 * any bytes in, and
 *  - it returns 0 or one of its documented errors, never crashes or leaks;
 *  - on success its output is a sysfs archive that the library's own
 *    checker accepts as it is (paths safe, parents first, no entry twice,
 *    link targets inside the tree): an import never writes what an unpack
 *    would refuse;
 *  - it is a pure function: the same input gives the same archive.
 */
#include "fuzz-common.h"
#include "archive.h"
#include "libsysdev.h"
#include "umockdev.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct umockdev_stats st = {0}, st2 = {0};
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0, line = 0, line2 = 0, bad = 0;
	int err, err2, check;

	if (size > 16384)
		return 0;
	err = umockdev_to_archive((const char *)data, size, &a, &alen, &line, &st);
	FUZZ_ASSERT(err == 0 || err == -EBADMSG || err == -EINVAL || err == -EEXIST ||
		    err == -ENOMEM);
	if (err == 0) {
		FUZZ_ASSERT(a != NULL && line == 0);
		check = archive_unpack_buffer(a, alen, -1, &bad);
		if (check != 0)
			fprintf(stderr, "archive refused at line %zu:\n%.*s\n", bad, (int)alen, a);
		FUZZ_ASSERT(check == 0);
	} else {
		FUZZ_ASSERT(a == NULL);
	}
	err2 = umockdev_to_archive((const char *)data, size, &b, &blen, &line2, &st2);
	FUZZ_ASSERT(err2 == err && line2 == line && blen == alen);
	FUZZ_ASSERT(err != 0 || memcmp(a, b, alen) == 0);
	free(a);
	free(b);
	return 0;
}
