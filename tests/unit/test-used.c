/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-used.c - the used-extent map's bookkeeping (lib/scan/used/used.c):
 * extents added out of order, overlapping and touching, come out sorted
 * and merged with their sum; one past the contents' end is refused; the
 * used bytes of a window are counted by hand in each row.  And the NTFS
 * reader's checks before it mounts.
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

/*
 * NTFS (used/ntfs.c) before libntfs-3g mounts anything: a boot sector
 * ntfs-3g takes (mkntfs's fields on 64 MiB: 512-byte sectors, 8 per
 * cluster, 1 KiB MFT records) whose volume is larger than its region is
 * refused as contradicting itself; zeros are no NTFS.  Both say why.
 */
static void test_ntfs_boot(void **state)
{
	static uint8_t img[64 * 1024];
	struct ba_used_map m;
	struct ba_io io;
	char why[256];

	(void)state;
	memset(img, 0, sizeof(img));
	ba_io_init_mem(&io, img, sizeof(img));
	assert_int_equal(
		ba_used_read(&io, 0, sizeof(img), "ntfs", &m, why, sizeof(why)),
		-EINVAL);
	assert_non_null(strstr(why, "no NTFS boot sector"));

	memcpy(img, "\xeb\x52\x90NTFS    ", 11);
	img[0x0b] = 0x00, img[0x0c] = 0x02; /* 512 bytes per sector */
	img[0x0d] = 8;			    /* sectors per cluster */
	img[0x15] = 0xf8;		    /* media */
	img[0x28] = 0xff, img[0x29] = 0xff, img[0x2a] = 0x01; /* 131071 */
	img[0x30] = 4;					      /* $MFT */
	img[0x38] = 0xff, img[0x39] = 0x1f; /* $MFTMirr at 8191 */
	img[0x40] = 0xf6;		    /* 2^10-byte MFT records */
	img[0x44] = 1;			    /* a cluster per index record */
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
	assert_int_equal(
		ba_used_read(&io, 0, sizeof(img), "ntfs", &m, why, sizeof(why)),
		-EBADMSG);
	assert_non_null(strstr(why, "131071 sectors of 512 bytes, more than "
				    "its 65536 bytes hold"));
	assert_string_equal(ba_used_source_of("ntfs"), "libntfs-3g");
}

int main(void)
{
	const struct CMUnitTest whole[] = {cmocka_unit_test(test_whole),
					   cmocka_unit_test(test_ntfs_boot)};
	int failed = run_table("used", test_used, used_rows,
			       sizeof(used_rows[0]), ARRAY_SIZE(used_rows));

	return failed + cmocka_run_group_tests(whole, NULL, NULL);
}
