/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-regions.c - the geometry of a move (docs/fix.md, "The move"): its
 * steps (at most the shift, cut on a 4 KiB grid), step mode's regions
 * moved side by side and their boundaries, where each region stands
 * after some levels, and the part of each that a rollback of a move
 * stopped part-way takes back.  No I/O: fix-move.c does that.
 */
#include "fix.h"

/* The partition-relative start of the step after @done bytes, @len long. */
uint64_t ba_fix_step_rel(const struct ba_fix_state *st, uint64_t done,
			 uint64_t len)
{
	return st->to > st->from ? st->hi - done - len : st->lo + done;
}

/*
 * The length of the next piece after @done bytes, at most @max, cut so
 * that its far end falls on a multiple of @a from the partition start:
 * the destination's writes stay on its 4 KiB grid (direct I/O that is not
 * on the backing file system's block grid is slow on loop devices).
 */
uint64_t ba_fix_piece(const struct ba_fix_state *st, uint64_t done,
		      uint64_t max, uint64_t a)
{
	uint64_t left = st->hi - st->lo - done, e;

	if (max >= left)
		return left;
	if (st->to > st->from) {
		uint64_t top = st->hi - done;

		e = (top - max + a - 1) / a * a; /* round up */
		return e < top ? top - e : max;
	}
	e = (st->lo + done + max) / a * a; /* round down */
	return e > st->lo + done ? e - st->lo - done : max;
}

/* The alignment of pieces: 4 KiB when the step is made of them. */
uint64_t ba_fix_piece_align(const struct ba_journal *j)
{
	return j->g.step % 4096 ? j->g.lss : 4096;
}

/*
 * ba_fix_chains: step mode's regions for @g: as many as make a level of
 * about BA_FIX_LEVEL bytes (at most BA_FIX_MAX_CHAINS), each a whole number
 * of steps and at least the shift long (its boundary is the shift).
 */
void ba_fix_chains(struct ba_fix_geom *g)
{
	uint64_t d = g->new_start > g->old_start ? g->new_start - g->old_start
						 : g->old_start - g->new_start;
	uint64_t w = g->step, p, r;

	g->chains = 1;
	g->region = g->len;
	if (g->batch || !d || !w || g->len < 2 * d)
		return;
	p = BA_FIX_LEVEL / w;
	p = p < 1 ? 1 : p > BA_FIX_MAX_CHAINS ? BA_FIX_MAX_CHAINS : p;
	r = (g->len + p - 1) / p;
	r = (r + w - 1) / w * w;
	if (r < d)
		r = (d + w - 1) / w * w;
	p = (g->len + r - 1) / r;
	if (p > 1 && g->len - (p - 1) * r < d)
		p--; /* the last region takes the rest */
	g->chains = (uint32_t)p;
	g->region = r;
}

static uint64_t shift_of(const struct ba_fix_geom *g)
{
	return g->new_start > g->old_start ? g->new_start - g->old_start
					   : g->old_start - g->new_start;
}

/* Bytes of one move's boundaries in the journal. */
uint64_t ba_fix_bound_len(const struct ba_fix_geom *g)
{
	return g->chains > 1 ? (uint64_t)(g->chains - 1) * shift_of(g) : 0;
}

/*
 * ba_fix_bound_range: boundary @k of a move: moving right, the first d
 * bytes of region k + 1 (@bottoms); moving left, the last d bytes of
 * region k.
 */
void ba_fix_bound_range(const struct ba_fix_geom *g, bool bottoms, uint32_t k,
			uint64_t *rel, uint64_t *len)
{
	*len = shift_of(g);
	*rel = bottoms ? (uint64_t)(k + 1) * g->region
		       : (uint64_t)(k + 1) * g->region - *len;
}

/* The bytes of region @rs (of the forward move) moved by @levels levels. */
static uint64_t moved_by(const struct ba_journal *j, struct ba_fix_state rs,
			 uint64_t levels)
{
	uint64_t a = ba_fix_piece_align(j), done = 0;

	rs.from = j->g.old_start;
	rs.to = j->g.new_start;
	for (uint64_t l = 0; l < levels && done < rs.hi - rs.lo; l++)
		done += ba_fix_piece(&rs, done, j->g.step, a);
	return done;
}

/*
 * Region @k of the move in flight as a state of its own (lo, hi).  When
 * it rolls back a move stopped after st.rb_levels levels, only the part
 * of the region that move moved (the top when it went right, the bottom
 * when it went left) goes back.
 */
struct ba_fix_state ba_fix_region(const struct ba_journal *j, uint32_t k)
{
	struct ba_fix_state rs = j->st;

	rs.lo = j->st.lo + (uint64_t)k * j->g.region;
	rs.hi = k + 1 == j->g.chains ? j->st.hi : rs.lo + j->g.region;
	if (j->st.rb_levels) {
		uint64_t moved = moved_by(j, rs, j->st.rb_levels);

		if (j->g.new_start > j->g.old_start)
			rs.lo = rs.hi - moved;
		else
			rs.hi = rs.lo + moved;
	}
	return rs;
}

/** ba_fix_move_bytes: the bytes the move in flight copies in all. */
uint64_t ba_fix_move_bytes(const struct ba_journal *j)
{
	uint64_t n = 0;

	if (j->g.batch || j->g.chains > BA_FIX_MAX_CHAINS)
		return j->st.hi - j->st.lo;
	for (uint32_t k = 0; k < j->g.chains; k++) {
		struct ba_fix_state rs = ba_fix_region(j, k);

		n += rs.hi - rs.lo;
	}
	return n;
}

/* Each region's bytes done, @done, after @n more levels (a step each). */
void ba_fix_advance(const struct ba_journal *j, uint64_t *done, uint64_t n)
{
	uint64_t a = ba_fix_piece_align(j);

	for (uint32_t k = 0; k < j->g.chains; k++) {
		struct ba_fix_state rs = ba_fix_region(j, k);

		for (uint64_t l = 0; l < n && done[k] < rs.hi - rs.lo; l++)
			done[k] += ba_fix_piece(&rs, done[k], j->g.step, a);
	}
}
