/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-bench.c - the phase sweep and the physical-sector inference, over
 * the latency-injecting "sim" engine and the "null" engine.  Expected
 * values are worked out by hand from the sim's model (lib/bench/
 * engine-sim.c): a write costs write_ns plus rmw_ns per physical sector
 * it covers in part; 4 KiB at phase k (k * 512 bytes from a 64 KiB grid)
 * on 4 KiB sectors starting at ao covers two sectors in part unless
 * k * 512 = ao (mod 4096), then none.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "blkalign.h"
#include "bench/engine.h"
#include "table.h"

#define MS 1000000ull

struct sweep_row {
	const char *name;
	bool write;
	uint32_t io_size;
	uint32_t nphases;		/* 0: io_size / 512 */
	uint64_t offset;
	uint32_t rounds;
	struct blkalign_bench_sim sim;
	enum blkalign_bench_verdict verdict;
	uint32_t pss;			/* inferred, PENALTY only */
	uint32_t ao;
	bool at_least;
	uint32_t aligned_phase;		/* PENALTY only */
	const char *fast;		/* '1' per fast phase, PENALTY only */
	double ratio_min, ratio_max;	/* worst / aligned */
};

static const struct sweep_row sweep_rows[] = {
	/* 512e: 1 ms writes, +4 ms per partial 4 KiB sector.  Phase 0 is
	 * aligned (1 ms); phases 1..7 straddle two sectors (1 + 2*4 = 9 ms):
	 * ratio 9, within the 5% noise. */
	{ "512e-rmw", true, 4096, 0, 0, 32,
	  { 4096, 0, 0, 1 * MS, 4 * MS, 0.05, 42 },
	  BLKALIGN_BENCH_PENALTY, 4096, 0, false, 0, "10000000", 8.0, 10.0 },
	/* The same drive with its lowest aligned LBA 7: sectors start at
	 * 7 * 512 = 3584, so phase 7 is the fast one, ao 3584. */
	{ "512e-shifted-lba7", true, 4096, 0, 0, 32,
	  { 4096, 3584, 0, 1 * MS, 4 * MS, 0.05, 7 },
	  BLKALIGN_BENCH_PENALTY, 4096, 3584, false, 7, "00000001", 8.0,
	  10.0 },
	/* Aligned device, region starting 512 bytes in: phase 7 is at
	 * 512 + 3584 = 4096 of the target; the offset is the target's: 0. */
	{ "region-offset-512", true, 4096, 0, 512, 32,
	  { 4096, 0, 0, 1 * MS, 4 * MS, 0.05, 3 },
	  BLKALIGN_BENCH_PENALTY, 4096, 0, false, 7, "00000001", 8.0, 10.0 },
	/* 2 KiB sectors: phases 0 and 4 (0, 2048) are on the grid; any
	 * other phase, e.g. 2 = [1024, 5120), covers two sectors in part
	 * (9 ms): fast = 0, 4, pss 2048. */
	{ "2k-sectors", true, 4096, 0, 0, 32,
	  { 2048, 0, 0, 1 * MS, 4 * MS, 0.05, 5 },
	  BLKALIGN_BENCH_PENALTY, 2048, 0, false, 0, "10001000", 8.0, 10.0 },
	/* Only 4 phases (0..1536) of a 4 KiB I/O: one fast phase in a
	 * 2 KiB sweep says "at least 2 KiB". */
	{ "narrow-sweep", true, 4096, 4, 0, 32,
	  { 4096, 0, 0, 1 * MS, 4 * MS, 0.05, 9 },
	  BLKALIGN_BENCH_PENALTY, 2048, 0, true, 0, "1000", 8.0, 10.0 },
	/* No RMW penalty: every write costs 1 ms (+-5%). */
	{ "no-penalty", true, 4096, 0, 0, 32,
	  { 4096, 0, 0, 1 * MS, 0, 0.05, 11 },
	  BLKALIGN_BENCH_NO_PENALTY, 0, 0, false, 0, NULL, 0.0, 1.2 },
	/* Reads have no RMW in the model: no penalty on a 512e drive. */
	{ "512e-reads", false, 4096, 0, 0, 32,
	  { 4096, 0, 1 * MS, 1 * MS, 4 * MS, 0.05, 13 },
	  BLKALIGN_BENCH_NO_PENALTY, 0, 0, false, 0, NULL, 0.0, 1.2 },
	/* A 50% penalty (1 ms + 2 * 0.25 ms) under noise of 200% standard
	 * deviation, 8 rounds: no conclusion either way. */
	{ "heavy-noise", true, 4096, 0, 0, 8,
	  { 4096, 0, 0, 1 * MS, MS / 4, 2.0, 17 },
	  BLKALIGN_BENCH_INCONCLUSIVE, 0, 0, false, 0, NULL, 0.0, 1e9 },
	/* No penalty but the same noise: "no penalty" is not claimed. */
	{ "noise-no-penalty", true, 4096, 0, 0, 8,
	  { 4096, 0, 0, 1 * MS, 0, 2.0, 19 },
	  BLKALIGN_BENCH_INCONCLUSIVE, 0, 0, false, 0, NULL, 0.0, 1e9 },
};

