/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * messages.c - the message table: every sentence a finding says, and the
 * renderer that fills it in from the finding's data when the device
 * record is published.  The rules (analyze/) choose texts by enum
 * ba_text and fill in numbers; no rule writes prose.
 *
 * Placeholders, in braces:
 *   {name} the finding's layer    {other} the second layer    {dev} device
 *   {value} {gran} {rem} {sugg}   the finding's numbers (blkalign.h)
 *   {unit} {sector} {a0}..{a5}    further numbers (finding.h)
 *   {s0}..{s2}                    facts the scan read (strings)
 *   {soft} {cap} {capa} {ratio}   the soft block size figures
 *   {what} {hint}                 a stacked layer's data area, and how to
 *                                 move it, by the layer's kind
 *   {resize}                      the finding's resize sentence
 * A number may be prefixed: h: in words ("4 KiB"), d: signed, x2: two
 * hex digits.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/out.h"

static const char *const texts[BA_NTEXTS] = {
	[BA_T_START_PHYSICAL] = "'{name}' starts at byte {value}, {rem} bytes "
				"past a {gran}-byte physical sector boundary",
	[BA_T_START_PHYSICAL_WHY] =
		"every {h:gran} write straddles two physical sectors: the "
		"drive reads, merges and rewrites both (read-modify-write), "
		"up to twice the device I/O",
	[BA_T_START_IO_MIN] = "'{name}' starts {rem} bytes off the {h:gran} "
			      "minimum I/O grain of the device",
	[BA_T_START_IO_MIN_WHY] =
		"writes of {h:gran} straddle two units of the device below "
		"(RAID chunks): each costs two partial writes",
	[BA_T_START_IO_OPT] = "'{name}' starts {rem} bytes off the {h:gran} "
			      "optimal I/O grain (stripe width) of the device",
	[BA_T_START_IO_OPT_WHY] =
		"full-stripe writes of {h:gran} become two partial-stripe "
		"writes (parity read-modify-write on RAID-5/6)",
	[BA_T_START_4K] =
		"'{name}' starts at byte {value}, {h:rem} past a 4 KiB "
		"boundary; the disk reports 512-byte physical sectors, but "
		"most drives sold since 2011 have 4 KiB physical sectors "
		"behind 512-byte reporting",
	[BA_T_START_4K_WHY] =
		"none as reported; if the drive hides 4 KiB physical sectors, "
		"every 4 KiB write straddles two of them (read-modify-write, "
		"up to twice the I/O)",
	[BA_T_START_4K_FIX] =
		"'blkalign bench' on the disk measures where writes are slow "
		"(its physical sector); to be safe, move '{name}' to a 1 MiB "
		"boundary (sector {sector})",
	[BA_T_START_MIB] = "'{name}' starts at byte {value}, not on a 1 MiB "
			   "boundary, but on the physical sector and I/O grid",
	[BA_T_START_MIB_ON_4K] =
		"'{name}' starts at byte {value}, not on a 1 MiB boundary, "
		"but on the physical sector and I/O grid and on the 4 KiB "
		"grid (aligned on a drive with 4 KiB physical sectors too)",
	[BA_T_START_MIB_WHY] = "no cost on this device; 1 MiB keeps the start "
			       "aligned on any device the partition is copied "
			       "to",
	[BA_T_START_FIX_MOVE] =
		"move '{name}' to start at sector {sector} (byte {sugg}, on "
		"the {h:unit} grain): back up, recreate the partition there "
		"and restore, or move it in place (sfdisk --move-data)",
	[BA_T_START_FIX_DISK] =
		"data written on the whole of '{name}' starts off the grid: "
		"put it in a partition that starts on it (sector {sector}, or "
		"{a0} on the 1 MiB grain)",
	[BA_T_RESIZE_GROW] = "grow '{name}' to {sector} sectors ({sugg} bytes, "
			     "a multiple of {h:unit})",
	[BA_T_RESIZE_SAME] = "resize '{name}' to {sector} sectors ({sugg} "
			     "bytes, a multiple of {h:unit})",
	[BA_T_RESIZE_SHRINK] = "resize '{name}' to {sector} sectors ({sugg} "
			       "bytes, a multiple of {h:unit}) after "
			       "shrinking what it holds",
	[BA_T_RESIZE] = "{resize}",
	[BA_T_SIZE_PHYSICAL] = "'{name}' ends at byte {value}, {rem} bytes "
			       "into a {gran}-byte physical sector",
	[BA_T_SIZE_PHYSICAL_WHY] = "its last physical sector is shared with "
				   "what follows: writes there are "
				   "read-modify-write",
	[BA_T_SIZE_FIX_START_FIRST] =
		"move the start of '{name}' to the physical sector grid first "
		"(start-physical): its end follows, with the size it has",
	[BA_T_SIZE_FIX_START_THEN] =
		"move the start of '{name}' to the physical sector grid first "
		"(start-physical), then {resize}",
	[BA_T_SOFT_BLOCK] = "'{name}' is {value} bytes, not a multiple of the "
			    "{gran}-byte page: the kernel gives it a "
			    "{soft}-byte soft block size",
	[BA_T_SOFT_BLOCK_WHY] =
		"buffered writes to it (mkfs, dd, raw databases) go out in "
		"requests of at most {h:cap} instead of {h:capa}: {ratio}x as "
		"many requests",
	[BA_T_SOFT_BLOCK_WHY_BELOW] =
		"what it holds does its I/O below the partition's page cache, "
		"so only raw I/O on the partition itself pays: buffered "
		"writes to it (mkfs, dd, raw databases) go out in requests of "
		"at most {h:cap} instead of {h:capa}: {ratio}x as many "
		"requests",
	[BA_T_SOFT_BLOCK_WHY_FS] =
		"a mounted {s0} sets the soft block size itself (its block or "
		"sector size, whatever the partition's size) and writes files "
		"in multi-page requests, so only raw I/O on '{name}' itself "
		"pays: buffered writes to it (mkfs, dd) go out in requests of "
		"at most {h:cap} instead of {h:capa}: {ratio}x as many "
		"requests",
	[BA_T_SOFT_BLOCK_FIX_RAW] =
		"nothing to do for '{other}'; for raw writes to '{name}' "
		"(mkfs, dd) to go out in requests of {h:capa}: {resize}",
	[BA_T_SOFT_BLOCK_FIX_MD_END] =
		"nothing to do for '{other}': resizing '{name}' would move "
		"the md superblock kept at its end; for raw writes to "
		"'{name}' to go out in requests of {h:capa}, re-create the "
		"member on a partition of {sector} sectors ({sugg} bytes, a "
		"multiple of {h:unit}): remove it from the array, repartition, "
		"add it back (a resync)",
	[BA_T_SOFT_BLOCK_FIX_ZFS_END] =
		"nothing to do for '{other}': resizing '{name}' would move "
		"the two ZFS labels kept at its end; for raw writes to "
		"'{name}' to go out in requests of {h:capa}, move the vdev "
		"to a partition of {sector} sectors ({sugg} bytes, a multiple "
		"of {h:unit}) with zpool replace",
	[BA_T_SIZE_LOGICAL] = "'{name}' is {value} bytes, not a whole number "
			      "of {gran}-byte sectors",
	[BA_T_SIZE_LOGICAL_WHY] = "its last {rem} bytes are out of reach: a "
				  "loop device over it has {a0} sectors",
	[BA_T_PAST_END] = "'{name}' ends at byte {value}, {rem} bytes past the "
			  "end of the device",
	[BA_T_PAST_END_WHY] = "the kernel truncates or refuses the partition; "
			      "data past the end is lost",
	[BA_T_PAST_END_FIX] = "check whether the image is truncated or the "
			      "table was copied from a larger disk; fix the "
			      "table with sfdisk or gdisk",
	[BA_T_OVERLAP] = "'{name}' overlaps '{other}' by {rem} bytes",
	[BA_T_OVERLAP_WHY] = "writes to one partition corrupt the other",
	[BA_T_OVERLAP_FIX] = "fix the table (sfdisk, gdisk) before using "
			     "either partition",
	[BA_T_OUTSIDE] = "'{name}' is not entirely inside '{other}'",
	[BA_T_OUTSIDE_WHY] = "the partition overlaps space its container does "
			     "not own",
	[BA_T_OUTSIDE_FIX] = "fix the table (sfdisk, fdisk) before using the "
			     "partition",
	[BA_T_STACK_MISALIGNED] =
		"the kernel reports alignment_offset -1 for '{dev}': the "
		"devices it is stacked on have incompatible alignment",
	[BA_T_STACK_MISALIGNED_WHY] = "no start on this device is aligned on "
				      "every device below it",
	[BA_T_STACK_MISALIGNED_FIX] = "check the alignment of each device "
				      "below (blkalign check on each of them)",
	[BA_T_IO_OPT_IGNORED] = "optimal I/O size {d:value} ignored: {s0}",
	[BA_T_IO_OPT_IGNORED_WHY] = "as libfdisk does; partitioning tools "
				    "would otherwise pick odd starts",
	[BA_T_NOTHING_TO_DO] = "nothing to do",
	[BA_T_DATA_START_PHYSICAL] =
		"{what} of '{name}' starts at byte {value} of the device, "
		"{rem} bytes off the {gran}-byte physical sector grid",
	[BA_T_DATA_START_PHYSICAL_WHY] =
		"every write through this layer straddles physical sectors: "
		"the drive does read-modify-write",
	[BA_T_DATA_START_CLUSTER_WHY] =
		"every cluster straddles two physical sectors: the drive does "
		"read-modify-write on each cluster write",
	[BA_T_DATA_START_FIX] = "{hint} ({gran} bytes from the device start)",
	[BA_T_DATA_START_MD_FIX] =
		"move the member partition to a 1 MiB boundary (the md data "
		"area starts with it), or recreate the array with metadata "
		"1.2 on aligned partitions",
	[BA_T_DATA_START_CHUNK] = "{what} of '{name}' starts {rem} bytes off "
				  "the {gran}-byte RAID chunk grid",
	[BA_T_DATA_START_CHUNK_WHY] =
		"chunk-sized writes through this layer straddle two chunks, "
		"on two disks: two partial writes instead of one",
	[BA_T_DATA_START_STRIPE] = "{what} of '{name}' starts {rem} bytes off "
				   "the {gran}-byte RAID full-stripe grid",
	[BA_T_DATA_START_STRIPE_WHY] =
		"a {gran}-byte full-stripe write through this layer spans two "
		"stripes: two partial-stripe writes, each a parity "
		"read-modify-write",
	[BA_T_DATA_START_RAID_FIX] = "{hint} ({unit} bytes)",
	[BA_T_ZFS_ASHIFT] = "'{name}' has ashift {a0} ({value}-byte blocks), "
			    "smaller than the {gran}-byte physical sector",
	[BA_T_ZFS_ASHIFT_WHY] = "ZFS writes blocks smaller than a physical "
				"sector: read-modify-write in the drive on "
				"most writes",
	[BA_T_ZFS_ASHIFT_FIX] = "recreate the pool with -o ashift=12 (ashift "
				"cannot be changed on a vdev)",
	[BA_T_ZFS_ASHIFT_4K] =
		"'{name}' has ashift {a0} ({value}-byte blocks); the disk "
		"reports 512-byte physical sectors, but most drives sold "
		"since 2011 have 4 KiB ones behind 512-byte reporting",
	[BA_T_ZFS_ASHIFT_4K_WHY] =
		"none as reported; if the drive hides 4 KiB physical sectors, "
		"ZFS writes blocks smaller than one: read-modify-write on "
		"most writes",
	[BA_T_ZFS_ASHIFT_4K_FIX] =
		"'blkalign bench' on the disk measures its physical sector; "
		"pools for 4 KiB drives use -o ashift=12 (ashift cannot be "
		"changed on a vdev)",
	[BA_T_ZFS_VDEV] = "the vdev '{other}' starts at byte {value}, off its "
			  "{gran}-byte ZFS block grid",
	[BA_T_ZFS_VDEV_WHY] = "every ZFS block straddles two of the blocks it "
			      "assumes",
	[BA_T_ZFS_VDEV_FIX] = "recreate the vdev partition on a 1 MiB boundary",
	[BA_T_UNIT_BLOCKS] = "'{name}' uses {value}-byte blocks, smaller than "
			     "the {gran}-byte physical sector",
	[BA_T_UNIT_SECTORS] = "'{name}' uses {value}-byte sectors, smaller "
			      "than the {gran}-byte physical sector",
	[BA_T_UNIT_LUKS] = "'{name}' uses {value}-byte encryption sectors, "
			   "smaller than the {gran}-byte physical sector",
	[BA_T_UNIT_WHY] = "writes of one unit cover part of a physical sector: "
			  "read-modify-write in the drive",
	[BA_T_UNIT_FS_FIX] = "recreate the filesystem with blocks of {gran} "
			     "bytes or more (it erases the files: copy them "
			     "off first)",
	[BA_T_UNIT_CLUSTERS] = "'{name}' uses {value}-byte clusters, smaller "
			       "than the {gran}-byte physical sector",
	[BA_T_UNIT_EXT_FIX] = "recreate the {s0} with {gran}-byte blocks "
			      "(mkfs.{s0} -b {gran}; it erases the files: "
			      "copy them off first)",
	[BA_T_UNIT_XFS_FIX] = "recreate the XFS with {gran}-byte sectors "
			      "(mkfs.xfs -s size={gran}; it erases the files: "
			      "copy them off first)",
	[BA_T_UNIT_BTRFS_FIX] = "recreate the btrfs with {gran}-byte sectors "
				"(mkfs.btrfs -s {gran}; it erases the files: "
				"copy them off first)",
	[BA_T_UNIT_NTFS_FIX] = "recreate the NTFS with {gran}-byte clusters "
			       "(mkntfs -c {gran}; ntfsresize cannot change "
			       "them, and mkntfs erases the files: copy them "
			       "off first)",
	[BA_T_UNIT_EXFAT_FIX] = "recreate the exFAT with {gran}-byte clusters "
				"(mkfs.exfat -c {gran}; it erases the files: "
				"copy them off first)",
	[BA_T_UNIT_FAT_FIX] = "recreate the {s0} with {gran}-byte clusters, "
			      "{a1} sectors of {a2} bytes (mkfs.vfat -F {a0} "
			      "-s {a1}; it erases the files: copy them off "
			      "first)",
	[BA_T_UNIT_FAT_OTHER_FIX] =
		"a {s0} this size cannot have {gran}-byte clusters: it would "
		"have {a3} of them, and {s0} needs at least {a5}; recreate it "
		"as FAT{a4} (mkfs.vfat -F {a4} -s {a1}), or grow it to at "
		"least {h:sugg} and recreate it (mkfs.vfat -F {a0} -s "
		"{a1}; either erases the files: copy them off first)",
	[BA_T_UNIT_FAT_NONE_FIX] =
		"no FAT this size can have {gran}-byte clusters (it would "
		"have {a3} of them); grow it to at least {h:sugg} and "
		"recreate it (mkfs.vfat -F {a0} -s {a1}; it erases the "
		"files: copy them off first)",
	[BA_T_UNIT_LUKS1_FIX] =
		"LUKS1 always encrypts 512-byte sectors: convert to LUKS2 "
		"(cryptsetup convert --type luks2) and re-encrypt with "
		"cryptsetup reencrypt --sector-size 4096",
	[BA_T_UNIT_LUKS2_FIX] = "re-encrypt with cryptsetup reencrypt "
				"--sector-size 4096",
	[BA_T_STRIDE_EXT] = "'{name}' has stride/stripe_width {value}/{a0} "
			    "bytes, the RAID below has chunk {gran} and "
			    "stripe {sugg}",
	[BA_T_STRIDE_XFS] = "'{name}' has sunit/swidth {value}/{a0} bytes, the "
			    "RAID below has chunk {gran} and stripe {sugg}",
	[BA_T_STRIDE_EXT_UNSET] = "'{name}' has no stride/stripe_width set, on "
				  "a RAID with chunk {gran} and stripe {sugg}",
	[BA_T_STRIDE_XFS_UNSET] = "'{name}' has no sunit/swidth set, on a RAID "
				  "with chunk {gran} and stripe {sugg}",
	[BA_T_STRIDE_WHY] = "the allocator does not place data and metadata on "
			    "stripe boundaries: more partial-stripe writes",
	[BA_T_STRIDE_EXT_FIX] = "tune2fs -E stride={a1},stripe_width={a2} (in "
				"filesystem blocks of {unit} bytes)",
	[BA_T_STRIDE_XFS_FIX] = "mount with sunit={a1},swidth={a2} (512-byte "
				"units) or recreate with mkfs.xfs -d "
				"su={gran},sw={a3}",
	[BA_T_EBR_PAST_KERNEL] =
		"the chain of logical partitions on '{dev}' goes on past the "
		"{a0} the kernel shows (it stops at {a1} partitions in all), "
		"at sector {a2}",
	[BA_T_EBR_PAST_KERNEL_WHY] =
		"the partitions after it exist for no kernel and are not "
		"checked; partitioning tools may still list them",
	[BA_T_EBR_LOOP] = "the chain of logical partitions on '{dev}' loops "
			  "back on itself at sector {a0}, after {a1} logical "
			  "partitions",
	[BA_T_EBR_OUTSIDE] = "the chain of logical partitions on '{dev}' "
			     "points outside the extended partition at sector "
			     "{a0}, after {a1} logical partitions",
	[BA_T_EBR_BROKEN] = "the chain of logical partitions on '{dev}' "
			    "reaches a record without its signature at sector "
			    "{a0}, after {a1} logical partitions",
	[BA_T_EBR_BREAK_WHY] =
		"logical partitions after the break are not listed and their "
		"alignment is not checked; the kernel and partitioning tools "
		"may disagree about them",
	[BA_T_EBR_FIX] = "inspect with 'sfdisk -d' and rewrite the logical "
			 "partitions with sfdisk or fdisk",
	[BA_T_GPT_OUTSIDE] = "GPT entry {a0} of '{dev}' (sectors {a1} to {a2}) "
			     "lies outside the usable range ({a3} to {a4})",
	[BA_T_GPT_OUTSIDE_MORE] =
		"GPT entry {a0} of '{dev}' (sectors {a1} to {a2}) lies "
		"outside the usable range ({a3} to {a4}) (and {a5} more)",
	[BA_T_GPT_OUTSIDE_WHY] =
		"libblkid (and lsblk, blkid, this audit) skips it, the kernel "
		"still makes a partition of it: it may overlap the table or "
		"the backup, and nothing here checks it",
	[BA_T_GPT_OUTSIDE_FIX] = "fix the entry with gdisk or sfdisk, inside "
				 "the usable range (sgdisk -v lists it)",
	[BA_T_HYBRID_MBR] = "entry {a0} of the hybrid MBR of '{dev}' (type "
			    "0x{x2:a1}, sectors {a2}+{a3}) is none of its GPT "
			    "partitions",
	[BA_T_HYBRID_MBR_WHY] =
		"what reads the MBR (BIOS boot loaders, older systems) sees a "
		"partition that the GPT, and every tool that reads it, does "
		"not",
	[BA_T_HYBRID_MBR_FIX] =
		"rebuild the hybrid MBR to match the GPT (gdisk: 'r', then "
		"'h'), or replace it with a protective one (gdisk: 'x', then "
		"'n', then 'w')",
	[BA_T_GPT_MISSING] = "{s0} GPT header on '{dev}' is missing",
	[BA_T_GPT_MISSING_BECAUSE] = "{s0} GPT header on '{dev}' is missing: "
				     "{s1}",
	[BA_T_GPT_CORRUPT] = "{s0} GPT header on '{dev}' is corrupt",
	[BA_T_GPT_CORRUPT_BECAUSE] = "{s0} GPT header on '{dev}' is corrupt: "
				     "{s1}",
	[BA_T_GPT_OTHER_USED] = "the {s2} header is intact and was used",
	[BA_T_GPT_NEITHER] = "neither header is intact: the partitions listed "
			     "may be wrong",
	[BA_T_GPT_OTHER_FIX] = "rewrite both headers from the good copy "
			       "(gdisk: 'r' then 'b' or 'c', then 'w'; or "
			       "sgdisk -e)",
	[BA_T_GPT_RESTORE_FIX] = "restore the table from a backup (sgdisk "
				 "--load-backup)",
	[BA_T_GPT_SHORT] = "the {s0} GPT header on '{dev}' describes a disk of "
			   "{value} bytes, but '{dev}' has {a0}: it is {rem} "
			   "bytes shorter than its table",
	[BA_T_GPT_SHORT_WHY] = "a truncated image, or a table copied from a "
			       "larger disk: its partitions may run past the "
			       "end",
	[BA_T_GPT_SHORT_FIX] =
		"a truncated image: grow it back (truncate -s {value}); a "
		"table from a larger disk: rewrite it for this one (sgdisk -e "
		"moves the backup to the end) and check that every partition "
		"ends inside it",
	[BA_T_MARKER] = "'{name}' starts with the marker of an interrupted "
			"blkalign fix ({s0})",
	[BA_T_MARKER_ID] = "'{name}' starts with the marker of an interrupted "
			   "blkalign fix ({s0}; fix {s1})",
	[BA_T_MARKER_WHY] =
		"its data are partly at the old and partly at the new place, "
		"and its first MiB is in the fix's journal: mounting, "
		"formatting or repartitioning it now loses data",
	[BA_T_MARKER_FIX] =
		"run 'blkalign fix --resume' (or '--rollback') with the "
		"journal of that fix; 'blkalign fix --inspect' with the disk "
		"says what it holds",
	[BA_T_DM_START] = "'{dev}' ({s0}) starts at byte {value} of '{s1}', "
			  "{rem} bytes past a {gran}-byte physical sector "
			  "boundary",
	[BA_T_DM_START_WHY] = "every 4 KiB write through it straddles two "
			      "physical sectors of the disk below: "
			      "read-modify-write",
	[BA_T_DM_START_FIX] = "recreate the mapping (or the partition it maps, "
			      "for kpartx) on a 1 MiB boundary of the device "
			      "below",
	[BA_T_DM_RAID] = "'{dev}' ({s0}) starts at byte {value} of the md "
			 "array '{s1}', {rem} bytes off its {gran}-byte RAID "
			 "{s2} grid",
	[BA_T_DM_RAID_FIX] = "place the mapping on a multiple of {gran} bytes "
			     "of '{s1}' (an LVM physical volume: pvcreate "
			     "--dataalignment {gran}b)",
	[BA_T_CLUSTER] = "'{name}' starts at byte {value}, {h:rem} past a "
			 "boundary of the {h:gran} {s1}s of the {s0} image",
	[BA_T_CLUSTER_WHY_BLOCKS] =
		"1 in {a0} of its 4 KiB blocks, and every {h:gran} write "
		"aligned in it, straddles two {s1}s: the first write there "
		"allocates both and fills the rest of them (zeros, or over a "
		"backing file {h:gran} of copy-on-write per {h:gran} write, "
		"where an aligned one copies nothing); overwrites cost "
		"nothing extra",
	[BA_T_CLUSTER_WHY] =
		"its 4 KiB blocks stay inside {s1}s, but every {h:gran} write "
		"aligned in it straddles two: the first write there allocates "
		"both and fills the rest of them (zeros, or over a backing "
		"file {h:gran} of copy-on-write, where an aligned one copies "
		"nothing); overwrites cost nothing extra",
	[BA_T_CLUSTER_FIX] =
		"move '{name}' to start at sector {sector} (byte {sugg}, on "
		"the {h:unit} grid), or convert the image to {s1}s of {h:a1} "
		"or less, which its start is on (qemu-img convert -O {s0} -o "
		"{s2}={a1})",
	[BA_T_CLUSTER_FIX_MOVE] = "move '{name}' to start at sector {sector} "
				  "(byte {sugg}, on the {h:unit} grid)",
};

