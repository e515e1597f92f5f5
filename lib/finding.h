/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * finding.h - a finding as the rules make it: data.  The rules (analyze/)
 * pick a code, a severity, a layer, the numbers, and which of the
 * message table's texts say it; the text is rendered from that one table
 * (out/messages.c) when the device record is published.
 */
#ifndef BLKALIGN_FINDING_H
#define BLKALIGN_FINDING_H

#include "results.h"

/* The finding codes, indexing the code table (analyze/codes.c). */
enum ba_code {
	BA_CODE_START_PHYSICAL,
	BA_CODE_START_IO_MIN,
	BA_CODE_START_IO_OPT,
	BA_CODE_START_MIB,
	BA_CODE_START_4K,
	BA_CODE_SIZE_PHYSICAL,
	BA_CODE_SOFT_BLOCK_SIZE,
	BA_CODE_PARTITION_OVERLAP,
	BA_CODE_PARTITION_PAST_END,
	BA_CODE_PARTITION_OUTSIDE_CONTAINER,
	BA_CODE_DOS_EBR_CHAIN,
	BA_CODE_GPT_PRIMARY_BAD,
	BA_CODE_GPT_BACKUP_BAD,
	BA_CODE_GPT_ENTRY_OUTSIDE,
	BA_CODE_GPT_HYBRID_MBR,
	BA_CODE_SIZE_LOGICAL,
	BA_CODE_STACK_MISALIGNED,
	BA_CODE_IO_OPT_IGNORED,
	BA_CODE_RAID_DATA_OFFSET,
	BA_CODE_RAID_CHUNK,
	BA_CODE_RAID_STRIPE,
	BA_CODE_LVM_PE_START,
	BA_CODE_LUKS_PAYLOAD,
	BA_CODE_FS_DATA_START,
	BA_CODE_FS_BLOCK_PHYSICAL,
	BA_CODE_FS_STRIDE,
	BA_CODE_ZFS_ASHIFT,
	BA_CODE_FIX_INTERRUPTED,
	BA_CODE_IMAGE_CLUSTER_OFFSET,
	BA_NCODES
};

/*
 * The texts of the message table, one per sentence (out/messages.c holds
 * them).  BA_T_NONE: no text.
 */
