/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device records of --diff and --check-udev (devs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"
#include "devs.h"

int cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct dev *)a)->devpath, ((const struct dev *)b)->devpath);
}

struct dev *find_dev(const struct devs *d, const char *devpath)
{
	struct dev key = {.devpath = (char *)devpath};

	if (!d->n || !devpath)
		return NULL;
	return bsearch(&key, d->v, d->n, sizeof(*d->v), cmp_dev);
}

void devs_free(struct devs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct dev *x = &d->v[i];

		free(x->devpath);
		free(x->subsystem);
		free(x->driver);
		free(x->devtype);
		free(x->devnum);
		free(x->parent);
		free(x->modalias);
		for (size_t j = 0; j < x->nattrs; j++) {
			free(x->attrs[j].name);
			free(x->attrs[j].value);
		}
		free(x->attrs);
	}
	free(d->v);
}

int devs_add(struct devs *d, const char *devpath, const char *subsystem, const char *driver,
	     const char *devtype, const char *devnum, const char *parent)
{
	struct dev *x;

	if (grow_array((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) < 0)
		return -ENOMEM;
	x = &d->v[d->n];
	*x = (struct dev){
	    .devpath = strdup(devpath),
	    .subsystem = strdup_or_null(subsystem),
	    .driver = strdup_or_null(driver),
	    .devtype = strdup_or_null(devtype),
	    .devnum = strdup_or_null(devnum),
	    .parent = strdup_or_null(parent),
	};
	d->n++;
	if (!x->devpath || (subsystem && !x->subsystem) || (driver && !x->driver) ||
	    (devtype && !x->devtype) || (devnum && !x->devnum) || (parent && !x->parent))
		return -ENOMEM;
	return 0;
}
