/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get-bench.c - the getters of bench's phase sweep and comparisons
 * (act/bench/). Field meanings: include/blkalign.h.
 */
#include "get.h"

BA_GET(bench_phase, uint64_t, offset);
BA_GET(bench_phase, uint64_t, samples);
BA_GET(bench_phase, uint64_t, median_ns);
BA_GET(bench_phase, uint64_t, p25_ns);
BA_GET(bench_phase, uint64_t, p75_ns);
BA_GET(bench_phase, uint64_t, min_ns);
BA_GET(bench_phase, uint64_t, max_ns);
BA_GET(bench_phase, double, ratio);
BA_GET(bench_phase, bool, fast);

BA_GET(bench_result, const char *, engine);
BA_GET(bench_result, const char *, path);
BA_GET(bench_result, bool, write);
BA_GET(bench_result, bool, direct);
BA_GET(bench_result, bool, is_block_device);
BA_GET(bench_result, uint64_t, device_size);
BA_GET(bench_result, uint32_t, claimed_logical_sector_size);
BA_GET(bench_result, uint32_t, claimed_physical_sector_size);
BA_GET(bench_result, uint32_t, claimed_alignment_offset);
BA_GET(bench_result, uint32_t, io_size);
BA_GET(bench_result, uint32_t, phase_step);
BA_GET(bench_result, uint32_t, nphases);
BA_GET(bench_result, uint64_t, offset);
BA_GET(bench_result, uint64_t, region_size);
BA_GET(bench_result, uint32_t, rounds_planned);
BA_GET(bench_result, uint32_t, rounds_done);
BA_GET(bench_result, bool, interrupted);
BA_GET(bench_result, bool, runtime_exceeded);
BA_GET(bench_result, double, seconds);
BA_GET(bench_result, uint64_t, ios);
BA_GET_REF_AT(bench_result, const struct blkalign_bench_phase *, phase, phases,
	      nphases);
BA_GET(bench_result, enum blkalign_bench_verdict, verdict);
BA_GET(bench_result, const char *, reason);
BA_GET(bench_result, uint32_t, aligned_phase);
BA_GET(bench_result, uint32_t, worst_phase);
BA_GET(bench_result, double, ratio);
BA_GET(bench_result, double, separation);
BA_GET(bench_result, const char *, confidence);
BA_GET(bench_result, uint32_t, inferred_physical_sector_size);
BA_GET(bench_result, uint32_t, inferred_alignment_offset);
BA_GET(bench_result, bool, inferred_at_least);

BA_GET(bench_side, const char *, label);
BA_GET(bench_side, const char *, path);
BA_GET(bench_side, uint64_t, offset);
BA_GET(bench_side, uint64_t, device_size);
BA_GET(bench_side, uint32_t, soft_block_size);
BA_GET(bench_side, uint32_t, samples);
BA_GET_AT(bench_side, double, bytes_per_s, bytes_per_s, samples);
BA_GET(bench_side, double, median_bytes_per_s);
BA_GET(bench_side, double, min_bytes_per_s);
BA_GET(bench_side, double, max_bytes_per_s);
BA_GET(bench_side, bool, traced);
BA_GET(bench_side, uint64_t, requests);
BA_GET(bench_side, uint64_t, request_bytes);
BA_GET(bench_side, uint64_t, request_max);
BA_GET(bench_side, double, request_avg);
BA_GET(bench_side, uint64_t, model_requests);
BA_GET(bench_side, uint64_t, model_request_cap);

BA_GET(bench_compare, enum blkalign_bench_test, test);
BA_GET(bench_compare, const char *, path);
BA_GET(bench_compare, const char *, engine);
BA_GET(bench_compare, bool, write);
BA_GET(bench_compare, bool, direct);
BA_GET(bench_compare, uint32_t, io_size);
BA_GET(bench_compare, uint32_t, queue_depth);
BA_GET(bench_compare, uint64_t, region_size);
BA_GET(bench_compare, uint32_t, rounds_planned);
BA_GET(bench_compare, uint32_t, rounds_done);
BA_GET(bench_compare, bool, interrupted);
BA_GET(bench_compare, bool, runtime_exceeded);
BA_GET(bench_compare, double, seconds);
BA_GET(bench_compare, size_t, nsides);
BA_GET(bench_compare, double, ratio);
BA_GET(bench_compare, double, request_ratio);
BA_GET(bench_compare, double, model_ratio);
BA_GET(bench_compare, int, measured_direction);
BA_GET(bench_compare, int, request_direction);
BA_GET(bench_compare, int, model_direction);
BA_GET(bench_compare, const char *, agreement);
BA_GET(bench_compare, const char *, request_agreement);
BA_GET(bench_compare, const char *, trace_note);
BA_GET(bench_compare, const char *, note);

const struct blkalign_bench_side *
blkalign_bench_compare_get_side(const struct blkalign_bench_compare *c,
				size_t i)
{
	if (!c || i >= c->nsides || i >= sizeof(c->sides) / sizeof(c->sides[0]))
		return NULL;
	return &c->sides[i];
}
