/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-json.c - what `blkalign fix --json` prints: each partition's
 * outcome, the run's write and flush counts, disk and journal (the
 * crash tests sweep their kill points over `writes`), and the optional
 * moves of a run with nothing to do, through json-c like every other
 * writer (jsonw.h; keys in blkalign-fix(8), OPTIONS).
 */
#include <errno.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"

/* @word in one casing, as every enumeration of the JSON: "would move"
 * is "would_move". */
static void put_enum(struct json_object *o, const char *k, const char *word)
{
	char buf[64];
	size_t i;

	if (!word) {
		json_object_object_add(o, k, NULL);
		return;
	}
	for (i = 0; word[i] && i + 1 < sizeof(buf); i++)
		buf[i] = word[i] == ' ' ? '_' : word[i];
	buf[i] = '\0';
	ba_json_str(o, k, buf);
}

static struct json_object *outcome_json(const struct blkalign_fix_outcome *o)
{
	const struct blkalign_fix_result *r = &o->res;
	struct json_object *p = json_object_new_object();
	uint64_t bps =
		r->seconds > 0
			? (uint64_t)((double)r->bytes_copied / r->seconds)
			: 0;

	if (!p)
		return NULL;
	ba_json_s64(p, "number", r->number);
	put_enum(p, "outcome", o->action);
	ba_json_str(p, "action", o->action); /* schema_version 1's outcome */
	ba_json_u64(p, "old_start", r->old_start);
	ba_json_u64(p, "old_size", r->old_size);
	ba_json_u64(p, "new_start", r->new_start);
	ba_json_u64(p, "new_size", r->new_size);
	ba_json_u64(p, "bytes_copied", r->bytes_copied);
	ba_json_u64(p, "bytes_to_copy", r->bytes_to_copy);
	ba_json_u64(p, "bytes_skipped", r->bytes_skipped);
	ba_json_str(p, "map_source", r->map_source);
	ba_json_str(p, "mode", r->batch ? "batch" : "step");
	ba_json_u64(p, "steps", r->steps);
	ba_json_seconds(p, "seconds", r->seconds);
	ba_json_u64(p, "bytes_per_second", bps);
	ba_json_u64(p, "rate", bps); /* schema_version 1's bytes_per_second */
	ba_json_u64(p, "flushes", r->flushes);
	ba_json_u64(p, "bytes_read_back", r->bytes_read_back);
	/* flushes per GiB copied: what a level's size buys */
	ba_json_double(p, "flushes_per_gib",
		       r->bytes_copied ? (double)r->flushes * 1073741824.0 /
						 (double)r->bytes_copied
				       : 0.0);
	ba_json_bool(p, "journal_kept", r->journal_kept);
	ba_json_str(p, "message", r->message);
	return p;
}

/**
 * The partitions that could move to @grain although they are aligned on
 * the device (a run with nothing to do): [{ number, grain }], what the
 * text output says as "partition N could move ..." hints.
 */
static struct json_object *optional_json(const int *v, size_t n, uint64_t grain)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && i < n; i++) {
		struct json_object *p = json_object_new_object();

		if (!p) {
			json_object_put(arr);
			return NULL;
		}
		ba_json_s64(p, "number", v[i]);
		ba_json_u64(p, "grain", grain);
		json_object_array_add(arr, p);
	}
	return arr;
}

/* The document of one run on @device: the outcomes @v[0..n) and the
 * optional moves @opt[0..nopt). */
static int write_run(const struct blkalign_fix_outcome *v, size_t n,
		     const int *opt, size_t nopt, uint64_t grain,
		     const char *device, const char *journal, bool dry_run,
		     int status, FILE *out)
{
	struct json_object *root, *arr, *optional;
	uint64_t writes = 0, flushes = 0;

	if ((!v && n) || (!opt && nopt) || !out)
		return -EINVAL;
	root = ba_json_root("fix");
	arr = json_object_new_array();
	optional = optional_json(opt, nopt, grain);
	if (!root || !arr || !optional) {
		json_object_put(root);
		json_object_put(arr);
		json_object_put(optional);
		return -ENOMEM;
	}
	ba_json_s64(root, "status", status);
	ba_json_str(root, "path", device);
	ba_json_str(root, "device", device); /* schema_version 1's path */
	ba_json_str(root, "journal", journal);
	ba_json_bool(root, "dry_run", dry_run);
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = outcome_json(&v[i]);

		if (!p) {
			json_object_put(optional);
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
	json_object_object_add(root, "optional", optional);
	return ba_json_write(root, out);
}

/**
 * blkalign_fix_run_write_json: { schema_version, version, status, path,
 * journal, dry_run, partitions: [ ... ], writes, flushes, optional: [] }
 * for @run on @device (NULL: no outcome, status 0), its optional moves
 * in "optional".  status is the run's (blkalign_fix_run_get_status); a
 * program that exits with another puts its own in the document
 * (blkalign_json_finish).  Returns 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_fix_run_write_json(const struct blkalign_fix_run *run,
				const char *device, const char *journal,
				bool dry_run, FILE *out)
{
	if (!run)
		return write_run(NULL, 0, NULL, 0, 0, device, journal, dry_run,
				 0, out);
	return write_run(run->outcomes, run->noutcomes, run->optional,
			 run->noptional, run->grain, device, journal, dry_run,
			 run->status, out);
}
