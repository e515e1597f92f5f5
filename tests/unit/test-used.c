/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-used.c - the used-extent map's bookkeeping (lib/scan/used/used.c):
 * extents added out of order, overlapping and touching, come out sorted
 * and merged with their sum; one past the contents' end is refused; the
 * used bytes of a window are counted by hand in each row.
 */
#include <errno.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "used/used.h"

struct used_row {
	const char *name;
	uint64_t size;
	uint32_t n;
	struct ba_extent add[6];
	int rc;
	/* the merged map, then the used bytes of [win.off, +win.len) */
	uint32_t nwant;
	struct ba_extent want[6];
	struct ba_extent win;
	uint64_t in_win;
};

static const struct used_row used_rows[] = {
	{"in order, touching",
	 100,
	 3,
	 {{0, 10}, {10, 5}, {20, 5}},
	 0,
	 /* 0..14 one extent, 20..24 another: 3..21 holds 12 + 2 */
	 2,
	 {{0, 15}, {20, 5}},
	 {3, 19},
	 14},
	{"reversed, overlapping",
	 100,
	 4,
	 {{90, 10}, {50, 20}, {60, 15}, {0, 1}},
	 0,
	 /* 50..69 and 60..74 are 50..74; 90..99 ends at the end */
	 3,
	 {{0, 1}, {50, 25}, {90, 10}},
	 {0, 100},
	 36},
	{"one inside another",
	 100,
	 2,
	 {{10, 50}, {20, 5}},
	 0,
	 1,
	 {{10, 50}},
	 {55, 10},
	 5},
	{"window between extents",
	 100,
	 2,
	 {{10, 5}, {40, 5}},
	 0,
	 2,
	 {{10, 5}, {40, 5}},
	 {15, 25},
	 0},
	{"past the end", 100, 2, {{10, 5}, {95, 6}}, -EBADMSG},
	{"starts past the end", 100, 1, {{101, 1}}, -EBADMSG},
	{"empty lengths ignored",
	 100,
	 2,
	 {{10, 0}, {20, 0}},
	 0,
	 0,
	 {{0, 0}},
	 {0, 100},
	 0},
};

static void test_used(void **state)
{
	const struct used_row *r = *state;
	struct ba_used_map m;
	char why[200] = "";
	uint64_t sum = 0;

	memset(&m, 0, sizeof(m));
	m.size = r->size;
	for (uint32_t i = 0; i < r->n; i++)
		assert_int_equal(ba_used_add(&m, r->add[i].off, r->add[i].len),
				 0);
	assert_int_equal(ba_used_normalise(&m, why, sizeof(why)), r->rc);
	if (r->rc) {
		assert_non_null(strstr(why, "past its end"));
		ba_used_free(&m);
		return;
	}
	assert_int_equal(m.nr, r->nwant);
	for (uint32_t i = 0; i < r->nwant; i++) {
		assert_int_equal(m.ext[i].off, r->want[i].off);
		assert_int_equal(m.ext[i].len, r->want[i].len);
		sum += r->want[i].len;
	}
	assert_int_equal(m.used, sum);
	assert_int_equal(ba_used_in(&m, r->win.off, r->win.len), r->in_win);
	ba_used_free(&m);
}

/* A type no reader knows is copied whole. */
static void test_whole(void **state)
{
	struct ba_used_map m;
	char why[64];

	(void)state;
	assert_int_equal(ba_used_read(NULL, 0, 4096, "no-such-type", &m, why,
				      sizeof(why)),
			 0);
	assert_string_equal(m.source, "whole");
	assert_int_equal(m.nr, 1);
	assert_int_equal(m.used, 4096);
	assert_int_equal(ba_used_in(&m, 4000, 200), 96);
	assert_string_equal(ba_used_source_of("no-such-type"), "whole");
	ba_used_free(&m);
}

int main(void)
{
	const struct CMUnitTest whole[] = {cmocka_unit_test(test_whole)};
	int failed = run_table("used", test_used, used_rows,
			       sizeof(used_rows[0]), ARRAY_SIZE(used_rows));

	return failed + cmocka_run_group_tests(whole, NULL, NULL);
}
