/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udev's database: the file data/ID that systemd-udevd writes for a device it
 * has processed (ID is udev's device id: b8:0, c1:3, n2, +SUBSYSTEM:SYSNAME),
 * read once per device, on first use.  Its lines, as udev writes them:
 * S:LINK (relative to /dev), L:PRIORITY, E:KEY=VALUE, G:TAG, Q:TAG (a current
 * tag), I:USEC (when udev initialized the device), V:VERSION; any other line
 * is ignored, as udev ignores it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device-private.h"

void udev_db_clear(struct udev_db *db)
{
	db->len = 0;
	db->n_links = db->n_tags = db->n_current_tags = db->n_props = 0;
	db->has_usec = db->has_version = db->has_priority = false;
	db->usec = 0;
	db->version = 0;
	db->priority = 0;
}

void udev_db_free(struct udev_db *db)
{
	free(db->buf);
	free(db->links);
	free(db->tags);
	free(db->current_tags);
	free(db->keys);
	free(db->values);
	memset(db, 0, sizeof(*db));
}

static int strs_add(const char ***v, size_t *n, size_t *cap, const char *s)
{
	if (GROW_MIN(*v, *cap, *n + 1, 8) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = s;
	return 0;
}

/* Sort and drop repeats: a set, as udev keeps links and tags. */
static void strs_unique(const char **v, size_t *n)
{
	size_t o = 0;

	if (*n < 2)
		return;
	qsort(v, *n, sizeof(*v), cmp_strp);
	for (size_t i = 0; i < *n; i++)
		if (!o || strcmp(v[o - 1], v[i]) != 0)
			v[o++] = v[i];
	*n = o;
}

bool udev_db_has(const char *const *v, size_t n, const char *tag)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid], tag);

		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* A decimal number of digits only that fits in 64 bits. */
static bool parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

/* A tag names a directory tags/TAG/ and is written between colons in TAGS. */
static bool tag_is_valid(const char *t)
{
	if (!*t || !strcmp(t, ".") || !strcmp(t, ".."))
		return false;
	for (; *t; t++)
		if (*t == ':' || *t == '/' || *t == ' ' || *t == '\t')
			return false;
	return true;
}

int udev_db_parse(struct udev_db *db, size_t len)
{
	size_t i = 0;
	int err = 0;

	udev_db_clear(db);
	db->len = len;
	db->buf[len] = '\0';
	while (i < len && err >= 0) {
		char *line = db->buf + i, *nl = memchr(line, '\n', len - i), *value, *eq;
		uint64_t v;

		if (nl)
			*nl = '\0';
		/* an embedded NUL ends the line early; the rest of it is skipped */
		i += (nl ? (size_t)(nl - line) : len - i) + 1;
		if (!line[0] || line[1] != ':')
			continue;
		value = line + 2;
		switch (line[0]) {
		case 'S':
			if (*value)
				err = strs_add(&db->links, &db->n_links, &db->links_cap, value);
			break;
		case 'G':
			if (tag_is_valid(value))
				err = strs_add(&db->tags, &db->n_tags, &db->tags_cap, value);
			break;
		case 'Q':
			if (tag_is_valid(value))
				err = strs_add(&db->current_tags, &db->n_current_tags,
					       &db->current_tags_cap, value);
			break;
		case 'E':
			eq = strchr(value, '=');
			if (!eq || eq == value)
				break;
			*eq = '\0';
			{
				size_t kcap = db->props_cap;

				if (GROW_MIN(db->keys, kcap, db->n_props + 1, 16) < 0 ||
				    GROW_MIN(db->values, db->props_cap, db->n_props + 1, 16) < 0) {
					err = -ENOMEM;
					break;
				}
			}
			db->keys[db->n_props] = value;
			db->values[db->n_props] = eq + 1;
			db->n_props++;
			break;
		case 'I':
			if (parse_u64(value, &v)) {
				db->has_usec = true;
				db->usec = v;
			}
			break;
		case 'V':
			if (parse_u64(value, &v) && v <= UINT32_MAX) {
				db->has_version = true;
				db->version = (unsigned)v;
			}
			break;
		case 'L':
			/* a priority may be negative */
			if (parse_u64(value[0] == '-' ? value + 1 : value, &v) && v <= INT32_MAX) {
				db->has_priority = true;
				db->priority = value[0] == '-' ? -(int)v : (int)v;
			}
			break;
		default:
			break; /* W: (the watch handle) and whatever a later udev writes */
		}
	}
	if (err < 0)
		return err;
	strs_unique(db->links, &db->n_links);
	strs_unique(db->tags, &db->n_tags);
	strs_unique(db->current_tags, &db->n_current_tags);
	return 0;
}

