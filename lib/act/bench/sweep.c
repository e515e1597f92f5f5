/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep.c - the alignment phase sweep and what it says about the device.
 *
 * The same I/O of io_size bytes at phase k, offset pos + k * phase_step
 * (k = 0 .. nphases-1), pos a random multiple of a 64 KiB-or-larger grid
 * inside the region.  Every round visits every phase once, in a shuffled
 * order (fixed seed), so that drift (caches, thermal, other load) hits
 * every phase alike; only complete rounds count.  Writes rewrite the
 * bytes just read: a round reads all its phases first, then writes each
 * buffer back where it came from, timing only the writes, so the content
 * never changes whenever the sweep stops (domain-facts §3.2, §6).
 *
 * The inference (blkalign_bench_infer) is pure over the per-phase
 * statistics: the fast phases must stand apart from the slow ones by
 * at least 20% and by more than the spread, and form a grid: exactly the
 * phases o, o + g, o + 2g, ... for the smallest power of two g; then the
 * physical sector is g * phase_step bytes, aligned at o * phase_step.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "analyze/analyze.h"
#include "scan/scan.h"

#define MIN_RATIO  1.2		/* a penalty below 20% is not claimed */
#define SE_K	   3.0		/* medians apart by 3 standard errors */
#define REGION_MAX (1ull << 30) /* default bound of the region */

static void shuffle(uint32_t *a, uint32_t n, uint64_t *rng)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = (uint32_t)(ba_splitmix64(rng) % i), t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Quantile @q of sorted @v (linear between ranks). */
static uint64_t quantile(const uint64_t *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;

	if (i + 1 >= n)
		return v[n - 1];
	return (uint64_t)llround((double)v[i] + f * (double)(v[i + 1] - v[i]));
}

/* One I/O through the engine, waiting for it. */
static int do_io(struct ba_engine *e, struct ba_io_u *u)
{
	struct ba_io_u *done[1];
	int rc = e->ops->queue(e, u);

	if (rc)
		return rc;
	rc = e->ops->reap(e, done, 1, 1);
	if (rc < 0)
		return rc;
	if (rc != 1 || done[0] != u)
		return -EIO;
	return u->error;
}

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static bool should_stop(const struct blkalign_bench_opts *o,
			struct blkalign_bench_result *r, uint64_t t0)
{
	if (o->stop && *o->stop) {
		r->interrupted = true;
		return true;
	}
	if (o->runtime > 0 && (double)(ba_now_ns() - t0) / 1e9 >= o->runtime) {
		r->runtime_exceeded = true;
		return true;
	}
	return false;
}

static void phase_stats(struct blkalign_bench_phase *p, uint64_t *v, size_t n)
{
	p->samples = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	p->min_ns = v[0];
	p->max_ns = v[n - 1];
	p->median_ns = quantile(v, n, 0.5);
	p->p25_ns = quantile(v, n, 0.25);
	p->p75_ns = quantile(v, n, 0.75);
}

int ba_bench_sweep_engine(struct ba_engine *e,
			  const struct blkalign_bench_opts *o,
			  struct blkalign_bench_result *r)
{
	uint32_t n, order[BLKALIGN_BENCH_MAX_PHASES];
	uint64_t *samples = NULL, stage[BLKALIGN_BENCH_MAX_PHASES];
	uint64_t pos[BLKALIGN_BENCH_MAX_PHASES];
	struct ba_io_u io[BLKALIGN_BENCH_MAX_PHASES];
	void *bufs[BLKALIGN_BENCH_MAX_PHASES] = {0};
	uint64_t grid, span, nslots, region, rng = o->seed, t0;
	int rc = 0;

	if (!o->io_size || !o->phase_step || o->io_size % 512 ||
	    o->phase_step % 512 || !o->rounds)
		return -EINVAL;
	n = o->nphases ? o->nphases : o->io_size / o->phase_step;
	if (!n)
		n = 1;
	if (!o->nphases && n > BLKALIGN_BENCH_MAX_PHASES)
		n = BLKALIGN_BENCH_MAX_PHASES;
	if (n > BLKALIGN_BENCH_MAX_PHASES)
		return -EINVAL;
	if (o->offset >= r->device_size)
		return -ENOSPC;
	region = r->device_size - o->offset;
	if (o->region_size && o->region_size < region)
		region = o->region_size;
	else if (!o->region_size && region > REGION_MAX)
		region = REGION_MAX;
	span = (uint64_t)(n - 1) * o->phase_step + o->io_size;
	grid = pow2_at_least(span);
	if (grid < 65536)
		grid = 65536;
	if (region < span)
		return -ENOSPC;
	nslots = (region - span) / grid + 1;

