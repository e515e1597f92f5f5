/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-names.c - bench's results in words: the names of its tests and
 * verdicts (the JSON's values) and the one-line texts the text output,
 * the JSON and the SVG charts print.  act/bench/ measures and judges;
 * this says what it found.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "out/out.h"

const char *blkalign_bench_test_name(enum blkalign_bench_test t)
{
	switch (t) {
	case BLKALIGN_BENCH_TEST_PHASE_SWEEP:
		return "phase_sweep";
	case BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE:
		return "soft_block_size";
	case BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION:
		return "whole_vs_partition";
	case BLKALIGN_BENCH_TEST_SEQ:
		return "seq";
	case BLKALIGN_BENCH_TEST_RAND:
		return "rand";
	}
	return "unknown";
}

const char *blkalign_bench_verdict_name(enum blkalign_bench_verdict v)
{
	switch (v) {
	case BLKALIGN_BENCH_NO_DATA:
		return "no_data";
	case BLKALIGN_BENCH_NO_PENALTY:
		return "no_penalty";
	case BLKALIGN_BENCH_PENALTY:
		return "penalty";
	case BLKALIGN_BENCH_INCONCLUSIVE:
		return "inconclusive";
	}
	return "unknown";
}

/**
 * blkalign_bench_verdict_text: the verdict of @r in words, one line.
 * Returns the length snprintf would write, or -EINVAL.
 */
int blkalign_bench_verdict_text(const struct blkalign_bench_result *r,
				char *buf, size_t len)
{
	const char *what = r && r->write ? "writes" : "reads";
	char io[32], pss[32], claim[96] = "";

	if (!r || !buf)
		return -EINVAL;
	ba_size_str(r->io_size, BLKALIGN_SIZE_ADJECTIVE, io, sizeof(io));
	switch (r->verdict) {
	case BLKALIGN_BENCH_NO_DATA:
		return snprintf(buf, len,
				"no complete round: nothing to "
				"conclude");
	case BLKALIGN_BENCH_NO_PENALTY:
		return snprintf(
			buf, len,
			"%s %s cost the same at every phase (the "
			"slowest, phase %u, is %.2fx phase %u): no "
			"penalty measured%s",
			io, what, r->worst_phase, r->ratio, r->aligned_phase,
			r->write ? "" : " (reads seldom show one: writes may)");
	case BLKALIGN_BENCH_INCONCLUSIVE:
		return snprintf(buf, len,
				"inconclusive: %s (slowest phase %u is %.2fx "
				"phase %u)",
				r->reason, r->worst_phase, r->ratio,
				r->aligned_phase);
	case BLKALIGN_BENCH_PENALTY:
		break;
	}
	ba_size_str(r->inferred_physical_sector_size, BLKALIGN_SIZE_ADJECTIVE,
		    pss, sizeof(pss));
	if (r->claimed_physical_sector_size &&
	    r->claimed_physical_sector_size !=
		    r->inferred_physical_sector_size &&
	    !r->inferred_at_least)
		snprintf(claim, sizeof(claim),
			 "; it claims %u-byte physical sectors",
			 r->claimed_physical_sector_size);
	if (r->write)
		return snprintf(buf, len,
				"%s writes at phase %u are %.1fx slower than "
				"at phase %u: this device does read-modify-"
				"write on %s%s physical sectors, aligned at "
				"byte %u of the target%s (confidence %s)",
				io, r->worst_phase, r->ratio, r->aligned_phase,
				r->inferred_at_least ? "at least " : "", pss,
				r->inferred_alignment_offset, claim,
				r->confidence);
	return snprintf(buf, len,
			"%s reads at phase %u are %.1fx slower than at phase "
			"%u: reads that cross a %s%s boundary cost more, "
			"aligned at byte %u of the target (confidence %s)",
			io, r->worst_phase, r->ratio, r->aligned_phase,
			r->inferred_at_least ? "at least " : "", pss,
			r->inferred_alignment_offset, r->confidence);
}

static void rate_words(double bps, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f MiB/s", bps / (double)MIB);
}

static const char *better_side(const struct blkalign_bench_compare *c, int d)
{
	return d > 0 ? c->sides[1].label : c->sides[0].label;
}

/**
 * blkalign_bench_compare_text: what @c means, in words (a few
 * sentences, one line).  Returns the length snprintf would write, or
 * -EINVAL.
 */
int blkalign_bench_compare_text(const struct blkalign_bench_compare *c,
				char *buf, size_t len)
{
	const struct blkalign_bench_side *a, *b;
	char ra[32], rb[32], same[256], req[256] = "", model[256] = "";
	char fix[192] = "";
	const char *what;

	if (!c || !buf)
		return -EINVAL;
	if (c->nsides == 1) {
		rate_words(c->sides[0].median_bytes_per_s, ra, sizeof(ra));
		if (!c->rounds_done)
			return snprintf(buf, len,
					"no complete pass: nothing "
					"to report");
		return snprintf(buf, len,
				"%s %s of %u bytes at queue depth %u: %s "
				"(median of %u passes)",
				c->test == BLKALIGN_BENCH_TEST_RAND
					? "random"
					: "sequential",
				c->write ? "rewrites" : "reads", c->io_size,
				c->queue_depth, ra, c->rounds_done);
	}
	if (!c->rounds_done)
		return snprintf(buf, len,
				"no complete round: nothing to conclude");
	a = &c->sides[0];
	b = &c->sides[1];
	what = c->write ? "writes" : "reads";
	rate_words(a->median_bytes_per_s, ra, sizeof(ra));
	rate_words(b->median_bytes_per_s, rb, sizeof(rb));
	if (c->measured_direction) {
		int d = c->measured_direction;

		snprintf(same, sizeof(same),
			 "%s %s are %.2fx faster through the %s (%s) than "
			 "through the %s (%s)",
			 c->direct ? "direct" : "buffered", what,
			 d > 0 ? c->ratio : 1 / c->ratio, better_side(c, d),
			 d > 0 ? rb : ra, better_side(c, -d), d > 0 ? ra : rb);
	} else {
		snprintf(same, sizeof(same),
			 "%s %s run at the same speed (within 10%%) through "
			 "the %s (%s) and the %s (%s)",
			 c->direct ? "direct" : "buffered", what, a->label, ra,
			 b->label, rb);
	}
	if (a->traced && b->traced)
		snprintf(req, sizeof(req),
			 "; the disk got %llu requests of %.0f bytes on "
			 "average from the %s, %llu of %.0f from the %s",
			 (unsigned long long)a->requests, a->request_avg,
			 a->label, (unsigned long long)b->requests,
			 b->request_avg, b->label);
	if (c->agreement)
		snprintf(model, sizeof(model),
			 "; model predicts %s (%llu vs %llu requests): "
			 "the throughput %s%s",
			 c->model_direction
				 ? (c->model_direction > 0
					    ? "fewer, larger requests through "
					      "the window"
					    : "fewer requests through the "
					      "partition")
				 : "the same requests on both sides",
			 (unsigned long long)a->model_requests,
			 (unsigned long long)b->model_requests, c->agreement,
			 c->request_agreement
				 ? (!strcmp(c->request_agreement, "agrees")
					    ? ", and so do the request counts"
					    : ", but the request counts do "
					      "not")
				 : "");
	if (c->test == BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE &&
	    a->soft_block_size && a->soft_block_size < b->soft_block_size &&
	    b->device_size)
		snprintf(fix, sizeof(fix),
			 "; the partition's size is not a multiple of %u "
			 "bytes: resized to %llu bytes (the window's size) it "
			 "would get the window's soft block size",
			 b->soft_block_size,
			 (unsigned long long)b->device_size);
	if (c->test == BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE)
		return snprintf(
			buf, len,
			"%s; soft block sizes %u (%s) and %u (%s)%s%s%s%s",
			same, a->soft_block_size, a->label, b->soft_block_size,
			b->label, req, model, fix,
			c->write ? ""
				 : " (reads do not depend on the soft "
				   "block size: writes may)");
	return snprintf(buf, len, "%s%s", same, req);
}
