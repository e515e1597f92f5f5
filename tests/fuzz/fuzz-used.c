/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-used.c - a used-extent reader (lib/scan/used/<kind>.c) on hostile
 * bytes: whatever the contents claim, the reader returns 0 or -errno, and
 * a map it returns is sorted, disjoint, inside the contents and sums to
 * its used count.
 *
 * Built once per reader of blkalign's own parsing (meson: fuzz-used-xfs,
 * -fat, ...; FUZZ_USED_TYPE is the libblkid TYPE handed to ba_used_read),
 * so that each one's executions and coverage are its own.
 *
 * Input layout (fuzz-vdisk.c's): bytes 0-3 the contents' size, little
 * endian (capped at 1 GiB, raised to hold every chunk), byte 4 unused,
 * then chunks of u32 offset, u16 length and the bytes; the rest is zeros,
 * never built (fuzz_file_new).
 */
#include <errno.h>
#include <string.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "fuzz.h"
#include "used/used.h"

#ifndef FUZZ_USED_TYPE
#error "FUZZ_USED_TYPE: the libblkid TYPE whose reader is under test"
#endif

#define MAX_SIZE (1ull << 30)

/*
 * libntfs-3g (2022.10.3; upstream's volume.c still) leaks the $MFT's
 * runlist when ntfs_volume_startup refuses it ("The MFT is not
 * self-contained": error_exit before the runlist is stored): not
 * blkalign's leak.  Runlists hold no pointers, so not reporting what
 * ntfs_mapping_pairs_decompress allocated hides nothing else: a volume
 * blkalign left mounted still shows.  The suppression needs the slow
 * unwinder (libntfs-3g has no frame pointers).  These hooks run before
 * the sanitizers are set up: no libc calls (strcmp) in them.
 */
#define USED_NTFS                                                   \
	(sizeof(FUZZ_USED_TYPE) == 5 && FUZZ_USED_TYPE[0] == 'n' && \
	 FUZZ_USED_TYPE[1] == 't' && FUZZ_USED_TYPE[2] == 'f' &&    \
	 FUZZ_USED_TYPE[3] == 's')

const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void);

const char *__lsan_default_suppressions(void)
{
	return USED_NTFS ? "leak:ntfs_mapping_pairs_decompress\n" : "";
}

const char *__asan_default_options(void)
{
	return USED_NTFS ? "fast_unwind_on_malloc=0" : "";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ba_used_map m;
	struct ba_io *io;
	char why[256];
	uint64_t sum = 0;
	int rc;

	if (size < 5)
		return 0;
	io = fuzz_file_new(data, size, 5, fuzz_le32(data), MAX_SIZE);
	if (!io)
		return 0;
	rc = ba_used_read(io, 0, io->size, FUZZ_USED_TYPE, &m, why,
			  sizeof(why));
	FUZZ_CHECK(rc <= 0);
	FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL);
	if (!rc) {
		FUZZ_CHECK(m.used <= m.size && m.size == io->size);
		for (uint64_t i = 0; i < m.nr; i++) {
			FUZZ_CHECK(m.ext[i].len > 0);
			FUZZ_CHECK(m.ext[i].off <= m.size &&
				   m.ext[i].len <= m.size - m.ext[i].off);
			FUZZ_CHECK(!i || m.ext[i - 1].off + m.ext[i - 1].len <
						 m.ext[i].off);
			sum += m.ext[i].len;
		}
		FUZZ_CHECK(sum == m.used);
		ba_used_free(&m);
	}
	fuzz_file_free(io);
	return 0;
}
