/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules-stack.c - rules for the layers inside partitions: md members, LVM
 * physical volumes, LUKS payloads, filesystems and ZFS vdevs.  They judge
 * where each layer's data really starts on the physical device, and
 * whether its own units fit the grid below (docs/stack.md).
 *
 * "Striped" below means the device under the layer has a RAID geometry:
 * its minimum I/O (the chunk) is larger than the physical sector and its
 * optimal I/O (the full stripe) a multiple of it: an md array exports
 * them so, as do hardware RAID LUNs; images are described with
 * --min-io/--opt-io.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"

static uint64_t ao_of(const struct ba_device *d)
{
	int64_t ao = d->pub.topology.alignment_offset.value;

	return ao < 0 ? 0 : (uint64_t)ao;
}

struct grid {
	uint64_t pss, chunk, stripe;
	bool striped;
};

static struct grid grid_of(const struct ba_device *d)
{
	const struct blkalign_topology *t = &d->pub.topology;
	struct grid g = {
		.pss = (uint64_t)t->physical_sector_size.value,
		.chunk = (uint64_t)t->minimum_io_size.value,
		.stripe = (uint64_t)t->optimal_io_size.value,
	};

	g.striped = g.chunk > g.pss && g.stripe >= g.chunk &&
		    g.stripe % g.chunk == 0;
	return g;
}

static struct ba_finding *add(struct ba_device *d, enum ba_code code,
			      enum blkalign_severity sev, int layer,
			      uint64_t value, uint64_t gran, uint64_t rem)
{
	struct ba_finding *f = ba_device_add_finding(d, code, sev, layer);

	if (f) {
		f->pub.value = value;
		f->pub.granularity = gran;
		f->pub.remainder = rem;
	}
	return f;
}

/* The code of a data start off the grid, by the layer's kind; ZFS has
 * none (its data area is 4 MiB into the vdev; the vdev rule judges it). */
static bool start_code(const struct blkalign_layer *l, enum ba_code *out)
{
	switch (l->kind) {
	case BLKALIGN_LAYER_MD:
		*out = BA_CODE_RAID_DATA_OFFSET;
		return true;
	case BLKALIGN_LAYER_LVM:
		*out = BA_CODE_LVM_PE_START;
		return true;
	case BLKALIGN_LAYER_LUKS:
		*out = BA_CODE_LUKS_PAYLOAD;
		return true;
	case BLKALIGN_LAYER_FILESYSTEM:
		*out = BA_CODE_FS_DATA_START;
		return true;
	default:
		break;
	}
	return false;
}

/*
 * Where the layer's data starts: on the physical sector grid, then (on a
 * striped device) on the chunk and full-stripe grid.  Only layers whose
 * data does not start where their container starts: otherwise the
 * container's own start finding already says it.
 */
static void check_data_start(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t ao = ao_of(d), r;
	struct ba_finding *f;
	enum ba_code code;
	bool chunk;

	/*
	 * md members are judged even at data offset 0: md 0.90/1.0 on a
	 * sector-63 partition is the classic case (the partition's own
	 * start finding says the rest).
	 */
	if (!start_code(l, &code) ||
	    (l->data_offset == 0 && l->kind != BLKALIGN_LAYER_MD))
		return;
	r = ba_off_grid(l->start, ao, g->pss);
	if (r) {
		f = add(d, code, BLKALIGN_ERROR, i, l->start, g->pss, r);
		if (!f)
			return;
		ba_finding_say(f, BA_T_DATA_START_PHYSICAL,
			       l->kind == BLKALIGN_LAYER_FILESYSTEM
				       ? BA_T_DATA_START_CLUSTER_WHY
				       : BA_T_DATA_START_PHYSICAL_WHY,
			       l->kind == BLKALIGN_LAYER_MD &&
					       l->data_offset == 0
				       ? BA_T_DATA_START_MD_FIX
				       : BA_T_DATA_START_FIX);
		return;
	}
	if (!g->striped)
		return;
	r = ba_off_grid(l->start, ao, g->chunk);
	chunk = r != 0;
	if (!r)
		r = ba_off_grid(l->start, ao, g->stripe);
	if (!r)
		return;
	f = add(d, chunk ? BA_CODE_RAID_CHUNK : BA_CODE_RAID_STRIPE,
		BLKALIGN_WARNING, i, l->start, chunk ? g->chunk : g->stripe, r);
	if (!f)
		return;
	f->unit = g->stripe;
	ba_finding_say(
		f, chunk ? BA_T_DATA_START_CHUNK : BA_T_DATA_START_STRIPE,
		chunk ? BA_T_DATA_START_CHUNK_WHY : BA_T_DATA_START_STRIPE_WHY,
		BA_T_DATA_START_RAID_FIX);
}