static void test_sweep(void **state)
{
	const struct sweep_row *row = *state;
	struct blkalign_bench_opts o;
	struct blkalign_bench_result r;
	const struct ba_engine_ops *ops = ba_engine_find("sim");
	struct ba_engine e = { 0 };
	uint32_t n;
	char text[512];

	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.write = row->write;
	o.io_size = row->io_size;
	o.nphases = row->nphases;
	o.offset = row->offset;
	o.rounds = row->rounds;
	o.sim = row->sim;
	n = row->nphases ? row->nphases : row->io_size / 512;

	/* through the engine directly, to see what the writes did */
	assert_non_null(ops);
	e.ops = ops;
	e.fd = -1;
	e.depth = 1;
	e.sim = &o.sim;
	memset(&r, 0, sizeof(r));
	r.device_size = 1ull << 30;
	assert_int_equal(ops->init(&e), 0);
	assert_int_equal(ba_bench_sweep_engine(&e, &o, &r), 0);
	assert_int_equal(ba_engine_sim_bytes_changed(&e), 0);
	/* a write round reads every phase, then writes it back */
	assert_int_equal(ba_engine_sim_ios(&e),
			 (uint64_t)row->rounds * n * (row->write ? 2 : 1));
	ops->cleanup(&e);

	assert_int_equal(r.nphases, n);
	assert_int_equal(r.rounds_done, row->rounds);
	assert_int_equal(r.ios, (uint64_t)row->rounds * n);
	for (uint32_t k = 0; k < n; k++) {
		assert_int_equal(r.phases[k].samples, row->rounds);
		assert_int_equal(r.phases[k].offset, k * 512);
	}
	blkalign_bench_verdict_text(&r, text, sizeof(text));
	print_message("  %s: %s\n", row->name, text);
	assert_string_equal(blkalign_bench_verdict_name(r.verdict),
			    blkalign_bench_verdict_name(row->verdict));
	assert_true(r.ratio >= row->ratio_min && r.ratio <= row->ratio_max);
	if (row->verdict != BLKALIGN_BENCH_PENALTY) {
		assert_int_equal(r.inferred_physical_sector_size, 0);
		assert_null(r.confidence);
		return;
	}
	assert_int_equal(r.inferred_physical_sector_size, row->pss);
	assert_int_equal(r.inferred_alignment_offset, row->ao);
	assert_int_equal(r.inferred_at_least, row->at_least);
	assert_int_equal(r.aligned_phase, row->aligned_phase);
	assert_string_equal(r.confidence, "high");
	for (uint32_t k = 0; k < n; k++)
		assert_int_equal(r.phases[k].fast, row->fast[k] == '1');
	assert_non_null(strstr(text, "read-modify-write"));
}

/* The public entry point with no target: the same as above. */
static void test_public_sim(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result r;
	char text[512];

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.write = true;
	o.sim = (struct blkalign_bench_sim){ 4096, 3584, 0, MS, 4 * MS, 0, 1 };
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), 0);
	assert_int_equal(r.verdict, BLKALIGN_BENCH_PENALTY);
	assert_int_equal(r.inferred_physical_sector_size, 4096);
	assert_int_equal(r.inferred_alignment_offset, 3584);
	/* no noise: 9 ms against 1 ms exactly */
	assert_true(fabs(r.ratio - 9.0) < 1e-9);
	blkalign_bench_verdict_text(&r, text, sizeof(text));
	assert_string_equal(text,
			    "4 KiB writes at phase 0 are 9.0x slower than at "
			    "phase 7: this device does read-modify-write on "
			    "4 KiB physical sectors, aligned at byte 3584 of "
			    "the target (confidence high)");
	/* psync needs a target */
	o.engine = "psync";
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), -EINVAL);
	o.engine = "nonesuch";
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), -ENOENT);
}

