/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-bench.c - the phase sweep and the physical-sector inference, over
 * the latency-injecting "sim" engine and the "null" engine.  Expected
 * values are worked out by hand from the sim's model (lib/act/bench/
 * engine-sim.c): a write costs write_ns plus rmw_ns per physical sector
 * it covers in part; 4 KiB at phase k (k * 512 bytes from a 64 KiB grid)
 * on 4 KiB sectors starting at ao covers two sectors in part unless
 * k * 512 = ao (mod 4096), then none.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkalign.h"
#include "bench/engine.h"
#include "results.h"
#include "table.h"

#define MS 1000000ull

struct sweep_row {
	const char *name;
	bool write;
	uint32_t io_size;
	uint32_t nphases; /* 0: io_size / 512 */
	uint64_t offset;
	uint32_t rounds;
	struct blkalign_bench_sim sim;
	enum blkalign_bench_verdict verdict;
	uint32_t pss; /* inferred, PENALTY only */
	uint32_t ao;
	bool at_least;
	uint32_t aligned_phase;	     /* PENALTY only */
	const char *fast;	     /* '1' per fast phase, PENALTY only */
	double ratio_min, ratio_max; /* worst / aligned */
};

static const struct sweep_row sweep_rows[] = {
	/* 512e: 1 ms writes, +4 ms per partial 4 KiB sector.  Phase 0 is
	 * aligned (1 ms); phases 1..7 straddle two sectors (1 + 2*4 = 9 ms):
	 * ratio 9, within the 5% noise. */
	{"512e-rmw",
	 true,
	 4096,
	 0,
	 0,
	 32,
	 {4096, 0, 0, 1 * MS, 4 * MS, 0.05, 42},
	 BLKALIGN_BENCH_PENALTY,
	 4096,
	 0,
	 false,
	 0,
	 "10000000",
	 8.0,
	 10.0},
	/* The same drive with its lowest aligned LBA 7: sectors start at
	 * 7 * 512 = 3584, so phase 7 is the fast one, ao 3584. */
	{"512e-shifted-lba7",
	 true,
	 4096,
	 0,
	 0,
	 32,
	 {4096, 3584, 0, 1 * MS, 4 * MS, 0.05, 7},
	 BLKALIGN_BENCH_PENALTY,
	 4096,
	 3584,
	 false,
	 7,
	 "00000001",
	 8.0,
	 10.0},
	/* Aligned device, region starting 512 bytes in: phase 7 is at
	 * 512 + 3584 = 4096 of the target; the offset is the target's: 0. */
	{"region-offset-512",
	 true,
	 4096,
	 0,
	 512,
	 32,
	 {4096, 0, 0, 1 * MS, 4 * MS, 0.05, 3},
	 BLKALIGN_BENCH_PENALTY,
	 4096,
	 0,
	 false,
	 7,
	 "00000001",
	 8.0,
	 10.0},
	/* 2 KiB sectors: phases 0 and 4 (0, 2048) are on the grid; any
	 * other phase, e.g. 2 = [1024, 5120), covers two sectors in part
	 * (9 ms): fast = 0, 4, pss 2048. */
	{"2k-sectors",
	 true,
	 4096,
	 0,
	 0,
	 32,
	 {2048, 0, 0, 1 * MS, 4 * MS, 0.05, 5},
	 BLKALIGN_BENCH_PENALTY,
	 2048,
	 0,
	 false,
	 0,
	 "10001000",
	 8.0,
	 10.0},
	/* Only 4 phases (0..1536) of a 4 KiB I/O: one fast phase in a
	 * 2 KiB sweep says "at least 2 KiB". */
	{"narrow-sweep",
	 true,
	 4096,
	 4,
	 0,
	 32,
	 {4096, 0, 0, 1 * MS, 4 * MS, 0.05, 9},
	 BLKALIGN_BENCH_PENALTY,
	 2048,
	 0,
	 true,
	 0,
	 "1000",
	 8.0,
	 10.0},
	/* No RMW penalty: every write costs 1 ms (+-5%). */
	{"no-penalty",
	 true,
	 4096,
	 0,
	 0,
	 32,
	 {4096, 0, 0, 1 * MS, 0, 0.05, 11},
	 BLKALIGN_BENCH_NO_PENALTY,
	 0,
	 0,
	 false,
	 0,
	 NULL,
	 0.0,
	 1.2},
	/* Reads have no RMW in the model: no penalty on a 512e drive. */
	{"512e-reads",
	 false,
	 4096,
	 0,
	 0,
	 32,
	 {4096, 0, 1 * MS, 1 * MS, 4 * MS, 0.05, 13},
	 BLKALIGN_BENCH_NO_PENALTY,
	 0,
	 0,
	 false,
	 0,
	 NULL,
	 0.0,
	 1.2},
	/* A 50% penalty (1 ms + 2 * 0.25 ms) under noise of 200% standard
	 * deviation, 8 rounds: no conclusion either way. */
	{"heavy-noise",
	 true,
	 4096,
	 0,
	 0,
	 8,
	 {4096, 0, 0, 1 * MS, MS / 4, 2.0, 17},
	 BLKALIGN_BENCH_INCONCLUSIVE,
	 0,
	 0,
	 false,
	 0,
	 NULL,
	 0.0,
	 1e9},
	/* No penalty but the same noise: "no penalty" is not claimed. */
	{"noise-no-penalty",
	 true,
	 4096,
	 0,
	 0,
	 8,
	 {4096, 0, 0, 1 * MS, 0, 2.0, 19},
	 BLKALIGN_BENCH_INCONCLUSIVE,
	 0,
	 0,
	 false,
	 0,
	 NULL,
	 0.0,
	 1e9},
};

