/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fixture archive: a directory tree as lines of text (see the header for
 * the format).  The packer walks a tree with directory descriptors; the
 * unpacker parses a buffer line by line and, given a destination, creates
 * each entry below it, one component at a time with O_NOFOLLOW.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "alloc-util.h"
#include "capture.h" /* TREE_CAPTURE_BIN_MAX: a file as a capture bounds it */
#include "dir-list.h"
#include "fd-util.h"
#include "hex-util.h"
#include "path-util.h"
#include "siphash.h"

#define ARCHIVE_HEADER "sysdev-archive 1"
#define ARCHIVE_FILE_MAX ((size_t)TREE_CAPTURE_BIN_MAX * 16)
#define ARCHIVE_PATH_MAX 65536
#define ARCHIVE_DEPTH_MAX 4096
#define ARCHIVE_INPUT_MAX ((size_t)1 << 30)
/*
 * The permission bits an unpacked entry keeps: sysfs has no set-user-ID,
 * set-group-ID, sticky or world-writable entry, and a fixture unpacked by
 * root must not hand any of them to every local user.
 */
#define UNPACK_MODE_KEPT ((mode_t)(07777 & ~(S_ISUID | S_ISGID | S_ISVTX | S_IWOTH)))

static int check_target(const char *s, size_t len, int dir_depth);

/* ---- pack ---- */

struct out {
	int fd;
	int err;
	size_t n;
	char buf[65536];
};

static void out_flush(struct out *o)
{
	size_t off = 0;

	while (o->err == 0 && off < o->n) {
		ssize_t w = write(o->fd, o->buf + off, o->n - off);

		if (w < 0) {
			if (errno != EINTR)
				o->err = -errno;
			continue;
		}
		off += (size_t)w;
	}
	o->n = 0;
}

static void out_put(struct out *o, const char *s, size_t len)
{
	while (len > 0 && o->err == 0) {
		size_t k = sizeof(o->buf) - o->n;

		if (k == 0) {
			out_flush(o);
			continue;
		}
		if (k > len)
			k = len;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		len -= k;
	}
}

static void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

static void out_quoted(struct out *o, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char esc[4];

	out_put(o, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];
		size_t start = i;

		/* runs of plain bytes in one go */
		while (i < len && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x7e &&
		       s[i] != '"' && s[i] != '\\')
			i++;
		if (i > start) {
			out_put(o, s + start, i - start);
			if (i == len)
				break;
			b = (unsigned char)s[i];
		}
		switch (b) {
		case '\\':
			out_put(o, "\\\\", 2);
			break;
		case '"':
			out_put(o, "\\\"", 2);
			break;
		case '\n':
			out_put(o, "\\n", 2);
			break;
		case '\t':
			out_put(o, "\\t", 2);
			break;
		case '\r':
			out_put(o, "\\r", 2);
			break;
		default:
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[b >> 4];
			esc[3] = hex[b & 15];
			out_put(o, esc, 4);
		}
	}
	out_put(o, "\"", 1);
}

static void out_entry(struct out *o, char type, mode_t mode, const char *path, const char *data,
		      size_t dlen, bool has_data)
{
	char head[16];

	snprintf(head, sizeof(head), "%c %04o ", type, (unsigned)(mode & 07777));
	out_str(o, head);
	out_quoted(o, path, strlen(path));
	if (has_data) {
		out_put(o, " ", 1);
		out_quoted(o, data, dlen);
	}
	out_put(o, "\n", 1);
}

struct packer {
	struct out *o;
	struct tree_counts *st;
	char *buf; /* ARCHIVE_FILE_MAX + 1 */
	char *path;
	size_t path_cap;
};

static int path_set(struct packer *p, size_t plen, const char *name)
{
	size_t nlen = strlen(name), need = plen + nlen + 2;

	if (GROW_MIN(p->path, p->path_cap, need, 256) < 0)
		return -ENOMEM;
	if (plen)
		p->path[plen++] = '/';
	memcpy(p->path + plen, name, nlen + 1);
	return 0;
}

