/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* modules.alias: parse, index by literal prefix, match (module-aliases.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "dir-list.h"
#include "fd-util.h"
#include "in-root.h"
#include "args.h"
#include "module-aliases.h"

struct alias {
	const char *pattern; /* normalized; points into the copy of the text */
	const char *module;
	size_t prefix; /* bytes before the first glob character */
};

struct module_aliases {
	char *text; /* the file, its lines cut in place */
	struct alias *v;
	size_t n;
	/* which literal prefix lengths occur: a lookup searches only those */
	unsigned char has_prefix[MODULE_ALIASES_MAX_LINE + 1];
};

/*
 * kmod's alias_normalize(): '-' outside brackets is '_'; a bracket's text is
 * copied as it is.  An unmatched '[' or ']' is -EINVAL.  In place.
 */
static int normalize(char *s)
{
	for (; *s; s++) {
		if (*s == '-') {
			*s = '_';
		} else if (*s == ']') {
			return -EINVAL;
		} else if (*s == '[') {
			while (*s && *s != ']')
				s++;
			if (!*s)
				return -EINVAL;
		}
	}
	return 0;
}

static size_t literal_prefix(const char *p)
{
	return strcspn(p, "*?[\\");
}

/*
 * A bracket expression at @p (p[0] == '['), against byte @c, as glibc's
 * fnmatch reads it with flags 0: '!' or '^' negates, a ']' first is a member,
 * a-z is a range by byte value, '\' escapes.  Returns the bytes it spans,
 * 0 when it is not terminated (then '[' is an ordinary byte), or SIZE_MAX
 * when the pattern cannot match at all (a '\' at its very end).
 */
static size_t bracket(const char *p, unsigned char c, bool *ok)
{
	size_t i = 1;
	bool negate = false, found = false;

	if (p[i] == '!' || p[i] == '^') {
		negate = true;
		i++;
	}
	for (bool first = true;; first = false) {
		unsigned char lo, hi;

		if (!p[i])
			return 0;
		if (p[i] == ']' && !first)
			break;
		if (p[i] == '\\') {
			if (!p[i + 1])
				return SIZE_MAX;
			i++;
		}
		lo = (unsigned char)p[i++];
		hi = lo;
		if (p[i] == '-' && !p[i + 1])
			return SIZE_MAX; /* glibc: a range without its end never matches */
		if (p[i] == '-' && p[i + 1] != ']') {
			i++;
			if (p[i] == '\\') {
				if (!p[i + 1])
					return SIZE_MAX;
				i++;
			}
			hi = (unsigned char)p[i++];
		}
		if (c >= lo && c <= hi)
			found = true;
	}
	*ok = found != negate;
	return i + 1;
}

/* One element of the pattern at @p against byte @c: the bytes it spans, SIZE_MAX: never. */
static size_t match_one(const char *p, unsigned char c, bool *ok)
{
	size_t n;

	switch (*p) {
	case '?':
		*ok = true;
		return 1;
	case '\\':
		if (!p[1])
			return SIZE_MAX; /* glibc: a trailing '\' never matches */
		*ok = (unsigned char)p[1] == c;
		return 2;
	case '[':
		n = bracket(p, c, ok);
		if (n)
			return n;
		break;
	}
	*ok = (unsigned char)*p == c;
	return 1;
}

/* Each element matches one byte, so going back to the last '*' alone is enough. */
bool alias_glob_match(const char *p, const char *s, unsigned long *steps)
{
	const char *star_p = NULL, *star_s = NULL;
	unsigned long n = 0;
	bool matched;

	for (;;) {
		n++;
		if (*p == '*') {
			while (*p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (!*s) {
			matched = !*p;
			break;
		}
		if (*p) {
			bool ok = false;
			size_t len = match_one(p, (unsigned char)*s, &ok);

			if (len == SIZE_MAX) {
				matched = false;
				break;
			}
			if (ok) {
				p += len;
				s++;
				continue;
			}
		}
		if (!star_p) {
			matched = false;
			break;
		}
		p = star_p;
		s = ++star_s;
	}
	if (steps)
		*steps += n;
	return matched;
}

static int cmp_prefix(const char *a, size_t alen, const char *b, size_t blen)
{
	int r = memcmp(a, b, alen < blen ? alen : blen);

	return r ? r : alen < blen ? -1 : alen > blen;
}

static int cmp_alias(const void *x, const void *y)
{
	const struct alias *a = x, *b = y;
	int r = cmp_prefix(a->pattern, a->prefix, b->pattern, b->prefix);

	/* then file order: the sort is stable in effect */
	return r ? r : (a->pattern > b->pattern) - (a->pattern < b->pattern);
}

/* The next whitespace-separated word of *@s, NUL-terminated in place; NULL when none. */
static char *word(char **s)
{
	char *w = *s + strspn(*s, " \t\r\v\f");

	if (!*w)
		return NULL;
	*s = w + strcspn(w, " \t\r\v\f");
	if (**s)
		*(*s)++ = '\0';
	return w;
}

static bool module_name_ok(const char *m)
{
	for (const unsigned char *p = (const unsigned char *)m; *p; p++)
		if (*p <= ' ' || *p == '/' || *p >= 0x7f)
			return false;
	return *m;
}

int module_aliases_parse(const char *text, size_t len, struct module_aliases **ret,
			 size_t *bad_line)
{
	struct module_aliases *a;
	size_t cap = 0, line = 0;
	char *s, *end, *next;

	*ret = NULL;
	if (bad_line)
		*bad_line = 0;
	if (len > MODULE_ALIASES_MAX_FILE)
		return -E2BIG;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->text = malloc(len + 1);
	if (!a->text) {
		free(a);
		return -ENOMEM;
	}
	memcpy(a->text, text, len);
	a->text[len] = '\0';
	for (s = a->text, end = a->text + len; s < end; s = next) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *rest, *kw, *pattern, *module;
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);

		next = s + l + 1; /* at most one past the text's final NUL */
		line++;
		if (l > MODULE_ALIASES_MAX_LINE) {
			if (bad_line)
				*bad_line = line;
			module_aliases_free(a);
			return -E2BIG;
		}
		s[l] = '\0';
		if (strlen(s) != l)
			continue; /* a NUL inside: not depmod's */
		rest = s;
		kw = word(&rest);
		if (!kw || strcmp(kw, "alias") != 0)
			continue;
		pattern = word(&rest);
		module = word(&rest);
		if (!pattern || !module || word(&rest) || !module_name_ok(module) ||
		    normalize(pattern) < 0)
			continue;
		if (a->n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			struct alias *v = reallocarray(a->v, ncap, sizeof(*v));

			if (!v) {
				module_aliases_free(a);
				return -ENOMEM;
			}
			a->v = v;
			cap = ncap;
		}
		a->v[a->n].pattern = pattern;
		a->v[a->n].module = module;
		a->v[a->n].prefix = literal_prefix(pattern);
		a->has_prefix[a->v[a->n].prefix] = 1;
		a->n++;
	}
	if (a->n)
		qsort(a->v, a->n, sizeof(*a->v), cmp_alias);
	*ret = a;
	return 0;
}

void module_aliases_free(struct module_aliases *a)
{
	if (!a)
		return;
	free(a->v);
	free(a->text);
	free(a);
}

size_t module_aliases_count(const struct module_aliases *a)
{
	return a ? a->n : 0;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The first entry whose literal prefix is not below @key (@len bytes). */
static size_t lower_bound(const struct module_aliases *a, const char *key, size_t len,
			  unsigned long *steps)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		++*steps;
		if (cmp_prefix(a->v[mid].pattern, a->v[mid].prefix, key, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The names of @found (@n, sorted), each once, joined by spaces. */
static char *join_unique(const char **found, size_t n)
{
	size_t size = 1;
	char *s, *p;

	for (size_t i = 0; i < n; i++)
		size += strlen(found[i]) + 1;
	s = p = malloc(size);
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (i && strcmp(found[i], found[i - 1]) == 0)
			continue;
		if (p != s)
			*p++ = ' ';
		p = stpcpy(p, found[i]);
	}
	*p = '\0';
	return s;
}

int module_aliases_lookup(const struct module_aliases *a, const char *modalias, char **ret,
			  unsigned long *steps_out)
{
	const char **found = NULL;
	size_t n_found = 0, cap = 0, len = strlen(modalias);
	unsigned long steps = 0;
	int err = 0;
	char *m;

	*ret = NULL;
	if (steps_out)
		*steps_out = 0;
	/* kmod refuses an alias of PATH_MAX bytes or more, and one it cannot normalize */
	if (!a || !a->n || len >= 4096)
		return 0;
	m = strdup(modalias);
	if (!m)
		return -ENOMEM;
	if (normalize(m) < 0)
		goto out;
	for (size_t k = 0; k <= len && k <= MODULE_ALIASES_MAX_LINE; k++) {
		if (!a->has_prefix[k])
			continue;
		for (size_t i = lower_bound(a, m, k, &steps);
		     i < a->n && a->v[i].prefix == k && memcmp(a->v[i].pattern, m, k) == 0; i++) {
			/* the literal prefix is equal: match from there */
			if (!alias_glob_match(a->v[i].pattern + k, m + k, &steps))
				continue;
			if (n_found == cap) {
				size_t ncap = cap ? cap * 2 : 8;
				const char **v = reallocarray(found, ncap, sizeof(*v));

				if (!v) {
					err = -ENOMEM;
					goto out;
				}
				found = v;
				cap = ncap;
			}
			found[n_found++] = a->v[i].module;
			if (steps > MODULE_ALIASES_MAX_STEPS) {
				err = -E2BIG;
				goto out;
			}
		}
		if (steps > MODULE_ALIASES_MAX_STEPS) {
			err = -E2BIG;
			goto out;
		}
	}
	if (n_found) {
		qsort(found, n_found, sizeof(*found), cmp_str);
		*ret = join_unique(found, n_found);
		if (!*ret)
			err = -ENOMEM;
	}
out:
	if (steps_out)
		*steps_out = steps;
	free(found);
	free(m);
	return err;
}

static int parse_fd(int fd, struct module_aliases **ret, size_t *bad_line)
{
	char *text = NULL;
	size_t len = 0;
	int err = read_fd_alloc(fd, MODULE_ALIASES_MAX_FILE, &text, &len);

	if (err < 0)
		return err == -EFBIG ? -E2BIG : err;
	err = module_aliases_parse(text ? text : "", len, ret, bad_line);
	free(text);
	return err;
}

/* Whether @fd is the live /sys. */
static bool root_is_live(int fd)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat("/sys", &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int load_running(struct module_aliases **ret, char **path, size_t *bad_line)
{
	static const char *const dirs[] = {"/lib/modules", "/usr/lib/modules"};
	struct utsname u;
	int err = -ENOENT;

	if (uname(&u) < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;

		free(*path);
		if (asprintf(path, "%s/%s/modules.alias", dirs[i], u.release) < 0) {
			*path = NULL;
			return -ENOMEM;
		}
		fd = open(*path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		struct stat st;

		err = fstat(fd, &st) < 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -EINVAL;
		if (err == 0)
			err = parse_fd(fd, ret, bad_line);
		close(fd);
		return err;
	}
	/* say where it was first looked for: without memory for that, say so instead */
	free(*path);
	if (asprintf(path, "/lib/modules/%s/modules.alias", u.release) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	return err;
}

/*
 * Below root @rfd: @sub (lib/modules or usr/lib/modules) and the newest of
 * its directories that holds a modules.alias.  *@ver gets its name.
 */
static int find_in_root(int rfd, const char *sub, char **ver)
{
	struct dir_list l = {0};
	struct in_root r;
	int err;

	*ver = NULL;
	err = in_root_resolve(rfd, NULL, sub, IN_ROOT_OPEN_DIR, &r);
	if (err >= 0)
		err = dir_list_read(&l, r.fd, 0);
	in_root_free(&r);
	if (err < 0)
		return err;
	for (size_t i = 0; i < l.n; i++) {
		struct in_root f;
		char *p;

		if (*ver && strverscmp(l.v[i].name, *ver) <= 0)
			continue;
		if (asprintf(&p, "%s/%s/modules.alias", sub, l.v[i].name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (in_root_resolve(rfd, NULL, p, IN_ROOT_OPEN_NONE, &f) >= 0) {
			free(*ver);
			*ver = strdup(l.v[i].name);
			if (!*ver)
				err = -ENOMEM;
		}
		in_root_free(&f);
		free(p);
		if (err < 0)
			break;
	}
	dir_list_free(&l);
	if (err < 0) {
		free(*ver);
		*ver = NULL;
		return err;
	}
	return *ver ? 0 : -ENOENT;
}

int module_aliases_load(struct sysdev *ctx, struct module_aliases **ret, char **path,
			size_t *bad_line)
{
	static const char *const subs[] = {"lib/modules", "usr/lib/modules"};
	int rootfd = sysdev_get_root_fd(ctx), err = -ENOENT;
	const char *root = root_named(ctx);

	*ret = NULL;
	*path = NULL;
	if (bad_line)
		*bad_line = 0;
	if (root_is_live(rootfd))
		return load_running(ret, path, bad_line);
	for (int up = 0; up < 2; up++) {
		int rfd = openat(rootfd, up ? ".." : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (rfd < 0)
			continue;
		for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
			struct in_root f;
			char *ver, *rel;
			int r;

			if (find_in_root(rfd, subs[i], &ver) < 0)
				continue;
			r = asprintf(&rel, "%s/%s/modules.alias", subs[i], ver);
			free(ver);
			if (r < 0) {
				close(rfd);
				return -ENOMEM;
			}
			if (asprintf(path, "%s%s/%s", strcmp(root, "/") ? root : "",
				     up ? "/.." : "", rel) < 0) {
				*path = NULL;
				free(rel);
				close(rfd);
				return -ENOMEM;
			}
			err = in_root_resolve(rfd, NULL, rel, IN_ROOT_OPEN_FILE, &f);
			free(rel);
			if (err >= 0)
				err = parse_fd(f.fd, ret, bad_line);
			in_root_free(&f);
			close(rfd);
			return err;
		}
		close(rfd);
	}
	return err;
}
