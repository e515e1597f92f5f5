/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-plan.c - the realignment planner (lib/analyze/plan.c): the grain, the
 * grid rounding with alignment offsets, the decision for one partition
 * (move, resize, optional, impossible), the room a partition has (next
 * partition, EBR sector of the next logical one, extended container,
 * GPT usable end), and whole plans re-checked by the rules.
 *
 * Every expected number is worked out by hand in the row's comment.
 * Sizes in 512-byte sectors unless said: S(n) = n * 512.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "plan.h"

#define S(n) ((uint64_t)(n)*512)
#define FAR  ((uint64_t)1 << 40) /* no neighbour in sight */

/* ------------------------------------------------------------------ */
/* grain */

struct grain_row {
	const char *name;
	int64_t pss, min, opt;
	uint64_t want;
};

static const struct grain_row grain_rows[] = {
	{"512n", 512, 512, 0, MIB},
	{"512e", 4096, 4096, 0, MIB},
	/* 3 x 64 KiB = 196608 = 3 * 2^16; lcm with 2^20 = 3 * 2^20 */
	{"stripe-3x64k", 4096, 65536, 196608, 3 * MIB},
	/* 5 x 512 KiB = 2621440 = 5 * 2^19; lcm = 5 * 2^20 */
	{"stripe-5x512k", 4096, 524288, 2621440, 5 * MIB},
	/* 7 x 64 KiB = 458752 = 7 * 2^16; lcm = 7 MiB */
	{"stripe-7x64k", 512, 65536, 458752, 7 * MIB},
	/* 2 MiB stripe: lcm(1 MiB, 2 MiB) = 2 MiB */
	{"stripe-2m", 4096, 524288, 2 * MIB, 2 * MIB},
	/* lcm(1 MiB, 1023 * 1 MiB... ) > 1 GiB: the optimal size alone;
	 * 1073741823 = 2^30 - 1 is odd: lcm = 2^20 * (2^30 - 1) */
	{"absurd-lcm-falls-back", 512, 512, 1073741823, 1073741823},
};

static void test_grain(void **state)
{
	const struct grain_row *r = *state;

	assert_int_equal(ba_grain(r->pss, r->min, r->opt), r->want);
}

/* ------------------------------------------------------------------ */
/* rounding on { ao + k * g } */

struct round_row {
	const char *name;
	uint64_t x, ao, g, up, down;
};

static const struct round_row round_rows[] = {
	{"on-grid", MIB, 0, MIB, MIB, MIB},
	{"63-to-1mib", S(63), 0, MIB, MIB, 0},
	/* ao 3584: grid 3584 + k MiB; 32256 -> 1052160; down: 3584 */
	{"ao3584-63", S(63), 3584, MIB, 1052160, 3584},
	/* 0 is below the first grid point 3584: up 3584, down stays 0 */
	{"ao3584-zero", 0, 3584, MIB, 3584, 0},
	/* 2 MiB: (2 MiB - 3584) mod 1 MiB = 1044992: down 1 MiB + 3584 */
	{"ao3584-2mib", 2 * MIB, 3584, MIB, 2 * MIB + 3584, MIB + 3584},
	/* 3 MiB grain: 1 MiB -> 3 MiB up, 0 down; 7 MiB -> 9 / 6 MiB */
	{"3mib-1mib", MIB, 0, 3 * MIB, 3 * MIB, 0},
	{"3mib-7mib", 7 * MIB, 0, 3 * MIB, 9 * MIB, 6 * MIB},
	/* 3 MiB grain, ao 4096: 7 MiB - 4096 = 7335936, mod 3 MiB =
	 * 1044480: down 6 MiB + 4096, up 9 MiB + 4096 */
	{"3mib-ao4096", 7 * MIB, 4096, 3 * MIB, 9 * MIB + 4096, 6 * MIB + 4096},
};

static void test_round(void **state)
{
	const struct round_row *r = *state;

	assert_int_equal(ba_round_up_grid(r->x, r->ao, r->g), r->up);
	assert_int_equal(ba_round_down_grid(r->x, r->ao, r->g), r->down);
}

/* ------------------------------------------------------------------ */
/* the decision for one partition */

struct one_row {
	const char *name;
	struct ba_plan_geom g; /* grain 0: 1 MiB */
	struct ba_plan_input in;
	enum blkalign_plan_action action;
	enum ba_plan_why why;
	uint64_t new_start, new_size;
	bool grows;
	uint64_t room; /* impossible NO_ROOM only */
	bool left;     /* moved down: no room after it */
};

#define G512E                                             \
	{                                                 \
		.pss = 4096, .min_io = 4096, .page = 4096 \
	}
#define G512N                                           \
	{                                               \
		.pss = 512, .min_io = 512, .page = 4096 \
	}
#define G512E_AO                                                      \
	{                                                             \
		.ao = 3584, .pss = 4096, .min_io = 4096, .page = 4096 \
	}