/* A ZFS vdev: ashift below the physical sector (or below a 4 KiB one the
 * disk may hide), or a vdev off its own block grid. */
static void check_ashift(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t vdev_start = d->layers[l->parent].start;
	struct ba_finding *f;

	if (l->unit && l->unit < g->pss) {
		f = add(d, BA_CODE_ZFS_ASHIFT, BLKALIGN_ERROR, i, l->unit,
			g->pss, 0);
		if (!f)
			return;
		f->arg[0] = l->zfs_ashift;
		ba_finding_say(f, BA_T_ZFS_ASHIFT, BA_T_ZFS_ASHIFT_WHY,
			       BA_T_ZFS_ASHIFT_FIX);
	} else if (l->unit && l->unit < 4096 &&
		   d->pub.topology.physical_sector_size.value == 512 &&
		   d->pub.topology.logical_sector_size.value == 512) {
		f = add(d, BA_CODE_ZFS_ASHIFT, BLKALIGN_INFO, i, l->unit, 4096,
			0);
		if (!f)
			return;
		f->arg[0] = l->zfs_ashift;
		ba_finding_say(f, BA_T_ZFS_ASHIFT_4K, BA_T_ZFS_ASHIFT_4K_WHY,
			       BA_T_ZFS_ASHIFT_4K_FIX);
	} else if (l->unit && vdev_start % l->unit) {
		f = add(d, BA_CODE_ZFS_ASHIFT, BLKALIGN_WARNING, i, vdev_start,
			l->unit, vdev_start % l->unit);
		if (!f)
			return;
		f->other = l->parent;
		ba_finding_say(f, BA_T_ZFS_VDEV, BA_T_ZFS_VDEV_WHY,
			       BA_T_ZFS_VDEV_FIX);
	}
}

/*
 * FAT: the cluster counts each type allows (Microsoft, "FAT: General
 * Overview of On-Disk Format" 1.03, "FAT Type Determination": the type
 * is the cluster count's, whatever the BPB says; mkfs.fat -v warns of a
 * FAT32 below 65525 too).
 */
static const struct fat_type {
	unsigned int bits;
	uint64_t min, max; /* clusters */
} fat_types[] = {
	{32, 65525, 0x0ffffff5},
	{16, 4085, 65524},
	{12, 1, 4084},
};

/* The clusters of a FAT@bits of @bytes laid out as the specification's
 * "FAT Volume Initialization" does: 2 FATs, 32 reserved sectors for
 * FAT32 (no root directory region), else 1 and 512 root entries. */
static uint64_t fat_clusters(uint64_t bytes, uint32_t bps, uint32_t spc,
			     unsigned int bits)
{
	uint64_t sectors = bytes / bps, rsvd = bits == 32 ? 32 : 1;
	uint64_t root = bits == 32 ? 0 : (512 * 32 + bps - 1) / bps;
	uint64_t fat = 0, n = 0;

	for (int k = 0; k < 8; k++) {
		uint64_t meta = rsvd + root + 2 * fat;

		n = sectors > meta ? (sectors - meta) / spc : 0;
		/* every cluster and the two reserved entries */
		fat = ((n + 2) * bits / 8 + bps - 1) / bps;
	}
	while (n && rsvd + root + 2 * fat + n * spc > sectors)
		n--;
	return n;
}