static void test_null_engine(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result r;

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "null";
	o.rounds = 5;
	o.write = true;
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), 0);
	assert_string_equal(r.engine, "null");
	assert_int_equal(r.nphases, 8);
	assert_int_equal(r.rounds_done, 5);
	assert_int_equal(r.ios, 40);
	for (uint32_t k = 0; k < 8; k++) {
		assert_int_equal(r.phases[k].samples, 5);
		assert_int_equal(r.phases[k].median_ns, 0);
	}
	/* nothing to tell the phases apart */
	assert_int_equal(r.verdict, BLKALIGN_BENCH_NO_PENALTY);
}

static int stop_after_3(void *data, uint32_t round, uint32_t rounds,
			double elapsed)
{
	(void)data;
	(void)rounds;
	(void)elapsed;
	return round >= 3;
}

static void test_stop(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result r;
	volatile int stop = 1;

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.progress = stop_after_3;
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), 0);
	assert_int_equal(r.rounds_done, 3);
	assert_true(r.interrupted);
	assert_int_equal(r.phases[0].samples, 3);

	/* stopped before the first round: no data, no verdict */
	o.progress = NULL;
	o.stop = &stop;
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), 0);
	assert_int_equal(r.rounds_done, 0);
	assert_true(r.interrupted);
	assert_int_equal(r.verdict, BLKALIGN_BENCH_NO_DATA);
}

static void test_bad_opts(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result r;

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.io_size = 1000;		/* not a multiple of 512 */
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), -EINVAL);
	o.io_size = 4096;
	o.nphases = BLKALIGN_BENCH_MAX_PHASES + 1;
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), -EINVAL);
	o.nphases = 0;
	o.region_size = 4096;		/* 8 phases need 3584 + 4096 */
	assert_int_equal(blkalign_bench_sweep(NULL, &o, &r), -ENOSPC);
}

/* The inference alone, on hand-made medians (IQR 10 us, 32 samples). */
struct infer_row {
	const char *name;
	uint32_t nphases;
	uint64_t median_us[8];
	enum blkalign_bench_verdict verdict;
	uint32_t pss;
	uint32_t ao;
};

static const struct infer_row infer_rows[] = {
	/* fast {0, 3}: no power-of-two grid holds exactly these */
	{ "not-a-grid", 8, { 100, 900, 900, 100, 900, 900, 900, 900 },
	  BLKALIGN_BENCH_INCONCLUSIVE, 0, 0 },
	/* fast {1, 5}: every 4th phase from 1: 2 KiB sectors at 512 */
	{ "grid-4-from-1", 8, { 900, 100, 900, 900, 900, 100, 900, 900 },
	  BLKALIGN_BENCH_PENALTY, 2048, 512 },
	/* a smooth ramp: the largest step is 1.1x, nothing stands apart */
	{ "ramp", 8, { 100, 110, 121, 133, 146, 161, 177, 195 },
	  BLKALIGN_BENCH_INCONCLUSIVE, 0, 0 },
	/* 19% slower: below the 20% threshold, and the noise is small */
	{ "19-percent", 8, { 1000, 1190, 1190, 1190, 1190, 1190, 1190, 1190 },
	  BLKALIGN_BENCH_NO_PENALTY, 0, 0 },
	/* gap of 15 us against an IQR of 10: 1.5 separation, still >20% */
	{ "small-gap", 2, { 50, 65 }, BLKALIGN_BENCH_PENALTY, 1024, 0 },
	/* gap of 8 us, IQR 10: the distributions overlap */
	{ "overlap", 2, { 30, 38 }, BLKALIGN_BENCH_INCONCLUSIVE, 0, 0 },
};

static void test_infer(void **state)
{
	const struct infer_row *row = *state;
	struct blkalign_bench_result r;

	memset(&r, 0, sizeof(r));
	r.write = true;
	r.nphases = row->nphases;
	r.phase_step = 512;
	r.io_size = 4096;
	r.rounds_done = 32;
	for (uint32_t k = 0; k < row->nphases; k++) {
		r.phases[k].samples = 32;
		r.phases[k].median_ns = row->median_us[k] * 1000;
		r.phases[k].p25_ns = r.phases[k].median_ns - 5000;
		r.phases[k].p75_ns = r.phases[k].median_ns + 5000;
	}
	assert_int_equal(blkalign_bench_infer(&r), 0);
	assert_string_equal(blkalign_bench_verdict_name(r.verdict),
			    blkalign_bench_verdict_name(row->verdict));
	assert_int_equal(r.inferred_physical_sector_size, row->pss);
	assert_int_equal(r.inferred_alignment_offset, row->ao);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_public_sim),
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_bad_opts),
	};
	int failed = 0;

	failed |= RUN_TABLE(test_sweep, sweep_rows);
	failed |= RUN_TABLE(test_infer, infer_rows);
	failed |= cmocka_run_group_tests(tests, NULL, NULL);
	return failed;
}
