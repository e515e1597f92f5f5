/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules.c - the alignment rules: pure functions from a device's layers
 * and topology to findings, as data (finding.h; their texts are in
 * out/messages.c).  Each rule is documented in blkalign(8) with
 * its code; the arithmetic follows the kernel (kernel.c) and
 * docs/facts.md says where each threshold comes from.
 *
 * All arithmetic is in bytes.  A grid "honouring the alignment offset"
 * is { ao + k * granularity }: a start is on it when
 * (start - ao) mod granularity == 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "scan/scan.h"

static uint64_t topo_grain(const struct blkalign_topology *t)
{
	return ba_grain((uint64_t)t->physical_sector_size.value,
			(uint64_t)t->minimum_io_size.value,
			(uint64_t)t->optimal_io_size.value);
}

static bool is_partition(const struct blkalign_layer *l)
{
	return l->kind == BLKALIGN_LAYER_PARTITION ||
	       l->kind == BLKALIGN_LAYER_BSD;
}

static int64_t ao_of(const struct ba_device *d)
{
	int64_t ao = d->pub.topology.alignment_offset.value;

	return ao < 0 ? 0 : ao;
}

/* The start findings' fix: where the start goes (on the grain, or for a
 * disk used whole, on the physical sector grid). */
static void start_fix(struct ba_device *d, struct ba_finding *f,
		      const struct blkalign_layer *l)
{
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;
	uint64_t grain = topo_grain(&d->pub.topology);

	f->pub.suggested =
		ba_round_up_grid(l->start, (uint64_t)ao_of(d), grain);
	f->unit = grain;
	f->text[BA_SAY_FIX] = BA_T_START_FIX_MOVE;
	if (l->kind == BLKALIGN_LAYER_DISK) {
		uint64_t pss =
			(uint64_t)d->pub.topology.physical_sector_size.value;

		f->pub.suggested =
			ba_round_up_grid(l->start, (uint64_t)ao_of(d), pss);
		f->arg[0] =
			ba_round_up_grid(MIB, (uint64_t)ao_of(d), grain) / lss;
		f->text[BA_SAY_FIX] = BA_T_START_FIX_DISK;
	}
	f->sector = f->pub.suggested / lss;
}

/* The drives behind a reported 512-byte physical sector often have 4 KiB
 * ones (512e); the reported value is all the kernel knows. */
#define HIDDEN_PSS 4096

/* "512e drives": a disk reporting 512-byte sectors, which may hide 4 KiB
 * physical ones. */
static bool may_hide_4k(const struct blkalign_topology *t)
{
	return t->physical_sector_size.value == 512 &&
	       t->logical_sector_size.value == 512;
}

/* A start off a grid: the finding's numbers, then its fix. */
static void start_off(struct ba_device *d, int i, enum ba_code code,
		      enum blkalign_severity sev, uint64_t gran, uint64_t r,
		      enum ba_text message, enum ba_text why)
{
	const struct blkalign_layer *l = &d->layers[i];
	struct ba_finding *f = ba_device_add_finding(d, code, sev, i);

	if (!f)
		return;
	f->pub.value = l->start;
	f->pub.granularity = gran;
	f->pub.remainder = r;
	ba_finding_say(f, message, why, BA_T_NONE);
	start_fix(d, f, l);
}

/* Start off the minimum I/O grain (a RAID chunk): a warning. */
static void start_io_min(struct ba_device *d, int i, uint64_t min_io,
			 uint64_t r)
{
	start_off(d, i, d->md_array ? BA_CODE_RAID_CHUNK : BA_CODE_START_IO_MIN,
		  BLKALIGN_WARNING, min_io, r, BA_T_START_IO_MIN,
		  BA_T_START_IO_MIN_WHY);
}

/* Start off the optimal I/O grain (a RAID stripe): a warning. */
static void start_io_opt(struct ba_device *d, int i, uint64_t opt, uint64_t r)
{
	start_off(d, i,
		  d->md_array ? BA_CODE_RAID_STRIPE : BA_CODE_START_IO_OPT,
		  BLKALIGN_WARNING, opt, r, BA_T_START_IO_OPT,
		  BA_T_START_IO_OPT_WHY);
}

