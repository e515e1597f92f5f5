/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-json.c - what `blkalign fix --json` prints: each partition's
 * outcome and the run's write and flush counts, disk and journal (the
 * crash tests sweep their kill points over `writes`), through json-c like every
 * other writer (jsonw.h; keys in blkalign(8) FIX OPTIONS).
 */
#include <errno.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "blkalignP.h"

static struct json_object *outcome_json(const struct blkalign_fix_outcome *o)
{
	const struct blkalign_fix_result *r = &o->res;
	struct json_object *p = json_object_new_object();

	if (!p)
		return NULL;
	ba_json_s64(p, "number", r->number);
	ba_json_str(p, "action", o->action);
	ba_json_u64(p, "old_start", r->old_start);
	ba_json_u64(p, "old_size", r->old_size);
	ba_json_u64(p, "new_start", r->new_start);
	ba_json_u64(p, "new_size", r->new_size);
	ba_json_u64(p, "bytes_copied", r->bytes_copied);
	ba_json_str(p, "mode", r->batch ? "batch" : "step");
	ba_json_u64(p, "steps", r->steps);
	ba_json_double(p, "seconds", r->seconds);
	ba_json_u64(p, "rate", /* bytes per second */
		    r->seconds > 0
			    ? (uint64_t)((double)r->bytes_copied / r->seconds)
			    : 0);
	ba_json_bool(p, "journal_kept", r->journal_kept);
	ba_json_str(p, "message", r->message);
	return p;
}

/**
 * blkalign_fix_write_json: { schema_version, version, status, device,
 * journal, dry_run, partitions: [ ... ], writes, flushes } for the
 * outcomes @v[0..n) of one run on @device.  Returns 0, -EINVAL, -ENOMEM
 * or -EIO.
 */
int blkalign_fix_write_json(const struct blkalign_fix_outcome *v, size_t n,
			    const char *device, const char *journal,
			    bool dry_run, int status, FILE *out)
{
	struct json_object *root, *arr;
	uint64_t writes = 0, flushes = 0;

	if ((!v && n) || !out)
		return -EINVAL;
	root = ba_json_root();
	arr = json_object_new_array();
	if (!root || !arr) {
		json_object_put(root);
		json_object_put(arr);
		return -ENOMEM;
	}
	ba_json_s64(root, "status", status);
	ba_json_str(root, "device", device);
	ba_json_str(root, "journal", journal);
	ba_json_bool(root, "dry_run", dry_run);
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = outcome_json(&v[i]);

		if (!p) {
			json_object_put(arr);
			json_object_put(root);
			return -ENOMEM;
		}
		json_object_array_add(arr, p);
		writes += v[i].res.writes;
		flushes += v[i].res.flushes;
	}
	json_object_object_add(root, "partitions", arr);
	ba_json_u64(root, "writes", writes);
	ba_json_u64(root, "flushes", flushes);
	return ba_json_write(root, out);
}