static const struct one_row one_rows[] = {
	{
		/* seed 002's swap: sector 1, 14281784 sectors (a multiple
		 * of 8: 1785223 pages, all used), the next partition at
		 * 14282752, 512e.  The 1 MiB grain: 2048 + 14281784 =
		 * 14283832 > 14282752, and below 1 only 0; the 4 KiB grid:
		 * 1 -> 8, end 8 + 14281784 = 14281792 <= 14282752: moved
		 * up to sector 8, the size kept (start-mib stays, info) */
		"seed002-swap-4k-grid",
		G512E,
		{S(1), S(14281784), S(14281784), S(14282752), 0, S(1)},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		S(8),
		S(14281784),
		true,
		0,
	},
	{
		/* md 1.0 / ZFS (metadata at the end): 63, 20001 sectors
		 * (odd): the start moves to 1 MiB, the size stays 20001 */
		"keep-size-moves-with-its-size",
		G512E,
		{S(63), S(20001), S(20001), FAR, 0, 0, 0, true},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		MIB,
		S(20001),
		true,
		0,
	},
	{
		/* the same at 1 MiB: nothing can change: none (the size
		 * stays, said so) */
		"keep-size-start-aligned",
		G512E,
		{MIB, S(20001), S(20001), FAR, 0, 0, 0, true},
		BLKALIGN_PLAN_NONE,
		BA_WHY_ALIGNED,
		MIB,
		S(20001),
		false,
		0,
	},
	{
		/* LVM on the last partition of a 512n disk: 20001 sectors
		 * (odd) up to the end; its I/O bypasses the partition's page
		 * cache, so sizes need only be whole 512-byte sectors:
		 * none */
		"below-page-cache-odd-size-512n",
		G512N,
		{MIB, S(20001), S(20001), MIB + S(20001), 0, 0, 512},
		BLKALIGN_PLAN_NONE,
		BA_WHY_ALIGNED,
		MIB,
		S(20001),
		false,
		0,
	},
	{
		/* the same holding nothing blkalign sizes: a page multiple
		 * wanted, but it cannot shrink (all 20001 sectors kept)
		 * nor grow (it ends at the limit): none, the size stays;
		 * room 10240512 -> 2500 pages = 10240000 */
		"size-cannot-change-none",
		G512N,
		{MIB, S(20001), S(20001), MIB + S(20001), 0, 0},
		BLKALIGN_PLAN_NONE,
		BA_WHY_NO_ROOM,
		MIB,
		S(20001),
		false,
		10240000,
	},
	{
		/* 512e, 2048 sectors at 2111 (off 4 KiB), used whole, the
		 * next partition at its end 4159.  Right: new start 4096,
		 * end 4159 -> grain 4096: nothing; 63 sectors -> 7 pages
		 * < used; grow: 4096 + 2048 = 6144 > 4159: no room.  Left:
		 * grain point below 2111 is 2048 >= low 2048 (the previous
		 * partition's end): end 4159 -> grain 4096: 2048 sectors
		 * = used, a multiple of 8: move left. */
		"left-when-no-room-right",
		G512E,
		{S(2111), S(2048), S(2048), S(4159), 0, S(2048)},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		S(2048),
		S(2048),
		false,
		0,
		true,
	},
	{
		/* the same, the previous partition ending at 2100: the
		 * 1 MiB grain has no room (right: 4096 + 2048 > 4159; left:
		 * 2048 is below 2100); the 4 KiB physical grid: right 2112
		 * + 2048 = 4160 > 4159; left 2104 >= 2100: end 4159 -> 4152
		 * on the grid, 2048 sectors = used: move down to 2104 (off
		 * 1 MiB only: start-mib, information) */
		"left-blocked-by-previous-4k-grid",
		G512E,
		{S(2111), S(2048), S(2048), S(4159), 0, S(2100)},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		S(2104),
		S(2048),
		false,
		0,
		true,
	},
	{
		/* the same with the previous partition ending at 2110: no
		 * grid has room (4 KiB: left 2104 < 2110): impossible; the
		 * most room is the 4 KiB grid's, from 2112: 2047 sectors ->
		 * 255 pages = 1044480 */
		"left-blocked-by-previous",
		G512E,
		{S(2111), S(2048), S(2048), S(4159), 0, S(2110)},
		BLKALIGN_PLAN_IMPOSSIBLE,
		BA_WHY_NO_ROOM,
		S(2111),
		S(2048),
		false,
		1044480,
	},
	{
		/* low 0: a logical partition never moves left; room as
		 * above, 1044480 */
		"left-never-logical",
		G512E,
		{S(2111), S(2048), S(2048), S(4159), 0, 0},
		BLKALIGN_PLAN_IMPOSSIBLE,
		BA_WHY_NO_ROOM,
		S(2111),
		S(2048),
		false,
		1044480,
	},
	{
		"aligned",
		G512E,
		{S(2048), S(2048), S(2048), FAR},
		BLKALIGN_PLAN_NONE,
		BA_WHY_ALIGNED,
		S(2048),
		S(2048),
	},
	{
		/* 63 on 512e: start 1 MiB.  End 2111 -> grain 2048 = the
		 * new start: no; 2111 - 2048 = 63 sectors -> 7 pages <
		 * used; grow: 1 MiB rounded to the grain: 2 MiB end. */
		"63-unknown-grows",
		G512E,
		{S(63), S(2048), S(2048), FAR},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		MIB,
		MIB,
		true,
	},
	{
		/* 2 MiB partition at 63, 1 MiB used: the end 4159 rounds
		 * down to 4096 (2 MiB): 1 MiB from the new start, enough. */
		"63-fs-smaller-keeps-end",
		G512E,
		{S(63), S(4096), MIB, FAR},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		MIB,
		MIB,
		false,
	},
	{
		/* 2 MiB at 63, 1 MiB + 4096 used: the grain end leaves
		 * 1 MiB, too little; 4159 - 2048 = 2111 sectors -> 263
		 * pages = 1077248 bytes >= 1052672: keep the end. */
		"63-fs-keeps-end-on-pages",
		G512E,
		{S(63), S(4096), MIB + 4096, FAR},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		MIB,
		1077248,
		false,
	},
	{
		/* the next partition right behind it: limit 2111 sectors;
		 * the most room is on the 4 KiB grid, from 64: 2047 sectors
		 * -> 255 pages = 1044480 (from 1 MiB only 7 pages) */
		"63-no-room",
		G512E,
		{S(63), S(2048), S(2048), S(2111)},
		BLKALIGN_PLAN_IMPOSSIBLE,
		BA_WHY_NO_ROOM,
		S(63),
		S(2048),
		false,
		1044480,
	},
	{
		/* 100 sectors at 63: 1 MiB is past its end (163 sectors);
		 * from 64 on the 4 KiB grid 99 sectors -> 12 pages = 49152
		 * bytes, < 100 sectors: no room */
		"start-past-limit-on-the-grain",
		G512E,
		{S(63), S(100), S(100), S(163)},
		BLKALIGN_PLAN_IMPOSSIBLE,
		BA_WHY_NO_ROOM,
		S(63),
		S(100),
		false,
		49152,
	},
	{
		/* 1 sector at 63, the next partition at 64: every grid's
		 * start (64 on 4 KiB, 2048) is at or past the limit */
		"start-past-limit-every-grid",
		G512E,
		{S(63), S(1), S(1), S(64)},
		BLKALIGN_PLAN_IMPOSSIBLE,
		BA_WHY_START_PAST_LIMIT,
		S(63),
		S(1),
	},
	{
		/* 1 MiB + 512 at 1 MiB, not sized: grow to a page multiple
		 * (1 MiB + 4096), rounded to the grain: end 3 MiB */
		"size-only-grows",
		G512E,
		{MIB, MIB + 512, MIB + 512, FAR},
		BLKALIGN_PLAN_RESIZE,
		BA_WHY_SIZE,
		MIB,
		2 * MIB,
		true,
	},
	{
		/* same, the next partition at 2 MiB + 4096: 3 MiB does
		 * not fit, 1 MiB + 4096 does */
		"size-only-grows-to-page",
		G512E,
		{MIB, MIB + 512, MIB + 512, 2 * MIB + 4096},
		BLKALIGN_PLAN_RESIZE,
		BA_WHY_SIZE,
		MIB,
		MIB + 4096,
		true,
	},
	{
		/* 512 KiB used: trim to the grain, 1 MiB */
		"size-only-trims",
		G512E,
		{MIB, MIB + 512, 512 * KIB, FAR},
		BLKALIGN_PLAN_RESIZE,
		BA_WHY_SIZE,
		MIB,
		MIB,
		false,
	},
	{
		/* 512n: 63 is on the 512 grid, only off 1 MiB: optional;
		 * 2 MiB at 63, 1 MiB used: 1 MiB at 1 MiB */
		"mib-only-optional",
		G512N,
		{S(63), S(4096), MIB, FAR},
		BLKALIGN_PLAN_OPTIONAL,
		BA_WHY_MIB_ONLY,
		MIB,
		MIB,
	},
	{
		/* the same without room: nothing to do */
		"mib-only-no-room",
		G512N,
		{S(63), S(4096), S(4096), S(4159)},
		BLKALIGN_PLAN_NONE,
		BA_WHY_MIB_ONLY,
		S(63),
		S(4096),
	},
	{
		/* ao 3584: 32256 is on { 3584 + k 4096 }, off the MiB grid
		 * { 3584 + k MiB }: optional, to 1052160; end 32256 + 2 MiB
		 * = 2129408 rounds down to 2 MiB + 3584 = 2100736: 1 MiB */
		"ao3584-63-optional",
		G512E_AO,
		{S(63), S(4096), MIB, FAR},
		BLKALIGN_PLAN_OPTIONAL,
		BA_WHY_MIB_ONLY,
		1052160,
		MIB,
	},
	{
		/* ao 3584: 1 MiB is 512 off the physical grid: to
		 * 1052160; not sized: 1 MiB, ending at 2 MiB + 3584 */
		"ao3584-1mib-moves",
		G512E_AO,
		{MIB, MIB, MIB, FAR},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		1052160,
		MIB,
		true,
	},
	{
		/* 3 x 64 KiB stripe, grain 3 MiB: 1 MiB mod 196608 =
		 * 65536: to 3 MiB; 8 MiB not sized: end 11 MiB -> 12 MiB,
		 * size 9 MiB */
		"stripe-3x64k",
		{.pss = 4096,
		 .min_io = 65536,
		 .opt_io = 196608,
		 .page = 4096,
		 .grain = 3 * MIB},
		{MIB, 8 * MIB, 8 * MIB, FAR},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		3 * MIB,
		9 * MIB,
		true,
	},
	{
		/* a moved logical start at least 12000 (the EBR room after
		 * the previous one): 12288; not sized: 2048 sectors */
		"min-start",
		G512E,
		{S(10063), S(2048), S(2048), FAR, S(12000)},
		BLKALIGN_PLAN_MOVE,
		BA_WHY_START,
		S(12288),
		S(2048),
		true,
	},
	{
		/* 64 KiB pages: sizes in 64 KiB; 1 MiB + 4096 at 1 MiB
		 * with 1 MiB used: trim to 1 MiB */
		"page-64k",
		{.pss = 4096, .min_io = 4096, .page = 65536},
		{MIB, MIB + 4096, MIB, FAR},
		BLKALIGN_PLAN_RESIZE,
		BA_WHY_SIZE,
		MIB,
		MIB,
		false,
	},
};