const char *udev_db_get(const struct udev_db *db, const char *key)
{
	for (size_t i = db->n_props; i > 0; i--)
		if (strcmp(db->keys[i - 1], key) == 0)
			return db->values[i - 1];
	return NULL;
}

int udev_db_read_at(struct udev_db *db, int datafd, const char *id)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	size_t len = 0;
	ssize_t r;
	int read_err;

	if (!*id || strchr(id, '/') || !strcmp(id, ".") || !strcmp(id, ".."))
		return -ENOENT; /* no file can have that name in data/ */
	fd = openat(datafd, id, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ELOOP ? -EBADFD : -errno;
	if (GROW(db->buf, db->cap, 4096) < 0)
		return -ENOMEM;
	/*
	 * udev's files are a few hundred bytes: one read that returns some but
	 * less than asked for is the whole of a regular file, and the fstat is
	 * saved (a file per device).  A FIFO, a directory or a character device
	 * gives nothing, an error or a full buffer, and is then refused below;
	 * a FIFO with something in it gives it, as a file of that content would.
	 */
	do
		r = read(fd, db->buf, db->cap - 1);
	while (r < 0 && errno == EINTR);
	if (r > 0 && (size_t)r < db->cap - 1)
		return udev_db_parse(db, (size_t)r);
	read_err = r < 0 ? -errno : 0; /* before fstat() may set errno */
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADFD;
	if (read_err < 0)
		return read_err;
	if (st.st_size > UDEV_DB_FILE_MAX)
		return -EFBIG;
	/* to the end, which may lie past the size seen (a file still written): bounded;
	 * an empty file (r == 0) is read already */
	for (len = (size_t)r; len > 0;) {
		if (len + 1 >= db->cap) {
			if (len >= UDEV_DB_FILE_MAX)
				return -EFBIG;
			if (GROW(db->buf, db->cap, db->cap * 2) < 0)
				return -ENOMEM;
		}
		r = read(fd, db->buf + len, db->cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		len += (size_t)r;
		/* a regular file that gave less than asked for is at its end: no read of 0 */
		if (len < db->cap - 1 && len >= (size_t)st.st_size)
			break;
	}
	if (len > UDEV_DB_FILE_MAX)
		return -EFBIG;
	return udev_db_parse(db, len);
}

/* ------------------------------------------------------------------ */
/* A device's part                                                     */
/* ------------------------------------------------------------------ */

void device_db_free(struct sysdev_device *dev)
{
	dev->db_read = false;
	dev->db_error = 0;
	dev->db_present = false;
	dev->has_udev_id = false;
	udev_db_clear(&dev->db);
	dev->db_strings = mfree(dev->db_strings);
	dev->devlinks = mfree(dev->devlinks);
	dev->devlinks_prop = dev->tags_prop = dev->current_tags_prop = dev->usec_prop = NULL;
	dev->props_ready = false;
	dev->props = mfree(dev->props);
	dev->props_sorted = mfree(dev->props_sorted);
	dev->n_props = 0;
}

/* udev's: a device number (major above 0) as b or c, else the interface index,
 * else +SUBSYSTEM:SYSNAME with the kernel's '!' as '/' (sd_device_get_device_id()). */
int device_udev_id(struct sysdev_device *dev, const char **ret)
{
	const char *sub = NULL, *ifindex = NULL;
	char buf[64];
	dev_t devnum;
	uint64_t v;
	int err;

	if (dev->has_udev_id) {
		*ret = dev->udev_id.s;
		return 0;
	}
	err = sysdev_device_get_subsystem(dev, &sub);
	if (err < 0)
		return err;
	if (sysdev_device_get_devnum(dev, &devnum) >= 0 && major(devnum) > 0) {
		snprintf(buf, sizeof(buf), "%c%u:%u", strcmp(sub, "block") == 0 ? 'b' : 'c',
			 major(devnum), minor(devnum));
		err = sbuf_set(&dev->udev_id, buf, strlen(buf));
	} else if (sysdev_device_get_property(dev, "IFINDEX", &ifindex) >= 0 &&
		   parse_u64(ifindex, &v) && v > 0 && v <= INT32_MAX) {
		snprintf(buf, sizeof(buf), "n%" PRIu64, v);
		err = sbuf_set(&dev->udev_id, buf, strlen(buf));
	} else {
		size_t sl = strlen(sub), nl = strlen(dev->name);

		if (GROW(dev->udev_id.s, dev->udev_id.cap, sl + nl + 3) < 0)
			return -ENOMEM;
		dev->udev_id.s[0] = '+';
		memcpy(dev->udev_id.s + 1, sub, sl);
		dev->udev_id.s[sl + 1] = ':';
		memcpy(dev->udev_id.s + sl + 2, dev->name, nl + 1);
		for (char *c = dev->udev_id.s + sl + 2; *c; c++)
			if (*c == '!')
				*c = '/';
		err = 0;
	}
	if (err < 0)
		return err;
	dev->has_udev_id = true;
	*ret = dev->udev_id.s;
	return 0;
}

static int context_data_fd(struct sysdev *ctx)
{
	if (ctx->udev_data_fd < 0 && ctx->udev_db_fd >= 0)
		ctx->udev_data_fd = fd_move_above_stdio(open_dir_at(ctx->udev_db_fd, "data"));
	return ctx->udev_data_fd;
}

/* "/dev/LINK" for each link, DEVLINKS, TAGS, CURRENT_TAGS and USEC_INITIALIZED, in one buffer. */
static int db_strings(struct sysdev_device *dev)
{
	const struct udev_db *db = &dev->db;
	/* CURRENT_TAGS is made of the Q: lines alone, as udev makes it (an old
	 * database without them has every tag current, but no such property) */
	const char *const *cur = db->current_tags;
	size_t n_cur = db->n_current_tags;
	size_t size = 64, o = 0;
	char *s;

	for (size_t i = 0; i < db->n_links; i++)
		size += 2 * (strlen(db->links[i]) + 6);
	for (size_t i = 0; i < db->n_tags; i++)
		size += strlen(db->tags[i]) + 1;
	for (size_t i = 0; i < n_cur; i++)
		size += strlen(cur[i]) + 1;
	s = malloc(size + 8);
	dev->devlinks = calloc(db->n_links + 1, sizeof(*dev->devlinks));
	if (!s || !dev->devlinks) {
		free(s);
		dev->devlinks = mfree(dev->devlinks);
		return -ENOMEM;
	}
	dev->db_strings = s;
	for (size_t i = 0; i < db->n_links; i++) {
		dev->devlinks[i] = s + o;
		o += (size_t)sprintf(s + o, "/dev/%s", db->links[i]) + 1;
	}
	if (db->n_links) {
		dev->devlinks_prop = s + o;
		for (size_t i = 0; i < db->n_links; i++)
			o += (size_t)sprintf(s + o, "%s%s", i ? " " : "", dev->devlinks[i]);
		o++;
	}
	if (db->n_tags) {
		dev->tags_prop = s + o;
		for (size_t i = 0; i < db->n_tags; i++)
			o += (size_t)sprintf(s + o, ":%s", db->tags[i]);
		o += (size_t)sprintf(s + o, ":") + 1;
	}
	if (n_cur) {
		dev->current_tags_prop = s + o;
		for (size_t i = 0; i < n_cur; i++)
			o += (size_t)sprintf(s + o, ":%s", cur[i]);
		o += (size_t)sprintf(s + o, ":") + 1;
	}
	if (db->has_usec) {
		dev->usec_prop = s + o;
		sprintf(s + o, "%" PRIu64, db->usec);
	}
	return 0;
}

int device_db(struct sysdev_device *dev)
{
	const char *id;
	int fd, err;

	if (dev->db_read)
		return dev->db_error;
	if (dev->ctx->udev_db_fd < 0 || dev->is_event) {
		dev->db_read = true;
		return 0;
	}
	err = device_udev_id(dev, &id);
	if (err == -ENOMEM)
		return err;
	fd = err < 0 ? -ENOENT : context_data_fd(dev->ctx);
	err = fd < 0 ? fd : udev_db_read_at(&dev->db, fd, id);
	if (err == -ENOMEM)
		return err;
	if (err == 0)
		err = db_strings(dev);
	if (err == -ENOMEM) {
		udev_db_clear(&dev->db);
		return err;
	}
	dev->db_read = true;
	/* no file (or no data/, or no id): udev has not seen the device */
	dev->db_present = err == 0;
	dev->db_error = err == -ENOENT || err == -ENOTDIR ? 0 : err;
	if (dev->db_error)
		udev_db_clear(&dev->db);
	return dev->db_error;
}

_public_ int sysdev_device_get_udev_id(struct sysdev_device *dev, const char **ret)
{
	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	return device_udev_id(dev, ret);
}

_public_ int sysdev_device_get_is_initialized(struct sysdev_device *dev, bool *ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	*ret = dev->db_present;
	return 0;
}

_public_ int sysdev_device_get_usec_initialized(struct sysdev_device *dev, uint64_t *ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	if (!dev->db.has_usec)
		return -ENOENT;
	*ret = dev->db.usec;
	return 0;
}

_public_ int sysdev_device_get_devlink_at(struct sysdev_device *dev, size_t i, const char **ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	if (i >= dev->db.n_links)
		return -ENOENT;
	*ret = dev->devlinks[i];
	return 0;
}

_public_ int sysdev_device_get_devlink_priority(struct sysdev_device *dev, int *ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	if (!dev->db.has_priority)
		return -ENOENT;
	*ret = dev->db.priority;
	return 0;
}

/* The current tags: the Q: lines; a database of before version 1 has none, and
 * every tag counts as current, as libudev says. */
static void current_tags(const struct sysdev_device *dev, const char *const **v, size_t *n)
{
	*v = dev->db.has_version ? dev->db.current_tags : dev->db.tags;
	*n = dev->db.has_version ? dev->db.n_current_tags : dev->db.n_tags;
}

_public_ int sysdev_device_get_tag_at(struct sysdev_device *dev, size_t i, const char **ret)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	if (i >= dev->db.n_tags)
		return -ENOENT;
	*ret = dev->db.tags[i];
	return 0;
}