/**
 * ba_message_text: the template of @t, or NULL (BA_T_NONE, out of range).
 */
const char *ba_message_text(enum ba_text t)
{
	return (unsigned)t < BA_NTEXTS ? texts[t] : NULL;
}

/* {what}: where a stacked layer's data starts, by its kind. */
const char *ba_message_what(const struct blkalign_layer *l)
{
	switch (l->kind) {
	case BLKALIGN_LAYER_MD:
		return "the md data area";
	case BLKALIGN_LAYER_LVM:
		return "the LVM data area (pe_start)";
	case BLKALIGN_LAYER_LUKS:
		return "the LUKS payload";
	case BLKALIGN_LAYER_ZFS:
		return "the ZFS data area";
	default:
		break;
	}
	return "the filesystem data area";
}

/* {hint}: how to move a layer's data start, by kind: "... a multiple of". */
const char *ba_message_hint(const struct blkalign_layer *l)
{
	switch (l->kind) {
	case BLKALIGN_LAYER_MD:
		return l->data_offset == 0
			       ? "move the member partition so that its start is a "
				 "multiple of the grid"
			       : "recreate the array with mdadm --data-offset so that "
				 "partition start + data offset is a multiple of the grid";
	case BLKALIGN_LAYER_LVM:
		return "recreate the PV with pvcreate --dataalignment (and "
		       "--dataalignmentoffset) so that pe_start lands on a "
		       "multiple of the grid";
	case BLKALIGN_LAYER_LUKS:
		return "recreate the container with cryptsetup --offset (LUKS2) "
		       "or --align-payload (LUKS1) so that the payload lands on a "
		       "multiple of the grid";
	case BLKALIGN_LAYER_FILESYSTEM:
		return "recreate the filesystem with its data area on a multiple "
		       "of the grid (mkfs.vfat -a with -R chosen to align the "
		       "clusters; mkntfs aligns clusters to its partition start)";
	default:
		break;
	}
	return "recreate the layer on a multiple of the grid";
}