/*
 * A disk that reports 512-byte physical sectors: a start off the 4 KiB
 * grid costs nothing as reported, but a read-modify-write of every 4 KiB
 * write if the drive has 4 KiB physical sectors behind its reporting.
 */
static void start_4k(struct ba_device *d, int i)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t r = ba_off_grid(l->start, (uint64_t)ao_of(d), HIDDEN_PSS);
	struct ba_finding *f;

	if (!r || !may_hide_4k(&d->pub.topology))
		return;
	f = ba_device_add_finding(d, BA_CODE_START_4K, BLKALIGN_INFO, i);
	if (!f)
		return;
	f->pub.value = l->start;
	f->pub.granularity = HIDDEN_PSS;
	f->pub.remainder = r;
	f->sector = ba_round_up_grid(l->start, (uint64_t)ao_of(d), MIB) / 512;
	ba_finding_say(f, BA_T_START_4K, BA_T_START_4K_WHY, BA_T_START_4K_FIX);
}

/*
 * Start rules: every grid the start is off, each its own finding
 * (physical sector, minimum I/O or RAID chunk, optimal I/O or RAID
 * stripe: a start off the physical grid is off the others too, and the
 * partial-stripe writes cost more than the read-modify-write); then,
 * when it is on all of them, 1 MiB; and on a disk that may hide 4 KiB
 * physical sectors, the 4 KiB grid.
 */
static void check_start(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t ao = (uint64_t)ao_of(d);
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t min_io = (uint64_t)t->minimum_io_size.value;
	uint64_t opt = (uint64_t)t->optimal_io_size.value;
	bool off = false;
	uint64_t r;

	r = ba_off_grid(l->start, ao, pss);
	if (r) {
		off = true;
		start_off(d, i, BA_CODE_START_PHYSICAL, BLKALIGN_ERROR, pss, r,
			  BA_T_START_PHYSICAL, BA_T_START_PHYSICAL_WHY);
	}
	if (min_io > pss) {
		r = ba_off_grid(l->start, ao, min_io);
		if (r) {
			off = true;
			start_io_min(d, i, min_io, r);
		}
	}
	if (opt > 0 && opt != min_io) {
		r = ba_off_grid(l->start, ao, opt);
		if (r) {
			off = true;
			start_io_opt(d, i, opt, r);
		}
	}
	if (is_partition(l))
		start_4k(d, i);
	if (off)
		return;
	r = ba_off_grid(l->start, ao, MIB);
	if (r && is_partition(l))
		start_off(d, i, BA_CODE_START_MIB, BLKALIGN_INFO, MIB, r,
			  may_hide_4k(t) &&
					  !ba_off_grid(l->start, ao, HIDDEN_PSS)
				  ? BA_T_START_MIB_ON_4K
				  : BA_T_START_MIB,
			  BA_T_START_MIB_WHY);
}

/*
 * The one size that clears a layer's size findings: a multiple of @unit
 * (the page and the physical sector, or the physical sector alone when
 * the soft block size costs it nothing), the largest not above its size;
 * the smallest above for an image used whole (it grows with truncate),
 * or when nothing smaller is left.  On a start on the physical grid,
 * such a size also ends on it.
 */
static uint64_t size_fix(const struct ba_device *d,
			 const struct blkalign_layer *l, uint64_t unit)
{
	uint64_t down = l->size / unit * unit;

	if ((l->kind == BLKALIGN_LAYER_DISK && !d->pub.is_block_device) ||
	    !down)
		return (l->size + unit - 1) / unit * unit;
	return down;
}

/*
 * What the I/O through layer @i is, for the cost of its soft block size
 * (docs/facts.md §1.5), by what it holds directly:
 *   RAW    nothing blkalign knows: every buffered write to it pays
 *   BELOW  md 1.1/1.2, LVM, LUKS: their I/O goes below the partition's
 *          page cache, so its soft block size shapes nothing there
 *   END    md 0.90/1.0, ZFS: the same, with metadata at the end too
 *   FS     a filesystem: mounted, it sets the soft block size itself
 *          (its block or sector size, whatever the partition's size)
 * In the last three, only raw I/O on the partition (mkfs, dd) pays.
 */
