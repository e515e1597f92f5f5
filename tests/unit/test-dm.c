/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-dm.c - device-mapper table lines (lib/scan/dm.c ba_dm_parse_line):
 * where the first target starts on the device below, and dm-crypt's
 * encryption sector.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

struct row {
	const char *line;
	int rc;
	const char *type;
	unsigned int major, minor;
	uint64_t offset_sectors;
	uint32_t stripes;
	uint64_t chunk_sectors;
	uint32_t sector_size;
};

static const struct row rows[] = {
	/* kernel-lab's dmsetup table */
	{"0 1000003 linear 254:144 2048", 0, "linear", 254, 144, 2048, 0, 0},
	{"0 1000000 linear 254:144 2055", 0, "linear", 254, 144, 2055, 0, 0},
	/* seed 000: kpartx partition of a multipath device at 63 */
	{"0 1870001 linear 8:96 63", 0, "linear", 8, 96, 63, 0, 0},
	{"0 2097152 striped 2 128 8:16 2048 8:32 2048", 0, "striped", 8, 16,
	 2048, 2, 128},
	/* dm-crypt, as the lab's dmsetup table shows LUKS1 and LUKS2 */
	{"0 2097152 crypt aes-xts-plain64 - 0 8:16 4096", 0, "crypt", 8, 16,
	 4096, 0, 0, 512},
	{"0 73727 crypt aes-xts-plain64 0000000000000000000000000000000000000000"
	 "000000000000000000000000 0 254:52 4097",
	 0, "crypt", 254, 52, 4097, 0, 0, 512},
	{"0 45056 crypt aes-xts-plain64 :64:logon:cryptsetup:7a05635a-05a6-4987-"
	 "95b5-c5fb04bfca2f-d0 0 254:36 32768 1 sector_size:4096",
	 0, "crypt", 254, 36, 32768, 0, 0, 4096},
	{"0 100 crypt aes-xts-plain64 - 0 8:16", -EINVAL, "crypt", 0, 0, 0, 0,
	 0},
	/* targets that are not placed */
	{"0 100 zero", 1, "zero", 0, 0, 0, 0, 0},
	/* garbage */
	{"", -EINVAL, "", 0, 0, 0, 0, 0},
	{"0 100 linear", -EINVAL, "linear", 0, 0, 0, 0, 0},
	{"0 100 linear 8:16", -EINVAL, "linear", 0, 0, 0, 0, 0},
	{"0 100 striped 0 128 8:16 0", -EINVAL, "striped", 0, 0, 0, 0, 0},
	{"0 100 linear 8:16 36028797018963968", -ERANGE, "linear", 0, 0, 0, 0,
	 0},
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct ba_dm_target t;
		int rc = ba_dm_parse_line(r->line, &t);

		print_message("row %zu: '%s'\n", i, r->line);
		assert_int_equal(rc, r->rc);
		if (rc != 0)
			continue;
		assert_string_equal(t.type, r->type);
		assert_int_equal(t.major, r->major);
		assert_int_equal(t.minor, r->minor);
		assert_int_equal(t.offset_sectors, r->offset_sectors);
		assert_int_equal(t.stripes, r->stripes);
		assert_int_equal(t.chunk_sectors, r->chunk_sectors);
		assert_int_equal(t.sector_size, r->sector_size);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
