/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codes.c - every finding code blkalign can report, with its severity and
 * a one-line summary, indexed by enum ba_code (finding.h).  Codes are
 * stable: they are only ever added.  A finding is made from its row here,
 * so this table, blkalign(8) and `check --list-codes` cannot drift apart
 * (test-rules checks that every code has a row).
 */
#include "analyze/analyze.h"

static const struct blkalign_code codes[] = {
	[BA_CODE_START_PHYSICAL] = {"start-physical", BLKALIGN_ERROR,
				    "start not on a physical sector boundary"},
	[BA_CODE_START_IO_MIN] =
		{"start-io-min", BLKALIGN_WARNING,
		 "start off the minimum I/O grain of the device"},
	[BA_CODE_START_IO_OPT] =
		{"start-io-opt", BLKALIGN_WARNING,
		 "start off the optimal I/O grain of the device"},
	[BA_CODE_START_MIB] = {"start-mib", BLKALIGN_INFO,
			       "start not on 1 MiB, but physically aligned"},
	[BA_CODE_START_4K] =
		{"start-4k", BLKALIGN_INFO,
		 "start off 4 KiB on a disk that reports 512-byte physical sectors"},
	[BA_CODE_SIZE_PHYSICAL] = {"size-physical", BLKALIGN_WARNING,
				   "end not on a physical sector boundary"},
	[BA_CODE_SOFT_BLOCK_SIZE] =
		{"soft-block-size", BLKALIGN_WARNING,
		 "size not a multiple of the page size: small soft block size"},
	[BA_CODE_PARTITION_OVERLAP] = {"partition-overlap", BLKALIGN_ERROR,
				       "partitions overlap"},
	[BA_CODE_PARTITION_PAST_END] =
		{"partition-past-end", BLKALIGN_ERROR,
		 "partition ends past the end of the device"},
	[BA_CODE_PARTITION_OUTSIDE_CONTAINER] =
		{"partition-outside-container", BLKALIGN_ERROR,
		 "logical or nested partition outside its container"},
	[BA_CODE_DOS_EBR_CHAIN] =
		{"dos-ebr-chain", BLKALIGN_ERROR,
		 "the chain of extended boot records loops or leaves its area"},
	[BA_CODE_GPT_PRIMARY_BAD] = {"gpt-primary-bad", BLKALIGN_ERROR,
				     "primary GPT header corrupt"},
	[BA_CODE_GPT_BACKUP_BAD] = {"gpt-backup-bad", BLKALIGN_ERROR,
				    "backup GPT header corrupt"},
	[BA_CODE_GPT_ENTRY_OUTSIDE] =
		{"gpt-entry-outside", BLKALIGN_ERROR,
		 "GPT entry outside the usable range (libblkid skips it)"},
	[BA_CODE_GPT_HYBRID_MBR] =
		{"gpt-hybrid-mbr", BLKALIGN_WARNING,
		 "hybrid MBR entry that matches no GPT partition"},
	[BA_CODE_SIZE_LOGICAL] =
		{"size-logical", BLKALIGN_WARNING,
		 "image size not a whole number of logical sectors"},
	[BA_CODE_STACK_MISALIGNED] =
		{"stack-misaligned", BLKALIGN_ERROR,
		 "the kernel reports a misaligned stack (alignment offset -1)"},
	[BA_CODE_IO_OPT_IGNORED] = {"io-opt-ignored", BLKALIGN_INFO,
				    "optimal I/O size ignored as bogus"},
	[BA_CODE_RAID_DATA_OFFSET] =
		{"raid-data-offset", BLKALIGN_ERROR,
		 "md member data area off the physical sector grid"},
	[BA_CODE_RAID_CHUNK] =
		{"raid-chunk", BLKALIGN_WARNING,
		 "layer on a RAID device starts off the chunk grid"},
	[BA_CODE_RAID_STRIPE] =
		{"raid-stripe", BLKALIGN_WARNING,
		 "layer on a RAID device starts off the full-stripe grid"},
	[BA_CODE_LVM_PE_START] =
		{"lvm-pe-start", BLKALIGN_ERROR,
		 "LVM data area (pe_start) off the physical sector grid"},
	[BA_CODE_LUKS_PAYLOAD] = {"luks-payload", BLKALIGN_ERROR,
				  "LUKS payload off the physical sector grid"},
	[BA_CODE_FS_DATA_START] =
		{"fs-data-start", BLKALIGN_ERROR,
		 "filesystem data area (FAT clusters) off the physical sector grid"},
	[BA_CODE_FS_BLOCK_PHYSICAL] =
		{"fs-block-physical", BLKALIGN_WARNING,
		 "filesystem or encryption unit smaller than the physical sector"},
	[BA_CODE_FS_STRIDE] =
		{"fs-stride", BLKALIGN_WARNING,
		 "filesystem stride/stripe width do not match the RAID below"},
	[BA_CODE_ZFS_ASHIFT] =
		{"zfs-ashift", BLKALIGN_ERROR,
		 "ZFS ashift below the physical sector, or vdev off its block grid"},
	[BA_CODE_FIX_INTERRUPTED] =
		{"fix-interrupted", BLKALIGN_ERROR,
		 "a blkalign fix of this partition was interrupted"},
	[BA_CODE_IMAGE_CLUSTER_OFFSET] =
		{"image-cluster-offset", BLKALIGN_WARNING,
		 "start off the cluster (block, grain) grid of the image format"},
	[BA_NCODES] = {NULL, BLKALIGN_INFO, NULL},
};

/**
 * ba_finding_codes: every finding code, NULL-terminated (by code).
 */
const struct blkalign_code *ba_finding_codes(void)
{
	return codes;
}

/* The row of @c; NULL for a value out of range. */
const struct blkalign_code *ba_code_row(enum ba_code c)
{
	return (unsigned)c < BA_NCODES ? &codes[c] : NULL;
}
