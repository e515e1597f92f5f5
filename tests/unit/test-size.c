/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-size.c - blkalign_size_format(), the one formatter of sizes for
 * people, in each style the outputs use.  Expected strings worked out by
 * hand in the comments: K = 1024, M = 1024 K, up to E; SHORT and LSBLK
 * print one decimal of bytes divided by the unit.
 */
#include <errno.h>
#include <string.h>

#include "blkalign.h"
#include "table.h"

struct size_row {
	const char *name;
	uint64_t bytes;
	/* EXACT, SHORT, LSBLK, WORDS, ADJECTIVE */
	const char *want[5];
};

static const struct size_row size_rows[] = {
	{"0", 0, {"0", "0", "0B", "0 bytes", "0-byte"}},
	{"512", 512, {"512", "512", "512B", "512 bytes", "512-byte"}},
	{"1023", 1023, {"1023", "1023", "1023B", "1023 bytes", "1023-byte"}},
	{"1024", 1024, {"1K", "1K", "1.0K", "1 KiB", "1 KiB"}},
	/* 1536 = 1.5 K, not a multiple of 1 K */
	{"1536", 1536, {"1536", "1.5K", "1.5K", "1536 bytes", "1536-byte"}},
	/* 3584 = 3.5 K */
	{"3584", 3584, {"3584", "3.5K", "3.5K", "3584 bytes", "3584-byte"}},
	{"4096", 4096, {"4K", "4K", "4.0K", "4 KiB", "4 KiB"}},
	{"65536", 65536, {"64K", "64K", "64.0K", "64 KiB", "64 KiB"}},
	/* 1048575 = 1023 K + 1023: 1023.999 K, below 1 M */
	{"1048575",
	 1048575,
	 {"1048575", "1024.0K", "1024.0K", "1048575 bytes", "1048575-byte"}},
	{"1048576", 1048576, {"1M", "1M", "1.0M", "1 MiB", "1 MiB"}},
	/* 1049088 = 1 M + 512: 1.0005 M */
	{"1049088",
	 1049088,
	 {"1049088", "1.0M", "1.0M", "1049088 bytes", "1049088-byte"}},
	/* 1258291 = 1.2 M (rounded), 1228.8 K */
	{"1258291",
	 1258291,
	 {"1258291", "1.2M", "1.2M", "1258291 bytes", "1258291-byte"}},
	/* 1 G: the exact styles stay at M */
	{"1G", 1073741824, {"1024M", "1024M", "1.0G", "1024 MiB", "1024 MiB"}},
	/* 14173392077 = 13.2 G (rounded) = 13516.8 M, odd */
	{"13.2G",
	 14173392077ULL,
	 {"14173392077", "13516.8M", "13.2G", "14173392077 bytes",
	  "14173392077-byte"}},
	/* 1 T = 1048576 M */
	{"1T",
	 1ULL << 40,
	 {"1048576M", "1048576M", "1.0T", "1048576 MiB", "1048576 MiB"}},
	{"1P", 1ULL << 50, {NULL, NULL, "1.0P", NULL, NULL}},
	/* 2^64 - 1: odd; as a double 2^64 = 2^44 M = 16 E */
	{"UINT64_MAX",
	 UINT64_MAX,
	 {"18446744073709551615", "17592186044416.0M", "16.0E",
	  "18446744073709551615 bytes", "18446744073709551615-byte"}},
};

static void test_size(void **state)
{
	const struct size_row *r = *state;
	static const enum blkalign_size_style styles[] = {
		BLKALIGN_SIZE_EXACT, BLKALIGN_SIZE_SHORT, BLKALIGN_SIZE_LSBLK,
		BLKALIGN_SIZE_WORDS, BLKALIGN_SIZE_ADJECTIVE};

	for (size_t i = 0; i < ARRAY_SIZE(styles); i++) {
		char buf[40];

		if (!r->want[i])
			continue;
		memset(buf, 'x', sizeof(buf));
		if (blkalign_size_format(r->bytes, styles[i], buf, sizeof(buf)))
			fail_msg("%s: style %zu failed", r->name, i);
		if (strcmp(buf, r->want[i]))
			fail_msg("%s: style %zu is '%s', expected '%s'",
				 r->name, i, buf, r->want[i]);
	}
}

/* Too small a buffer: what fits, and -ENOSPC; bad arguments: -EINVAL. */
static void test_size_errors(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(
		blkalign_size_format(65536, BLKALIGN_SIZE_WORDS, buf, 4),
		-ENOSPC);
	assert_string_equal(buf, "64 ");
	/* "64 KiB" and its NUL: exactly 7 bytes */
	assert_int_equal(
		blkalign_size_format(65536, BLKALIGN_SIZE_WORDS, buf, 7), 0);
	assert_string_equal(buf, "64 KiB");
	assert_int_equal(
		blkalign_size_format(65536, BLKALIGN_SIZE_WORDS, buf, 6),
		-ENOSPC);
	assert_string_equal(buf, "64 Ki");
	assert_int_equal(blkalign_size_format(1536,
					      (enum blkalign_size_style)99, buf,
					      sizeof(buf)),
			 -EINVAL);
	assert_string_equal(buf, "");
	assert_int_equal(
		blkalign_size_format(1536, BLKALIGN_SIZE_EXACT, NULL, 8),
		-EINVAL);
	assert_int_equal(
		blkalign_size_format(1536, BLKALIGN_SIZE_EXACT, buf, 0),
		-EINVAL);
}

/* Latencies as bench prints them, in its table and its chart: below
 * 1 ms in microseconds with one decimal, then two decimals of a ms, one
 * from 10 ms; a buffer too small, -ENOSPC; none, -EINVAL. */
static void test_latency(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(blkalign_latency_format(870000, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "870.0us");
	assert_int_equal(blkalign_latency_format(1900000, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1.90ms");
	assert_int_equal(blkalign_latency_format(69000000, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "69.0ms");
	assert_int_equal(blkalign_latency_format(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0.0us");
	assert_int_equal(blkalign_latency_format(1900000, buf, 4), -ENOSPC);
	assert_string_equal(buf, "1.9");
	assert_int_equal(blkalign_latency_format(1, NULL, 8), -EINVAL);
}

int main(void)
{
	static const struct CMUnitTest errors[] = {
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_latency),
	};
	int failed = 0;

	failed += RUN_TABLE(test_size, size_rows);
	failed += cmocka_run_group_tests(errors, NULL, NULL);
	return failed ? 1 : 0;
}
