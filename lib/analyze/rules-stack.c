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
#include <string.h>

#include "blkalignP.h"

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

static struct blkalign_finding *add(struct ba_device *d, const char *code,
				    enum blkalign_severity sev, int layer,
				    uint64_t value, uint64_t gran, uint64_t rem)
{
	struct blkalign_finding *f = ba_device_add_finding(d, code, sev, layer);

	if (f) {
		f->value = value;
		f->granularity = gran;
		f->remainder = rem;
	}
	return f;
}

static const char *what_starts(const struct blkalign_layer *l)
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

static const char *start_code(const struct blkalign_layer *l)
{
	switch (l->kind) {
	case BLKALIGN_LAYER_MD:
		return "raid-data-offset";
	case BLKALIGN_LAYER_LVM:
		return "lvm-pe-start";
	case BLKALIGN_LAYER_LUKS:
		return "luks-payload";
	case BLKALIGN_LAYER_FILESYSTEM:
		return "fs-data-start";
	default:
		break;
	}
	/* ZFS: the data area is 4 MiB into the vdev; the vdev rule judges it */
	return NULL;
}

/* How to move a layer's data start, by kind: "... a multiple of". */
static const char *offset_hint(const struct blkalign_layer *l)
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

/*
 * Where the layer's data starts: on the physical sector grid, then (on a
 * striped device) on the chunk and full-stripe grid.  Only layers whose
 * data does not start where their container starts: otherwise the
 * container's own start finding already says it.
 */
static void check_data_start(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	const char *code = start_code(l);
	uint64_t ao = ao_of(d), r;
	struct blkalign_finding *f;

	/*
	 * md members are judged even at data offset 0: md 0.90/1.0 on a
	 * sector-63 partition is the classic case (the partition's own
	 * start finding says the rest).
	 */
	if (!code || (l->data_offset == 0 && l->kind != BLKALIGN_LAYER_MD))
		return;
	r = ba_off_grid(l->start, ao, g->pss);
	if (r) {
		f = add(d, code, BLKALIGN_ERROR, i, l->start, g->pss, r);
		if (!f)
			return;
		f->message = ba_pool_printf(
			&d->pool,
			"%s of '%s' starts at byte %" PRIu64 " of the device, "
			"%" PRIu64 " bytes off the %" PRIu64
			"-byte physical sector grid",
			what_starts(l), l->name, l->start, r, g->pss);
		f->explanation =
			l->kind == BLKALIGN_LAYER_FILESYSTEM
				? "every cluster straddles two physical sectors: the "
				  "drive does read-modify-write on each cluster write"
				: "every write through this layer straddles physical "
				  "sectors: the drive does read-modify-write";
		f->fix =
			l->kind == BLKALIGN_LAYER_MD && l->data_offset == 0
				? "move the member partition to a 1 MiB boundary (the md "
				  "data area starts with it), or recreate the array with "
				  "metadata 1.2 on aligned partitions"
				: ba_pool_printf(&d->pool,
						 "%s (%" PRIu64
						 " bytes from the "
						 "device start)",
						 offset_hint(l), g->pss);
		return;
	}
	if (!g->striped)
		return;
	r = ba_off_grid(l->start, ao, g->chunk);
	code = r ? "raid-chunk" : "raid-stripe";
	if (!r)
		r = ba_off_grid(l->start, ao, g->stripe);
	if (!r)
		return;
	f = add(d, code, BLKALIGN_WARNING, i, l->start,
		code[5] == 'c' ? g->chunk : g->stripe, r);
	if (!f)
		return;
	f->message =
		ba_pool_printf(&d->pool,
			       "%s of '%s' starts %" PRIu64
			       " bytes off the %" PRIu64 "-byte RAID %s grid",
			       what_starts(l), l->name, r,
			       code[5] == 'c' ? g->chunk : g->stripe,
			       code[5] == 'c' ? "chunk" : "full-stripe");
	f->explanation =
		code[5] == 'c'
			? ba_pool_printf(
				  &d->pool,
				  "chunk-sized writes through this layer straddle two "
				  "chunks, on two disks: two partial writes instead "
				  "of one")
			: ba_pool_printf(
				  &d->pool,
				  "a %" PRIu64
				  "-byte full-stripe write through this "
				  "layer spans two stripes: two partial-stripe "
				  "writes, each a parity read-modify-write",
				  g->stripe);
	f->fix = ba_pool_printf(&d->pool, "%s (%" PRIu64 " bytes)",
				offset_hint(l), g->stripe);
}

