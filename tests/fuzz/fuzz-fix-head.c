/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-fix-head.c - the boot-sector fields `blkalign fix` rewrites in a
 * moved partition's head (lib/act/fix-table.c, fix-exfat.c): FAT's and
 * NTFS's hidden sectors, exFAT's PartitionOffset and boot checksums.
 * The input is the head, read from the disk as fix reads it; each
 * content kind is tried with the start the head itself records (so that
 * the fuzzer gets past "holds exactly the start"), then patched for a
 * start at 1 MiB.  Nothing may be read or written outside the head, and
 * an exFAT that held its start must hold the new one afterwards, its
 * checksums made again.
 */
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "fuzz.h"

#define NEW_START (2048 * 512)

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = {"vfat", "ntfs", "exfat", "ext4"};
	struct ba_journal j;
	uint8_t *head;

	/* a head is at least one sector; the exFAT fields end at 109 */
	if (size < 512 || size > (1u << 20))
		return 0;
	head = malloc(size);
	if (!head)
		return 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		uint64_t start =
			!strcmp(kinds[k], "exfat")
				? le(data + 0x40, 8) << (data[108] & 15)
				: le(data + 0x1c, 4) * le(data + 0x0b, 2);
		uint32_t kind;

		memcpy(head, data, size);
		kind = ba_fix_fs_patch_kind(kinds[k], head, size, start);
		memset(&j, 0, sizeof(j));
		j.g.fs_patch = kind;
		j.g.head_len = size;
		j.g.len = size;
		ba_fix_patch_head(&j, head, NEW_START);
		if (kind == BA_FIX_FS_EXFAT)
			FUZZ_CHECK(ba_fix_exfat_holds(head, size, NEW_START));
		if (kind == BA_FIX_FS_NONE)
			FUZZ_CHECK(!memcmp(head, data, size));
	}
	free(head);
	return 0;
}
