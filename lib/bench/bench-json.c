/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-json.c - a bench result as JSON through json-c, like
 * model-json.c: snake_case keys, byte counts and nanoseconds as
 * integers, a schema_version, keys only ever added (docs/bench.md).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

#include "engine.h"

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static void put_bool(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

/* a double, or null when it is not finite */
static void put_double(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k,
			       isfinite(v) ? json_object_new_double(v) : NULL);
}

/* an integer, or null when 0 means "unknown" */
static void put_known(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k,
			       v ? json_object_new_int64((int64_t)v) : NULL);
}

static struct json_object *phase_json(const struct blkalign_bench_phase *p,
				      uint32_t k)
{
	struct json_object *o = json_object_new_object();

	put_u64(o, "phase", k);
	put_u64(o, "offset", p->offset);
	put_u64(o, "samples", p->samples);
	put_u64(o, "median_ns", p->median_ns);
	put_u64(o, "p25_ns", p->p25_ns);
	put_u64(o, "p75_ns", p->p75_ns);
	put_u64(o, "iqr_ns", p->p75_ns - p->p25_ns);
	put_u64(o, "min_ns", p->min_ns);
	put_u64(o, "max_ns", p->max_ns);
	put_double(o, "ratio", p->ratio);
	put_bool(o, "fast", p->fast);
	return o;
}

/**
 * blkalign_bench_write_json: @r as one JSON document on @out.
 * Returns 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_bench_write_json(const struct blkalign_bench_result *r, FILE *out)
{
	struct json_object *root, *claimed, *phases, *v;
	const char *text;
	char words[512];
	bool penalty;
	int rc = 0;

	if (!r || !out)
		return -EINVAL;
	penalty = r->verdict == BLKALIGN_BENCH_PENALTY;
	root = json_object_new_object();
	claimed = json_object_new_object();
	phases = json_object_new_array();
	v = json_object_new_object();
	if (!root || !claimed || !phases || !v) {
		json_object_put(root);
		json_object_put(claimed);
		json_object_put(phases);
		json_object_put(v);
		return -ENOMEM;
	}
	put_u64(root, "schema_version", BLKALIGN_SCHEMA_VERSION);
	put_str(root, "version", BLKALIGN_VERSION);
	put_str(root, "test", "phase_sweep");
	put_str(root, "path", r->path);
	put_str(root, "engine", r->engine);
	put_str(root, "direction", r->write ? "write" : "read");
	put_bool(root, "direct", r->direct);
	put_bool(root, "is_block_device", r->is_block_device);
	put_u64(root, "device_size", r->device_size);
	put_known(claimed, "logical_sector_size",
		  r->claimed_logical_sector_size);
	put_known(claimed, "physical_sector_size",
		  r->claimed_physical_sector_size);
	if (r->is_block_device)
		put_u64(claimed, "alignment_offset",
			r->claimed_alignment_offset);
	else
		json_object_object_add(claimed, "alignment_offset", NULL);
	json_object_object_add(root, "claimed", claimed);
	put_u64(root, "io_size", r->io_size);
	put_u64(root, "phase_step", r->phase_step);
	put_u64(root, "nphases", r->nphases);
	put_u64(root, "offset", r->offset);
	put_u64(root, "region_size", r->region_size);
	put_u64(root, "rounds_planned", r->rounds_planned);
	put_u64(root, "rounds_done", r->rounds_done);
	put_bool(root, "interrupted", r->interrupted);
	put_bool(root, "runtime_exceeded", r->runtime_exceeded);
	put_double(root, "seconds", r->seconds);
	put_u64(root, "ios", r->ios);
	for (uint32_t k = 0; k < r->nphases && k < BLKALIGN_BENCH_MAX_PHASES;
	     k++)
		json_object_array_add(phases, phase_json(&r->phases[k], k));
	json_object_object_add(root, "phases", phases);

	put_str(v, "verdict", blkalign_bench_verdict_name(r->verdict));
	put_str(v, "reason", r->reason);
	put_u64(v, "aligned_phase", r->aligned_phase);
	put_u64(v, "worst_phase", r->worst_phase);
	put_double(v, "ratio", r->ratio);
	put_double(v, "separation", r->separation);
	put_str(v, "confidence", r->confidence);
	if (penalty) {
		put_u64(v, "physical_sector_size",
			r->inferred_physical_sector_size);
		put_u64(v, "alignment_offset", r->inferred_alignment_offset);
	} else {
		json_object_object_add(v, "physical_sector_size", NULL);
		json_object_object_add(v, "alignment_offset", NULL);
	}
	put_bool(v, "at_least", r->inferred_at_least);
	blkalign_bench_verdict_text(r, words, sizeof(words));
	put_str(v, "text", words);
	json_object_object_add(root, "inference", v);

	text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		rc = -ENOMEM;
	else if (fputs(text, out) == EOF || fputc('\n', out) == EOF)
		rc = -EIO;
	json_object_put(root);
	return rc;
}
