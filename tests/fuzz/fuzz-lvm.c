/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-lvm.c - libFuzzer target: the LVM2 PV prober (lib/scan/probe/lvm.c) on
 * the input as an in-memory device.
 *
 * Each input runs twice: as given, and as a copy whose three CRCs (label,
 * metadata area header, metadata text) are recomputed wherever the input
 * points, so the fuzzer reaches the list walk, the circular text buffer
 * and the text scanner behind them.  Each run probes the whole device,
 * a region 512 bytes in (a partition) and a region longer than the
 * device.  A "found" PV must have pe_start past its label and inside the
 * region, and data_offset == pe_start.  The used-extent reader
 * (lib/scan/used/lvm.c: the metadata text's segments) runs on both, on
 * the device and on a region 64 GiB longer (extents past the input are
 * never read), so its text parser is reached behind the CRCs too: its
 * map must be sorted, disjoint, inside the region, summing to used.
 *
 * Build and run: tools/fuzz-run (clang, -Dfuzz=true, in build-fuzz/), or
 *   build-fuzz/tests/fuzz/fuzz-lvm -max_total_time=60 \
 *     tests/fuzz/corpus/fuzz-lvm
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "probe/probe.h"
#include "used/used.h"

#define INITIAL_CRC 0xf597a6cfU

/* lvm2 calc_crc(): CRC-32 without the inversions. */
static uint32_t lvm_crc(uint32_t c, const uint8_t *p, size_t n)
{
	return ~ba_crc32(~c, p, n);
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static void wr32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

/* The committed text of the mda at @m (@msz bytes), then its header. */
static void fix_mda(uint8_t *m, uint64_t msz)
{
	uint64_t off = rd64(m + 40), sz = rd64(m + 48), first;
	uint32_t c;

	if (off >= 512 && off < msz && sz <= msz - 512) {
		first = msz - off < sz ? msz - off : sz;
		c = lvm_crc(INITIAL_CRC, m + off, first);
		c = lvm_crc(c, m + 512, sz - first);
		wr32(m + 56, c);
	}
	wr32(m, lvm_crc(INITIAL_CRC, m + 4, 508));
}

/* Labels in the first 4 sectors of the region at @off, and the mdas
 * their PV headers list (as far as they lie inside the buffer). */
static void fix_region(uint8_t *dev, size_t len, size_t off)
{
	for (size_t s = 0; s < 4; s++) {
		uint8_t *l = dev + off + s * 512;
		uint32_t hoff;
		size_t pos;
		int lists = 0;

		if (off + (s + 1) * 512 > len || memcmp(l, "LABELONE", 8))
			continue;
		memcpy(&hoff, l + 20, 4);
		hoff = le32toh(hoff);
		/* Walk both lists; fix each mda the second one names. */
		for (pos = (size_t)hoff + 40; hoff >= 32 && pos + 16 <= 512;
		     pos += 16) {
			uint64_t o = rd64(l + pos), sz = rd64(l + pos + 8);

			if (o == 0) {
				if (++lists == 2)
					break;
				continue;
			}
			if (lists == 1 && o <= len - off &&
			    sz <= len - off - o && sz > 512)
				fix_mda(dev + off + o, sz);
		}
		wr32(l + 16, lvm_crc(INITIAL_CRC, l + 20, 492));
	}
}

static void check(struct ba_io *io, uint64_t off, uint64_t size)
{
	struct ba_content c;
	int rc = ba_lvm_prober.probe(io, off, size, &c);

	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -EINVAL || rc == -ERANGE);
	if (rc) {
		FUZZ_CHECK(c.kind == BA_CONTENT_NONE);
		return;
	}
	FUZZ_CHECK(c.kind == BA_CONTENT_LVM);
	FUZZ_CHECK(c.lvm_pe_start >= 512 && c.lvm_pe_start < size);
	FUZZ_CHECK(c.data_offset == c.lvm_pe_start);
	FUZZ_CHECK(c.lvm_extent_size % 512 == 0);
	FUZZ_CHECK(memchr(c.version, 0, sizeof(c.version)) != NULL);
}

static void check_used(struct ba_io *io, uint64_t size)
{
	struct ba_used_map m;
	char why[256];
	uint64_t sum = 0;
	int rc = ba_used_read(io, 0, size, "LVM2_member", &m, why, sizeof(why));

	FUZZ_CHECK(rc <= 0);
	FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL);
	if (rc)
		return;
	FUZZ_CHECK(m.size == size && m.used <= size);
	for (uint64_t i = 0; i < m.nr; i++) {
		FUZZ_CHECK(m.ext[i].len > 0);
		FUZZ_CHECK(m.ext[i].off <= size &&
			   m.ext[i].len <= size - m.ext[i].off);
		FUZZ_CHECK(!i ||
			   m.ext[i - 1].off + m.ext[i - 1].len < m.ext[i].off);
		sum += m.ext[i].len;
	}
	FUZZ_CHECK(sum == m.used);
	ba_used_free(&m);
}

static void run(const uint8_t *dev, size_t len)
{
	struct ba_io io;

	ba_io_init_mem(&io, dev, len);
	check_used(&io, len);
	check_used(&io, (uint64_t)len + (64ull << 30));
	check(&io, 0, len);
	if (len > 512)
		check(&io, 512, len - 512);
	check(&io, 0, (uint64_t)len + 1024 * 1024);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	uint8_t *copy;

	run(data, len);
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, len);
	fix_region(copy, len, 0);
	if (len > 512)
		fix_region(copy, len, 512);
	run(copy, len);
	free(copy);
	return 0;
}