enum holder { HOLD_RAW, HOLD_BELOW, HOLD_END, HOLD_FS };

/**
 * ba_fs_sets_soft_block: the filesystems the kernel mounts itself
 * (sb_set_blocksize: ext2/3/4, XFS its sector size, btrfs, vfat and
 * exFAT their sector size) and NTFS, which ntfs-3g mounts as fuseblk
 * with blksize=4096 (the kernel's ntfs3 with its cluster size).
 * Measured in tests/ts/loop/soft-block-contents (vfat and exFAT in
 * tests/ts/lab/soft-block, on Debian's kernel).  Not swap: swapon
 * leaves the soft block size as the size gives it, and what that costs
 * swap's own I/O is not measured here.
 */
bool ba_fs_sets_soft_block(const char *type)
{
	static const char *const types[] = {"ext2",  "ext3", "ext4",  "xfs",
					    "btrfs", "vfat", "exfat", "ntfs"};

	for (size_t k = 0; type && k < sizeof(types) / sizeof(types[0]); k++)
		if (!strcmp(type, types[k]))
			return true;
	return false;
}

/* The stack layer directly inside layer @i, or -1. */
static int content_of(const struct ba_device *d, int i)
{
	return d->content && i >= 0 && (size_t)i < d->nlayers ? d->content[i]
							      : -1;
}

static enum holder holder_of(const struct ba_device *d, int i)
{
	int c = content_of(d, i);
	const struct blkalign_layer *l;

	if (c < 0)
		return HOLD_RAW;
	l = &d->layers[c];
	switch (l->kind) {
	case BLKALIGN_LAYER_MD:
		return l->version && (!strcmp(l->version, "1.1") ||
				      !strcmp(l->version, "1.2"))
			       ? HOLD_BELOW
			       : HOLD_END;
	case BLKALIGN_LAYER_ZFS:
		return HOLD_END;
	case BLKALIGN_LAYER_LVM:
	case BLKALIGN_LAYER_LUKS:
		return HOLD_BELOW;
	case BLKALIGN_LAYER_FILESYSTEM:
		return ba_fs_sets_soft_block(l->type) ? HOLD_FS : HOLD_RAW;
	default:
		return HOLD_RAW;
	}
}

/* The first stack layer directly inside each layer (-1: none), once:
 * the stack's layers follow their containers. */
static int *contents_of(const struct ba_device *d)
{
	int *c = malloc((d->nlayers ? d->nlayers : 1) * sizeof(*c));

	for (size_t k = 0; c && k < d->nlayers; k++)
		c[k] = -1;
	for (size_t k = d->nlayers; c && k-- > 1;) {
		int p = d->layers[k].parent;

		if (p >= 0 && (size_t)p < k &&
		    d->layers[k].kind >= BLKALIGN_LAYER_MD)
			c[p] = (int)k;
	}
	return c;
}

/* The page and the physical sector: a size on it clears both size
 * findings. */
static uint64_t page_unit(const struct ba_device *d)
{
	const struct blkalign_topology *t = &d->pub.topology;
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t page = (uint64_t)t->page_size.value;

	return ba_lcm64(page ? page : 4096, pss ? pss : 512);
}

/* The unit of size_fix for layer @i: the physical sector alone when its
 * soft block size costs only raw I/O on it (as plan.c's size_gran). */
static uint64_t size_unit(const struct ba_device *d, int i)
{
	uint64_t pss = (uint64_t)d->pub.topology.physical_sector_size.value;

	if (holder_of(d, i) != HOLD_RAW)
		return pss ? pss : 512;
	return page_unit(d);
}

/* The finding's fix is to resize its layer to its suggested size, a
 * multiple of @unit: "grow", "resize", or "resize ... after shrinking". */