static int pack_dir(struct packer *p, int fd, size_t plen, unsigned depth)
{
	struct dir_list l = {0};
	int err;

	err = dir_list_read(&l, fd, DIR_LIST_REOPEN);
	if (err < 0) {
		dir_list_free(&l);
		if (err == -ENOMEM)
			return err;
		p->st->skipped++;
		return 0;
	}
	if (depth >= ARCHIVE_DEPTH_MAX && l.n > 0) {
		/* its entries would have more components than a reader takes */
		p->st->skipped++;
		p->st->too_deep++;
		l.n = 0;
	}
	for (size_t i = 0; i < l.n && err == 0 && p->o->err == 0; i++) {
		const char *name = l.v[i].name;
		struct stat st;

		if (!name_is_single_component(name) ||
		    fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			p->st->skipped++;
			continue;
		}
		err = path_set(p, plen, name);
		if (err < 0)
			break;
		if (strlen(p->path) > ARCHIVE_PATH_MAX) {
			p->st->skipped++;
			p->st->too_deep++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			size_t nlen = strlen(p->path);
			int cfd;

			out_entry(p->o, 'd', st.st_mode, p->path, NULL, 0, false);
			p->st->dirs++;
			cfd = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd < 0) {
				p->st->skipped++;
				continue;
			}
			err = pack_dir(p, cfd, nlen, depth + 1);
			close(cfd);
		} else if (S_ISLNK(st.st_mode)) {
			char *target;

			err = readlink_alloc(fd, name, &target);
			if (err < 0) {
				if (err != -ENOMEM) {
					p->st->skipped++;
					err = 0;
				}
				continue;
			}
			/* the reader's rule: a target that leaves the tree is not written */
			if (check_target(target, strlen(target), (int)depth) < 0)
				p->st->unsafe_links++;
			else {
				out_entry(p->o, 'l', 0777, p->path, target, strlen(target), true);
				p->st->links++;
			}
			free(target);
		} else if (S_ISREG(st.st_mode)) {
			ssize_t len = 0;
			bool truncated = false;

			if (!(st.st_mode & 0444) && st.st_size == 0) {
				p->st->write_only++;
			} else {
				len = copy_read_file(fd, name, &st, p->buf, ARCHIVE_FILE_MAX,
						     &truncated);
				if (truncated) {
					err = -EFBIG;
					break;
				}
				if (len < 0) {
					p->st->skipped++;
					continue;
				}
			}
			out_entry(p->o, 'f', st.st_mode, p->path, p->buf, (size_t)len, true);
			p->st->files++;
			p->st->bytes += (unsigned long long)len;
		} else {
			p->st->skipped++; /* FIFO, socket, device node */
		}
	}
	dir_list_free(&l);
	return err;
}

int archive_pack(int src_dirfd, int out_fd, unsigned flags, struct tree_counts *stats)
{
	struct tree_counts local;
	struct packer p = {0};
	int err;

	if (src_dirfd < 0 || out_fd < 0 || flags != 0)
		return -EINVAL;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	p.o = malloc(sizeof(*p.o));
	p.buf = malloc(ARCHIVE_FILE_MAX + 1);
	if (!p.o || !p.buf) {
		err = -ENOMEM;
		goto out;
	}
	p.o->fd = out_fd;
	p.o->err = 0;
	p.o->n = 0;
	p.st = stats;
	out_str(p.o, ARCHIVE_HEADER "\n");
	err = path_set(&p, 0, "");
	if (err == 0)
		err = pack_dir(&p, src_dirfd, 0, 0);
	out_flush(p.o);
	if (err == 0)
		err = p.o->err;
out:
	free(p.o);
	free(p.buf);
	free(p.path);
	return err;
}

/* ---- unpack ---- */

/*
 * Parse a quoted string at *@pp (before @end) into @out (room for at least
 * end - *pp bytes); *@pp moves past the closing quote.
 */