_public_ int sysdev_device_get_current_tag_at(struct sysdev_device *dev, size_t i, const char **ret)
{
	const char *const *v;
	size_t n;
	int err;

	assert_return(dev, -EINVAL);
	assert_return(ret, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	current_tags(dev, &v, &n);
	if (i >= n)
		return -ENOENT;
	*ret = v[i];
	return 0;
}

_public_ int sysdev_device_has_tag(struct sysdev_device *dev, const char *tag)
{
	int err;

	assert_return(dev, -EINVAL);
	assert_return(tag, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	return udev_db_has(dev->db.tags, dev->db.n_tags, tag);
}

_public_ int sysdev_device_has_current_tag(struct sysdev_device *dev, const char *tag)
{
	const char *const *v;
	size_t n;
	int err;

	assert_return(dev, -EINVAL);
	assert_return(tag, -EINVAL);
	err = device_db(dev);
	if (err < 0)
		return err;
	current_tags(dev, &v, &n);
	return udev_db_has(v, n, tag);
}

/* ------------------------------------------------------------------ */
/* Every property, as udevadm info -q property prints them             */
/* ------------------------------------------------------------------ */

/* Where a value comes from: the later class wins; within the uevent file the
 * first line, within the database the last. */
enum prop_class {
	PROP_COMPUTED,
	PROP_UEVENT,
	PROP_DB,
	PROP_UDEV,
};

struct prop_entry {
	const char *key, *value;
	enum prop_class cls;
	size_t order;
};

struct prop_list {
	struct prop_entry *v;
	size_t n, cap;
};

static int prop_push(struct prop_list *l, const char *key, const char *value, enum prop_class cls)
{
	if (!value)
		return 0;
	if (GROW_MIN(l->v, l->cap, l->n + 1, 32) < 0)
		return -ENOMEM;
	l->v[l->n] = (struct prop_entry){key, value, cls, l->n};
	l->n++;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct prop_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_first(const void *a, const void *b)
{
	const struct udev_prop *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

static int device_props(struct sysdev_device *dev)
{
	static const char *const computed[] = {"DEVPATH", "SUBSYSTEM", "DRIVER", "MAJOR", "MINOR"};
	struct prop_list l = {0};
	size_t o = 0;
	int err;

	if (dev->props_ready)
		return 0;
	err = device_db(dev);
	if (err < 0)
		return err;
	err = device_udev_properties(dev);
	if (err >= 0)
		err = device_links(dev);
	if (err < 0)
		return err;
	for (size_t i = 0; err >= 0 && i < dev->uevent.n; i++) {
		const char *v = NULL;

		if (device_sysfs_udev_property(dev, dev->uevent.keys[i], &v) >= 0)
			err = prop_push(&l, dev->uevent.keys[i], v, PROP_UEVENT);
	}
	for (size_t i = 0; err >= 0 && i < ARRAY_SIZE(computed); i++) {
		const char *v = NULL;

		if (!uevent_get(&dev->uevent, computed[i]) &&
		    device_sysfs_udev_property(dev, computed[i], &v) >= 0)
			err = prop_push(&l, computed[i], v, PROP_COMPUTED);
	}
	for (size_t i = 0; err >= 0 && i < dev->db.n_props; i++)
		err = prop_push(&l, dev->db.keys[i], dev->db.values[i], PROP_DB);
	if (err >= 0)
		err = prop_push(&l, "USEC_INITIALIZED", dev->usec_prop, PROP_UDEV);
	if (err >= 0)
		err = prop_push(&l, "DEVLINKS", dev->devlinks_prop, PROP_UDEV);
	if (err >= 0)
		err = prop_push(&l, "TAGS", dev->tags_prop, PROP_UDEV);
	if (err >= 0)
		err = prop_push(&l, "CURRENT_TAGS", dev->current_tags_prop, PROP_UDEV);
	if (err >= 0 && l.n) {
		dev->props_sorted = calloc(l.n, sizeof(*dev->props_sorted));
		dev->props = calloc(l.n, sizeof(*dev->props));
		if (!dev->props_sorted || !dev->props)
			err = -ENOMEM;
	}
	if (err < 0) {
		free(l.v);
		dev->props = mfree(dev->props);
		dev->props_sorted = mfree(dev->props_sorted);
		return err;
	}
	/* one pass over each key's entries, sorted by key then order: O(n log n) */
	qsort(l.v, l.n, sizeof(*l.v), cmp_entry);
	for (size_t i = 0; i < l.n;) {
		size_t j = i, win = i;

		for (; j < l.n && strcmp(l.v[j].key, l.v[i].key) == 0; j++)
			if (l.v[j].cls > l.v[win].cls ||
			    (l.v[j].cls == l.v[win].cls && l.v[j].cls != PROP_UEVENT))
				win = j;
		dev->props_sorted[o++] =
		    (struct udev_prop){l.v[i].key, l.v[win].value, l.v[i].order};
		i = j;
	}
	free(l.v);
	dev->n_props = o;
	memcpy(dev->props, dev->props_sorted, o * sizeof(*dev->props));
	qsort(dev->props, o, sizeof(*dev->props), cmp_first);
	dev->props_ready = true;
	return 0;
}

/* A property from the database or what udev makes of it: 0, -ENOENT, or the read's error. */
int device_db_property(struct sysdev_device *dev, const char *key, const char **ret)
{
	size_t lo = 0, hi;
	int err = device_props(dev);

	if (err < 0)
		return err;
	hi = dev->n_props;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(dev->props_sorted[mid].key, key);

		if (c == 0) {
			*ret = dev->props_sorted[mid].value;
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

_public_ int sysdev_device_get_udev_property_at(struct sysdev_device *dev, size_t i,
						const char **ret_key, const char **ret_value)
{
	int err;

	assert_return(dev, -EINVAL);
	err = device_props(dev);
	if (err < 0)
		return err;
	if (i >= dev->n_props)
		return -ENOENT;
	if (ret_key)
		*ret_key = dev->props[i].key;
	if (ret_value)
		*ret_value = dev->props[i].value;
	return 0;
}