static void resize(struct ba_device *d, struct ba_finding *f, uint64_t unit)
{
	const struct blkalign_layer *l = &d->layers[f->pub.layer];
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;
	uint64_t size = f->pub.suggested;

	f->unit = unit;
	f->sector = size / lss;
	f->resize = size > l->size   ? BA_T_RESIZE_GROW
		    : size < l->size ? BA_T_RESIZE_SHRINK
				     : BA_T_RESIZE_SAME;
	f->text[BA_SAY_FIX] = BA_T_RESIZE;
}

static void check_end(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t ao = (uint64_t)ao_of(d);
	uint64_t end = l->start + l->size;
	uint64_t r = ba_off_grid(end, ao, pss);
	uint64_t unit = size_unit(d, i);
	struct ba_finding *f;

	if (!r)
		return;
	f = ba_device_add_finding(d, BA_CODE_SIZE_PHYSICAL, BLKALIGN_WARNING,
				  i);
	if (!f)
		return;
	f->pub.value = end;
	f->pub.granularity = pss;
	f->pub.remainder = r;
	ba_finding_say(f, BA_T_SIZE_PHYSICAL, BA_T_SIZE_PHYSICAL_WHY,
		       BA_T_NONE);
	if (ba_off_grid(l->start, ao, pss)) {
		/* the end is off because the start is: the start moves
		 * first, and its size (a multiple of the unit, or the one
		 * size_fix gives) then ends on the grid */
		f->pub.suggested =
			l->size % unit ? size_fix(d, l, unit) : l->size;
		if (f->pub.suggested == l->size) {
			f->text[BA_SAY_FIX] = BA_T_SIZE_FIX_START_FIRST;
			return;
		}
		resize(d, f, unit);
		f->text[BA_SAY_FIX] = BA_T_SIZE_FIX_START_THEN;
		return;
	}
	f->pub.suggested = size_fix(d, l, unit);
	resize(d, f, unit);
}

static void check_soft_block(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t page = (uint64_t)t->page_size.value;
	uint64_t max_bytes = (uint64_t)t->max_sectors_kb.value * KIB;
	uint64_t segs = (uint64_t)t->max_segments.value;
	enum holder h = holder_of(d, i);
	struct ba_finding *f;
	uint64_t cap, cap_aligned;

	/* Only a soft block below the page costs anything (4Kn: never). */
	if (l->soft_block_size >= page)
		return;
	f = ba_device_add_finding(
		d, BA_CODE_SOFT_BLOCK_SIZE,
		h == HOLD_RAW ? BLKALIGN_WARNING : BLKALIGN_INFO, i);
	if (!f)
		return;
	f->pub.soft_block_size = l->soft_block_size;
	cap = segs * l->soft_block_size;
	cap_aligned = segs * page;
	if (max_bytes && cap > max_bytes)
		cap = max_bytes;
	if (max_bytes && cap_aligned > max_bytes)
		cap_aligned = max_bytes;
	f->pub.request_cap = cap;
	f->pub.request_cap_aligned = cap_aligned;
	f->pub.value = l->size;
	f->pub.granularity = page;
	f->pub.remainder = l->size % page;
	/* the size that clears it, even where only raw I/O pays: what the
	 * fix says of that size depends on what the partition holds */
	f->pub.suggested = size_fix(d, l, page_unit(d));
	resize(d, f, page_unit(d));
	f->other = content_of(d, i);
	switch (h) {
	case HOLD_RAW:
		ba_finding_say(f, BA_T_SOFT_BLOCK, BA_T_SOFT_BLOCK_WHY,
			       BA_T_RESIZE);
		break;
	case HOLD_BELOW:
		ba_finding_say(f, BA_T_SOFT_BLOCK, BA_T_SOFT_BLOCK_WHY_BELOW,
			       BA_T_SOFT_BLOCK_FIX_RAW);
		break;
	case HOLD_END:
		ba_finding_say(f, BA_T_SOFT_BLOCK, BA_T_SOFT_BLOCK_WHY_BELOW,
			       d->layers[f->other].kind == BLKALIGN_LAYER_ZFS
				       ? BA_T_SOFT_BLOCK_FIX_ZFS_END
				       : BA_T_SOFT_BLOCK_FIX_MD_END);
		break;
	case HOLD_FS:
		f->str[0] = d->layers[f->other].type;
		ba_finding_say(f, BA_T_SOFT_BLOCK, BA_T_SOFT_BLOCK_WHY_FS,
			       BA_T_SOFT_BLOCK_FIX_RAW);
		break;
	}
}

