/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grid.c - the arithmetic of alignment grids, shared by the scan (md
 * members off their disk's grid), the rules, the model and the plan.  A grid
 * "honouring the alignment offset" is { ao + k * g }: x is on it when (x - ao)
 * mod g == 0 (the kernel's queue_limit_alignment_offset()).
 */
#include "blkalignP.h"

uint64_t ba_gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* lcm, or 0 when it would overflow; lcm(0, b) = b. */
uint64_t ba_lcm64(uint64_t a, uint64_t b)
{
	uint64_t g;

	if (!a || !b)
		return a ? a : b;
	g = ba_gcd64(a, b);
	if (a / g > UINT64_MAX / b)
		return 0;
	return a / g * b;
}

/* (x - ao) mod g, without going negative; 0 for g = 0. */
uint64_t ba_off_grid(uint64_t x, uint64_t ao, uint64_t g)
{
	if (g == 0)
		return 0;
	return (x % g + g - ao % g) % g;
}

/* The smallest ao + k*g >= x. */
uint64_t ba_round_up_grid(uint64_t x, uint64_t ao, uint64_t g)
{
	uint64_t r = ba_off_grid(x, ao, g);

	return r ? x + (g - r) : x;
}

/* The largest ao + k*g <= x (0 when x is below the first one). */
uint64_t ba_round_down_grid(uint64_t x, uint64_t ao, uint64_t g)
{
	uint64_t r = ba_off_grid(x, ao, g);

	return r <= x ? x - r : 0;
}

/*
 * The grain a realigned start goes to: a multiple of 1 MiB, the physical
 * sector and the minimum and optimal I/O sizes (lcm, so a 3 x 64 KiB
 * stripe gives 3 MiB), falling back to the optimal I/O size alone when
 * the lcm is over 1 GiB or overflows.
 */
uint64_t ba_grain(uint64_t pss, uint64_t min_io, uint64_t opt_io)
{
	uint64_t g = ba_lcm64(ba_lcm64(MIB, pss), min_io);

	if (opt_io) {
		uint64_t with = ba_lcm64(g, opt_io);

		g = with && with <= 1024 * MIB ? with : opt_io;
	}
	return g ? g : MIB;
}