static void test_one(void **state)
{
	const struct one_row *r = *state;
	struct ba_plan_geom g = r->g;
	struct ba_plan_result res;

	if (!g.grain)
		g.grain = MIB;
	ba_plan_one(&g, &r->in, &res);
	assert_int_equal(res.action, r->action);
	assert_int_equal(res.why, r->why);
	assert_int_equal(res.new_start, r->new_start);
	assert_int_equal(res.new_size, r->new_size);
	if (r->action != BLKALIGN_PLAN_IMPOSSIBLE &&
	    r->action != BLKALIGN_PLAN_NONE)
		assert_int_equal(res.grows, r->grows);
	if (r->why == BA_WHY_NO_ROOM)
		assert_int_equal(res.room, r->room);
	/* never below the data in use, never past the limit */
	if (r->action != BLKALIGN_PLAN_IMPOSSIBLE) {
		assert_true(res.new_size >= r->in.used);
		assert_true(res.new_start + res.new_size <= r->in.limit ||
			    res.new_start + res.new_size <=
				    r->in.start + r->in.size);
		if (r->left)
			assert_true(res.new_start >= r->in.low &&
				    res.new_start < r->in.start);
		else
			assert_true(res.new_start >= r->in.start);
	}
	assert_int_equal(res.left, r->left);
}