/* The bytes a FAT@bits of @n clusters of @spc sectors needs at least. */
static uint64_t fat_bytes(uint32_t bps, uint32_t spc, unsigned int bits,
			  uint64_t n)
{
	uint64_t rsvd = bits == 32 ? 32 : 1;
	uint64_t root = bits == 32 ? 0 : (512 * 32 + bps - 1) / bps;
	uint64_t fat = ((n + 2) * bits / 8 + bps - 1) / bps;

	return (rsvd + root + 2 * fat + n * spc) * bps;
}

/*
 * fs-block-physical's advice for a FAT: the mkfs.vfat options of clusters
 * of the physical sector (@f's granularity), when a FAT of that type and
 * this size can have them; else the FAT type that can, and the size the
 * present type needs.
 */
static enum ba_text fat_advice(struct ba_finding *f, const struct ba_device *d,
			       const struct blkalign_layer *l, uint32_t pss)
{
	/* mkfs.vfat fills what holds it: the partition, from its start */
	uint64_t size = l->parent >= 0 && (size_t)l->parent < d->nlayers
				? d->layers[l->parent].size
				: l->size + l->data_offset;
	uint32_t bps = l->sector_size ? l->sector_size : 512;
	uint32_t spc = pss / bps;
	unsigned int bits = 32;
	const struct fat_type *now = &fat_types[0], *alt = NULL;

	if (l->version && sscanf(l->version, "FAT%u", &bits) != 1)
		bits = 32;
	for (size_t k = 0; k < sizeof(fat_types) / sizeof(fat_types[0]); k++) {
		const struct fat_type *t = &fat_types[k];
		uint64_t n = fat_clusters(size, bps, spc, t->bits);

		if (t->bits == bits)
			now = t;
		if (!alt && n >= t->min && n <= t->max)
			alt = t;
	}
	f->str[0] = l->version ? l->version : "FAT";
	f->arg[0] = now->bits;
	f->arg[1] = spc;
	f->arg[2] = bps;
	f->arg[3] = fat_clusters(size, bps, spc, now->bits);
	f->arg[5] = now->min;
	if (alt == now)
		return BA_T_UNIT_FAT_FIX;
	/* too few clusters (a bigger cluster only lowers the count): the
	 * size that has enough, in whole MiB as partitions are made */
	f->pub.suggested =
		(fat_bytes(bps, spc, now->bits, now->min) + (1u << 20) - 1) &
		~(uint64_t)((1u << 20) - 1);
	if (!alt)
		return BA_T_UNIT_FAT_NONE_FIX;
	f->arg[4] = alt->bits;
	return BA_T_UNIT_FAT_OTHER_FIX;
}

/* fs-block-physical's advice: the mkfs of the filesystem that is there. */
static enum ba_text unit_advice(struct ba_finding *f, const struct ba_device *d,
				const struct blkalign_layer *l, uint32_t pss)
{
	const char *t = l->type ? l->type : "";

	if (!strcmp(t, "vfat"))
		return fat_advice(f, d, l, pss);
	f->str[0] = t;
	if (!strcmp(t, "ext2") || !strcmp(t, "ext3") || !strcmp(t, "ext4"))
		return BA_T_UNIT_EXT_FIX;
	if (!strcmp(t, "xfs"))
		return BA_T_UNIT_XFS_FIX;
	if (!strcmp(t, "btrfs"))
		return BA_T_UNIT_BTRFS_FIX;
	if (!strcmp(t, "ntfs"))
		return BA_T_UNIT_NTFS_FIX;
	if (!strcmp(t, "exfat"))
		return BA_T_UNIT_EXFAT_FIX;
	return BA_T_UNIT_FS_FIX;
}