	r->io_size = o->io_size;
	r->phase_step = o->phase_step;
	r->nphases = n;
	r->offset = o->offset;
	r->region_size = region;
	r->write = o->write;
	r->rounds_planned = o->rounds;
	r->engine = e->ops->name;

	samples = calloc((size_t)n * o->rounds, sizeof(*samples));
	if (!samples)
		return -ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		if (posix_memalign(&bufs[k], 4096, o->io_size)) {
			rc = -ENOMEM;
			goto out;
		}
		memset(bufs[k], 0, o->io_size);
		order[k] = k;
	}

	t0 = ba_now_ns();
	for (uint32_t round = 0; round < o->rounds; round++) {
		bool stopped = false;

		if (should_stop(o, r, t0))
			break;
		shuffle(order, n, &rng);
		for (uint32_t k = 0; k < n; k++)
			pos[k] = o->offset +
				 (ba_splitmix64(&rng) % nslots) * grid +
				 (uint64_t)k * o->phase_step;
		if (o->write) {
			/* read first: what each write puts back */
			for (uint32_t i = 0; i < n && !stopped; i++) {
				uint32_t k = order[i];

				io[k] = (struct ba_io_u){.dir = BA_IO_READ,
							 .offset = pos[k],
							 .len = o->io_size,
							 .buf = bufs[k]};
				rc = do_io(e, &io[k]);
				if (rc)
					goto out;
				stopped = should_stop(o, r, t0);
			}
			shuffle(order, n, &rng);
		}
		for (uint32_t i = 0; i < n && !stopped; i++) {
			uint32_t k = order[i];

			io[k] = (struct ba_io_u){
				.dir = o->write ? BA_IO_WRITE : BA_IO_READ,
				.offset = pos[k],
				.len = o->io_size,
				.buf = bufs[k],
			};
			rc = do_io(e, &io[k]);
			if (rc)
				goto out;
			stage[k] = io[k].lat_ns;
			r->ios++;
			/* the last I/O of a round completes it anyway */
			if (i + 1 < n)
				stopped = should_stop(o, r, t0);
		}
		if (stopped)
			break;
		for (uint32_t k = 0; k < n; k++)
			samples[(size_t)k * o->rounds + round] = stage[k];
		r->rounds_done++;
		if (o->progress &&
		    o->progress(o->progress_data, r->rounds_done, o->rounds,
				(double)(ba_now_ns() - t0) / 1e9)) {
			r->interrupted = true;
			break;
		}
	}
	r->seconds = (double)(ba_now_ns() - t0) / 1e9;
	for (uint32_t k = 0; k < n; k++) {
		r->phases[k].offset = (uint64_t)k * o->phase_step;
		phase_stats(&r->phases[k], samples + (size_t)k * o->rounds,
			    r->rounds_done);
	}
	rc = blkalign_bench_infer(r);
out:
	for (uint32_t k = 0; k < n; k++)
		free(bufs[k]);
	free(samples);
	return rc;
}

/* Standard error of a median from the IQR: sigma ~ IQR / 1.349. */
static double median_se(const struct blkalign_bench_phase *p)
{
	double sigma = (double)(p->p75_ns - p->p25_ns) / 1.349;

	return p->samples ? 1.2533 * sigma / sqrt((double)p->samples)
			  : INFINITY;
}

static double iqr(const struct blkalign_bench_phase *p)
{
	return (double)(p->p75_ns - p->p25_ns);
}

/*
 * The smallest power of two g (in phases) such that the fast phases are
 * exactly those k with k mod g == o.  Returns g, or 0 when none fits.
 */
static uint32_t fit_grid(const struct blkalign_bench_result *r, uint32_t *o)
{
	for (uint32_t g = 1; g <= r->nphases; g <<= 1) {
		for (uint32_t off = 0; off < g; off++) {
			bool fits = true;

			for (uint32_t k = 0; k < r->nphases && fits; k++)
				fits = r->phases[k].fast == (k % g == off);
			if (fits) {
				*o = off;
				return g;
			}
		}
	}
	return 0;
}

/**
 * blkalign_bench_infer: judge the per-phase statistics in @r (phases,
 * nphases, phase_step, io_size, offset, rounds_done) and fill in the
 * verdict fields.  Pure.  Returns 0 or -EINVAL.
 */
