/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udev_db_parse(): a file data/ID of udev's database, any bytes.
 * Invariants: every string lies inside the buffer and holds no newline;
 * links and tags are sorted and each once, tags hold no ':' or '/'; every
 * key is non-empty and holds no '='; udev_db_get() finds the last of equal
 * keys; parsing the same bytes again gives the same answers.
 */
#include "fuzz-common.h"
#include "libsysdev-private.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check_set(const struct udev_db *db, const char *const *v, size_t n, bool tag)
{
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(v[i] >= db->buf && v[i] + strlen(v[i]) <= db->buf + db->len);
		FUZZ_ASSERT(*v[i] && !strchr(v[i], '\n'));
		if (tag)
			FUZZ_ASSERT(!strchr(v[i], ':') && !strchr(v[i], '/'));
		if (i)
			FUZZ_ASSERT(strcmp(v[i - 1], v[i]) < 0);
		FUZZ_ASSERT(udev_db_has(v, n, v[i]));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udev_db db = {0};
	size_t n_props, n_links, n_tags;

	if (size > UDEV_DB_FILE_MAX)
		return 0; /* the reader never hands more to the parser */
	db.cap = size + 1;
	db.buf = malloc(db.cap);
	FUZZ_ASSERT(db.buf);
	memcpy(db.buf, data, size);
	FUZZ_ASSERT(udev_db_parse(&db, size) == 0);
	check_set(&db, db.links, db.n_links, false);
	check_set(&db, db.tags, db.n_tags, true);
	check_set(&db, db.current_tags, db.n_current_tags, true);
	for (size_t i = 0; i < db.n_props; i++) {
		const char *k = db.keys[i], *v = db.values[i];

		FUZZ_ASSERT(k >= db.buf && v > k && v + strlen(v) <= db.buf + size);
		FUZZ_ASSERT(*k && !strchr(k, '=') && !strchr(k, '\n') && !strchr(v, '\n'));
		const char *got = udev_db_get(&db, k);

		FUZZ_ASSERT(got);
		for (size_t j = db.n_props; j-- > i;)
			if (strcmp(db.keys[j], k) == 0) {
				FUZZ_ASSERT(got == db.values[j]);
				break;
			}
	}
	/* the same bytes again (a buffer reused, as for the next device) */
	n_props = db.n_props;
	n_links = db.n_links;
	n_tags = db.n_tags;
	memcpy(db.buf, data, size);
	FUZZ_ASSERT(udev_db_parse(&db, size) == 0);
	FUZZ_ASSERT(db.n_props == n_props && db.n_links == n_links && db.n_tags == n_tags);
	udev_db_clear(&db);
	FUZZ_ASSERT(db.n_props == 0 && db.n_links == 0 && !db.has_usec);
	udev_db_free(&db);
	return 0;
}