static void check_units(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	bool xfs = l->type && !strcmp(l->type, "xfs");
	/* An XFS sector is a write unit; a FAT/NTFS "sector" is not. */
	uint32_t unit = xfs && l->sector_size ? l->sector_size : l->unit;
	struct blkalign_finding *f;

	if (l->kind == BLKALIGN_LAYER_ZFS) {
		uint64_t vdev_start = d->layers[l->parent].start;

		if (l->unit && l->unit < g->pss) {
			f = add(d, "zfs-ashift", BLKALIGN_ERROR, i, l->unit,
				g->pss, 0);
			if (f) {
				f->message = ba_pool_printf(
					&d->pool,
					"'%s' has ashift %u (%u-byte blocks), "
					"smaller than the %" PRIu64
					"-byte physical sector",
					l->name, l->zfs_ashift, l->unit,
					g->pss);
				f->explanation =
					"ZFS writes blocks smaller than a "
					"physical sector: read-modify-write "
					"in the drive on most writes";
				f->fix = "recreate the pool with -o ashift=12 "
					 "(ashift cannot be changed on a vdev)";
			}
		} else if (l->unit && l->unit < 4096 &&
			   d->pub.topology.physical_sector_size.value == 512 &&
			   d->pub.topology.logical_sector_size.value == 512) {
			f = add(d, "zfs-ashift", BLKALIGN_INFO, i, l->unit,
				4096, 0);
			if (f) {
				f->message = ba_pool_printf(
					&d->pool,
					"'%s' has ashift %u (%u-byte blocks); the "
					"disk reports 512-byte physical sectors, "
					"but most drives sold since 2011 have "
					"4 KiB ones behind 512-byte reporting",
					l->name, l->zfs_ashift, l->unit);
				f->explanation =
					"none as reported; if the drive "
					"hides 4 KiB physical sectors, ZFS "
					"writes blocks smaller than one: "
					"read-modify-write on most writes";
				f->fix =
					"'blkalign bench' on the disk measures "
					"its physical sector; pools for 4 KiB "
					"drives use -o ashift=12 (ashift "
					"cannot be changed on a vdev)";
			}
		} else if (l->unit && vdev_start % l->unit) {
			f = add(d, "zfs-ashift", BLKALIGN_WARNING, i,
				vdev_start, l->unit, vdev_start % l->unit);
			if (f) {
				f->message = ba_pool_printf(
					&d->pool,
					"the vdev '%s' starts at byte %" PRIu64
					", off its %u-byte ZFS block grid",
					d->layers[l->parent].name, vdev_start,
					l->unit);
				f->explanation =
					"every ZFS block straddles two "
					"of the blocks it assumes";
				f->fix =
					"recreate the vdev partition on a 1 MiB "
					"boundary";
			}
		}
		return;
	}
	if (l->kind != BLKALIGN_LAYER_FILESYSTEM &&
	    l->kind != BLKALIGN_LAYER_LUKS)
		return;
	if (!unit || unit >= g->pss)
		return;
	f = add(d, "fs-block-physical", BLKALIGN_WARNING, i, unit, g->pss, 0);
	if (!f)
		return;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' uses %u-byte %s, smaller than the %" PRIu64
		"-byte physical sector",
		l->name, unit,
		l->kind == BLKALIGN_LAYER_LUKS ? "encryption sectors"
		: xfs && l->sector_size	       ? "sectors"
					       : "blocks",
		g->pss);
	f->explanation = "writes of one unit cover part of a physical sector: "
			 "read-modify-write in the drive";
	f->fix =
		l->kind == BLKALIGN_LAYER_LUKS
			? (l->version && !strcmp(l->version, "1")
				   ? "LUKS1 always encrypts 512-byte sectors: convert to "
				     "LUKS2 (cryptsetup convert --type luks2) and re-encrypt "
				     "with cryptsetup reencrypt --sector-size 4096"
				   : "re-encrypt with cryptsetup reencrypt --sector-size 4096")
			: "recreate the filesystem with 4096-byte blocks (mkfs.ext4 -b "
			  "4096, mkfs.xfs -s size=4096)";
}

/* ext4 stride/stripe_width and XFS sunit/swidth against the RAID below. */
static void check_stride(struct ba_device *d, int i, const struct grid *g)
{
	const struct blkalign_layer *l = &d->layers[i];
	struct blkalign_finding *f;
	bool xfs;

	if (l->kind != BLKALIGN_LAYER_FILESYSTEM || !g->striped)
		return;
	xfs = l->type && !strcmp(l->type, "xfs");
	if (!xfs && !(l->type && !strncmp(l->type, "ext", 3)))
		return;
	if (l->fs_stride == g->chunk && l->fs_stripe_width == g->stripe)
		return;
	f = add(d, "fs-stride", BLKALIGN_WARNING, i, l->fs_stride, g->chunk, 0);
	if (!f)
		return;
	f->suggested = g->stripe;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' has %s %" PRIu64 "/%" PRIu64 " bytes, the RAID below has "
		"chunk %" PRIu64 " and stripe %" PRIu64,
		l->name, xfs ? "sunit/swidth" : "stride/stripe_width",
		l->fs_stride, l->fs_stripe_width, g->chunk, g->stripe);
	if (!l->fs_stride && !l->fs_stripe_width)
		f->message = ba_pool_printf(
			&d->pool,
			"'%s' has no %s set, on a RAID with chunk %" PRIu64
			" and stripe %" PRIu64,
			l->name, xfs ? "sunit/swidth" : "stride/stripe_width",
			g->chunk, g->stripe);
	f->explanation = "the allocator does not place data and metadata on "
			 "stripe boundaries: more partial-stripe writes";
	f->fix = xfs ? ba_pool_printf(
			       &d->pool,
			       "mount with sunit=%" PRIu64 ",swidth=%" PRIu64
			       " (512-byte units) or recreate with mkfs.xfs -d "
			       "su=%" PRIu64 ",sw=%" PRIu64,
			       g->chunk / 512, g->stripe / 512, g->chunk,
			       g->stripe / g->chunk)
		     : ba_pool_printf(&d->pool,
				      "tune2fs -E stride=%" PRIu64
				      ",stripe_width=%" PRIu64
				      " (in filesystem blocks of %u bytes)",
				      l->unit ? g->chunk / l->unit : 0,
				      l->unit ? g->stripe / l->unit : 0,
				      l->unit);
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