int blkalign_bench_infer(struct blkalign_bench_result *r)
{
	uint32_t n, sorted[BLKALIGN_BENCH_MAX_PHASES], split = 0, g, off = 0;
	const struct blkalign_bench_phase *best, *worst, *fe, *se;
	double best_gap = 0, max_iqr = 0, gap;

	if (!r || !r->phases || !r->nphases ||
	    r->nphases > BLKALIGN_BENCH_MAX_PHASES)
		return -EINVAL;
	n = r->nphases;
	r->verdict = BLKALIGN_BENCH_NO_DATA;
	r->confidence = NULL;
	r->inferred_physical_sector_size = 0;
	r->inferred_alignment_offset = 0;
	r->inferred_at_least = false;
	r->separation = 0;
	r->ratio = 0;
	for (uint32_t k = 0; k < n; k++)
		r->phases[k].fast = false;
	if (!r->rounds_done) {
		r->reason = "no complete round was measured";
		return 0;
	}

	/* phases by median, fastest first (stable: lower phase first) */
	for (uint32_t k = 0; k < n; k++)
		sorted[k] = k;
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i;
		     j > 0 && r->phases[sorted[j]].median_ns <
				      r->phases[sorted[j - 1]].median_ns;
		     j--) {
			uint32_t t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	best = &r->phases[sorted[0]];
	r->aligned_phase = sorted[0];
	/* the slowest; on a tie the lowest phase, like the fastest */
	r->worst_phase = sorted[n - 1];
	for (uint32_t k = 0; k < n; k++)
		if (r->phases[k].median_ns ==
		    r->phases[sorted[n - 1]].median_ns) {
			r->worst_phase = k;
			break;
		}
	worst = &r->phases[r->worst_phase];
	for (uint32_t k = 0; k < n; k++) {
		const struct blkalign_bench_phase *p = &r->phases[k];

		r->phases[k].ratio =
			best->median_ns
				? (double)p->median_ns / (double)best->median_ns
				: 1.0;
		if (iqr(p) > max_iqr)
			max_iqr = iqr(p);
	}
	r->ratio = r->phases[r->worst_phase].ratio;
	if (!best->median_ns && worst->median_ns)
		r->ratio = INFINITY;

	if (r->ratio < MIN_RATIO) {
		/*
		 * "No penalty" only when the medians are precise enough: the
		 * slowest phase's median, 2 standard errors up, is still
		 * within 20% of the fastest's, 2 standard errors down.
		 */
		double hi = (double)worst->median_ns + 2 * median_se(worst);
		double lo = (double)best->median_ns - 2 * median_se(best);

		if (!best->median_ns || (lo > 0 && hi < MIN_RATIO * lo)) {
			r->verdict = BLKALIGN_BENCH_NO_PENALTY;
			r->reason = "every phase is within 20% of the fastest";
		} else {
			r->verdict = BLKALIGN_BENCH_INCONCLUSIVE;
			r->reason =
				"the phases differ by less than 20%, but the "
				"noise could hide a penalty of that size";
		}
		return 0;
	}

	/* the widest relative gap between consecutive medians splits */
	for (uint32_t i = 0; i + 1 < n; i++) {
		double lo = (double)r->phases[sorted[i]].median_ns;
		double hi = (double)r->phases[sorted[i + 1]].median_ns;
		double q = lo > 0 ? hi / lo : (hi > 0 ? INFINITY : 1.0);

		if (q > best_gap) {
			best_gap = q;
			split = i;
		}
	}
	for (uint32_t i = 0; i <= split; i++)
		r->phases[sorted[i]].fast = true;
	fe = &r->phases[sorted[split]];
	se = &r->phases[sorted[split + 1]];
	gap = (double)se->median_ns - (double)fe->median_ns;
	r->separation = gap / (max_iqr > 1 ? max_iqr : 1);

	r->verdict = BLKALIGN_BENCH_INCONCLUSIVE;
	if (best_gap < MIN_RATIO) {
		r->reason = "the phases spread evenly from the fastest to the "
			    "slowest: no group stands apart";
		return 0;
	}
	if (gap <= SE_K * (median_se(fe) + median_se(se)) ||
	    r->separation < 1.0) {
		r->reason = "the fast and the slow phases overlap, too much "
			    "noise to conclude; more rounds may help";
		return 0;
	}
	g = fit_grid(r, &off);
	if (!g) {
		r->reason = "the fast phases are not on a power-of-two grid";
		return 0;
	}
	r->verdict = BLKALIGN_BENCH_PENALTY;
	r->reason = "the fast phases form a grid";
	r->inferred_physical_sector_size = g * r->phase_step;
	r->inferred_alignment_offset =
		(uint32_t)((r->offset + (uint64_t)off * r->phase_step) %
			   r->inferred_physical_sector_size);
	/* one fast phase in a sweep narrower than the I/O: maybe larger */
	r->inferred_at_least =
		g == n && (uint64_t)n * r->phase_step < r->io_size;
	r->confidence = r->separation >= 3     ? "high"
			: r->separation >= 1.5 ? "medium"
					       : "low";
	return 0;
}