static void test_sweep(void **state)
{
	const struct sweep_row *row = *state;
	struct blkalign_bench_opts o;
	struct blkalign_bench_phase phases[BLKALIGN_BENCH_MAX_PHASES];
	struct blkalign_bench_result r;
	const struct ba_engine_ops *ops = ba_engine_find("sim");
	struct ba_engine e = {0};
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
	r.phases = phases;
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

/* The sweep through the public entry, the previous result freed. */
static int sweep(const struct blkalign_bench_opts *o,
		 struct blkalign_bench_result **r)
{
	blkalign_bench_result_free(*r);
	*r = NULL;
	return blkalign_bench_sweep(NULL, NULL, o, r);
}

/* The public entry point with no target: the same as above. */
static void test_public_sim(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result *r = NULL;
	char text[512];

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.write = true;
	o.sim = (struct blkalign_bench_sim){4096, 3584, 0, MS, 4 * MS, 0, 1};
	assert_int_equal(sweep(&o, &r), 0);
	assert_int_equal(r->verdict, BLKALIGN_BENCH_PENALTY);
	assert_int_equal(r->inferred_physical_sector_size, 4096);
	assert_int_equal(r->inferred_alignment_offset, 3584);
	/* no noise: 9 ms against 1 ms exactly */
	assert_true(fabs(r->ratio - 9.0) < 1e-9);
	blkalign_bench_verdict_text(r, text, sizeof(text));
	assert_string_equal(text,
			    "4 KiB writes at phase 0 are 9.0x slower than at "
			    "phase 7: this device does read-modify-write on "
			    "4 KiB physical sectors, aligned at byte 3584 of "
			    "the target (confidence high)");
	/* psync needs a target */
	o.engine = "psync";
	assert_int_equal(sweep(&o, &r), -EINVAL);
	o.engine = "nonesuch";
	assert_int_equal(sweep(&o, &r), -ENOENT);
	/* options without their size (a caller that did not set it, or one
	 * older than the first sized struct) are refused */
	o.engine = "sim";
	o.size = 0;
	assert_int_equal(sweep(&o, &r), -EINVAL);
	o.size = offsetof(struct blkalign_bench_opts, test); /* cut short */
	assert_int_equal(sweep(&o, &r), -EINVAL);
	blkalign_bench_result_free(r);
}

static void test_null_engine(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result *r = NULL;

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "null";
	o.rounds = 5;
	o.write = true;
	assert_int_equal(sweep(&o, &r), 0);
	assert_string_equal(r->engine, "null");
	assert_int_equal(r->nphases, 8);
	assert_int_equal(r->rounds_done, 5);
	assert_int_equal(r->ios, 40);
	for (uint32_t k = 0; k < 8; k++) {
		assert_int_equal(r->phases[k].samples, 5);
		assert_int_equal(r->phases[k].median_ns, 0);
	}
	/* nothing to tell the phases apart */
	assert_int_equal(r->verdict, BLKALIGN_BENCH_NO_PENALTY);
	blkalign_bench_result_free(r);
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
	struct blkalign_bench_result *r = NULL;
	volatile int stop = 1;

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.progress = stop_after_3;
	assert_int_equal(sweep(&o, &r), 0);
	assert_int_equal(r->rounds_done, 3);
	assert_true(r->interrupted);
	assert_int_equal(r->phases[0].samples, 3);

	/* stopped before the first round: no data, no verdict */
	o.progress = NULL;
	o.stop = &stop;
	assert_int_equal(sweep(&o, &r), 0);
	assert_int_equal(r->rounds_done, 0);
	assert_true(r->interrupted);
	assert_int_equal(r->verdict, BLKALIGN_BENCH_NO_DATA);
	blkalign_bench_result_free(r);
}

/* A caller built with a shorter struct: its fields set, nothing past. */
static void test_opts_init_short(void **state)
{
	union {
		struct blkalign_bench_opts o;
		unsigned char b[sizeof(struct blkalign_bench_opts)];
	} u;
	size_t size = offsetof(struct blkalign_bench_opts, rounds);

	(void)state;
	memset(&u, 0xa5, sizeof(u));
	blkalign_bench_opts_init(&u.o, size);
	assert_int_equal(u.o.size, size);
	assert_string_equal(u.o.engine, "psync");
	assert_int_equal(u.o.io_size, 4096);
	assert_int_equal(u.o.phase_step, 512);
	for (size_t i = size; i < sizeof(u); i++)
		assert_int_equal(u.b[i], 0xa5);
	blkalign_bench_opts_defaults(&u.o);
	assert_int_equal(u.o.size, sizeof(u.o));
	assert_int_equal(u.o.rounds, 32);
}

static void test_bad_opts(void **state)
{
	struct blkalign_bench_opts o;
	struct blkalign_bench_result *r = NULL;

	(void)state;
	blkalign_bench_opts_defaults(&o);
	o.engine = "sim";
	o.io_size = 1000; /* not a multiple of 512 */
	assert_int_equal(sweep(&o, &r), -EINVAL);
	o.io_size = 4096;
	o.nphases = BLKALIGN_BENCH_MAX_PHASES + 1;
	assert_int_equal(sweep(&o, &r), -EINVAL);
	o.nphases = 0;
	o.region_size = 4096; /* 8 phases need 3584 + 4096 */
	assert_int_equal(sweep(&o, &r), -ENOSPC);
	assert_null(r);
	blkalign_bench_result_free(r);
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
	{"not-a-grid",
	 8,
	 {100, 900, 900, 100, 900, 900, 900, 900},
	 BLKALIGN_BENCH_INCONCLUSIVE,
	 0,
	 0},
	/* fast {1, 5}: every 4th phase from 1: 2 KiB sectors at 512 */
	{"grid-4-from-1",
	 8,
	 {900, 100, 900, 900, 900, 100, 900, 900},
	 BLKALIGN_BENCH_PENALTY,
	 2048,
	 512},
	/* a smooth ramp: the largest step is 1.1x, nothing stands apart */
	{"ramp",
	 8,
	 {100, 110, 121, 133, 146, 161, 177, 195},
	 BLKALIGN_BENCH_INCONCLUSIVE,
	 0,
	 0},
	/* 19% slower: below the 20% threshold, and the noise is small */
	{"19-percent",
	 8,
	 {1000, 1190, 1190, 1190, 1190, 1190, 1190, 1190},
	 BLKALIGN_BENCH_NO_PENALTY,
	 0,
	 0},
	/* gap of 15 us against an IQR of 10: 1.5 separation, still >20% */
	{"small-gap", 2, {50, 65}, BLKALIGN_BENCH_PENALTY, 1024, 0},
	/* gap of 8 us, IQR 10: the distributions overlap */
	{"overlap", 2, {30, 38}, BLKALIGN_BENCH_INCONCLUSIVE, 0, 0},
};

static void test_infer(void **state)
{
	const struct infer_row *row = *state;
	struct blkalign_bench_phase phases[BLKALIGN_BENCH_MAX_PHASES] = {0};
	struct blkalign_bench_result r;

	memset(&r, 0, sizeof(r));
	r.phases = phases;
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

/*
 * The window of the soft-block-size test: the size rounded down to
 * max(page, physical sector).  By hand: 134218240 = 32768 x 4096 + 512.
 */
struct window_row {
	const char *name;
	uint64_t size;
	uint32_t pss, page;
	uint64_t window;
};

static const struct window_row window_rows[] = {
	{"odd-by-512", 134218240, 512, 4096, 134217728},
	{"already-4k", 134217728, 512, 4096, 134217728},
	{"pss-8k", 134217728 + 4096, 8192, 4096, 134217728},
	{"page-64k", 1048576 + 61440, 512, 65536, 1048576},
	{"defaults", 5000, 0, 0, 4096},
	{"below-a-page", 4095, 512, 4096, 0},
};

static void test_window(void **state)
{
	const struct window_row *row = *state;

	assert_int_equal(
		blkalign_bench_window_size(row->size, row->pss, row->page),
		row->window);
}

/*
 * The judgement of a two-sided comparison, on hand-made samples (MiB/s
 * per round), request counts (0: not traced) and model counts (0: no
 * model).  Side 0 is the partition, side 1 the window.
 */
struct judge_row {
	const char *name;
	uint32_t n;
	double mibs[2][5];
	uint64_t requests[2];
	uint64_t model[2];
	double median[2];
	int measured, request_dir, model_dir;
	const char *agreement, *request_agreement;
};

static const struct judge_row judge_rows[] = {
	/* seed 000 on a loop: 1024 requests of 64 KiB against 128 of
	 * 512 KiB, the window 1.75x faster (medians 480, 840) */
	{"sbs-writes",
	 5,
	 {{500, 480, 470, 490, 300}, {840, 800, 900, 850, 830}},
	 {1024, 128},
	 {1024, 128},
	 {480, 840},
	 1,
	 1,
	 1,
	 "agrees",
	 "agrees"},
	/* reads: the same requests predicted and traced, 5% apart */
	{"sbs-reads",
	 3,
	 {{1000, 1050, 990}, {1040, 1000, 1050}},
	 {54, 54},
	 {54, 54},
	 {1000, 1040},
	 0,
	 0,
	 0,
	 "agrees",
	 "agrees"},
	/* the window slower although the model says fewer requests: the
	 * throughput disagrees, the request counts agree */
	{"slower-window",
	 3,
	 {{500, 500, 500}, {400, 400, 400}},
	 {1024, 128},
	 {1024, 128},
	 {500, 400},
	 -1,
	 1,
	 1,
	 "disagrees",
	 "agrees"},
	/* exactly 10% is "faster"; not traced, no model */
	{"ten-percent-no-model",
	 1,
	 {{100}, {110}},
	 {0, 0},
	 {0, 0},
	 {100, 110},
	 1,
	 0,
	 0,
	 NULL,
	 NULL},
	/* traced but a model only: no request agreement without a trace */
	{"model-no-trace",
	 2,
	 {{100, 100}, {200, 200}},
	 {0, 0},
	 {1024, 128},
	 {100, 200},
	 1,
	 0,
	 1,
	 "agrees",
	 NULL},
};

static void test_judge(void **state)
{
	const struct judge_row *row = *state;
	double rates[2][BLKALIGN_BENCH_MAX_ROUNDS];
	struct blkalign_bench_compare c;

	memset(&c, 0, sizeof(c));
	c.test = BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE;
	c.write = true;
	c.nsides = 2;
	c.rounds_done = row->n;
	c.sides[0].label = "partition";
	c.sides[1].label = "window";
	for (int i = 0; i < 2; i++) {
		struct blkalign_bench_side *s = &c.sides[i];

		s->samples = row->n;
		s->bytes_per_s = rates[i];
		for (uint32_t k = 0; k < row->n; k++)
			s->bytes_per_s[k] = row->mibs[i][k] * 1048576;
		s->traced = row->requests[i] != 0;
		s->requests = row->requests[i];
		s->request_bytes = row->requests[i] * 65536;
		s->model_requests = row->model[i];
	}
	assert_int_equal(blkalign_bench_compare_judge(&c), 0);
	for (int i = 0; i < 2; i++)
		assert_true(fabs(c.sides[i].median_bytes_per_s -
				 row->median[i] * 1048576) < 1);
	assert_int_equal(c.measured_direction, row->measured);
	assert_int_equal(c.request_direction, row->request_dir);
	assert_int_equal(c.model_direction, row->model_dir);
	if (row->agreement)
		assert_string_equal(c.agreement, row->agreement);
	else
		assert_null(c.agreement);
	if (row->request_agreement)
		assert_string_equal(c.request_agreement,
				    row->request_agreement);
	else
		assert_null(c.request_agreement);
}

static void test_compare_text(void **state)
{
	struct blkalign_bench_compare c;
	double rate0[] = {100 * 1048576.0}, rate1[] = {200 * 1048576.0};
	char buf[1024];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.test = BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE;
	c.write = true;
	c.nsides = 2;
	c.rounds_done = 1;
	c.sides[0] = (struct blkalign_bench_side){.label = "partition",
						  .soft_block_size = 512,
						  .samples = 1,
						  .bytes_per_s = rate0,
						  .traced = true,
						  .requests = 1024,
						  .request_bytes = 1024 * 65536,
						  .model_requests = 1024};
	c.sides[1] = (struct blkalign_bench_side){.label = "window",
						  .soft_block_size = 4096,
						  .samples = 1,
						  .bytes_per_s = rate1,
						  .traced = true,
						  .requests = 128,
						  .request_bytes = 128 * 524288,
						  .model_requests = 128};
	assert_int_equal(blkalign_bench_compare_judge(&c), 0);
	assert_true(blkalign_bench_compare_text(&c, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "buffered writes are 2.00x faster through "
				    "the window (200.0 MiB/s) than through "
				    "the partition (100.0 MiB/s)"));
	assert_non_null(strstr(buf, "soft block sizes 512 (partition) and "
				    "4096 (window)"));
	assert_non_null(strstr(buf, "1024 requests of 65536 bytes"));
	assert_non_null(strstr(buf, "128 of 524288 from the window"));
	assert_non_null(strstr(buf, "the throughput agrees, and so do the "
				    "request counts"));
	assert_null(strstr(buf, "resized"));
	c.sides[1].device_size = 1048576;
	blkalign_bench_compare_text(&c, buf, sizeof(buf));
	assert_non_null(strstr(buf, "not a multiple of 4096 bytes: resized "
				    "to 1048576 bytes"));
	assert_string_equal(blkalign_bench_test_name(c.test),
			    "soft_block_size");
	c.rounds_done = 0;
	blkalign_bench_compare_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "no complete round: nothing to conclude");
}

/*
 * seq and rand on an image file: every pass complete, and --write
 * rewrites exactly what it read (the pattern is still there).
 */
static void test_engine_image(void **state)
{
	static const struct {
		enum blkalign_bench_test test;
		const char *engine;
		uint32_t depth, io;
		bool write;
	} runs[] = {
		{BLKALIGN_BENCH_TEST_SEQ, "psync", 1, 65536, false},
		{BLKALIGN_BENCH_TEST_SEQ, "psync", 1, 65536, true},
		{BLKALIGN_BENCH_TEST_RAND, "psync", 1, 4096, true},
#ifdef HAVE_LIBURING
		{BLKALIGN_BENCH_TEST_RAND, "uring", 8, 4096, true},
		{BLKALIGN_BENCH_TEST_SEQ, "uring", 4, 65536, false},
#endif
	};
	char path[] = "/tmp/blkalign-bench-XXXXXX";
	const size_t size = 4 << 20;
	unsigned char *pat = malloc(size), *back = malloc(size);
	int fd = mkstemp(path);

	(void)state;
	assert_non_null(pat);
	assert_non_null(back);
	assert_true(fd >= 0);
	for (size_t i = 0; i < size; i++)
		pat[i] = (unsigned char)(i * 7 + i / 4096);
	assert_int_equal(pwrite(fd, pat, size, 0), (ssize_t)size);
	for (size_t k = 0; k < ARRAY_SIZE(runs); k++) {
		struct blkalign_bench_opts o;
		struct blkalign_bench_compare *c = NULL;

		blkalign_bench_opts_defaults(&o);
		o.test = runs[k].test;
		o.engine = runs[k].engine;
		o.queue_depth = runs[k].depth;
		o.io_size = runs[k].io;
		o.write = runs[k].write;
		o.rounds = 2;
		assert_int_equal(blkalign_bench_compare(NULL, path, &o, &c), 0);
		assert_int_equal(c->rounds_done, 2);
		assert_int_equal(c->nsides, 1);
		assert_int_equal(c->sides[0].samples, 2);
		assert_int_equal(c->region_size, size);
		assert_true(c->sides[0].median_bytes_per_s > 0);
		assert_string_equal(c->sides[0].path, path);
		blkalign_bench_compare_free(c);
		assert_int_equal(pread(fd, back, size, 0), (ssize_t)size);
		assert_memory_equal(back, pat, size);
	}
	/* whole-vs-partition and soft-block-size need a block device */
	{
		struct blkalign_bench_opts o;
		struct blkalign_bench_compare *c = NULL;

		blkalign_bench_opts_defaults(&o);
		o.test = BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE;
		o.rounds = 1;
		assert_int_equal(blkalign_bench_compare(NULL, path, &o, &c),
				 -ENOTBLK);
		o.test = BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION;
		assert_int_equal(blkalign_bench_compare(NULL, path, &o, &c),
				 -ENOTBLK);
		o.test = BLKALIGN_BENCH_TEST_SEQ;
		o.rounds = BLKALIGN_BENCH_MAX_ROUNDS + 1;
		assert_int_equal(blkalign_bench_compare(NULL, path, &o, &c),
				 -EINVAL);
		assert_null(c);
	}
	close(fd);
	unlink(path);
	free(pat);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_public_sim),
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_bad_opts),
		cmocka_unit_test(test_opts_init_short),
		cmocka_unit_test(test_compare_text),
		cmocka_unit_test(test_engine_image),
	};
	int failed = 0;

	failed |= RUN_TABLE(test_sweep, sweep_rows);
	failed |= RUN_TABLE(test_infer, infer_rows);
	failed |= RUN_TABLE(test_window, window_rows);
	failed |= RUN_TABLE(test_judge, judge_rows);
	failed |= cmocka_run_group_tests(tests, NULL, NULL);
	return failed;
}
