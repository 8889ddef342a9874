/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lists: one line (or JSON object) per device, in the walk's order, the
 * columns of columns.c.  -r, -P and -J stream each device as the
 * enumerator finds it; -l holds every line back to align the columns.
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cli.h"
#include "columns.h"
#include "json-writer.h"
#include "names.h"

struct list_state {
	struct sysdev *ctx;
	const struct options *o;
	struct jw w;
	struct names *names; /* only when a column needs names */
	unsigned long rows;
	/* -l: the escaped values, row by row, and each column's width */
	char **cells;
	size_t ncells, cells_cap;
	size_t *width;
	size_t limit; /* -w, or the terminal's width; 0: none */
};

/*
 * Display width of an escaped value, as lsblk measures it: wcwidth() of each
 * character (2 for 设, 0 for a combining accent).  The values are UTF-8
 * whatever the locale, so a locale whose charset is not UTF-8 (C, POSIX)
 * measures them with C.UTF-8's widths (see cmd_list); a byte that does not
 * decode, or a character without a width, counts one.
 */
static size_t text_width(const char *s)
{
	mbstate_t state = {0};
	size_t w = 0;

	while (*s) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, MB_LEN_MAX, &state);
		int cw;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			/* no UTF-8 locale at all: one column per character */
			w += ((unsigned char)*s & 0xc0) != 0x80;
			s++;
			memset(&state, 0, sizeof(state));
			continue;
		}
		cw = wcwidth(wc);
		w += cw < 0 ? 1 : (size_t)cw;
		s += n;
	}
	return w;
}

static char *escaped(const char *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fput_hex_escaped(f, v, "");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The opening, written with the first device: when none is selected, nothing is. */
static void begin(struct list_state *l)
{
	const struct options *o = l->o;

	if (o->json) {
		jw_begin_object(&l->w);
		jw_break(&l->w, 1);
		jw_key(&l->w, "devices");
		jw_begin_array(&l->w);
	} else if (!o->noheadings && o->list_format == FORMAT_RAW) {
		for (size_t i = 0; i < o->n_cols; i++)
			printf("%s%s", i ? " " : "", o->cols[i]->name);
		putchar('\n');
	}
}

static int on_device(struct sysdev_device *dev, void *data)
{
	struct list_state *l = data;
	const struct options *o = l->o;
	struct row r = {.ctx = l->ctx, .dev = dev, .names = l->names};
	char buf[4097];

	if (!l->rows)
		begin(l);
	if (o->json) {
		jw_break(&l->w, 2);
		jw_begin_object(&l->w);
	}
	for (size_t i = 0; i < o->n_cols; i++) {
		const struct column *c = o->cols[i];
		const char *v = column_value(c, &r, buf, sizeof(buf));

		if (o->json && (c->flags & COL_LINKS)) {
			const char *link;

			jw_key(&l->w, c->key);
			jw_begin_array(&l->w);
			SYSDEV_DEVICE_FOREACH_DEVLINK(dev, link)
			jw_string(&l->w, link);
			jw_end_array(&l->w);
		} else if (o->json && (c->flags & COL_WORDS)) {
			jw_key(&l->w, c->key);
			jw_begin_array(&l->w);
			for (const char *w = v; w && *w;) {
				size_t len = strcspn(w, " ");

				jw_string_len(&l->w, w, len);
				w += len + (w[len] == ' ');
			}
			jw_end_array(&l->w);
		} else if (o->json) {
			jw_member_string(&l->w, c->key, v);
		} else if (o->list_format == FORMAT_RAW) {
			if (i)
				putchar(' ');
			fput_hex_escaped(stdout, v ? v : "", " \t");
		} else if (o->list_format == FORMAT_PAIRS) {
			if (i)
				putchar(' ');
			printf("%s=\"", column_pairs_name(c));
			fput_hex_escaped(stdout, v ? v : "", "\"`$");
			putchar('"');
		} else {
			char *e = escaped(v ? v : "");

			if (!e || grow_array((void **)&l->cells, &l->cells_cap, l->ncells + 1,
					     sizeof(*l->cells)) < 0) {
				free(e);
				return -ENOMEM;
			}
			if (text_width(e) > l->width[i])
				l->width[i] = text_width(e);
			l->cells[l->ncells++] = e;
		}
	}
	if (o->json)
		jw_end_object(&l->w);
	else if (o->list_format != FORMAT_LIST)
		putchar('\n');
	l->rows++;
	return ferror(stdout) ? -EPIPE : 0;
}

/* The bytes of @s that fit in @width display columns (whole characters). */
static size_t fit_bytes(const char *s, size_t width)
{
	mbstate_t state = {0};
	size_t w = 0, at = 0;

	while (s[at]) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + at, MB_LEN_MAX, &state);
		int cw = 1;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			n = 1;
			memset(&state, 0, sizeof(state));
		} else {
			cw = wcwidth(wc) < 0 ? 1 : wcwidth(wc);
		}
		if (w + (size_t)cw > width)
			break;
		w += (size_t)cw;
		at += n;
	}
	return at;
}

/*
 * -w (or a terminal): while a line is wider than the limit, the widest column
 * gives up what is missing, down to one column; its values are cut at a
 * character's boundary, as lsblk truncates.
 */
static void fit_width(struct list_state *l)
{
	const struct options *o = l->o;
	size_t total = o->n_cols ? o->n_cols - 1 : 0;

	for (size_t i = 0; i < o->n_cols; i++)
		total += l->width[i];
	while (l->limit && total > l->limit) {
		size_t widest = 0;

		for (size_t i = 1; i < o->n_cols; i++)
			if (l->width[i] > l->width[widest])
				widest = i;
		if (l->width[widest] <= 1)
			break;
		l->width[widest]--;
		total--;
	}
}

