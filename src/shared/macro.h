/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Habits of the code: scope-bound cleanup, ownership handed over by name,
 * reference counting defined once, and the checks at a public entry.
 */
#ifndef SYSDEV_SHARED_MACRO_H
#define SYSDEV_SHARED_MACRO_H

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* Run @f(&var) when var goes out of scope, whichever way it leaves. */
#define _cleanup_(f) __attribute__((__cleanup__(f)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void free_ptr(void *p)
{
	free(*(void **)p);
}

static inline void close_fd_ptr(const int *fd)
{
	/* close() keeps errno as it was: a cleanup runs on return paths that may read it */
	if (*fd >= 0) {
		int saved = errno;

		close(*fd);
		errno = saved;
	}
}

/* free() that says what the pointer now holds */
static inline void *mfree(void *p)
{
	free(p);
	return NULL;
}

/* free() at the end of the scope */
#define _cleanup_free_ _cleanup_(free_ptr)
/* close() at the end of the scope, when it holds a descriptor (>= 0) */
#define _cleanup_close_ _cleanup_(close_fd_ptr)

/* Take what @p holds and leave NULL behind: the scope's cleanup then frees nothing. */
#define TAKE_PTR(p)                                                                                \
	({                                                                                         \
		__typeof__(p) *_taken_from_ = &(p);                                                \
		__typeof__(p) _taken_ = *_taken_from_;                                             \
		*_taken_from_ = NULL;                                                              \
		_taken_;                                                                           \
	})

/* The same for a descriptor: -1 is left behind. */
#define TAKE_FD(fd)                                                                                \
	({                                                                                         \
		int *_taken_from_ = &(fd);                                                         \
		int _taken_ = *_taken_from_;                                                       \
		*_taken_from_ = -1;                                                                \
		_taken_;                                                                           \
	})

/*
 * A cleanup function "NAME_unrefp" for a variable that holds a reference:
 * `_cleanup_(sysdev_device_unrefp) struct sysdev_device *dev = NULL;`.
 */
#define DEFINE_UNREF_CLEANUP_FUNC(type, unref)                                                     \
	static inline void unref##p(type **p)                                                      \
	{                                                                                          \
		if (*p)                                                                            \
			unref(*p);                                                                 \
	}

/*
 * NAME_ref() and NAME_unref() for a type with an "unsigned n_ref" member:
 * both accept NULL; ref returns its argument, unref always NULL and calls
 * @free_func on the last reference.  @attr marks them (_public_ for the API).
 */
#define DEFINE_REF_UNREF_FUNC(attr, type, name, free_func)                                         \
	attr type *name##_ref(type *p)                                                             \
	{                                                                                          \
		if (!p)                                                                            \
			return NULL;                                                               \
		p->n_ref++;                                                                        \
		return p;                                                                          \
	}                                                                                          \
	attr type *name##_unref(type *p)                                                           \
	{                                                                                          \
		if (!p || --p->n_ref > 0)                                                          \
			return NULL;                                                               \
		free_func(p);                                                                      \
		return NULL;                                                                       \
	}

#define DEFINE_TRIVIAL_REF_UNREF_FUNC(type, name, free_func)                                       \
	DEFINE_REF_UNREF_FUNC(, type, name, free_func)

/*
 * At a public entry: a bad argument (a NULL, a value out of range) returns
 * @r from the function, never aborts; the library's caller gets an errno.
 */
#define assert_return(expr, r)                                                                     \
	do {                                                                                       \
		if (__builtin_expect(!(expr), 0))                                                  \
			return (r);                                                                \
	} while (0)

#endif
