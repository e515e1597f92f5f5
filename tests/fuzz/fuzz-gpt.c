/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-gpt.c - ba_gpt_check() (lib/scan/probe/gpt.c), the one on-disk parser
 * of our own, on the input bytes as an in-memory device, with 512- and
 * 4096-byte sectors.  Besides memory errors (ASan) and undefined
 * behaviour (UBSan), it checks what a header marked OK promises.
 */
#include <errno.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "fuzz.h"

static void check_header(const struct ba_gpt_header *h, uint64_t size,
			 uint32_t ss, uint64_t want_lba)
{
	uint64_t last_lba = size / ss - 1;
	uint64_t bytes;

	FUZZ_CHECK(h->state >= BA_GPT_ABSENT && h->state <= BA_GPT_UNREADABLE);
	if (h->state == BA_GPT_BAD)
		FUZZ_CHECK(h->why != NULL);
	if (h->state != BA_GPT_OK)
		return;
	/* An intact header: every field the rules use is in range. */
	FUZZ_CHECK(size / ss >= 3);
	if (want_lba)
		FUZZ_CHECK(h->my_lba == want_lba);
	FUZZ_CHECK(h->my_lba <= last_lba);
	FUZZ_CHECK(h->first_usable_lba <= h->last_usable_lba);
	FUZZ_CHECK(h->last_usable_lba <= last_lba);
	FUZZ_CHECK(h->entry_size >= 128 && h->entry_size <= 4096 &&
		   h->entry_size % 8 == 0);
	FUZZ_CHECK(h->nentries >= 1 && h->nentries <= 16384);
	bytes = (uint64_t)h->nentries * h->entry_size;
	FUZZ_CHECK(bytes <= BA_IO_MAX_READ);
	FUZZ_CHECK(h->entries_lba <= last_lba);
	FUZZ_CHECK(h->entries_lba * ss + bytes <= size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t sector_sizes[] = {512, 4096};

	for (size_t i = 0; i < 2; i++) {
		uint32_t ss = sector_sizes[i];
		struct ba_gpt_check chk;
		struct ba_io io;
		int rc;

		ba_io_init_mem(&io, data, size);
		rc = ba_gpt_check(&io, ss, &chk);
		FUZZ_CHECK(rc == 0 || rc == -ENOMEM);
		if (rc)
			continue;
		if (size / ss < 3) {
			FUZZ_CHECK(chk.primary.state == BA_GPT_ABSENT);
			FUZZ_CHECK(chk.backup.state == BA_GPT_ABSENT);
			continue;
		}
		check_header(&chk.primary, size, ss, 1);
		check_header(&chk.backup, size, ss, 0);
		/* A missing backup is only news when the primary is intact. */
		if (chk.primary.state == BA_GPT_OK)
			FUZZ_CHECK(chk.backup.state != BA_GPT_ABSENT);
		/* Memory never fails to read. */
		FUZZ_CHECK(chk.primary.state != BA_GPT_UNREADABLE);
		FUZZ_CHECK(chk.backup.state != BA_GPT_UNREADABLE);
		/* Two headers and two arrays at most. */
		FUZZ_CHECK(io.bytes_read <=
			   2 * ((uint64_t)ss + BA_IO_MAX_READ));
	}
	return 0;
}