/* -l: the held lines, each column padded to its width but the last. */
static void print_aligned(struct list_state *l)
{
	const struct options *o = l->o;

	if (!o->noheadings) {
		for (size_t i = 0; i < o->n_cols; i++) {
			if (text_width(o->cols[i]->name) > l->width[i])
				l->width[i] = text_width(o->cols[i]->name);
		}
	}
	fit_width(l);
	for (long row = o->noheadings ? 0 : -1; row < (long)l->rows; row++) {
		for (size_t i = 0; i < o->n_cols; i++) {
			const char *s =
			    row < 0 ? o->cols[i]->name : l->cells[(size_t)row * o->n_cols + i];
			size_t n = fit_bytes(s, l->width[i]);

			fwrite(s, 1, n, stdout);
			if (i + 1 < o->n_cols) {
				char head[n + 1];

				memcpy(head, s, n);
				head[n] = '\0';
				printf("%*s", (int)(l->width[i] - text_width(head) + 1), "");
			}
		}
		putchar('\n');
	}
}

struct sort_item {
	struct sysdev_device *dev;
	char *key; /* NULL: no value */
	size_t at; /* the walk's order: ties keep it */
};

static int cmp_items(const void *x, const void *y)
{
	const struct sort_item *a = x, *b = y;
	int c = column_value_cmp(a->key, b->key);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* -x: the kept devices in @items (*@n), sorted by the column. */
static int sort_devices(struct list_state *l, struct sysdev_enumerator *e, struct sort_item **items,
			size_t *n)
{
	size_t cap = 0;
	struct sysdev_device *dev;

	*items = NULL;
	*n = 0;
	SYSDEV_FOREACH_DEVICE(e, dev)
	{
		struct row r = {.ctx = l->ctx, .dev = dev, .names = l->names};
		char buf[4097];
		const char *v;

		if (!filter_keep(l->o, dev))
			continue;
		if (grow_array((void **)items, &cap, *n + 1, sizeof(**items)) < 0)
			return -ENOMEM;
		v = column_value(l->o->sort, &r, buf, sizeof(buf));
		(*items)[*n] = (struct sort_item){dev, v ? strdup(v) : NULL, *n};
		if (v && !(*items)[*n].key)
			return -ENOMEM;
		(*n)++;
	}
	if (*n)
		qsort(*items, *n, sizeof(**items), cmp_items);
	return 0;
}

int cmd_list(struct sysdev *ctx, const struct options *o)
{
	struct list_state l = {.ctx = ctx, .o = o, .limit = o->width};
	locale_t utf8 = (locale_t)0, old_locale = (locale_t)0;
	struct sysdev_enumerator *e;
	char *start = NULL;
	int err, ret = 0;

	if (start_or_warn(ctx, o->start, &start) < 0)
		return EXIT_RUNTIME;
	err = filter_enumerator(ctx, o, start, &e);
	free(start);
	if (err < 0)
		return EXIT_RUNTIME;
	l.width = calloc(o->n_cols, sizeof(*l.width));
	if (!l.width)
		exit_out_of_memory();
	if ((columns_need(o->cols, o->n_cols, COL_NAMES) &&
	     oom_check(names_new(ctx, &l.names)) < 0) ||
	    (o->sort && (o->sort->flags & COL_NAMES) && !l.names &&
	     oom_check(names_new(ctx, &l.names)) < 0)) {
		free(l.width);
		sysdev_enumerator_unref(e);
		return EXIT_RUNTIME;
	}
	if (!l.limit && o->list_format == FORMAT_LIST && !o->json && isatty(STDOUT_FILENO)) {
		struct winsize ws;

		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
			l.limit = ws.ws_col;
	}
	/* -l measures UTF-8 values: in C.UTF-8 where the user's locale is not UTF-8 */
	if (o->list_format == FORMAT_LIST && !o->json &&
	    strcmp(nl_langinfo(CODESET), "UTF-8") != 0 &&
	    (utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0)))
		old_locale = uselocale(utf8);
	jw_init(&l.w, stdout);
	err = sysdev_enumerator_scan(e);
	if (err >= 0 && o->sort) {
		struct sort_item *items = NULL;
		size_t n = 0;

		err = sort_devices(&l, e, &items, &n);
		for (size_t i = 0; err >= 0 && i < n; i++)
			err = on_device(items[i].dev, &l);
		for (size_t i = 0; i < n; i++)
			free(items[i].key);
		free(items);
	} else if (err >= 0) {
		struct sysdev_device *dev;

		SYSDEV_FOREACH_DEVICE(e, dev)
		{
			if (!filter_keep(o, dev))
				continue;
			err = on_device(dev, &l);
			if (err < 0)
				break;
		}
	}
	if (o->json && l.rows) {
		jw_break(&l.w, 1);
		jw_end_array(&l.w);
		jw_break(&l.w, 0);
		jw_end_object(&l.w);
		putchar('\n');
	} else if (o->list_format == FORMAT_LIST && err >= 0 && l.rows) {
		print_aligned(&l);
	}
	if (utf8) {
		uselocale(old_locale);
		freelocale(utf8);
	}
	jw_done(&l.w);
	if (err == -EPIPE) {
		ret = check_output(); /* the output failed: a closed pipe, or an error */
	} else if (err < 0) {
		warnx_(NULL, "cannot list devices: %s", error_words(err));
		ret = EXIT_RUNTIME;
	} else if (!l.rows) {
		warn_none_selected(o);
		ret = EXIT_RUNTIME;
	}
	for (size_t i = 0; i < l.ncells; i++)
		free(l.cells[i]);
	free(l.cells);
	free(l.width);
	names_free(l.names);
	sysdev_enumerator_unref(e);
	return ret;
}