/* ------------------------------------------------------------------ */
/* the room of a partition, and whole plans on layers built in memory */

struct part_spec {
	int number; /* 0 ends the list */
	uint64_t start, size;
	int parent;
	bool extended, logical;
};

struct plan_row {
	const char *name;
	int64_t pss;
	const char *scheme;
	uint64_t disk_size;
	struct part_spec p[6];
	int layer; /* the partition checked */
	uint64_t want_limit;
	int want_next; /* layer index or -1 */
	enum blkalign_plan_action action;
	uint64_t new_start, new_size;
};

static const struct plan_row plan_rows[] = {
	{
		/* primary before the extended one: the extended start
		 * (10000) bounds it; 63 -> 2048, not sized: 2048 sectors */
		"dos-primary-before-extended",
		4096,
		"dos",
		64 * MIB,
		{{1, S(63), S(2048), 0},
		 {2, S(10000), S(50000), 0, true},
		 {5, S(10063), S(1000), 2, false, true},
		 {6, S(12288), S(1000), 2, false, true}},
		1,
		S(10000),
		2,
		BLKALIGN_PLAN_MOVE,
		S(2048),
		S(2048),
	},
	{
		/* logical 5 at 10063, 2048 sectors: to 10240; the next
		 * logical at 14336 keeps 1 MiB (2048 sectors) for its EBR:
		 * limit 12288, the planned end 10240 + 2048 = 12288 just
		 * fits */
		"dos-logical-ebr-room-fits",
		4096,
		"dos",
		64 * MIB,
		{{2, S(8192), S(50000), 0, true},
		 {5, S(10063), S(2048), 1, false, true},
		 {6, S(14336), S(1000), 1, false, true}},
		2,
		S(12288),
		3,
		BLKALIGN_PLAN_MOVE,
		S(10240),
		S(2048),
	},
	{
		/* the next logical at 14335: one sector less: the 1 MiB
		 * grain has no room (10240 + 2048 > 12287); the 4 KiB grid
		 * has: 10063 -> 10064, 2048 sectors not sized, end 12112
		 * <= 12287 (start-mib stays, information).  6 moves anyway
		 * (off 4 KiB), but a logical partition is never pushed:
		 * its EBR stays near its old start (docs/plan.md) */
		"dos-logical-ebr-room-not-pushed",
		4096,
		"dos",
		64 * MIB,
		{{2, S(8192), S(50000), 0, true},
		 {5, S(10063), S(2048), 1, false, true},
		 {6, S(14335), S(1000), 1, false, true}},
		2,
		S(12287),
		3,
		BLKALIGN_PLAN_MOVE,
		S(10064),
		S(2048),
	},
	{
		/* the next logical at 14328, on the 4 KiB grid: it stays,
		 * the room is 14328 - 2048 = 12280; the 1 MiB grain has no
		 * room (10240 + 2048 > 12280); the 4 KiB grid has: 10063 ->
		 * 10064, 2048 sectors not sized, end 12112 <= 12280
		 * (start-mib stays, information); pushing an aligned
		 * partition for a better grid is not worth its copy */
		"dos-logical-ebr-room-4k-grid",
		4096,
		"dos",
		64 * MIB,
		{{2, S(8192), S(50000), 0, true},
		 {5, S(10063), S(2048), 1, false, true},
		 {6, S(14328), S(1000), 1, false, true}},
		2,
		S(12280),
		3,
		BLKALIGN_PLAN_MOVE,
		S(10064),
		S(2048),
	},
	{
		/* the last logical: bounded by the extended end, 58192;
		 * 55001 -> 55296, 3191 sectors not sized -> 3192 (page
		 * multiple): end 58488 > 58192: impossible */
		"dos-last-logical-extended-end",
		4096,
		"dos",
		64 * MIB,
		{{2, S(8192), S(50000), 0, true},
		 {5, S(10063), S(2048), 1, false, true},
		 {6, S(55001), S(3191), 1, false, true}},
		3,
		S(58192),
		-1,
		BLKALIGN_PLAN_IMPOSSIBLE,
		S(55001),
		S(3191),
	},
	{
		/* logical 6 at 12300 right after logical 5 (ends 12288):
		 * a moved start keeps 1 MiB after it: 12288 + 2048 = 14336
		 * (on the grain); not sized: 2048 sectors, end 16384 */
		"dos-logical-min-start",
		4096,
		"dos",
		64 * MIB,
		{{2, S(8192), S(50000), 0, true},
		 {5, S(10240), S(2048), 1, false, true},
		 {6, S(12300), S(2048), 1, false, true}},
		3,
		S(58192),
		-1,
		BLKALIGN_PLAN_MOVE,
		S(14336),
		S(2048),
	},
	{
		/* GPT, 64 MiB disk: last usable LBA 131038 (131072 - 34),
		 * usable end 131039 sectors (the device's table says so,
		 * build_device; ba_plan_rooms is given it in test_limit;
		 * with the disk size instead, the move would fit and run
		 * over the backup GPT).  34 -> 2048 on the grain: 129024
		 * sectors not sized end at 131072 > 131039; the 4 KiB grid
		 * next (item 4 of issue 11): 34 -> 40, end 129064 fits */
		"gpt-last-usable",
		4096,
		"gpt",
		64 * MIB,
		{{1, S(34), S(129024), 0}},
		1,
		S(131039),
		-1,
		BLKALIGN_PLAN_MOVE,
		S(40),
		S(129024),
	},
	{
		/* the same disk filled to the last usable LBA: 34+131005;
		 * kept whole, the size rounds up to 131008 (4 KiB); at 40
		 * it ends at 131048 > 131039: impossible.  Against the disk
		 * size (131072) it would fit, over the backup GPT. */
		"gpt-backup-in-the-way",
		4096,
		"gpt",
		64 * MIB,
		{{1, S(34), S(131005), 0}},
		1,
		S(131039),
		-1,
		BLKALIGN_PLAN_IMPOSSIBLE,
		S(34),
		S(131005),
	},
};

