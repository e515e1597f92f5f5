/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-fs.c - libFuzzer target: every filesystem prober (ext, XFS,
 * btrfs, FAT, exFAT, NTFS, swap), and the one of a GPT nested in a
 * partition, on the input as an in-memory device.
 *
 * The input is the device from byte 0 and again from 64 KiB, where btrfs
 * keeps its superblock, so one input of a few KiB reaches every parser.
 * Each prober runs on the whole device and on the first len bytes alone
 * (a region shorter than the device), and then at 512 bytes in (a
 * partition start).  Beyond "no crash, no sanitizer report", a prober
 * that says "found" must return sane values: a power-of-two block size
 * and a NUL-terminated type.
 *
 * Build and run: tools/fuzz-run (clang, -Dfuzz=true, in build-fuzz/), or
 *   build-fuzz/tests/fuzz/fuzz-fs -max_total_time=60 \
 *     tests/fuzz/corpus/fuzz-fs
 * Seeds: tests/fixtures/fs-make-corpus.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "fuzz.h"

#define BTRFS_AT (64 * 1024)

static const struct ba_prober *const probers[] = {
	&ba_ext_prober,	 &ba_xfs_prober,	&ba_btrfs_prober,
	&ba_fat_prober,	 &ba_exfat_prober,	&ba_ntfs_prober,
	&ba_swap_prober, &ba_gpt_nested_prober,
};

static void check(const struct ba_prober *p, struct ba_io *io, uint64_t off,
		  uint64_t size)
{
	struct ba_content c;
	int rc = p->probe(io, off, size, &c);

	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -EINVAL || rc == -ERANGE);
	if (rc)
		return;
	if (p->kind == BA_CONTENT_TABLE) { /* all of it, in whole sectors */
		FUZZ_CHECK(c.kind == BA_CONTENT_TABLE &&
			   !strcmp(c.type, "gpt"));
		FUZZ_CHECK(c.used_size == size);
		FUZZ_CHECK(c.sector_size == 512 || c.sector_size == 4096);
		return;
	}
	FUZZ_CHECK(c.kind == BA_CONTENT_FS);
	FUZZ_CHECK(memchr(c.type, 0, sizeof(c.type)) && c.type[0]);
	FUZZ_CHECK(memchr(c.version, 0, sizeof(c.version)));
	FUZZ_CHECK(c.block_size && !(c.block_size & (c.block_size - 1)));
	FUZZ_CHECK(!(c.sector_size & (c.sector_size - 1)));
	FUZZ_CHECK(!c.sector_size || c.sector_size <= c.block_size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	size_t dev_len = BTRFS_AT + len;
	uint8_t *dev = calloc(1, dev_len);
	struct ba_io io;

	if (!dev)
		return 0;
	memcpy(dev, data, len < BTRFS_AT ? len : BTRFS_AT);
	memcpy(dev + BTRFS_AT, data, len);
	ba_io_init_mem(&io, dev, dev_len);
	for (size_t i = 0; i < sizeof(probers) / sizeof(probers[0]); i++) {
		check(probers[i], &io, 0, dev_len);
		check(probers[i], &io, 0, len);
		check(probers[i], &io, 512, dev_len - 512);
	}
	free(dev);
	return 0;
}