static int parse_quoted(const char **pp, const char *end, char *out, size_t *olen)
{
	const char *p = *pp;
	size_t n = 0;

	if (p >= end || *p != '"')
		return -EBADMSG;
	p++;
	for (;;) {
		unsigned char c;
		int h, l;

		if (p >= end)
			return -EBADMSG; /* no closing quote on this line */
		c = (unsigned char)*p++;
		if (c == '"')
			break;
		if (c < 0x20 || c > 0x7e)
			return -EBADMSG; /* raw control or non-ASCII byte */
		if (c != '\\') {
			out[n++] = (char)c;
			continue;
		}
		if (p >= end)
			return -EBADMSG;
		c = (unsigned char)*p++;
		switch (c) {
		case '\\':
		case '"':
			out[n++] = (char)c;
			break;
		case 'n':
			out[n++] = '\n';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case 'x':
			if (end - p < 2)
				return -EBADMSG;
			h = hexval(p[0]);
			l = hexval(p[1]);
			if (h < 0 || l < 0)
				return -EBADMSG;
			out[n++] = (char)(h * 16 + l);
			p += 2;
			break;
		default:
			return -EBADMSG;
		}
	}
	*pp = p;
	*olen = n;
	return 0;
}

/* A relative path of safe components; returns its number of components. */
static int check_path(const char *s, size_t len)
{
	size_t start = 0;
	int n = 0;

	if (len == 0 || len > ARCHIVE_PATH_MAX || memchr(s, '\0', len))
		return -EINVAL;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '/')
			continue;
		size_t clen = i - start;

		if (clen == 0 || clen > NAME_MAX)
			return -EINVAL; /* absolute, "//", trailing "/", too long */
		if ((clen == 1 && s[start] == '.') ||
		    (clen == 2 && s[start] == '.' && s[start + 1] == '.'))
			return -EINVAL;
		if (++n > ARCHIVE_DEPTH_MAX)
			return -EINVAL;
		start = i + 1;
	}
	return n;
}

/*
 * A link target: zero or more leading "..", then names; never absolute,
 * never "." or empty components, never climbing above the top from the
 * link's directory (at @dir_depth).  Followed physically, such a link stays
 * inside the tree too, since every directory of an unpacked tree is real.
 */
static int check_target(const char *s, size_t len, int dir_depth)
{
	size_t start = 0;
	bool names = false;
	int up = 0;

	if (len == 0 || len > ARCHIVE_PATH_MAX || memchr(s, '\0', len) || s[0] == '/')
		return -EINVAL;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '/')
			continue;
		size_t clen = i - start;

		if (clen == 0 || clen > NAME_MAX || (clen == 1 && s[start] == '.'))
			return -EINVAL;
		if (clen == 2 && s[start] == '.' && s[start + 1] == '.') {
			if (names || ++up > dir_depth)
				return -EINVAL;
		} else {
			names = true;
		}
		start = i + 1;
	}
	return 0;
}

struct dirrec {
	size_t off; /* path in the arena */
	size_t line;
	mode_t mode;
};

struct unpacker {
	int top;
	/* the open directories of the last parent, outermost first: chain[i] is
	 * the directory at cpath[0..chain_end[i]) */
	int *chain;
	size_t *chain_end;
	size_t depth, chain_cap, end_cap;
	char *cpath;
	size_t clen, ccap;
	struct dirrec *dirs;
	size_t ndirs, dirs_cap;
	char *arena;
	size_t arena_len, arena_cap;
};

/*
 * Every path the archive declared, so that a check without unpacking refuses
 * what unpacking would: a duplicate (-EEXIST) or an entry whose directory
 * was not declared before it (-ENOENT).  Open addressing over an arena,
 * hashed with SipHash under a random key: names chosen to collide under a
 * known hash would make every probe walk one long cluster (quadratic work).
 */
struct path_slot {
	size_t off; /* arena offset + 1, 0 = empty */
	size_t len;
	uint64_t hash;
};

struct path_index {
	struct path_slot *slots;
	size_t nslots, n;
	char *arena;
	size_t len, cap;
	struct siphash_key key;
};

struct decl_index {
	struct path_index all, dirs;
};

static void index_init(struct path_index *x)
{
	siphash_random_key(&x->key);
}

