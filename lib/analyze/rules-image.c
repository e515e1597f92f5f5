/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules-image.c - the image format's own grid: a qcow2 or qed cluster,
 * a VHDX, VHD or VDI block, a VMDK grain is the unit the image
 * allocates in, and a partition off that grid makes the image layer do
 * more work than the same layout on it (image-cluster-offset).  Pure:
 * the grid is the cluster_size the scan read from the image's header.
 *
 * What it costs, as qemu does it (block/qcow2.c: handle_alloc_space,
 * perform_cow; vhdx.c, vpc.c, vdi.c allocate whole blocks alike): a
 * guest write into clusters not yet allocated allocates each cluster it
 * touches, and fills what the write leaves of them with zeros (a
 * write-zeroes when the host file supports it) or, over a backing file,
 * with the old data read from it (copy-on-write).  A write of one
 * cluster at an offset of k bytes into a cluster touches two: two
 * allocations, and over a backing file k + (cluster - k) = one cluster
 * of copy-on-write where the aligned write copies nothing.  Overwrites
 * of allocated clusters cost nothing extra.  So the cost is paid once
 * per cluster, or in every overlay: a warning when the 4 KiB blocks of
 * the filesystem inside straddle clusters too (1 in cluster/4 KiB of
 * them: the start is off 4 KiB), information when only writes larger
 * than the start's own alignment can straddle.
 */
#include <string.h>

#include "analyze/analyze.h"

/* qemu-img's create option for the unit, or NULL: none (vpc, vdi, vmdk). */
static const char *unit_option(const char *fmt)
{
	if (!strcmp(fmt, "qcow2") || !strcmp(fmt, "qed"))
		return "cluster_size";
	if (!strcmp(fmt, "vhdx"))
		return "block_size";
	return NULL;
}

/* What a format calls its allocation unit. */
static const char *unit_word(const char *fmt)
{
	if (!strcmp(fmt, "vmdk"))
		return "grain";
	if (!strcmp(fmt, "qcow2") || !strcmp(fmt, "qed"))
		return "cluster";
	return "block";
}

/* The smallest unit worth converting to: qcow2's and qed's default
 * cluster, VHDX's smallest block (MS-VHDX §2.6.2.1: 1 MiB). */
static uint64_t minimum_unit(const char *fmt)
{
	return strcmp(fmt, "vhdx") ? 64 * KIB : MIB;
}

static bool judged(const struct ba_device *d, size_t i)
{
	const struct blkalign_layer *l = &d->layers[i];

	if (l->kind == BLKALIGN_LAYER_PARTITION ||
	    l->kind == BLKALIGN_LAYER_BSD)
		return !l->extended;
	/* a stacked layer's own data start (pe_start, LUKS payload),
	 * when the layer holding it is on the grid */
	return l->kind >= BLKALIGN_LAYER_MD && l->data_offset &&
	       l->parent > 0 &&
	       !(d->layers[l->parent].start % d->pub.cluster_size);
}

/**
 * ba_image_grid: the allocation unit of @d's image format that starts
 * are judged against (image-cluster-offset), or 0: not an image in a
 * qemu format, or a unit not known, not a power of two or below a page
 * (smaller clusters are touched several at a time by every write,
 * aligned or not).
 */
uint64_t ba_image_grid(const struct blkalign_device *d)
{
	const char *fmt = d->image_format;
	uint64_t c = d->cluster_size;

	if (!fmt || !strcmp(fmt, "raw") || !strcmp(fmt, "nbd") || c < 4096 ||
	    !ba_is_pow2(c))
		return 0;
	return c;
}

/**
 * ba_rules_image_run: image-cluster-offset on every partition (and
 * stacked data start) of an image in a qemu format whose cluster size
 * is judged (ba_image_grid).
 */
void ba_rules_image_run(struct ba_device *d)
{
	const char *fmt = d->pub.image_format;
	uint64_t c = ba_image_grid(&d->pub);

	if (!c)
		return;
	for (size_t i = 1; i < d->nlayers; i++) {
		const struct blkalign_layer *l = &d->layers[i];
		uint64_t lss =
			(uint64_t)d->pub.topology.logical_sector_size.value;
		uint64_t r = l->start % c, grid = c > MIB ? c : MIB;
		struct ba_finding *f;

		if (!r || !judged(d, i))
			continue;
		f = ba_device_add_finding(d, BA_CODE_IMAGE_CLUSTER_OFFSET,
					  l->start % 4096 ? BLKALIGN_WARNING
							  : BLKALIGN_INFO,
					  (int)i);
		if (!f)
			continue;
		f->pub.value = l->start;
		f->pub.granularity = c;
		f->pub.remainder = r;
		f->pub.suggested = (l->start + grid - 1) / grid * grid;
		f->unit = grid;
		f->sector = lss ? f->pub.suggested / lss : 0;
		f->arg[0] = c / 4096;
		/* the largest power of two dividing the start: a cluster
		 * size the start is on */
		f->arg[1] = l->start & (~l->start + 1);
		f->str[0] = fmt;
		f->str[1] = unit_word(fmt);
		f->str[2] = unit_option(fmt);
		ba_finding_say(f, BA_T_CLUSTER,
			       l->start % 4096 ? BA_T_CLUSTER_WHY_BLOCKS
					       : BA_T_CLUSTER_WHY,
			       f->str[2] && f->arg[1] >= minimum_unit(fmt)
				       ? BA_T_CLUSTER_FIX
				       : BA_T_CLUSTER_FIX_MOVE);
	}
}
