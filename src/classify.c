/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysdev_classify() and sysdev_explain(): the rules (rules.c) for one devpath. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libsysdev-private.h"
#include "rules.h"

/* The facts about @devpath, looked up from the root down. */
static int facts_for(struct sysdev *ctx, const char *devpath, struct dir_facts *f,
		     struct ancestry *a)
{
	struct dir_probe d = {.parent_fd = -1};
	int err;

	memset(f, 0, sizeof(*f));
	err = ancestry_get(ctx, devpath, a);
	if (err < 0)
		return err;
	d.name = strrchr(devpath, '/') + 1;
	d.place = a->place;
	d.fd = a->fd;
	return rules_gather(ctx, &d, f);
}

int classify_with_ancestry(struct sysdev *ctx, const char *devpath, struct ancestry *a)
{
	struct dir_facts f;
	int err;

	err = facts_for(ctx, devpath, &f, a);
	if (err < 0) {
		ancestry_free(a);
		return err;
	}
	return (int)rules_decide(&f);
}

_public_ int sysdev_classify(struct sysdev *ctx, const char *devpath)
{
	struct dir_facts f;
	struct ancestry a;
	int err;

	assert_return(ctx, -EINVAL);
	assert_return(devpath, -EINVAL);
	err = facts_for(ctx, devpath, &f, &a);
	ancestry_free(&a);
	if (err < 0)
		return err;
	return (int)rules_decide(&f);
}

struct sysdev_reason {
	unsigned n_ref;
	struct sysdev *ctx;
	enum sysdev_kind kind;
	enum sysdev_rule rule;
	bool facts[_SYSDEV_FACT_MAX];
	char *parent_devpath;	      /* the nearest device above, or NULL */
	struct sysdev_device *parent; /* made from it when first asked */
};

static void reason_free(struct sysdev_reason *r)
{
	free(r->parent_devpath);
	sysdev_device_unref(r->parent);
	sysdev_unref(r->ctx);
	free(r);
}

DEFINE_PUBLIC_TRIVIAL_REF_UNREF_FUNC(struct sysdev_reason, sysdev_reason, reason_free);

_public_ int sysdev_explain(struct sysdev *ctx, const char *devpath, struct sysdev_reason **ret)
{
	struct sysdev_reason *r;
	struct dir_facts f;
	struct ancestry a;
	int err;

	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(ctx, -EINVAL);
	assert_return(devpath, -EINVAL);
	err = facts_for(ctx, devpath, &f, &a);
	if (err < 0) {
		ancestry_free(&a);
		return err;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		ancestry_free(&a);
		return -ENOMEM;
	}
	r->n_ref = 1;
	r->ctx = sysdev_ref(ctx);
	r->rule = rules_rule(&f);
	r->kind = rules_decide(&f);
	r->facts[SYSDEV_FACT_HAS_UEVENT] = f.has_uevent;
	r->facts[SYSDEV_FACT_NAME_IS_CLASS] = f.name_is_class;
	r->facts[SYSDEV_FACT_PARENT_IS_DEVICE] = f.parent_is_device;
	r->facts[SYSDEV_FACT_PARENT_IS_VIRTUAL] = f.parent_is_virtual;
	r->facts[SYSDEV_FACT_BELOW_DEVICE] = f.below_device;
	r->facts[SYSDEV_FACT_EMPTY] = f.empty;
	r->facts[SYSDEV_FACT_HAS_DEVICE_CHILD] = f.has_device_child;
	r->facts[SYSDEV_FACT_UNREADABLE] = f.unreadable;
	r->parent_devpath = TAKE_PTR(a.parent_devpath);
	ancestry_free(&a);
	*ret = r;
	return (int)r->kind;
}

_public_ enum sysdev_kind sysdev_reason_get_kind(const struct sysdev_reason *r)
{
	assert_return(r, SYSDEV_KIND_UNKNOWN);
	return r->kind;
}

_public_ enum sysdev_rule sysdev_reason_get_rule(const struct sysdev_reason *r)
{
	assert_return(r, _SYSDEV_RULE_MAX);
	return r->rule;
}

_public_ bool sysdev_reason_has_fact(const struct sysdev_reason *r, enum sysdev_fact fact)
{
	assert_return(r, false);
	assert_return((unsigned)fact < _SYSDEV_FACT_MAX, false);
	return r->facts[fact];
}

_public_ int sysdev_reason_get_parent(struct sysdev_reason *r, struct sysdev_device **ret)
{
	int err;

	assert_return(ret, -EINVAL);
	*ret = NULL;
	assert_return(r, -EINVAL);
	if (!r->parent_devpath)
		return -ENOENT;
	if (!r->parent) {
		err = sysdev_device_new_from_devpath(r->ctx, r->parent_devpath, &r->parent);
		if (err < 0)
			return err == -ENOENT ? -ENODEV : err;
	}
	*ret = r->parent;
	return 0;
}
