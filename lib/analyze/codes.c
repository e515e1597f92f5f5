/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codes.c - every finding code blkalign can report, with its severity and
 * a one-line summary.  Codes are stable: they are only ever added.  A
 * finding with a code missing here is refused (ba_device_add_finding), so
 * this table, blkalign(8) and `check --list-codes` cannot drift apart.
 */
#include <string.h>

#include "blkalignP.h"

static const struct blkalign_code codes[] = {
	{"start-physical", BLKALIGN_ERROR,
	 "start not on a physical sector boundary"},
	{"start-io-min", BLKALIGN_WARNING,
	 "start off the minimum I/O grain of the device"},
	{"start-io-opt", BLKALIGN_WARNING,
	 "start off the optimal I/O grain of the device"},
	{"start-mib", BLKALIGN_INFO,
	 "start not on 1 MiB, but physically aligned"},
	{"start-4k", BLKALIGN_INFO,
	 "start off 4 KiB on a disk that reports 512-byte physical sectors"},
	{"size-physical", BLKALIGN_WARNING,
	 "end not on a physical sector boundary"},
	{"soft-block-size", BLKALIGN_WARNING,
	 "size not a multiple of the page size: small soft block size"},
	{"partition-overlap", BLKALIGN_ERROR, "partitions overlap"},
	{"partition-past-end", BLKALIGN_ERROR,
	 "partition ends past the end of the device"},
	{"partition-outside-container", BLKALIGN_ERROR,
	 "logical or nested partition outside its container"},
	{"dos-ebr-chain", BLKALIGN_ERROR,
	 "the chain of extended boot records loops or leaves its area"},
	{"gpt-primary-bad", BLKALIGN_ERROR, "primary GPT header corrupt"},
	{"gpt-backup-bad", BLKALIGN_ERROR, "backup GPT header corrupt"},
	{"gpt-entry-outside", BLKALIGN_ERROR,
	 "GPT entry outside the usable range (libblkid skips it)"},
	{"gpt-hybrid-mbr", BLKALIGN_WARNING,
	 "hybrid MBR entry that matches no GPT partition"},
	{"size-logical", BLKALIGN_WARNING,
	 "image size not a whole number of logical sectors"},
	{"stack-misaligned", BLKALIGN_ERROR,
	 "the kernel reports a misaligned stack (alignment offset -1)"},
	{"io-opt-ignored", BLKALIGN_INFO, "optimal I/O size ignored as bogus"},
	{"raid-data-offset", BLKALIGN_ERROR,
	 "md member data area off the physical sector grid"},
	{"raid-chunk", BLKALIGN_WARNING,
	 "layer on a RAID device starts off the chunk grid"},
	{"raid-stripe", BLKALIGN_WARNING,
	 "layer on a RAID device starts off the full-stripe grid"},
	{"lvm-pe-start", BLKALIGN_ERROR,
	 "LVM data area (pe_start) off the physical sector grid"},
	{"luks-payload", BLKALIGN_ERROR,
	 "LUKS payload off the physical sector grid"},
	{"fs-data-start", BLKALIGN_ERROR,
	 "filesystem data area (FAT clusters) off the physical sector grid"},
	{"fs-block-physical", BLKALIGN_WARNING,
	 "filesystem or encryption unit smaller than the physical sector"},
	{"fs-stride", BLKALIGN_WARNING,
	 "filesystem stride/stripe width do not match the RAID below"},
	{"zfs-ashift", BLKALIGN_ERROR,
	 "ZFS ashift below the physical sector, or vdev off its block grid"},
	{"fix-interrupted", BLKALIGN_ERROR,
	 "a blkalign fix of this partition was interrupted"},
	{NULL, BLKALIGN_INFO, NULL},
};

/**
 * blkalign_finding_codes: every finding code, NULL-terminated (by code).
 */
const struct blkalign_code *blkalign_finding_codes(void)
{
	return codes;
}

bool ba_code_is_known(const char *code)
{
	for (const struct blkalign_code *c = codes; c->code; c++)
		if (!strcmp(c->code, code))
			return true;
	return false;
}
