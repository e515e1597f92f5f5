/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-jsonw.c - numbers in blkalign's JSON (lib/out/jsonw.c): uint64
 * exact up to 2^64 - 1 (a cast to int64 printed 2^63 as a negative
 * number), doubles with the digits they mean (six significant ones,
 * the whole part kept), durations to the microsecond (a 3 s trace and
 * its replay from the --save file's "%.6f" agree), non-finite ones null.
 * Expected texts written by hand.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via jsonw.h */
#include "table.h"

#include "jsonw.h"
#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

struct row {
	const char *name;
	int kind; /* 0: ba_json_u64 of u, 1: ba_json_double of d,
		   * 2: ba_json_seconds of d */
	uint64_t u;
	double d;
	const char *want; /* {"v":...} as json-c prints it plain */
};

static const struct row rows[] = {
	{"u64 zero", 0, 0, 0, "{\"v\":0}"},
	{"u64 2^63", 0, 9223372036854775808ull, 0,
	 "{\"v\":9223372036854775808}"},
	{"u64 max", 0, UINT64_MAX, 0, "{\"v\":18446744073709551615}"},
	{"seconds", 1, 0, 0.0046543410000000002, "{\"v\":0.00465434}"},
	{"ratio", 1, 0, 1.0934567, "{\"v\":1.09346}"},
	{"whole number", 1, 0, 2.0, "{\"v\":2.0}"},
	{"zero", 1, 0, 0.0, "{\"v\":0.0}"},
	{"negative", 1, 0, -0.125, "{\"v\":-0.125}"},
	{"rate", 1, 0, 178123456.7, "{\"v\":178123456.7}"},
	{"tiny", 1, 0, 1.5e-7, "{\"v\":1.5e-07}"},
	{"huge", 1, 0, 2.5e18, "{\"v\":2.5e+18}"},
	{"not a number", 1, 0, NAN, "{\"v\":null}"},
	{"infinite", 1, 0, INFINITY, "{\"v\":null}"},
	{"duration", 2, 0, 3.0012649, "{\"v\":3.001265}"},
	{"duration replayed", 2, 0, 3.001265, "{\"v\":3.001265}"},
	{"duration short", 2, 0, 0.0046543410000000002, "{\"v\":0.004654}"},
	{"duration whole", 2, 0, 2.0, "{\"v\":2.0}"},
	{"duration zero", 2, 0, 0.0, "{\"v\":0.0}"},
	{"duration negative", 2, 0, -1.0, "{\"v\":null}"},
	{"duration infinite", 2, 0, INFINITY, "{\"v\":null}"},
};

static void test_number(void **state)
{
	const struct row *r = *state;
	struct json_object *o = json_object_new_object();

	assert_non_null(o);
	if (r->kind == 0)
		ba_json_u64(o, "v", r->u);
	else if (r->kind == 1)
		ba_json_double(o, "v", r->d);
	else
		ba_json_seconds(o, "v", r->d);
	assert_string_equal(
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		r->want);
	json_object_put(o);
}

int main(void)
{
	return RUN_TABLE(test_number, rows);
}
