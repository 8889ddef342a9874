/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A main() for the fuzz targets where libFuzzer is not there (gcc builds,
 * the sanitizer build): run each file named on the command line (or each
 * file of each directory named) through LLVMFuzzerTestOneInput once.  This
 * replays the seed corpus and every crash kept as a regression input.
 */
#include "fuzz-common.h"

static int run_file(int dirfd, const char *name, const char *shown)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *buf;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(shown);
		return 1;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		abort();
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n != st.st_size) {
		fprintf(stderr, "%s: short read\n", shown);
		free(buf);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long runs = 0;
	int bad = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(AT_FDCWD, argv[i], argv[i]);
			runs++;
			continue;
		}
		DIR *d = opendir(argv[i]);

		if (!d) {
			perror(argv[i]);
			return 1;
		}
		for (struct dirent *de; (de = readdir(d));) {
			if (de->d_name[0] == '.')
				continue;
			bad |= run_file(dirfd(d), de->d_name, de->d_name);
			runs++;
		}
		closedir(d);
	}
	printf("%s: %lu inputs replayed\n", argv[0], runs);
	return bad || runs == 0;
}
