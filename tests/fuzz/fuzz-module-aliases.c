/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The MODULES column's parser and matcher (tools/tree/module-aliases.c):
 *  - alias_glob_match() answers as glibc's fnmatch(pattern, s, 0) in the C
 *    locale, checked wherever fnmatch is safe to ask (printable ASCII, no
 *    named classes, at most 4 stars: fnmatch backtracks), and never takes
 *    more than (|pattern| + 1) * (|s| + 1) steps;
 *  - module_aliases_parse() of any text never crashes, and a lookup names
 *    exactly the modules of the lines a plain reading (each "alias P M"
 *    line on its own, kmod's '-' as '_', fnmatch) says match, when every
 *    pattern is safe to give fnmatch.
 * Input: PATTERN NUL STRING NUL modules.alias text.
 */
#include <fnmatch.h>
#include <stdbool.h>

#include "fuzz-common.h"
#include "module-aliases.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static bool safe_for_fnmatch(const char *p)
{
	int stars = 0;

	for (const char *q = p; *q; q++) {
		if (*q < 0x20 || *q > 0x7e)
			return false;
		stars += *q == '*';
		/* a '[' that no ']' follows: glibc reads that bracket now as a literal '[',
		 * now as a range without its end that never matches, depending on the bytes
		 * before it ("[[-" matches itself, "[a-" nothing); the lookup never meets one
		 * (kmod's normalisation leaves such a pattern out, and so does the parser) */
		if (*q == '[' && !strchr(q + 1, ']'))
			return false;
	}
	return stars <= 4 && !strstr(p, "[:") && !strstr(p, "[=") && !strstr(p, "[.");
}

/* printable ASCII without '/' */
static bool module_name(const char *m)
{
	for (const unsigned char *p = (const unsigned char *)m; *p; p++)
		if (*p < 0x21 || *p > 0x7e || *p == '/')
			return false;
	return true;
}

/* kmod's normalisation, written again: NULL when a bracket is unmatched. */
static char *ref_normalize(const char *s)
{
	char *r = strdup(s);
	bool in = false;

	FUZZ_ASSERT(r);
	for (char *p = r; *p; p++) {
		if (in) {
			in = *p != ']';
		} else if (*p == '[') {
			in = true;
		} else if (*p == ']') {
			free(r);
			return NULL;
		} else if (*p == '-') {
			*p = '_';
		}
	}
	if (in) {
		free(r);
		return NULL;
	}
	return r;
}

static void check_glob(const char *p, const char *s)
{
	unsigned long steps = 0;
	bool got = alias_glob_match(p, s, &steps);

	FUZZ_ASSERT(steps <= (strlen(p) + 1) * (strlen(s) + 1) + 1);
	if (safe_for_fnmatch(p) && safe_for_fnmatch(s))
		FUZZ_ASSERT(got == (fnmatch(p, s, 0) == 0));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The modules of matching lines, read one line at a time; NULL when some pattern is unsafe. */
static char *ref_lookup(const char *text, size_t len, const char *modalias, bool *usable)
{
	char *copy = fuzz_strndup((const uint8_t *)text, len), *save = NULL, *line;
	char *m = ref_normalize(modalias), *out, **found = NULL;
	size_t n = 0, size = 1;

	*usable = m && safe_for_fnmatch(modalias) && strlen(modalias) < 4096;
	for (line = strtok_r(copy, "\n", &save); line && *usable;
	     line = strtok_r(NULL, "\n", &save)) {
		char kw[16], pat[4097], mod[4097], extra[2];
		char *np;

		if (strlen(line) > 4096 ||
		    sscanf(line, "%15s %4096s %4096s %1s", kw, pat, mod, extra) != 3 ||
		    strcmp(kw, "alias") != 0)
			continue;
		if (strpbrk(line, "\t\r\v\f")) {
			*usable =
			    false; /* the plain reading splits on spaces alike; keep it simple */
			break;
		}
		if (!safe_for_fnmatch(pat)) {
			*usable = false;
			break;
		}
		if (!module_name(mod))
			continue; /* no module name: the line is left out */
		np = ref_normalize(pat);
		if (!np)
			continue;
		if (fnmatch(np, m, 0) == 0) {
			found = realloc(found, (n + 1) * sizeof(*found));
			FUZZ_ASSERT(found);
			found[n] = strdup(mod);
			FUZZ_ASSERT(found[n]);
			size += strlen(mod) + 1;
			n++;
		}
		free(np);
	}
	free(copy);
	free(m);
	if (!*usable || !n) {
		for (size_t i = 0; i < n; i++)
			free(found[i]);
		free(found);
		return NULL;
	}
	qsort(found, n, sizeof(*found), cmp_str);
	out = malloc(size);
	FUZZ_ASSERT(out);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(found[i], found[i - 1]) != 0) {
			if (out[0])
				strcat(out, " ");
			strcat(out, found[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(found[i]);
	free(found);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct module_aliases *a = NULL;
	const char *part[3] = {"", "", ""};
	size_t text_len = 0, bad_line;
	char *s, *got = NULL;
	int err;

	if (size > 65536)
		return 0;
	s = fuzz_strndup(data, size);
	part[0] = s;
	for (size_t i = 0, k = 1; i < size && k < 3; i++)
		if (s[i] == '\0') {
			part[k++] = s + i + 1;
			if (k == 3)
				text_len = size - i - 1;
		}
	check_glob(part[0], part[1]);
	err = module_aliases_parse((const char *)part[2], text_len, &a, &bad_line);
	FUZZ_ASSERT(err == 0 || err == -E2BIG);
	FUZZ_ASSERT((err == -E2BIG) == (bad_line != 0));
	if (err == 0) {
		bool usable;
		char *want = ref_lookup(part[2], text_len, part[1], &usable);

		err = module_aliases_lookup(a, part[1], &got, NULL);
		FUZZ_ASSERT(err == 0 || err == -E2BIG);
		/* the file's NUL bytes end the plain reading's lines differently */
		if (err == 0 && usable && !memchr(part[2], '\0', text_len))
			FUZZ_ASSERT((!got && !want) || (got && want && strcmp(got, want) == 0));
		free(want);
		free(got);
	}
	module_aliases_free(a);
	free(s);
	return 0;
}