static void build_device(const struct plan_row *r, struct blkalign_device *d,
			 struct blkalign_layer *layers)
{
	size_t n = 1;

	memset(d, 0, sizeof(*d));
	memset(layers, 0, 7 * sizeof(*layers));
	layers[0].name = "disk";
	layers[0].kind = BLKALIGN_LAYER_DISK;
	layers[0].size = r->disk_size;
	layers[0].parent = -1;
	for (const struct part_spec *p = r->p; p->number && n < 7; p++, n++) {
		layers[n].name = "part";
		layers[n].kind = BLKALIGN_LAYER_PARTITION;
		layers[n].number = p->number;
		layers[n].start = p->start;
		layers[n].size = p->size;
		layers[n].parent = p->parent;
		layers[n].extended = p->extended;
		layers[n].logical = p->logical;
		layers[n].scheme = r->scheme;
	}
	d->path = "/nonexistent/blkalign-test-plan";
	d->name = "disk";
	d->size = r->disk_size;
	d->scheme = r->scheme;
	d->nlayers = n;
	d->layers = layers;
	d->topology.logical_sector_size.value = 512;
	d->topology.physical_sector_size.value = r->pss;
	d->topology.minimum_io_size.value = r->pss;
	d->topology.page_size.value = 4096;
	d->topology.max_segments.value = 128;
	d->topology.max_sectors_kb.value = 1280;
	if (!strcmp(r->scheme, "gpt")) {
		/* what the audit records of a GPT of 128 entries */
		d->table.id = "c180151c-82b6-43d5-8125-34fa7053323f";
		d->table.usable_start = S(34);
		d->table.usable_end = r->disk_size - S(33);
		d->table.usable_from_table = true;
		layers[1].uuid = "dbe662fd-9e6a-4d10-8ad5-0e896508f932";
		layers[1].part_name = "root";
	}
}