static void check_units(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	bool xfs = l->type && !strcmp(l->type, "xfs");
	bool luks = l->kind == BLKALIGN_LAYER_LUKS;
	/* a FAT, exFAT or NTFS unit is a cluster, of several sectors */
	bool clusters = l->type &&
			(!strcmp(l->type, "vfat") ||
			 !strcmp(l->type, "exfat") || !strcmp(l->type, "ntfs"));
	/* An XFS sector is a write unit; a FAT/NTFS "sector" is not. */
	uint32_t unit = xfs && l->sector_size ? l->sector_size : l->unit;
	struct ba_finding *f;

	if (l->kind == BLKALIGN_LAYER_ZFS) {
		check_ashift(d, i, g);
		return;
	}
	if (l->kind != BLKALIGN_LAYER_FILESYSTEM && !luks)
		return;
	if (!unit || unit >= g->pss)
		return;
	f = add(d, BA_CODE_FS_BLOCK_PHYSICAL, BLKALIGN_WARNING, i, unit, g->pss,
		0);
	if (!f)
		return;
	ba_finding_say(f,
		       luks		       ? BA_T_UNIT_LUKS
		       : xfs && l->sector_size ? BA_T_UNIT_SECTORS
		       : clusters	       ? BA_T_UNIT_CLUSTERS
					       : BA_T_UNIT_BLOCKS,
		       BA_T_UNIT_WHY,
		       !luks ? unit_advice(f, d, l, g->pss)
		       : l->version && !strcmp(l->version, "1")
			       ? BA_T_UNIT_LUKS1_FIX
			       : BA_T_UNIT_LUKS2_FIX);
}

/* ext4 stride/stripe_width and XFS sunit/swidth against the RAID below. */
static void check_stride(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	struct ba_finding *f;
	bool xfs, unset;

	if (l->kind != BLKALIGN_LAYER_FILESYSTEM || !g->striped)
		return;
	xfs = l->type && !strcmp(l->type, "xfs");
	if (!xfs && !(l->type && !strncmp(l->type, "ext", 3)))
		return;
	if (l->fs_stride == g->chunk && l->fs_stripe_width == g->stripe)
		return;
	f = add(d, BA_CODE_FS_STRIDE, BLKALIGN_WARNING, i, l->fs_stride,
		g->chunk, 0);
	if (!f)
		return;
	f->pub.suggested = g->stripe;
	f->arg[0] = l->fs_stripe_width;
	unset = !l->fs_stride && !l->fs_stripe_width;
	if (xfs) {
		/* sunit/swidth in 512-byte units, and mkfs.xfs -d sw */
		f->arg[1] = g->chunk / 512;
		f->arg[2] = g->stripe / 512;
		f->arg[3] = g->stripe / g->chunk;
	} else {
		/* tune2fs -E stride/stripe_width in filesystem blocks */
		f->unit = l->unit;
		f->arg[1] = l->unit ? g->chunk / l->unit : 0;
		f->arg[2] = l->unit ? g->stripe / l->unit : 0;
	}
	ba_finding_say(f,
		       xfs ? (unset ? BA_T_STRIDE_XFS_UNSET : BA_T_STRIDE_XFS)
			   : (unset ? BA_T_STRIDE_EXT_UNSET : BA_T_STRIDE_EXT),
		       BA_T_STRIDE_WHY,
		       xfs ? BA_T_STRIDE_XFS_FIX : BA_T_STRIDE_EXT_FIX);
}

/**
 * ba_rules_stack_run: the stack rules over every layer of @d.
 */
void ba_rules_stack_run(struct ba_device *d)
{
	struct grid g = grid_of(d);

	for (size_t i = 1; i < d->nlayers; i++) {
		if (d->layers[i].kind < BLKALIGN_LAYER_MD)
			continue;
		check_data_start(d, (int)i, &g);
		check_units(d, (int)i, &g);
		check_stride(d, (int)i, &g);
	}
}