/* An image whose size is not a whole number of logical sectors: a loop
 * device over it ends at the last whole sector. */
static void check_disk_sectors(struct ba_device *d)
{
	const struct blkalign_layer *l = &d->layers[0];
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;
	uint64_t unit = size_unit(d, 0);
	struct ba_finding *f;

	if (!lss || !(l->size % lss) || d->pub.is_block_device)
		return;
	f = ba_device_add_finding(d, BA_CODE_SIZE_LOGICAL, BLKALIGN_WARNING, 0);
	if (!f)
		return;
	f->pub.value = l->size;
	f->pub.granularity = lss;
	f->pub.remainder = l->size % lss;
	f->pub.suggested = size_fix(d, l, unit);
	f->arg[0] = l->size / lss;
	ba_finding_say(f, BA_T_SIZE_LOGICAL, BA_T_SIZE_LOGICAL_WHY, BA_T_NONE);
	resize(d, f, unit);
}

static void check_past_end(struct ba_device *d, int i)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t end = l->start + l->size;
	struct ba_finding *f;

	if (end <= d->pub.size)
		return;
	f = ba_device_add_finding(d, BA_CODE_PARTITION_PAST_END, BLKALIGN_ERROR,
				  i);
	if (!f)
		return;
	f->pub.value = end;
	f->pub.granularity = d->pub.size;
	f->pub.remainder = end - d->pub.size;
	ba_finding_say(f, BA_T_PAST_END, BA_T_PAST_END_WHY, BA_T_PAST_END_FIX);
}

static void overlap(struct ba_device *d, int a, int b)
{
	const struct blkalign_layer *x = &d->layers[a], *y = &d->layers[b];
	uint64_t xe = x->start + x->size, ye = y->start + y->size;
	uint64_t lo = x->start > y->start ? x->start : y->start;
	uint64_t hi = xe < ye ? xe : ye;
	struct ba_finding *f;

	f = ba_device_add_finding(d, BA_CODE_PARTITION_OVERLAP, BLKALIGN_ERROR,
				  b);
	if (!f)
		return;
	f->pub.value = y->start;
	f->pub.remainder = hi - lo;
	f->other = a;
	ba_finding_say(f, BA_T_OVERLAP, BA_T_OVERLAP_WHY, BA_T_OVERLAP_FIX);
}

/*
 * Overlaps among siblings (same parent), reported on the later layer:
 * sorted by start, each partition meets only those that start before
 * its end (n log n, however many partitions a GPT holds); containers
 * and what they contain are never siblings.
 */
static void check_overlaps(struct ba_device *d)
{
	size_t *ix = malloc((d->nlayers ? d->nlayers : 1) * sizeof(*ix));
	size_t n = 0;

	if (!ix)
		return;
	for (size_t i = 1; i < d->nlayers; i++)
		if (d->layers[i].size)
			ix[n++] = i;
	ba_layers_by_parent_start(d->layers, ix, n);
	for (size_t a = 0; a < n; a++) {
		const struct blkalign_layer *x = &d->layers[ix[a]];

		for (size_t b = a + 1; b < n; b++) {
			const struct blkalign_layer *y = &d->layers[ix[b]];

			if (y->parent != x->parent ||
			    y->start >= x->start + x->size)
				break;
			if (ix[a] < ix[b])
				overlap(d, (int)ix[a], (int)ix[b]);
			else
				overlap(d, (int)ix[b], (int)ix[a]);
		}
	}
	free(ix);
}