static void test_limit(void **state)
{
	const struct plan_row *r = *state;
	struct blkalign_layer layers[7];
	struct blkalign_device d;
	uint64_t usable = r->want_next < 0 && !strcmp(r->scheme, "gpt")
				  ? S(131039)
				  : r->disk_size;
	struct ba_plan_room rooms[7];

	build_device(r, &d, layers);
	assert_int_equal(ba_plan_rooms(&d, 512, usable, rooms), 0);
	assert_int_equal(rooms[r->layer].limit, r->want_limit);
	assert_int_equal(rooms[r->layer].next, r->want_next);
}

static void test_plan(void **state)
{
	const struct plan_row *r = *state;
	struct blkalign_layer layers[7];
	struct blkalign_device d;
	struct blkalign_plan *p = NULL;
	const struct blkalign_plan_part *pp = NULL;

	build_device(r, &d, layers);
	assert_int_equal(blkalign_plan_new(&d, &p), 0);
	/* the table's facts pass through, nothing is read */
	assert_int_equal(p->usable_end,
			 d.table.usable_end ? d.table.usable_end : d.size);
	if (d.table.id) {
		assert_string_equal(p->label_id, d.table.id);
		assert_string_equal(p->parts[0].uuid, layers[1].uuid);
		assert_string_equal(p->parts[0].part_name, "root");
	}
	for (size_t k = 0; k < p->nparts; k++)
		if (p->parts[k].layer == r->layer)
			pp = &p->parts[k];
	assert_non_null(pp);
	assert_int_equal(pp->action, r->action);
	assert_int_equal(pp->new_start, r->new_start);
	assert_int_equal(pp->new_size, r->new_size);
	if (pp->action == BLKALIGN_PLAN_MOVE) {
		/* the rules find nothing left on it, and it copies all */
		assert_int_equal(pp->findings_after, 0);
		assert_int_equal(pp->bytes_to_copy, r->p[r->layer - 1].size);
	} else if (pp->action == BLKALIGN_PLAN_IMPOSSIBLE) {
		assert_non_null(pp->reason);
		assert_true(pp->ncommands > 0);
	}
	blkalign_plan_free(p);
}

/* ------------------------------------------------------------------ */
/* what the contents need: one partition 2048+20480 (10 MiB), 512e */

struct used_row {
	const char *name;
	enum blkalign_layer_kind kind; /* DISK: nothing inside */
	const char *type, *version;
	uint64_t offset, size, used; /* the child layer, bytes */
	bool want_known;
	uint64_t want_used;
};

static const struct used_row used_rows[] = {
	{"nothing", BLKALIGN_LAYER_DISK, NULL, NULL, 0, 0, 0, false, S(20480)},
	/* ext4 of 4 MiB at the partition start */
	{"ext4-4mib", BLKALIGN_LAYER_FILESYSTEM, "ext4", NULL, 0, S(20480),
	 4 * MIB, true, 4 * MIB},
	/* a filesystem that does not say its size: all of it */
	{"fs-unsized", BLKALIGN_LAYER_FILESYSTEM, "ext4", NULL, 0, S(20480), 0,
	 false, S(20480)},
	/* md 1.2: data offset 1 MiB + data size 6 MiB = 7 MiB */
	{"md-1.2", BLKALIGN_LAYER_MD, "linux_raid_member", "1.2", MIB, 6 * MIB,
	 0, true, 7 * MIB},
	/* md 1.0 and 0.90: superblock at the end: the whole member */
	{"md-1.0", BLKALIGN_LAYER_MD, "linux_raid_member", "1.0", 0, 6 * MIB, 0,
	 true, S(20480)},
	{"md-0.90", BLKALIGN_LAYER_MD, "linux_raid_member", "0.90", 0, 6 * MIB,
	 0, true, S(20480)},
	/* LVM: the whole partition, known (fix copies its segments' extents
	 * by the map); LUKS: the whole partition, not sized */
	{"lvm", BLKALIGN_LAYER_LVM, "LVM2_member", "2", MIB, 8 * MIB, 0, true,
	 S(20480)},
	{"luks", BLKALIGN_LAYER_LUKS, "crypto_LUKS", "2", 16 * MIB / 8, 8 * MIB,
	 0, false, S(20480)},
};

static void test_used(void **state)
{
	const struct used_row *r = *state;
	static const struct plan_row base = {
		"used", 4096, "gpt", 64 * MIB, {{1, S(2048), S(20480), 0}},
	};
	struct blkalign_layer layers[7];
	struct blkalign_device d;
	struct blkalign_plan *p = NULL;

	build_device(&base, &d, layers);
	if (r->kind != BLKALIGN_LAYER_DISK) {
		struct blkalign_layer *c = &layers[d.nlayers++];

		c->name = "part:content";
		c->kind = r->kind;
		c->type = r->type;
		c->version = r->version;
		c->parent = 1;
		c->start = S(2048) + r->offset;
		c->size = r->size;
		c->used_size = r->used;
	}
	assert_int_equal(blkalign_plan_new(&d, &p), 0);
	assert_int_equal(p->nparts, 1);
	assert_int_equal(p->parts[0].used_known, r->want_known);
	assert_int_equal(p->parts[0].used_size, r->want_used);
	/* aligned already: nothing moves, nothing to copy */
	assert_int_equal(p->parts[0].action, BLKALIGN_PLAN_NONE);
	assert_int_equal(p->parts[0].bytes_to_copy, 0);
	blkalign_plan_free(p);
}