static bool index_has(const struct path_index *x, const char *s, size_t len)
{
	uint64_t h;

	if (!x->nslots)
		return false;
	h = siphash24(&x->key, s, len);
	for (size_t i = h & (x->nslots - 1);; i = (i + 1) & (x->nslots - 1)) {
		const struct path_slot *e = &x->slots[i];

		if (!e->off)
			return false;
		if (e->hash == h && e->len == len && memcmp(x->arena + e->off - 1, s, len) == 0)
			return true;
	}
}

static int index_add(struct path_index *x, const char *s, size_t len)
{
	uint64_t h = siphash24(&x->key, s, len);
	size_t i;

	if ((x->n + 1) * 2 > x->nslots) {
		size_t nn = x->nslots ? x->nslots * 2 : 1024;
		struct path_slot *ns = calloc(nn, sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		for (size_t k = 0; k < x->nslots; k++) {
			size_t j;

			if (!x->slots[k].off)
				continue;
			j = x->slots[k].hash & (nn - 1);
			while (ns[j].off)
				j = (j + 1) & (nn - 1);
			ns[j] = x->slots[k];
		}
		free(x->slots);
		x->slots = ns;
		x->nslots = nn;
	}
	if (GROW_MIN(x->arena, x->cap, x->len + len + 1, 4096) < 0)
		return -ENOMEM;
	memcpy(x->arena + x->len, s, len);
	x->arena[x->len + len] = '\0';
	i = h & (x->nslots - 1);
	while (x->slots[i].off)
		i = (i + 1) & (x->nslots - 1);
	x->slots[i] = (struct path_slot){.off = x->len + 1, .len = len, .hash = h};
	x->len += len + 1;
	x->n++;
	return 0;
}

static void index_free(struct path_index *x)
{
	free(x->slots);
	free(x->arena);
}

/* Declare @path (type @type); refuse what unpacking would refuse. */
static int declare(struct decl_index *d, char type, const char *path, size_t len)
{
	const char *slash = len ? memrchr(path, '/', len) : NULL;
	int err;

	if (index_has(&d->all, path, len))
		return -EEXIST;
	if (slash && !index_has(&d->dirs, path, (size_t)(slash - path)))
		return -ENOENT;
	err = index_add(&d->all, path, len);
	if (err == 0 && type == 'd')
		err = index_add(&d->dirs, path, len);
	return err;
}

/* Close the directories of the chain deeper than @depth. */
static void chain_pop(struct unpacker *u, size_t depth)
{
	while (u->depth > depth)
		close(u->chain[--u->depth]);
	u->clen = depth ? u->chain_end[depth - 1] : 0;
}

/*
 * The directory that holds @path (its first @dirlen bytes are the directory).
 * The directories of the last parent stay open as a chain: only what differs
 * from it is opened, one component at a time without following links, so an
 * entry below the previous one costs one openat and the work is linear in
 * the archive's size, however deep its tree (reopening each parent from the
 * top made a 4096-deep chain quadratic).
 */
static int get_parent(struct unpacker *u, const char *path, size_t dirlen, int *fd)
{
	size_t same = 0;

	if (dirlen == 0) {
		*fd = u->top;
		return 0;
	}
	/* keep the chain's whole components that @path shares */
	while (same < u->clen && same < dirlen && u->cpath[same] == path[same])
		same++;
	while (u->depth > 0) {
		size_t end = u->chain_end[u->depth - 1];

		if (end <= same && (end == dirlen || path[end] == '/'))
			break;
		chain_pop(u, u->depth - 1);
	}
	if (GROW_MIN(u->cpath, u->ccap, dirlen, 256) < 0)
		return -ENOMEM;
	while (u->clen < dirlen) {
		size_t start = u->depth ? u->clen + 1 : 0, end;
		const char *slash = memchr(path + start, '/', dirlen - start);
		char cname[NAME_MAX + 1];
		int parent = u->depth ? u->chain[u->depth - 1] : u->top, cfd;

		end = slash ? (size_t)(slash - path) : dirlen;
		if (end - start > NAME_MAX)
			return -EINVAL;
		memcpy(cname, path + start, end - start);
		cname[end - start] = '\0';
		if (GROW_MIN(u->chain, u->chain_cap, u->depth + 1, 64) < 0 ||
		    GROW_MIN(u->chain_end, u->end_cap, u->depth + 1, 64) < 0)
			return -ENOMEM;
		cfd = open_dir_at(parent, cname);
		if (cfd < 0)
			return cfd == -ENOTDIR || cfd == -ELOOP ? -ENOENT : cfd;
		memcpy(u->cpath + u->clen, path + u->clen, end - u->clen);
		u->chain[u->depth] = cfd;
		u->chain_end[u->depth++] = end;
		u->clen = end;
	}
	*fd = u->chain[u->depth - 1];
	return 0;
}

static int record_dir(struct unpacker *u, const char *path, size_t len, mode_t mode, size_t line)
{
	if (GROW_MIN(u->arena, u->arena_cap, u->arena_len + len + 1, 4096) < 0 ||
	    GROW_MIN(u->dirs, u->dirs_cap, u->ndirs + 1, 256) < 0)
		return -ENOMEM;
	memcpy(u->arena + u->arena_len, path, len);
	u->arena[u->arena_len + len] = '\0';
	u->dirs[u->ndirs].off = u->arena_len;
	u->dirs[u->ndirs].line = line;
	u->dirs[u->ndirs].mode = mode & UNPACK_MODE_KEPT;
	u->ndirs++;
	u->arena_len += len + 1;
	return 0;
}

/* Create one entry; @path has no NUL inside and is checked. */
static int create_entry(struct unpacker *u, char type, mode_t mode, const char *path, size_t plen,
			const char *data, size_t dlen, size_t line)
{
	const char *slash = memrchr(path, '/', plen);
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	const char *name = slash ? slash + 1 : path;
	size_t nlen = plen - (size_t)(name - path);
	char cname[NAME_MAX + 1];
	int pfd, err;

	if (nlen > NAME_MAX)
		return -EINVAL;
	memcpy(cname, name, nlen);
	cname[nlen] = '\0';
	err = get_parent(u, path, dirlen, &pfd);
	if (err < 0)
		return err;
	switch (type) {
	case 'd':
		if (mkdirat(pfd, cname, 0700) < 0)
			return -errno;
		return record_dir(u, path, plen, mode, line);
	case 'l': {
		char *target = strndup(data, dlen);

		if (!target)
			return -ENOMEM;
		err = symlinkat(target, pfd, cname) < 0 ? -errno : 0;
		free(target);
		return err;
	}
	default:
		return create_file_excl(pfd, cname, data, dlen, mode & UNPACK_MODE_KEPT);
	}
}

/* Apply the directories' modes, deepest (latest) first. */
static int apply_dir_modes(struct unpacker *u, size_t *bad_line)
{
	for (size_t i = u->ndirs; i-- > 0;) {
		const char *path = u->arena + u->dirs[i].off;
		const char *slash = strrchr(path, '/');
		size_t dirlen = slash ? (size_t)(slash - path) : 0;
		int pfd, fd, err;

		err = get_parent(u, path, dirlen, &pfd);
		if (err == 0) {
			fd = openat(pfd, slash ? slash + 1 : path,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				err = -errno;
			} else {
				if (fchmod(fd, u->dirs[i].mode) < 0)
					err = -errno;
				close(fd);
			}
		}
		if (err < 0) {
			*bad_line = u->dirs[i].line;
			return err;
		}
	}
	return 0;
}

static int parse_mode(const char *p, const char *end, mode_t *mode)
{
	unsigned v = 0;

	if (end - p < 4)
		return -EBADMSG;
	for (int i = 0; i < 4; i++) {
		if (p[i] < '0' || p[i] > '7')
			return -EBADMSG;
		v = v * 8 + (unsigned)(p[i] - '0');
	}
	*mode = (mode_t)v;
	return 0;
}

int archive_unpack_buffer(const char *buf, size_t len, int dest_dirfd, size_t *bad_line)
{
	struct unpacker u = {.top = dest_dirfd};
	struct decl_index decl = {0};
	const char *p = buf, *end = buf + len;
	char *scratch = NULL;
	size_t scratch_cap = 0, line = 0, dummy;
	int err = 0;

	if (!bad_line)
		bad_line = &dummy;
	*bad_line = 0;
	if (!buf && len)
		return -EINVAL;
	index_init(&decl.all);
	index_init(&decl.dirs);
	if (dest_dirfd >= 0) {
		err = dir_is_empty(dest_dirfd);
		if (err < 0)
			return err;
		if (err == 0)
			return -ENOTEMPTY;
		err = 0;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q;
		size_t llen = (size_t)(le - p), plen, dlen = 0;
		char type, *path, *data = NULL;
		mode_t mode;
		int depth;

		line++;
		*bad_line = line;
		if (line == 1) {
			if (llen != strlen(ARCHIVE_HEADER) ||
			    memcmp(p, ARCHIVE_HEADER, llen) != 0) {
				err = -EBADMSG;
				break;
			}
			goto next;
		}
		if (llen == 0 || p[0] == '#')
			goto next;
		/* two decoded strings fit in twice the line */
		if (GROW_MIN(scratch, scratch_cap, llen * 2 + 2, 256) < 0) {
			err = -ENOMEM;
			break;
		}
		type = p[0];
		if ((type != 'd' && type != 'f' && type != 'l') || llen < 2 || p[1] != ' ') {
			err = -EBADMSG;
			break;
		}
		q = p + 2;
		err = parse_mode(q, le, &mode);
		if (err < 0)
			break;
		q += 4;
		if (q >= le || *q != ' ') {
			err = -EBADMSG;
			break;
		}
		q++;
		path = scratch;
		err = parse_quoted(&q, le, path, &plen);
		if (err < 0)
			break;
		if (type != 'd') {
			if (q >= le || *q != ' ') {
				err = -EBADMSG;
				break;
			}
			q++;
			data = scratch + llen + 1;
			err = parse_quoted(&q, le, data, &dlen);
			if (err < 0)
				break;
		}
		if (q != le) {
			err = -EBADMSG; /* trailing bytes */
			break;
		}
		if (type == 'l' && mode != 0777) {
			err = -EBADMSG;
			break;
		}
		depth = check_path(path, plen);
		if (depth < 0) {
			err = depth;
			break;
		}
		if (type == 'l') {
			err = check_target(data, dlen, depth - 1);
			if (err < 0)
				break;
		}
		err = declare(&decl, type, path, plen);
		if (err < 0)
			break;
		if (dest_dirfd >= 0) {
			err = create_entry(&u, type, mode, path, plen, data, dlen, line);
			if (err < 0)
				break;
		}
	next:
		p = nl ? nl + 1 : end;
	}
	if (err == 0 && line == 0) {
		err = -EBADMSG; /* not even a header */
		*bad_line = 1;
	}
	if (err == 0 && dest_dirfd >= 0) {
		*bad_line = 0;
		err = apply_dir_modes(&u, bad_line);
	}
	if (err == 0)
		*bad_line = 0;
	chain_pop(&u, 0);
	free(u.chain);
	free(u.chain_end);
	free(u.cpath);
	free(u.dirs);
	free(u.arena);
	free(scratch);
	index_free(&decl.all);
	index_free(&decl.dirs);
	return err;
}

int archive_unpack(int in_fd, int dest_dirfd, size_t *bad_line)
{
	size_t len = 0;
	char *buf;
	int err;

	if (bad_line)
		*bad_line = 0;
	if (in_fd < 0)
		return -EINVAL;
	/* an input of ARCHIVE_INPUT_MAX bytes or more is -EFBIG */
	err = read_fd_alloc(in_fd, ARCHIVE_INPUT_MAX - 1, &buf, &len);
	if (err < 0)
		return err;
	err = archive_unpack_buffer(buf, len, dest_dirfd, bad_line);
	free(buf);
	return err;
}
