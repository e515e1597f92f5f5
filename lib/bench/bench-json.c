/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-json.c - a bench result as JSON through json-c, like
 * model-json.c: snake_case keys, byte counts and nanoseconds as
 * integers, a schema_version, keys only ever added (docs/bench.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "../jsonw.h"
#include "engine.h"

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

	ba_json_u64(o, "phase", k);
	ba_json_u64(o, "offset", p->offset);
	ba_json_u64(o, "samples", p->samples);
	ba_json_u64(o, "median_ns", p->median_ns);
	ba_json_u64(o, "p25_ns", p->p25_ns);
	ba_json_u64(o, "p75_ns", p->p75_ns);
	ba_json_u64(o, "iqr_ns", p->p75_ns - p->p25_ns);
	ba_json_u64(o, "min_ns", p->min_ns);
	ba_json_u64(o, "max_ns", p->max_ns);
	ba_json_double(o, "ratio", p->ratio);
	ba_json_bool(o, "fast", p->fast);
	return o;
}

/**
 * blkalign_bench_write_json: @r as one JSON document on @out.
 * Returns 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_bench_write_json(const struct blkalign_bench_result *r, FILE *out)
{
	struct json_object *root, *claimed, *phases, *v;
	char words[512];
	bool penalty;

	if (!r || !out)
		return -EINVAL;
	penalty = r->verdict == BLKALIGN_BENCH_PENALTY;
	root = ba_json_root();
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
	ba_json_str(root, "test", "phase_sweep");
	ba_json_str(root, "path", r->path);
	ba_json_str(root, "engine", r->engine);
	ba_json_str(root, "direction", r->write ? "write" : "read");
	ba_json_bool(root, "direct", r->direct);
	ba_json_bool(root, "is_block_device", r->is_block_device);
	ba_json_u64(root, "device_size", r->device_size);
	put_known(claimed, "logical_sector_size",
		  r->claimed_logical_sector_size);
	put_known(claimed, "physical_sector_size",
		  r->claimed_physical_sector_size);
	if (r->is_block_device)
		ba_json_u64(claimed, "alignment_offset",
			r->claimed_alignment_offset);
	else
		json_object_object_add(claimed, "alignment_offset", NULL);
	json_object_object_add(root, "claimed", claimed);
	ba_json_u64(root, "io_size", r->io_size);
	ba_json_u64(root, "phase_step", r->phase_step);
	ba_json_u64(root, "nphases", r->nphases);
	ba_json_u64(root, "offset", r->offset);
	ba_json_u64(root, "region_size", r->region_size);
	ba_json_u64(root, "rounds_planned", r->rounds_planned);
	ba_json_u64(root, "rounds_done", r->rounds_done);
	ba_json_bool(root, "interrupted", r->interrupted);
	ba_json_bool(root, "runtime_exceeded", r->runtime_exceeded);
	ba_json_double(root, "seconds", r->seconds);
	ba_json_u64(root, "ios", r->ios);
	for (uint32_t k = 0; k < r->nphases && k < BLKALIGN_BENCH_MAX_PHASES;
	     k++)
		json_object_array_add(phases, phase_json(&r->phases[k], k));
	json_object_object_add(root, "phases", phases);

	ba_json_str(v, "verdict", blkalign_bench_verdict_name(r->verdict));
	ba_json_str(v, "reason", r->reason);
	ba_json_u64(v, "aligned_phase", r->aligned_phase);
	ba_json_u64(v, "worst_phase", r->worst_phase);
	ba_json_double(v, "ratio", r->ratio);
	ba_json_double(v, "separation", r->separation);
	ba_json_str(v, "confidence", r->confidence);
	if (penalty) {
		ba_json_u64(v, "physical_sector_size",
			r->inferred_physical_sector_size);
		ba_json_u64(v, "alignment_offset", r->inferred_alignment_offset);
	} else {
		json_object_object_add(v, "physical_sector_size", NULL);
		json_object_object_add(v, "alignment_offset", NULL);
	}
	ba_json_bool(v, "at_least", r->inferred_at_least);
	blkalign_bench_verdict_text(r, words, sizeof(words));
	ba_json_str(v, "text", words);
	json_object_object_add(root, "inference", v);

	return ba_json_write(root, out);
}
