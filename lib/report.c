/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - the report of one `check` run: the audited devices in the
 * order they were given (or, streamed, those not yet written), the
 * entries skipped, and the status bits for the exit code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	blkalign_report_clear(r);
	free(r->devices);
	for (size_t i = 0; i < r->nskipped; i++) {
		free(r->skipped[i].path);
		free(r->skipped[i].reason);
	}
	free(r->skipped);
	blkalign_ctx_unref(r->ctx);
	free(r);
}

/**
 * blkalign_report_clear: free the devices of @r, once written: a run over
 * many images holds one at a time.  The status bits and the skipped
 * entries stay; the device indices start again at 0.  A device a plan
 * still points to (blkalign_report_plan) leaves the report but lives on
 * until that plan is freed (ba_device_put).
 */
void blkalign_report_clear(struct blkalign_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ndevices; i++) {
		struct ba_device *d = r->devices[i];

		if (d->plans) {
			d->cleared = true;
			continue;
		}
		ba_device_release(d);
		free(d);
	}
	r->ndevices = 0;
}

/* A plan's hold on device @d of its report, taken (ba_device_hold)
 * with a reference to the report. */
void ba_device_hold(struct blkalign_report *r, struct ba_device *d)
{
	d->plans++;
	blkalign_report_ref(r);
}

/* Let go of @d and @r: the device is freed if the report cleared it
 * meanwhile, the report if this was its last reference. */
void ba_device_put(struct blkalign_report *r, struct ba_device *d)
{
	if (!--d->plans && d->cleared) {
		ba_device_release(d);
		free(d);
	}
	blkalign_report_unref(r);
}

/**
 * blkalign_report_skip: record that @path was not audited, and why
 * (@reason, one lowercase phrase: "a directory, not recursed").  It does
 * not change the status.
 * Returns: 0, -EINVAL or -ENOMEM.
 */
int blkalign_report_skip(struct blkalign_report *r, const char *path,
			 const char *reason)
{
	struct ba_skipped *v, *e;

	if (!r || !path || !reason)
		return -EINVAL;
	if (r->nskipped == r->skipped_cap) {
		size_t ncap = r->skipped_cap ? r->skipped_cap * 2 : 8;

		v = realloc(r->skipped, ncap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->skipped = v;
		r->skipped_cap = ncap;
	}
	e = &r->skipped[r->nskipped];
	e->path = strdup(path);
	e->reason = strdup(reason);
	if (!e->path || !e->reason) {
		free(e->path);
		free(e->reason);
		return -ENOMEM;
	}
	r->nskipped++;
	return 0;
}

size_t blkalign_report_nskipped(const struct blkalign_report *r)
{
	return r ? r->nskipped : 0;
}

/* The path of skipped entry @i (NULL past the end), its reason to @reason. */
const char *blkalign_report_skipped(const struct blkalign_report *r, size_t i,
				    const char **reason)
{
	if (!r || i >= r->nskipped)
		return NULL;
	if (reason)
		*reason = r->skipped[i].reason;
	return r->skipped[i].path;
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

int blkalign_status_merge(int a, int b)
{
	if (a >= 128)
		return a;
	if (b >= 128)
		return b;
	return a | b;
}

void blkalign_report_add_status(struct blkalign_report *r, unsigned int bits)
{
	if (r)
		r->status |= bits;
}