enum ba_text {
	BA_T_NONE,
	/* start rules (rules.c) */
	BA_T_START_PHYSICAL,
	BA_T_START_PHYSICAL_WHY,
	BA_T_START_IO_MIN,
	BA_T_START_IO_MIN_WHY,
	BA_T_START_IO_OPT,
	BA_T_START_IO_OPT_WHY,
	BA_T_START_4K,
	BA_T_START_4K_WHY,
	BA_T_START_4K_FIX,
	BA_T_START_MIB,
	BA_T_START_MIB_ON_4K,
	BA_T_START_MIB_WHY,
	BA_T_START_FIX_MOVE,
	BA_T_START_FIX_DISK,
	/* size rules (rules.c) */
	BA_T_RESIZE_GROW,
	BA_T_RESIZE_SAME,
	BA_T_RESIZE_SHRINK,
	BA_T_RESIZE,
	BA_T_SIZE_PHYSICAL,
	BA_T_SIZE_PHYSICAL_WHY,
	BA_T_SIZE_FIX_START_FIRST,
	BA_T_SIZE_FIX_START_THEN,
	BA_T_SOFT_BLOCK,
	BA_T_SOFT_BLOCK_WHY,
	BA_T_SOFT_BLOCK_WHY_BELOW,
	BA_T_SOFT_BLOCK_WHY_FS,
	BA_T_SOFT_BLOCK_FIX_RAW,
	BA_T_SOFT_BLOCK_FIX_MD_END,
	BA_T_SOFT_BLOCK_FIX_ZFS_END,
	BA_T_SIZE_LOGICAL,
	BA_T_SIZE_LOGICAL_WHY,
	/* layout and device rules (rules.c) */
	BA_T_PAST_END,
	BA_T_PAST_END_WHY,
	BA_T_PAST_END_FIX,
	BA_T_OVERLAP,
	BA_T_OVERLAP_WHY,
	BA_T_OVERLAP_FIX,
	BA_T_OUTSIDE,
	BA_T_OUTSIDE_WHY,
	BA_T_OUTSIDE_FIX,
	BA_T_STACK_MISALIGNED,
	BA_T_STACK_MISALIGNED_WHY,
	BA_T_STACK_MISALIGNED_FIX,
	BA_T_IO_OPT_IGNORED,
	BA_T_IO_OPT_IGNORED_WHY,
	BA_T_NOTHING_TO_DO,
	/* stack rules (rules-stack.c) */
	BA_T_DATA_START_PHYSICAL,
	BA_T_DATA_START_PHYSICAL_WHY,
	BA_T_DATA_START_CLUSTER_WHY,
	BA_T_DATA_START_FIX,
	BA_T_DATA_START_MD_FIX,
	BA_T_DATA_START_CHUNK,
	BA_T_DATA_START_CHUNK_WHY,
	BA_T_DATA_START_STRIPE,
	BA_T_DATA_START_STRIPE_WHY,
	BA_T_DATA_START_RAID_FIX,
	BA_T_ZFS_ASHIFT,
	BA_T_ZFS_ASHIFT_WHY,
	BA_T_ZFS_ASHIFT_FIX,
	BA_T_ZFS_ASHIFT_4K,
	BA_T_ZFS_ASHIFT_4K_WHY,
	BA_T_ZFS_ASHIFT_4K_FIX,
	BA_T_ZFS_VDEV,
	BA_T_ZFS_VDEV_WHY,
	BA_T_ZFS_VDEV_FIX,
	BA_T_UNIT_BLOCKS,
	BA_T_UNIT_SECTORS,
	BA_T_UNIT_LUKS,
	BA_T_UNIT_WHY,
	BA_T_UNIT_FS_FIX,
	BA_T_UNIT_LUKS1_FIX,
	BA_T_UNIT_LUKS2_FIX,
	BA_T_UNIT_CLUSTERS,
	BA_T_UNIT_EXT_FIX,
	BA_T_UNIT_XFS_FIX,
	BA_T_UNIT_BTRFS_FIX,
	BA_T_UNIT_NTFS_FIX,
	BA_T_UNIT_EXFAT_FIX,
	BA_T_UNIT_FAT_FIX,
	BA_T_UNIT_FAT_OTHER_FIX,
	BA_T_UNIT_FAT_NONE_FIX,
	BA_T_STRIDE_EXT,
	BA_T_STRIDE_XFS,
	BA_T_STRIDE_EXT_UNSET,
	BA_T_STRIDE_XFS_UNSET,
	BA_T_STRIDE_WHY,
	BA_T_STRIDE_EXT_FIX,
	BA_T_STRIDE_XFS_FIX,
	/* table rules (rules-table.c) */
	BA_T_EBR_PAST_KERNEL,
	BA_T_EBR_PAST_KERNEL_WHY,
	BA_T_EBR_LOOP,
	BA_T_EBR_OUTSIDE,
	BA_T_EBR_BROKEN,
	BA_T_EBR_BREAK_WHY,
	BA_T_EBR_FIX,
	BA_T_GPT_OUTSIDE,
	BA_T_GPT_OUTSIDE_MORE,
	BA_T_GPT_OUTSIDE_WHY,
	BA_T_GPT_OUTSIDE_FIX,
	BA_T_HYBRID_MBR,
	BA_T_HYBRID_MBR_WHY,
	BA_T_HYBRID_MBR_FIX,
	BA_T_GPT_MISSING,
	BA_T_GPT_MISSING_BECAUSE,
	BA_T_GPT_CORRUPT,
	BA_T_GPT_CORRUPT_BECAUSE,
	BA_T_GPT_OTHER_USED,
	BA_T_GPT_NEITHER,
	BA_T_GPT_OTHER_FIX,
	BA_T_GPT_RESTORE_FIX,
	BA_T_GPT_SHORT,
	BA_T_GPT_SHORT_WHY,
	BA_T_GPT_SHORT_FIX,
	BA_T_MARKER,
	BA_T_MARKER_ID,
	BA_T_MARKER_WHY,
	BA_T_MARKER_FIX,
	BA_T_DM_START,
	BA_T_DM_START_WHY,
	BA_T_DM_START_FIX,
	BA_T_DM_RAID,
	BA_T_DM_RAID_FIX,
	/* image rules (rules-image.c) */
	BA_T_CLUSTER,
	BA_T_CLUSTER_WHY_BLOCKS,
	BA_T_CLUSTER_WHY,
	BA_T_CLUSTER_FIX,
	BA_T_CLUSTER_FIX_MOVE,
	BA_NTEXTS
};

/* Which of a finding's texts. */
enum ba_say { BA_SAY_MESSAGE, BA_SAY_WHY, BA_SAY_FIX, BA_NSAY };

#define BA_FINDING_NARGS 6
#define BA_FINDING_NSTRS 3

/*
 * One finding.  pub holds the numbers every consumer gets (value,
 * granularity, remainder, suggested, the soft block figures); its text is
 * NULL until rendered.  The rest is what the texts print besides: the
 * texts name these as {unit}, {sector}, {other}, {a0}.., {s0}.. (the
 * placeholders are listed in out/messages.c).
 */
struct ba_finding {
	struct blkalign_finding pub;
	enum ba_code code;
	enum ba_text text[BA_NSAY];
	enum ba_text resize; /* {resize}: which resize sentence */
	int other;	     /* {other}: a second layer, or -1 */
	uint64_t unit;	     /* {unit}: a unit the texts name */
	uint64_t sector;     /* {sector}: a suggested sector number */
	uint64_t arg[BA_FINDING_NARGS];
	const char *str[BA_FINDING_NSTRS]; /* facts the scan read */
};

/* The code table's row of @c (analyze/codes.c). */
const struct blkalign_code *ba_code_row(enum ba_code c);
/* Every row, ended by one whose code is NULL (analyze/codes.c). */
const struct blkalign_code *ba_finding_codes(void);

/* The message table (out/messages.c): a text's template, and the words
 * it says of a stacked layer's data area ({what}) and its fix ({hint}). */
const char *ba_message_text(enum ba_text t);
const char *ba_message_what(const struct blkalign_layer *l);
const char *ba_message_hint(const struct blkalign_layer *l);

/* Set a finding's three texts at once. */
static inline void ba_finding_say(struct ba_finding *f, enum ba_text message,
				  enum ba_text why, enum ba_text fix)
{
	f->text[BA_SAY_MESSAGE] = message;
	f->text[BA_SAY_WHY] = why;
	f->text[BA_SAY_FIX] = fix;
}

#endif
