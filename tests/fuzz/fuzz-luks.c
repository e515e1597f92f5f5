/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-luks.c - libFuzzer target: the LUKS1/LUKS2 prober
 * (lib/scan/probe/luks.c), binary headers and the LUKS2 JSON area through
 * json-c, on the input as an in-memory device.
 *
 * Each input probes the whole device, a region 4096 bytes in (a
 * partition) and a region longer than the device (a truncated image).
 * A "found" container must have its data inside the region and an
 * encryption sector size of 0 or a power of two from 512 to 4096.
 * LUKS2 has no checksum check of ours to get past (see luks.c).
 *
 * Build and run: tools/fuzz-run (clang, -Dfuzz=true, in build-fuzz/), or
 *   build-fuzz/tests/fuzz/fuzz-luks -max_total_time=60 \
 *     tests/fuzz/corpus/fuzz-luks
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "probe/probe.h"

static void check(struct ba_io *io, uint64_t off, uint64_t size)
{
	struct ba_content c;
	int rc = ba_luks_prober.probe(io, off, size, &c);

	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -EINVAL || rc == -ERANGE ||
		   rc == -ENOMEM);
	if (rc) {
		FUZZ_CHECK(c.kind == BA_CONTENT_NONE);
		return;
	}
	FUZZ_CHECK(c.kind == BA_CONTENT_LUKS);
	FUZZ_CHECK(!strcmp(c.version, "1") || !strcmp(c.version, "2"));
	FUZZ_CHECK(c.data_offset <= size && c.data_offset % 512 == 0);
	FUZZ_CHECK(c.block_size == 0 ||
		   (c.block_size >= 512 && c.block_size <= 4096 &&
		    !(c.block_size & (c.block_size - 1))));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct ba_io io;

	ba_io_init_mem(&io, data, len);
	check(&io, 0, len);
	if (len > 4096)
		check(&io, 4096, len - 4096);
	check(&io, 0, (uint64_t)len + 1024 * 1024);
	return 0;
}
