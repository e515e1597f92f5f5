/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-fix-status.c - the policy of `blkalign fix` as data: each fix
 * call's return value (errno, refused, journal kept, stopped by a
 * signal, dry run) to the exit status blkalign(8) documents and to the
 * word its output uses; and blkalign_fix_disk's dry run on a dos image
 * built in a temporary file (the outcomes, the run's status, the log).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "fix.h"

struct status_row {
	const char *name;
	int rc;
	bool refused, journal_kept, dry_run;
	int signal;
	int status;
	const char *action, *resume_action;
};

static const struct status_row status_rows[] = {
	{"done", 0, false, false, false, 0, 0, "moved", "finished"},
	{"aligned already", -EALREADY, false, false, false, 0, 0, "failed",
	 "failed"},
	{"dry: would move", 0, false, false, true, 0, 1, "would move"},
	{"dry: aligned already", -EALREADY, false, false, true, 0, 0,
	 "refused"},
	{"dry: no room", -ENOSPC, true, false, true, 0, 2, "refused"},
	{"no room", -ENOSPC, true, false, false, 0, 2, "refused"},
	{"not sized", -EOPNOTSUPP, true, false, false, 0, 2, "refused"},
	{"contents too big", -EFBIG, true, false, false, 0, 2, "refused"},
	{"plan not in sectors", -EINVAL, false, false, false, 0, 4, "failed"},
	{"journal cannot be written", -ENOSPC, false, false, false, 0, 4,
	 "failed"},
	{"i/o error, journal kept", -EIO, false, true, false, 0, 4, "failed",
	 "failed"},
	{"refused, journal kept", -ENOSPC, true, true, false, 0, 4, "failed"},
	{"stopped by SIGTERM", -EINTR, false, true, false, SIGTERM,
	 128 + SIGTERM, "stopped", "stopped"},
	{"stopped, no signal", -EINTR, false, true, false, 0, 128 + SIGINT,
	 "stopped", "stopped"},
	{"resume: no journal", -ENOENT, false, false, false, 0, 4, "failed",
	 "refused"},
	{"resume: another disk", -ESTALE, false, true, false, 0, 4, "failed",
	 "refused"},
	{"resume: damaged", -EBADMSG, false, true, false, 0, 4, "failed",
	 "refused"},
	{"resume: in use", -EBUSY, false, true, false, 0, 4, "failed",
	 "refused"},
	{"resume: format 1", -EPROTO, false, true, false, 0, 4, "failed",
	 "refused"},
};

static void test_status(void **state)
{
	const struct status_row *row = *state;
	struct ba_fix_res res = {0};
	struct blkalign_plan_part pp = {.old_start = 32256,
					.new_start = 1048576};

	res.pub.refused = row->refused;
	res.pub.journal_kept = row->journal_kept;
	assert_int_equal(blkalign_fix_status(row->rc, &res.pub, row->dry_run,
					     row->signal),
			 row->status);
	assert_string_equal(ba_fix_action(&pp, &res, row->rc, row->dry_run),
			    row->action);
	if (row->resume_action)
		assert_string_equal(ba_fix_resume_action(&res, row->rc),
				    row->resume_action);
}

static void test_status_words(void **state)
{
	struct ba_fix_res res = {0};
	struct blkalign_plan_part pp = {.old_start = MIB, .new_start = MIB};

	(void)state;
	assert_string_equal(ba_fix_action(&pp, &res, 0, false), "resized");
	assert_string_equal(ba_fix_action(&pp, &res, 0, true), "would resize");
	res.pub.rolled_back = true;
	assert_string_equal(ba_fix_resume_action(&res, 0), "rolled back");
	assert_int_equal(blkalign_fix_status(-EIO, NULL, false, 0), 4);
	assert_int_equal(blkalign_fix_status(0, NULL, false, 0), 0);
}

/* The statuses of a run's partitions as one: bits or-ed, but a signal's
 * 128 + n stands whole (130 | 1 = 131 would say SIGQUIT, 130 | 4 = 134
 * SIGABRT). */
static void test_status_merge(void **state)
{
	(void)state;
	assert_int_equal(blkalign_status_merge(0, 0), 0);
	assert_int_equal(blkalign_status_merge(1, 2), 3);
	assert_int_equal(blkalign_status_merge(2, 4), 6);
	assert_int_equal(blkalign_status_merge(1, 128 + SIGINT), 130);
	assert_int_equal(blkalign_status_merge(128 + SIGINT, 4), 130);
	assert_int_equal(blkalign_status_merge(128 + SIGTERM, 128 + SIGINT),
			 128 + SIGTERM);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A 16 MiB image: a dos table, partition 1 at sector 63 (2048 sectors
 * of nothing blkalign can size). */
static void make_image(const char *path)
{
	uint8_t mbr[512] = {0};
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	mbr[0x1be + 4] = 0x83;
	put32(mbr + 0x1be + 8, 63);
	put32(mbr + 0x1be + 12, 2048);
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	assert_int_equal(fwrite(mbr, 1, sizeof(mbr), f), sizeof(mbr));
	assert_int_equal(ftruncate(fileno(f), 16 * MIB), 0);
	fclose(f);
}

static char logged[1024];

static void on_log(void *data, const char *msg)
{
	(void)data;
	snprintf(logged, sizeof(logged), "%s", msg);
}

static void test_fix_disk_dry(void **state)
{
	char dir[] = "/tmp/test-fix-status.XXXXXX", img[64], jp[64], want[128];
	struct blkalign_fix_opts o = {.size = sizeof(o), .dry_run = true};
	struct blkalign_image_geometry g = {.size = sizeof(g),
					    .physical_sector_size = 4096};
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_fix_run *run = NULL;

	(void)state;
	assert_non_null(ctx);
	assert_non_null(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	snprintf(jp, sizeof(jp), "%s/disk.journal", dir);
	make_image(img);
	blkalign_ctx_set_log_fn(ctx, on_log, NULL);
	/* 512e: sector 63 is off the physical grid, a move */
	assert_int_equal(blkalign_ctx_set_image_geometry(ctx, &g), 0);
	o.journal = jp;
	/* a write without a target is refused */
	o.dry_run = false;
	assert_int_equal(blkalign_fix_disk(ctx, NULL, img, &o, 0, &run),
			 -EINVAL);
	assert_null(run);
	o.dry_run = true;

	/* not sized: refused (2), its numbers from the plan */
	assert_int_equal(blkalign_fix_disk(ctx, NULL, img, &o, 0, &run), 0);
	assert_int_equal(run->status, BLKALIGN_STATUS_INCOMPLETE);
	assert_int_equal(run->noutcomes, 1);
	assert_string_equal(run->outcomes[0].action, "refused");
	assert_int_equal(run->outcomes[0].rc, -EOPNOTSUPP);
	assert_int_equal(run->outcomes[0].res.number, 1);
	assert_int_equal(run->outcomes[0].res.old_start, 63 * 512);
	/* the way on in the API's words, then in the program's own */
	assert_non_null(strstr(run->outcomes[0].res.message,
			       "blkalign_fix_opts.copy_all copies the whole"));
	blkalign_fix_run_free(run);
	assert_int_equal(blkalign_ctx_set_word(ctx, BLKALIGN_WORD_COPY_ALL,
					       "--copy-all"),
			 0);
	assert_int_equal(blkalign_ctx_set_word(ctx, BLKALIGN_WORD_COUNT, "x"),
			 -EINVAL);
	assert_int_equal(blkalign_fix_disk(ctx, NULL, img, &o, 0, &run), 0);
	assert_non_null(strstr(run->outcomes[0].res.message,
			       ": --copy-all copies the whole partition"));
	blkalign_fix_run_free(run);

	/* --copy-all: it would move (1) */
	o.copy_all = true;
	assert_int_equal(blkalign_fix_disk(ctx, NULL, img, &o, 1, &run), 0);
	assert_int_equal(run->status, BLKALIGN_STATUS_FINDINGS);
	assert_int_equal(run->noutcomes, 1);
	assert_string_equal(run->outcomes[0].action, "would move");
	assert_int_equal(run->outcomes[0].res.new_start, MIB);
	blkalign_fix_run_free(run);

	/* a partition that is not there: -ENOENT (blkalign(8): a wrong
	 * argument, as plan says) */
	assert_int_equal(blkalign_fix_disk(ctx, NULL, img, &o, 9, &run),
			 -ENOENT);
	assert_null(run);
	snprintf(want, sizeof(want), "'%s' has no partition 9 to fix", img);
	assert_string_equal(logged, want);

	unlink(img);
	rmdir(dir);
	blkalign_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest disk[] = {
		cmocka_unit_test(test_status_words),
		cmocka_unit_test(test_status_merge),
		cmocka_unit_test(test_fix_disk_dry),
	};
	int failed = RUN_TABLE(test_status, status_rows);

	return failed + cmocka_run_group_tests(disk, NULL, NULL);
}
