/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-abi-sizes.c - the structs a caller fills start with their size:
 * each entry point refuses a size below the struct's size in release
 * 0.1.0 (BA_*_SIZE0, blkalignP.h) with -EINVAL, takes exactly that size
 * (a caller built against 0.1.0), and takes a longer struct (a caller
 * built against a later release) with the fields it does not know
 * ignored.  A caller's struct of the first size is simulated by a buffer
 * that holds the first SIZE0 bytes and garbage after them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "text-table.h"
#include "trace.h"

/* A later release's struct: this one and a field appended. */
#define LATER(type)                   \
	struct {                      \
		type s;               \
		uint64_t appended[4]; \
	}

static void fill_garbage(void *p, size_t len)
{
	memset(p, 0xa5, len);
}

/* The first sizes lie inside today's struct, and grow only forward. */
static void test_first_sizes(void **state)
{
	(void)state;
	assert_true(BA_IMAGE_GEOMETRY_SIZE0 <=
		    sizeof(struct blkalign_image_geometry));
	assert_true(BA_TEXT_OPTS_SIZE0 <= sizeof(struct blkalign_text_opts));
	assert_true(BA_MODEL_GEOMETRY_SIZE0 <=
		    sizeof(struct blkalign_model_geometry));
	assert_true(BA_TRACE_OPTS_SIZE0 <= sizeof(struct blkalign_trace_opts));
	assert_true(BA_FIX_IO_SIZE0 <= sizeof(struct blkalign_fix_io));
	assert_true(BA_FIX_OPTS_SIZE0 <= sizeof(struct blkalign_fix_opts));
	assert_true(BA_BENCH_OPTS_SIZE0 <= sizeof(struct blkalign_bench_opts));
	/* each reaches past its first field */
	assert_true(BA_IMAGE_GEOMETRY_SIZE0 > sizeof(size_t));
	assert_true(BA_FIX_IO_SIZE0 > sizeof(size_t));
}

/* The init macros set the size to today's sizeof. */
static void test_init_macros(void **state)
{
	struct blkalign_image_geometry g = BLKALIGN_IMAGE_GEOMETRY_INIT;
	struct blkalign_text_opts t = BLKALIGN_TEXT_OPTS_INIT;
	struct blkalign_model_geometry m = BLKALIGN_MODEL_GEOMETRY_INIT;
	struct blkalign_trace_opts tr = BLKALIGN_TRACE_OPTS_INIT;
	struct blkalign_fix_io io = BLKALIGN_FIX_IO_INIT;
	struct blkalign_fix_opts fo = BLKALIGN_FIX_OPTS_INIT;
	struct blkalign_bench_opts b = BLKALIGN_BENCH_OPTS_INIT;

	(void)state;
	assert_int_equal(g.size, sizeof(g));
	assert_int_equal(g.logical_sector_size, 0);
	assert_int_equal(t.size, sizeof(t));
	assert_int_equal(m.size, sizeof(m));
	assert_int_equal(tr.size, sizeof(tr));
	assert_int_equal(io.size, sizeof(io));
	assert_null(io.read);
	assert_int_equal(fo.size, sizeof(fo));
	assert_null(fo.journal);
	assert_int_equal(b.size, sizeof(b));
}

/* ba_sized_copy itself: the three cases, and dst's size made its own. */
static void test_sized_copy(void **state)
{
	LATER(struct blkalign_model_geometry) big;
	struct blkalign_model_geometry out;

	(void)state;
	fill_garbage(&big, sizeof(big));
	big.s.size = BA_MODEL_GEOMETRY_SIZE0 - 1;
	assert_int_equal(
		ba_sized_copy(&out, sizeof(out), &big, BA_MODEL_GEOMETRY_SIZE0),
		-EINVAL);
	big.s.size = sizeof(big);
	big.s.page_size = 8192;
	assert_int_equal(
		ba_sized_copy(&out, sizeof(out), &big, BA_MODEL_GEOMETRY_SIZE0),
		0);
	assert_int_equal(out.size, sizeof(out));
	assert_int_equal(out.page_size, 8192);
}

static void test_image_geometry(void **state)
{
	LATER(struct blkalign_image_geometry) big;
	struct blkalign_ctx *ctx = blkalign_ctx_new();

	(void)state;
	assert_non_null(ctx);
	/* garbage past the first size: a 0.1.0 caller's struct ends there */
	fill_garbage(&big, sizeof(big));
	memset(&big.s, 0, BA_IMAGE_GEOMETRY_SIZE0);
	big.s.logical_sector_size = 4096;

	big.s.size = BA_IMAGE_GEOMETRY_SIZE0 - 1;
	assert_int_equal(blkalign_ctx_set_image_geometry(ctx, &big.s), -EINVAL);
	big.s.size = sizeof(size_t);
	assert_int_equal(blkalign_ctx_set_image_geometry(ctx, &big.s), -EINVAL);

	big.s.size = BA_IMAGE_GEOMETRY_SIZE0;
	assert_int_equal(blkalign_ctx_set_image_geometry(ctx, &big.s), 0);
	assert_int_equal(ctx->image.logical_sector_size, 4096);
	assert_int_equal(ctx->image.size, sizeof(ctx->image));

	big.s.size = sizeof(big);
	big.s.logical_sector_size = 512;
	assert_int_equal(blkalign_ctx_set_image_geometry(ctx, &big.s), 0);
	assert_int_equal(ctx->image.logical_sector_size, 512);
	assert_int_equal(ctx->image.size, sizeof(ctx->image));
	blkalign_ctx_unref(ctx);
}