static void check_inside_parent(struct ba_device *d, int i)
{
	const struct blkalign_layer *l = &d->layers[i];
	const struct blkalign_layer *p;
	struct ba_finding *f;

	if (l->parent <= 0)
		return;
	p = &d->layers[l->parent];
	if (l->start >= p->start && l->start + l->size <= p->start + p->size)
		return;
	f = ba_device_add_finding(d, BA_CODE_PARTITION_OUTSIDE_CONTAINER,
				  BLKALIGN_ERROR, i);
	if (!f)
		return;
	f->pub.value = l->start;
	f->other = l->parent;
	ba_finding_say(f, BA_T_OUTSIDE, BA_T_OUTSIDE_WHY, BA_T_OUTSIDE_FIX);
}

static void check_device(struct ba_device *d)
{
	const struct blkalign_topology *t = &d->pub.topology;
	struct ba_finding *f;

	if (t->alignment_offset.value < 0) {
		f = ba_device_add_finding(d, BA_CODE_STACK_MISALIGNED,
					  BLKALIGN_ERROR, 0);
		if (f)
			ba_finding_say(f, BA_T_STACK_MISALIGNED,
				       BA_T_STACK_MISALIGNED_WHY,
				       BA_T_STACK_MISALIGNED_FIX);
	}
	if (t->optimal_io_note) {
		f = ba_device_add_finding(d, BA_CODE_IO_OPT_IGNORED,
					  BLKALIGN_INFO, 0);
		if (f) {
			f->pub.value = (uint64_t)t->optimal_io_size_raw;
			f->str[0] = t->optimal_io_note;
			ba_finding_say(f, BA_T_IO_OPT_IGNORED,
				       BA_T_IO_OPT_IGNORED_WHY,
				       BA_T_NOTHING_TO_DO);
		}
	}
}

static bool has_partitions(const struct ba_device *d)
{
	for (size_t i = 1; i < d->nlayers; i++)
		if (is_partition(&d->layers[i]))
			return true;
	return false;
}

/**
 * ba_rules_run: apply every rule to every layer of @d.  Layer 0 is the
 * disk; extended containers get only the layout rules.
 */
void ba_rules_run(struct ba_device *d)
{
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;

	ba_rules_table_run(d);
	free(d->content);
	d->content = contents_of(d);
	check_device(d);
	if (d->nlayers)
		check_disk_sectors(d);
	for (size_t i = 0; i < d->nlayers; i++) {
		struct blkalign_layer *l = &d->layers[i];

		l->soft_block_size = blkalign_soft_block_size(
			l->extended ? ba_extended_node_bytes(l->size, lss)
				    : l->size,
			lss, (uint32_t)d->pub.topology.page_size.value);
		l->alignment_offset =
			i == 0 ? d->pub.topology.alignment_offset.value
			       : blkalign_alignment_offset(
					 l->start,
					 (uint32_t)d->pub.topology
						 .physical_sector_size.value,
					 (uint32_t)d->pub.topology
						 .minimum_io_size.value,
					 d->pub.topology.alignment_offset
						 .value);
		if (is_partition(l)) {
			check_past_end(d, (int)i);
			check_inside_parent(d, (int)i);
		}
		if (l->extended || l->kind >= BLKALIGN_LAYER_MD)
			continue;
		/*
		 * The disk's own start (LBA 0, off the grid when the
		 * alignment offset is not 0) matters only when the disk is
		 * used whole; dm.c judged a mapped device's start already.
		 */
		if (i > 0 || (!d->dm.placed && !has_partitions(d)))
			check_start(d, (int)i);
		if (is_partition(l))
			check_end(d, (int)i);
		check_soft_block(d, (int)i);
	}
	check_overlaps(d);
	ba_rules_stack_run(d);
	ba_rules_image_run(d);
	free(d->content);
	d->content = NULL;
}

const char *blkalign_severity_name(enum blkalign_severity s)
{
	switch (s) {
	case BLKALIGN_ERROR:
		return "error";
	case BLKALIGN_WARNING:
		return "warning";
	case BLKALIGN_INFO:
		break;
	}
	return "info";
}
