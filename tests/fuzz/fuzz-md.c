/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-md.c - libFuzzer target: the md superblock prober (lib/scan/probe/md.c)
 * on the input as an in-memory member device.
 *
 * Each input runs twice: as given, and as a copy whose 0.90 and 1.x
 * checksums are recomputed at every place a superblock can live, so the
 * fuzzer gets past the checksum to the geometry checks behind it.  Each
 * run probes the whole device, a region starting half-way in (a
 * partition), and a region longer than the device (a truncated image).
 * A "found" result must keep its promises: data inside the region,
 * 1 <= data disks <= raid disks, a whole-sector chunk, a superblock
 * inside the region.
 *
 * Build and run: tools/fuzz-run (clang, -Dfuzz=true, in build-fuzz/), or
 *   build-fuzz/tests/fuzz/fuzz-md -max_total_time=60 \
 *     tests/fuzz/corpus/fuzz-md
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "probe/probe.h"

#define SB_BYTES 4096
#define MD_MAGIC 0xa92b4efcU

static uint32_t rd32(const uint8_t *p, bool big)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return big ? be32toh(v) : le32toh(v);
}

static void wr32(uint8_t *p, uint32_t v, bool big)
{
	v = big ? htobe32(v) : htole32(v);
	memcpy(p, &v, 4);
}

/* mdadm calc_sb0_csum() / calc_sb_1_csum() on the superblock at @sb. */
static void fix_csum(uint8_t *sb)
{
	uint64_t sum = 0;
	uint32_t n;

	if (rd32(sb, false) != MD_MAGIC && rd32(sb, true) != MD_MAGIC)
		return;
	if (rd32(sb + 4, false) == 1) { /* 1.x, little-endian */
		n = 256 + 2 * rd32(sb + 220, false);
		if (n > SB_BYTES)
			return;
		wr32(sb + 216, 0, false);
		for (uint32_t i = 0; i + 4 <= n; i += 4)
			sum += rd32(sb + i, false);
		if (n % 4)
			sum += (uint32_t)sb[n - 2] | (uint32_t)sb[n - 1] << 8;
		wr32(sb + 216, (uint32_t)sum + (uint32_t)(sum >> 32), false);
	} else { /* 0.90, either order */
		bool big = rd32(sb, true) == MD_MAGIC;

		wr32(sb + 152, 0, big);
		for (uint32_t i = 0; i < SB_BYTES; i += 4)
			sum += rd32(sb + i, big);
		wr32(sb + 152, (uint32_t)sum + (uint32_t)(sum >> 32), big);
	}
}

/* Every superblock place of the region [off, off + size) in @dev. */
static void fix_region(uint8_t *dev, size_t len, uint64_t off, uint64_t size)
{
	uint64_t n = size / 512, at[4];
	size_t k = 0;

	if (n >= 128)
		at[k++] = (n & ~(uint64_t)127) - 128;
	if (n >= 24)
		at[k++] = (n - 16) & ~(uint64_t)7;
	at[k++] = 0;
	at[k++] = 8;
	for (size_t i = 0; i < k; i++) {
		uint64_t pos = off + at[i] * 512;

		if (pos <= len && len - pos >= SB_BYTES)
			fix_csum(dev + pos);
	}
}

static void check(struct ba_io *io, uint64_t off, uint64_t size)
{
	struct ba_content c;
	int rc = ba_md_prober.probe(io, off, size, &c);

	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -EINVAL || rc == -ERANGE);
	if (rc) {
		FUZZ_CHECK(c.kind == BA_CONTENT_NONE);
		return;
	}
	FUZZ_CHECK(c.kind == BA_CONTENT_MD);
	FUZZ_CHECK(memchr(c.version, 0, sizeof(c.version)) != NULL);
	FUZZ_CHECK(c.data_offset <= size);
	FUZZ_CHECK(c.data_size <= size - c.data_offset);
	FUZZ_CHECK(c.md_super_offset <= size &&
		   size - c.md_super_offset >= SB_BYTES);
	FUZZ_CHECK(c.md_raid_disks >= 1 && c.md_data_disks >= 1 &&
		   c.md_data_disks <= c.md_raid_disks);
	FUZZ_CHECK(c.md_chunk % 512 == 0);
	/* Data and superblock do not overlap. */
	FUZZ_CHECK(c.data_offset >= c.md_super_offset + 512 ||
		   c.data_offset + c.data_size <= c.md_super_offset);
}

static void run(const uint8_t *dev, size_t len)
{
	uint64_t half = (len / 2) & ~(uint64_t)511;
	struct ba_io io;

	ba_io_init_mem(&io, dev, len);
	check(&io, 0, len);
	check(&io, half, len - half);
	check(&io, 0, (uint64_t)len + 64 * 1024);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	uint64_t half = (len / 2) & ~(uint64_t)511;
	uint8_t *copy;

	run(data, len);
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, len);
	fix_region(copy, len, 0, len);
	fix_region(copy, len, half, len - half);
	run(copy, len);
	free(copy);
	return 0;
}
