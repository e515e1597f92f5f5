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
#include "jsonw.h"
#include "out/out.h"
#include "results.h"

/* an integer, or null when 0 means "unknown" */
static void put_known(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, v ? json_object_new_uint64(v) : NULL);
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
	root = ba_json_root("bench");
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
	ba_json_seconds(root, "seconds", r->seconds);
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
		ba_json_u64(v, "alignment_offset",
			    r->inferred_alignment_offset);
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

static struct json_object *side_json(const struct blkalign_bench_side *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	ba_json_str(o, "label", s->label);
	ba_json_str(o, "path", s->path);
	ba_json_u64(o, "offset", s->offset);
	ba_json_u64(o, "device_size", s->device_size);
	put_known(o, "soft_block_size", s->soft_block_size);
	ba_json_u64(o, "samples", s->samples);
	for (uint32_t i = 0; i < s->samples && i < BLKALIGN_BENCH_MAX_ROUNDS;
	     i++)
		json_object_array_add(a, ba_json_new_double(s->bytes_per_s[i]));
	json_object_object_add(o, "bytes_per_s", a);
	ba_json_double(o, "median_bytes_per_s", s->median_bytes_per_s);
	ba_json_double(o, "min_bytes_per_s", s->min_bytes_per_s);
	ba_json_double(o, "max_bytes_per_s", s->max_bytes_per_s);
	ba_json_bool(o, "traced", s->traced);
	if (s->traced) {
		ba_json_u64(o, "requests", s->requests);
		ba_json_u64(o, "request_bytes", s->request_bytes);
		ba_json_u64(o, "request_max", s->request_max);
		ba_json_double(o, "request_avg", s->request_avg);
	} else {
		json_object_object_add(o, "requests", NULL);
		json_object_object_add(o, "request_bytes", NULL);
		json_object_object_add(o, "request_max", NULL);
		json_object_object_add(o, "request_avg", NULL);
	}
	put_known(o, "model_requests", s->model_requests);
	put_known(o, "model_request_cap", s->model_request_cap);
	return o;
}

/* 0 means "not measured": null */
static void put_ratio(struct json_object *o, const char *k, double v)
{
	if (v > 0 && isfinite(v))
		ba_json_double(o, k, v);
	else
		json_object_object_add(o, k, NULL);
}

/**
 * blkalign_bench_compare_write_json: @c as one JSON document on @out
 * (docs/bench.md).  Returns 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_bench_compare_write_json(const struct blkalign_bench_compare *c,
				      FILE *out)
{
	struct json_object *root, *sides;
	char words[1024];

	if (!c || !out)
		return -EINVAL;
	root = ba_json_root("bench");
	sides = json_object_new_array();
	if (!root || !sides) {
		json_object_put(root);
		json_object_put(sides);
		return -ENOMEM;
	}
	ba_json_str(root, "test", blkalign_bench_test_name(c->test));
	ba_json_str(root, "path", c->path);
	ba_json_str(root, "engine", c->engine);
	ba_json_str(root, "direction", c->write ? "write" : "read");
	ba_json_bool(root, "direct", c->direct);
	ba_json_u64(root, "io_size", c->io_size);
	ba_json_u64(root, "queue_depth", c->queue_depth);
	ba_json_u64(root, "region_size", c->region_size);
	ba_json_u64(root, "rounds_planned", c->rounds_planned);
	ba_json_u64(root, "rounds_done", c->rounds_done);
	ba_json_bool(root, "interrupted", c->interrupted);
	ba_json_bool(root, "runtime_exceeded", c->runtime_exceeded);
	ba_json_seconds(root, "seconds", c->seconds);
	for (size_t i = 0; i < c->nsides && i < 2; i++)
		json_object_array_add(sides, side_json(&c->sides[i]));
	json_object_object_add(root, "sides", sides);
	put_ratio(root, "ratio", c->ratio);
	put_ratio(root, "request_ratio", c->request_ratio);
	put_ratio(root, "model_ratio", c->model_ratio);
	json_object_object_add(root, "measured_direction",
			       json_object_new_int(c->measured_direction));
	if (c->request_agreement || c->request_ratio > 0)
		json_object_object_add(
			root, "request_direction",
			json_object_new_int(c->request_direction));
	else
		json_object_object_add(root, "request_direction", NULL);
	if (c->model_ratio > 0)
		json_object_object_add(root, "model_direction",
				       json_object_new_int(c->model_direction));
	else
		json_object_object_add(root, "model_direction", NULL);
	ba_json_str(root, "agreement", c->agreement);
	ba_json_str(root, "request_agreement", c->request_agreement);
	ba_json_str(root, "trace_note", c->trace_note);
	ba_json_str(root, "note", c->note);
	blkalign_bench_compare_text(c, words, sizeof(words));
	ba_json_str(root, "text", words);
	return ba_json_write(root, out);
}