/* ------------------------------------------------------------------ */
/*
 * the size granularity by what a partition holds (issue 25, item 4):
 * one partition at 1 MiB of 20481 sectors (10 MiB + 512: soft block 512),
 * 4 MiB used.  Where the soft block size costs what it holds nothing
 * (a mounted filesystem sets it itself; md, LVM, LUKS and ZFS do their
 * I/O below the partition's page cache) sizes need only be whole
 * physical sectors: none on 512n; else a page multiple: its end 22529
 * rounds down to the 1 MiB grain, 22528, 20480 sectors; with nothing
 * known inside, all 20481 are kept: it grows to the next grain point
 * (24576), 22528 sectors.  On 512e the
 * end is off the physical sector (size-physical): resized whatever it
 * holds.  The rules re-run on the plan with the contents in it: nothing
 * counted after (an info finding is not counted).
 */

struct gran_row {
	const char *name;
	int64_t pss;
	enum blkalign_layer_kind kind; /* DISK: nothing inside */
	const char *type, *version;
	enum blkalign_plan_action action;
	uint64_t new_size;
};

static const struct gran_row gran_rows[] = {
	{"empty-512n", 512, BLKALIGN_LAYER_DISK, NULL, NULL,
	 BLKALIGN_PLAN_RESIZE, S(22528)},
	{"swap-512n", 512, BLKALIGN_LAYER_FILESYSTEM, "swap", NULL,
	 BLKALIGN_PLAN_RESIZE, S(20480)},
	{"ext4-512n", 512, BLKALIGN_LAYER_FILESYSTEM, "ext4", NULL,
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"xfs-512n", 512, BLKALIGN_LAYER_FILESYSTEM, "xfs", NULL,
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"btrfs-512n", 512, BLKALIGN_LAYER_FILESYSTEM, "btrfs", NULL,
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"vfat-512n", 512, BLKALIGN_LAYER_FILESYSTEM, "vfat", NULL,
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"ntfs-512n", 512, BLKALIGN_LAYER_FILESYSTEM, "ntfs", NULL,
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"md-1.2-512n", 512, BLKALIGN_LAYER_MD, "linux_raid_member", "1.2",
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"md-0.90-512n", 512, BLKALIGN_LAYER_MD, "linux_raid_member", "0.90",
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"lvm-512n", 512, BLKALIGN_LAYER_LVM, "LVM2_member", "2",
	 BLKALIGN_PLAN_NONE, S(20481)},
	{"ext4-512e", 4096, BLKALIGN_LAYER_FILESYSTEM, "ext4", NULL,
	 BLKALIGN_PLAN_RESIZE, S(20480)},
	{"empty-512e", 4096, BLKALIGN_LAYER_DISK, NULL, NULL,
	 BLKALIGN_PLAN_RESIZE, S(22528)},
};

static void test_gran(void **state)
{
	const struct gran_row *r = *state;
	const struct plan_row base = {
		"gran", r->pss, "gpt", 64 * MIB, {{1, MIB, S(20481), 0}},
	};
	struct blkalign_layer layers[7];
	struct blkalign_device d;
	struct blkalign_plan *p = NULL;

	build_device(&base, &d, layers);
	if (r->kind != BLKALIGN_LAYER_DISK) {
		struct blkalign_layer *c = &layers[d.nlayers++];

		c->name = "part:content";
		c->kind = r->kind;
		c->type = r->type;
		c->version = r->version;
		c->parent = 1;
		c->start = MIB;
		c->size = S(20481);
		c->used_size = 4 * MIB;
	}
	assert_int_equal(blkalign_plan_new(&d, &p), 0);
	assert_int_equal(p->nparts, 1);
	EXPECT_S64(r, "action", p->parts[0].action, r->action);
	EXPECT_U64(r, "new_start", p->parts[0].new_start, MIB);
	EXPECT_U64(r, "new_size", p->parts[0].new_size, r->new_size);
	EXPECT_U64(r, "findings_after", p->parts[0].findings_after, 0);
	EXPECT_U64(r, "remaining", p->remaining, 0);
	blkalign_plan_free(p);
}

/* ------------------------------------------------------------------ */
/* the device a report holds, planned for a command, or why not */

struct report_row {
	const char *name;
	const char *scheme; /* NULL: the table type is not recorded */
	const char *whole_disk;
	bool saved;	    /* from a saved report */
	unsigned int flags; /* of blkalign_report_plan */
	int ndevices;
	int want_rc;
	const char *want_log; /* in what it said; NULL: nothing */
	/* the plan read after its report let go of its device: 1 cleared
	 * (blkalign_report_clear), 2 cleared and its last reference gone */
	int free_first;
};

