/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-journal.c - ba_journal_open() (lib/fix-journal.c), the parser of
 * the journal `blkalign fix --resume/--rollback` trusts, on the input as
 * a file.  Inputs whose first byte is odd get their header and record
 * CRCs recomputed first, so that the fuzzer reaches the checks behind
 * them.  An accepted journal must keep what the mover relies on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fix.h"
#include "fuzz.h"

#define HDR	    16384
#define HDR_CRC_OFF 12

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Recompute the header CRC (and of two record slots at @rec, if there). */
static void repair(uint8_t *d, size_t n)
{
	if (n < HDR)
		return;
	put32(d + HDR_CRC_OFF, 0);
	put32(d + HDR_CRC_OFF, ba_crc32(0, d, HDR));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ba_journal *j;
	uint8_t *copy;
	char path[64];
	int fd;

	if (size > 4 * 1024 * 1024)
		return 0;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (size && (copy[0] & 1))
		repair(copy, size);
	fd = memfd_create("journal", 0);
	if (fd < 0) {
		free(copy);
		return 0;
	}
	if (write(fd, copy, size) != (ssize_t)size) {
		close(fd);
		free(copy);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	j = calloc(1, sizeof(*j));
	if (j && ba_journal_open(j, path) == 0) {
		const struct ba_fix_geom *g = &j->g;
		const struct ba_fix_state *st = &j->st;

		FUZZ_CHECK(g->head_len <= g->len && g->len <= g->old_size &&
			   g->len <= g->new_size);
		FUZZ_CHECK(g->step && g->step <= BA_FIX_STEP_MAX);
		FUZZ_CHECK(g->npatches <= BA_FIX_MAX_PATCHES);
		FUZZ_CHECK(st->phase >= BA_PH_PREPARED &&
			   st->phase <= BA_PH_LAST);
		FUZZ_CHECK(!st->rb_levels ||
			   (!g->batch && (st->phase == BA_PH_RB_MOVING ||
					  st->phase == BA_PH_RB_FINISH)));
		FUZZ_CHECK(st->lo <= st->hi && st->hi <= g->len &&
			   st->done <= st->hi - st->lo);
		FUZZ_CHECK(g->chains >= 1 && g->chains <= BA_FIX_MAX_CHAINS);
		FUZZ_CHECK(st->nlev <= BA_FIX_WINDOW_LEVELS &&
			   st->nhash <=
				   BA_FIX_WINDOW_LEVELS * BA_FIX_MAX_CHAINS);
		FUZZ_CHECK(g->chains == 1 ||
			   (uint64_t)(g->chains - 1) * g->region <= g->len);
		FUZZ_CHECK(!st->inflight ||
			   (g->batch && st->inflight <= g->step));
		for (uint32_t i = 0; i < g->npatches; i++)
			FUZZ_CHECK(j->patches[i].old && j->patches[i].new);
		ba_journal_close(j);
	}
	free(j);
	close(fd);
	free(copy);
	return 0;
}