static void test_model_geometry(void **state)
{
	LATER(struct blkalign_model_geometry) big;
	struct blkalign_model_geometry out;

	(void)state;
	fill_garbage(&big, sizeof(big));
	memset(&big.s, 0, BA_MODEL_GEOMETRY_SIZE0);
	big.s.max_segments = 64;
	big.s.size = BA_MODEL_GEOMETRY_SIZE0 - 1;
	assert_int_equal(ba_model_geometry_in(&out, &big.s), -EINVAL);
	big.s.size = BA_MODEL_GEOMETRY_SIZE0;
	assert_int_equal(ba_model_geometry_in(&out, &big.s), 0);
	assert_int_equal(out.max_segments, 64);
	big.s.size = sizeof(big);
	assert_int_equal(ba_model_geometry_in(&out, &big.s), 0);
	assert_int_equal(out.max_segments, 64);
	assert_int_equal(out.size, sizeof(out));
}

static void test_text_opts(void **state)
{
	LATER(struct blkalign_text_opts) big;
	struct blkalign_text_opts out;

	(void)state;
	fill_garbage(&big, sizeof(big));
	memset(&big.s, 0, BA_TEXT_OPTS_SIZE0);
	big.s.width = 77;
	big.s.size = BA_TEXT_OPTS_SIZE0 - 1;
	assert_int_equal(
		ba_text_opts_get(BLKALIGN_TEXT_TABLE_LAYERS, &big.s, &out),
		-EINVAL);
	big.s.size = BA_TEXT_OPTS_SIZE0;
	assert_int_equal(
		ba_text_opts_get(BLKALIGN_TEXT_TABLE_LAYERS, &big.s, &out), 0);
	assert_int_equal(out.width, 77);
	big.s.size = sizeof(big);
	assert_int_equal(
		ba_text_opts_get(BLKALIGN_TEXT_TABLE_LAYERS, &big.s, &out), 0);
	assert_int_equal(out.width, 77);
}

static void test_trace_opts(void **state)
{
	LATER(struct blkalign_trace_opts) big;
	struct blkalign_trace *t = NULL;

	(void)state;
	fill_garbage(&big, sizeof(big));
	memset(&big.s, 0, BA_TRACE_OPTS_SIZE0);
	big.s.buffer_size_kb = 1024;
	big.s.size = BA_TRACE_OPTS_SIZE0 - 1;
	assert_int_equal(blkalign_trace_new(NULL, NULL, &big.s, &t), -EINVAL);
	assert_null(t);
	big.s.size = BA_TRACE_OPTS_SIZE0;
	assert_int_equal(blkalign_trace_new(NULL, NULL, &big.s, &t), 0);
	assert_int_equal(t->opts.buffer_size_kb, 1024);
	assert_null(t->opts.raw);
	blkalign_trace_free(t);
	big.s.size = sizeof(big);
	assert_int_equal(blkalign_trace_new(NULL, NULL, &big.s, &t), 0);
	assert_int_equal(t->opts.buffer_size_kb, 1024);
	blkalign_trace_free(t);
}

/*
 * fix and bench: the size is checked before anything is opened, so a
 * refused size is -EINVAL, and an accepted one reaches the next check
 * (a missing file, an unknown engine) and fails there instead.
 */
static void test_fix_opts(void **state)
{
	LATER(struct blkalign_fix_opts) big;
	struct blkalign_fix_run *run = NULL;
	const char *none = "/nonexistent/blkalign-abi-sizes.img";
	int rc;

	(void)state;
	fill_garbage(&big, sizeof(big));
	memset(&big.s, 0, BA_FIX_OPTS_SIZE0);
	big.s.journal = "/nonexistent/blkalign-abi-sizes.journal";
	big.s.dry_run = true;
	big.s.size = BA_FIX_OPTS_SIZE0 - 1;
	assert_int_equal(blkalign_fix_disk(NULL, NULL, none, &big.s, 0, &run),
			 -EINVAL);
	big.s.size = BA_FIX_OPTS_SIZE0;
	rc = blkalign_fix_disk(NULL, NULL, none, &big.s, 0, &run);
	assert_int_not_equal(rc, -EINVAL);
	blkalign_fix_run_free(run);
	run = NULL;
	big.s.size = sizeof(big);
	rc = blkalign_fix_disk(NULL, NULL, none, &big.s, 0, &run);
	assert_int_not_equal(rc, -EINVAL);
	blkalign_fix_run_free(run);
}

static void test_bench_opts(void **state)
{
	LATER(struct blkalign_bench_opts) big;
	struct blkalign_bench_result *res = NULL;

	(void)state;
	fill_garbage(&big, sizeof(big));
	memset(&big.s, 0, BA_BENCH_OPTS_SIZE0);
	big.s.size = sizeof(big.s);
	blkalign_bench_opts_defaults(&big.s);
	big.s.engine = "no-such-engine";
	big.s.size = BA_BENCH_OPTS_SIZE0 - 1;
	assert_int_equal(blkalign_bench_sweep(NULL, "/dev/null", &big.s, &res),
			 -EINVAL);
	big.s.size = BA_BENCH_OPTS_SIZE0;
	assert_int_equal(blkalign_bench_sweep(NULL, "/dev/null", &big.s, &res),
			 -ENOENT);
	big.s.size = sizeof(big);
	assert_int_equal(blkalign_bench_sweep(NULL, "/dev/null", &big.s, &res),
			 -ENOENT);
	assert_null(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_sizes),
		cmocka_unit_test(test_init_macros),
		cmocka_unit_test(test_sized_copy),
		cmocka_unit_test(test_image_geometry),
		cmocka_unit_test(test_model_geometry),
		cmocka_unit_test(test_text_opts),
		cmocka_unit_test(test_trace_opts),
		cmocka_unit_test(test_fix_opts),
		cmocka_unit_test(test_bench_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
