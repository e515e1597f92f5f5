/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-journal.c - ba_journal_open() (lib/act/fix-journal.c), the parser of
 * the journal `blkalign fix --resume/--rollback` trusts, on the input as
 * a file, then what --resume and --rollback would need of it
 * (ba_fix_lacks).  The input's last byte chooses: bit 0, repair it
 * first, so that the fuzzer gets past the checksums to the code behind
 * them (the header's layout and CRC, both copies when bit 4 is set; the
 * parts' hashes, copy B made copy A or not by bits 1 to 3; every record
 * slot's CRC and the batch and rollback-boundary hashes it carries);
 * bit 5, open it as --inspect does (every copy read).  An accepted
 * journal must keep what the mover relies on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include "fix.h"
#include "fuzz.h"

static bool in(size_t n, uint64_t off, uint64_t len)
{
	return off <= n && len <= n - off;
}

/* Part @p's hash from copy A; copy B made copy A when @sync. */
static void repair_part(uint8_t *d, size_t n, struct ba_jpart *p, bool sync)
{
	if (!in(n, p->off[0], p->len))
		return;
	p->hash = XXH3_64bits(d + p->off[0], (size_t)p->len);
	if (sync && in(n, p->off[1], p->len))
		memmove(d + p->off[1], d + p->off[0], (size_t)p->len);
}

static void repair_records(uint8_t *d, size_t n, const struct ba_journal *j,
			   const struct j_header *h)
{
	for (int k = 0; k < BA_J_RECS; k++) {
		uint64_t off = h->rec_off + (uint64_t)REC_SLOT * (uint64_t)k;
		struct j_record r;
		uint64_t doff;

		if (!in(n, off, sizeof(r)))
			continue;
		memcpy(&r, d + off, sizeof(r));
		r.magic = REC_MAGIC;
		doff = j->data_off[r.st.seq % 2];
		if (r.st.inflight && in(n, doff, r.st.inflight))
			r.st.data_hash =
				XXH3_64bits(d + doff, (size_t)r.st.inflight);
		if (r.st.rb_bound_hash &&
		    in(n, h->rbound.off[0], h->rbound.len))
			r.st.rb_bound_hash = XXH3_64bits(d + h->rbound.off[0],
							 (size_t)h->rbound.len);
		r.crc = 0;
		r.crc = ba_crc32(0, &r, sizeof(r));
		memcpy(d + off, &r, sizeof(r));
	}
}

/* The header's layout and hashes as its geometry gives them, its CRC. */
static void repair(uint8_t *d, size_t n, uint8_t flags)
{
	struct ba_journal *j;
	struct j_header h;

	if (n < J_HDR_SIZE)
		return;
	j = calloc(1, sizeof(*j));
	if (!j)
		return;
	memcpy(&h, d, sizeof(h));
	memcpy(h.magic, J_MAGIC, 8);
	h.version = J_VERSION;
	j->g = h.g;
	if (j->g.npatches > BA_FIX_MAX_PATCHES)
		j->g.npatches = BA_FIX_MAX_PATCHES;
	for (uint32_t i = 0; i < j->g.npatches; i++)
		j->patches[i].len = h.patches[i].len;
	ba_journal_layout(j);
	h.size = j->size;
	memcpy(h.hdr_off, j->hdr_off, sizeof(h.hdr_off));
	h.rec_off = j->rec_off;
	memcpy(h.data_off, j->data_off, sizeof(h.data_off));
	h.blob = j->blob_p;
	h.head = j->head_p;
	h.bound = j->bound_p;
	h.rbound = j->rbound_p;
	repair_part(d, n, &h.blob, flags & 2);
	repair_part(d, n, &h.head, flags & 4);
	repair_part(d, n, &h.bound, flags & 8);
	h.g.bound_hash = h.bound.hash;
	repair_records(d, n, j, &h);
	h.crc = 0;
	memcpy(d, &h, sizeof(h));
	h.crc = ba_crc32(0, d, J_HDR_SIZE);
	memcpy(d, &h, sizeof(h));
	if ((flags & 16) && in(n, h.hdr_off[1], J_HDR_SIZE))
		memmove(d + h.hdr_off[1], d, J_HDR_SIZE);
	free(j);
}

static void check(struct ba_journal *j)
{
	const struct ba_fix_geom *g = &j->g;
	const struct ba_fix_state *st = &j->st;
	struct ba_fix_run r = {.j = j};

	FUZZ_CHECK(g->head_len <= g->len && g->len <= g->old_size &&
		   g->len <= g->new_size);
	FUZZ_CHECK(g->step && g->step <= BA_FIX_STEP_MAX);
	FUZZ_CHECK(g->npatches <= BA_FIX_MAX_PATCHES);
	FUZZ_CHECK(g->chains >= 1 && g->chains <= BA_FIX_MAX_CHAINS);
	FUZZ_CHECK(g->chains == 1 ||
		   (uint64_t)(g->chains - 1) * g->region <= g->len);
	for (uint32_t i = 0; j->blob && i < g->npatches; i++)
		FUZZ_CHECK(j->patches[i].old && j->patches[i].new);
	if (j->have_state) {
		FUZZ_CHECK(st->phase >= BA_PH_PREPARED &&
			   st->phase <= BA_PH_LAST);
		FUZZ_CHECK(!st->rb_levels ||
			   (!g->batch && (st->phase == BA_PH_RB_MOVING ||
					  st->phase == BA_PH_RB_FINISH)));
		FUZZ_CHECK(st->lo <= st->hi && st->hi <= g->len &&
			   st->done <= st->hi - st->lo);
		FUZZ_CHECK(st->nlev <= BA_FIX_WINDOW_LEVELS &&
			   st->nhash <=
				   BA_FIX_WINDOW_LEVELS * BA_FIX_MAX_CHAINS);
		FUZZ_CHECK(!st->inflight ||
			   (g->batch && st->inflight <= g->step));
		FUZZ_CHECK(j->h.copies >= 1 && j->h.copies <= 2);
	}
	(void)ba_fix_lacks(&r, false, false);
	(void)ba_fix_lacks(&r, true, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ba_journal *j;
	struct ba_fix_io io;
	uint8_t *copy, flags;
	char path[64];
	int fd;

	if (size > 4 * 1024 * 1024)
		return 0;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	flags = size ? copy[size - 1] : 0;
	if (flags & 1)
		repair(copy, size, flags);
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
	ba_fix_io_init(&io, NULL);
	j = calloc(1, sizeof(*j));
	if (j && ba_journal_open(j, &io, path, flags & 32) == 0) {
		check(j);
		ba_journal_close(j);
	}
	free(j);
	close(fd);
	free(copy);
	return 0;
}
