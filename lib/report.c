/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - the report of one `check` run: the audited devices in the
 * order they were given, and the status bits for the exit code.
 */
#include <stdlib.h>

#include "blkalignP.h"

/**
 * blkalign_report_new: an empty report bound to @ctx (referenced).
 * Returns: the report, or NULL when out of memory.
 */
struct blkalign_report *blkalign_report_new(struct blkalign_ctx *ctx)
{
	struct blkalign_report *r;

	if (!ctx)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->refcount = 1;
	r->ctx = ctx;
	blkalign_ctx_ref(ctx);
	return r;
}

void blkalign_report_ref(struct blkalign_report *r)
{
	if (r)
		r->refcount++;
}

void blkalign_report_unref(struct blkalign_report *r)
{
	if (!r || --r->refcount > 0)
		return;
	for (size_t i = 0; i < r->ndevices; i++) {
		ba_device_release(r->devices[i]);
		free(r->devices[i]);
	}
	free(r->devices);
	blkalign_ctx_unref(r->ctx);
	free(r);
}

/**
 * ba_report_add_device: a new, empty device record at the end of @r.
 * Returns: the record, or NULL when out of memory.
 */
struct ba_device *ba_report_add_device(struct blkalign_report *r)
{
	struct ba_device *d = calloc(1, sizeof(*d)), **v;

	if (!d)
		return NULL;
	if (r->ndevices == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 8;

		v = realloc(r->devices, ncap * sizeof(*v));
		if (!v) {
			free(d);
			return NULL;
		}
		r->devices = v;
		r->cap = ncap;
	}
	r->devices[r->ndevices++] = d;
	return d;
}

size_t blkalign_report_ndevices(const struct blkalign_report *r)
{
	return r ? r->ndevices : 0;
}

const struct blkalign_device *
blkalign_report_device(const struct blkalign_report *r, size_t i)
{
	if (!r || i >= r->ndevices)
		return NULL;
	return &r->devices[i]->pub;
}

/* BLKALIGN_STATUS_FINDINGS and/or BLKALIGN_STATUS_INCOMPLETE. */
unsigned int blkalign_report_status(const struct blkalign_report *r)
{
	return r ? r->status : 0;
}