static const struct report_row report_rows[] = {
	{"gpt-disk", "gpt", NULL, false, 0, 1, 0, NULL},
	{"dos-disk", "dos", NULL, false, BLKALIGN_PLAN_TABLE_READ, 1, 0, NULL},
	{"partition", "gpt", "sda", false, 0, 1, -EINVAL,
	 "'/nonexistent/blkalign-test-plan' is partition 2 of /dev/sda: fix "
	 "works on the whole disk: 'blkalign fix --partition 2 /dev/sda'"},
	{"no-table", NULL, NULL, false, 0, 1, -EINVAL,
	 "'/nonexistent/blkalign-test-plan': fix needs a dos or GPT partition "
	 "table on a whole disk or image"},
	{"sun", "sun", NULL, true, 0, 1, -EINVAL, "needs a dos or GPT"},
	/* a saved report of a block device records no table type: planned
	 * inside both, but not for a command that rewrites the table */
	{"saved", NULL, NULL, true, 0, 1, 0,
	 "a sysfs tree does not record the table type"},
	{"saved-table-read", NULL, NULL, true, BLKALIGN_PLAN_TABLE_READ, 1,
	 -EINVAL, "fix needs a dos or GPT partition table"},
	{"two-devices", "gpt", NULL, false, 0, 2, -EINVAL, NULL},
	{"none", "gpt", NULL, false, 0, 0, -EINVAL, NULL},
	/* the plan holds its report and device (run under valgrind or ASan:
	 * a read of a freed device is an error there) */
	{"report-cleared-first", "gpt", NULL, false, 0, 1, 0, NULL, 1},
	{"report-freed-first", "dos", NULL, false, 0, 1, 0, NULL, 2},
};

/* What the plan says after its report let go of the device: the device
 * it points to, and the sfdisk script made from it (63 moved to 2048). */
static void read_plan_alone(const struct report_row *r,
			    const struct blkalign_plan *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_string_equal(p->device->scheme, r->scheme);
	assert_int_equal(p->device->nlayers, 2);
	assert_int_equal(blkalign_plan_write_sfdisk(p, 0, out), 0);
	assert_int_equal(fclose(out), 0);
	if (!strstr(text, "start=2048,") || !strstr(text, r->scheme))
		fail_msg("%s: sfdisk script \"%s\"", r->name, text);
	free(text);
}

static void keep_log(void *data, const char *msg)
{
	char *buf = data;
	size_t n = strlen(buf);

	snprintf(buf + n, 1024 - n, "%s\n", msg);
}

static void test_report(void **state)
{
	const struct report_row *r = *state;
	const struct plan_row base = {
		"report",
		4096,
		r->scheme ? r->scheme : "none",
		64 * MIB,
		{{1, S(63), S(20480), 0}},
	};
	struct blkalign_layer layers[7];
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *rep;
	struct blkalign_plan *p = (struct blkalign_plan *)&base;
	char log[1024] = "";

	assert_non_null(ctx);
	blkalign_ctx_set_log_fn(ctx, keep_log, log);
	/* as blkalign(8) says it (unset: the API's words) */
	blkalign_ctx_set_word(ctx, BLKALIGN_WORD_PROGRAM, "blkalign");
	blkalign_ctx_set_word(ctx, BLKALIGN_WORD_PARTITION, "--partition");
	rep = blkalign_report_new(ctx);
	assert_non_null(rep);
	for (int i = 0; i < r->ndevices; i++) {
		struct ba_device *d = ba_report_add_device(rep);

		assert_non_null(d);
		build_device(&base, &d->pub, layers);
		d->pub.scheme = r->scheme;
		d->pub.is_block_device = true;
		d->pub.table.usable_end = base.disk_size;
		d->pub.whole_disk = r->whole_disk;
		d->pub.partition_number = r->whole_disk ? 2 : 0;
		d->saved = r->saved;
	}
	EXPECT_S64(r, "rc", blkalign_report_plan(rep, "fix", r->flags, &p),
		   r->want_rc);
	if (r->want_rc)
		assert_null(p);
	else
		assert_true(p && p->nparts == 1 &&
			    p->parts[0].action == BLKALIGN_PLAN_MOVE);
	if (r->want_log && !strstr(log, r->want_log))
		fail_msg("%s: said \"%s\", not \"%s\"", r->name, log,
			 r->want_log);
	if (!r->want_log && r->want_rc == 0 && log[0])
		fail_msg("%s: said \"%s\"", r->name, log);
	if (r->free_first) {
		blkalign_report_clear(rep);
		assert_int_equal(blkalign_report_ndevices(rep), 0);
		if (r->free_first == 2) {
			blkalign_report_unref(rep);
			blkalign_ctx_unref(ctx);
			rep = NULL;
			ctx = NULL;
		}
		read_plan_alone(r, p);
	}
	blkalign_plan_free(p);
	blkalign_report_unref(rep);
	blkalign_ctx_unref(ctx);
}

int main(void)
{
	int failed = 0;

	failed += RUN_TABLE(test_grain, grain_rows);
	failed += RUN_TABLE(test_round, round_rows);
	failed += RUN_TABLE(test_one, one_rows);
	failed += RUN_TABLE(test_limit, plan_rows);
	failed += RUN_TABLE(test_plan, plan_rows);
	failed += RUN_TABLE(test_used, used_rows);
	failed += RUN_TABLE(test_gran, gran_rows);
	failed += RUN_TABLE(test_report, report_rows);
	return failed ? 1 : 0;
}
