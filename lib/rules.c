/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules.c - the alignment rules: pure functions from a device's layers
 * and topology to findings.  Each rule is documented in blkalign(8) with
 * its code; the arithmetic follows the kernel (kernel.c) and
 * ../docs/findings.md explains where each threshold comes from.
 *
 * All arithmetic is in bytes.  A grid "honouring the alignment offset"
 * is { ao + k * granularity }: a start is on it when
 * (start - ao) mod granularity == 0.
 */
#include <inttypes.h>
#include <stdio.h>

#include "blkalignP.h"

static uint64_t topo_grain(const struct blkalign_topology *t)
{
	return ba_grain((uint64_t)t->physical_sector_size.value,
			(uint64_t)t->minimum_io_size.value,
			(uint64_t)t->optimal_io_size.value);
}

static const char *human(struct ba_device *d, uint64_t bytes)
{
	if (bytes && bytes % MIB == 0)
		return ba_pool_printf(&d->pool, "%" PRIu64 " MiB", bytes / MIB);
	if (bytes && bytes % KIB == 0)
		return ba_pool_printf(&d->pool, "%" PRIu64 " KiB", bytes / KIB);
	return ba_pool_printf(&d->pool, "%" PRIu64 " bytes", bytes);
}

static bool is_partition(const struct blkalign_layer *l)
{
	return l->kind == BLKALIGN_LAYER_PARTITION || l->kind == BLKALIGN_LAYER_BSD;
}

static int64_t ao_of(const struct ba_device *d)
{
	int64_t ao = d->pub.topology.alignment_offset.value;

	return ao < 0 ? 0 : ao;
}

static void start_fix(struct ba_device *d, struct blkalign_finding *f,
		      const struct blkalign_layer *l)
{
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;

	f->suggested = ba_round_up_grid(l->start, (uint64_t)ao_of(d),
				     topo_grain(&d->pub.topology));
	if (l->kind == BLKALIGN_LAYER_DISK) {
		uint64_t pss = (uint64_t)d->pub.topology.physical_sector_size.value;

		f->suggested = ba_round_up_grid(l->start, (uint64_t)ao_of(d), pss);
		f->fix = ba_pool_printf(
			&d->pool,
			"data written on the whole of '%s' starts off the grid: "
			"put it in a partition that starts on it (sector %" PRIu64
			", or %" PRIu64 " on the 1 MiB grain)",
			l->name, f->suggested / lss,
			ba_round_up_grid(MIB, (uint64_t)ao_of(d),
				      topo_grain(&d->pub.topology)) / lss);
		return;
	}
	f->fix = ba_pool_printf(
		&d->pool,
		"move '%s' to start at sector %" PRIu64 " (byte %" PRIu64
		", on the %s grain): back up, recreate the partition there "
		"and restore, or move it in place (sfdisk --move-data)",
		l->name, f->suggested / lss, f->suggested,
		human(d, topo_grain(&d->pub.topology)));
}

/* Start rules: physical sector, then min I/O, then optimal I/O, then MiB. */
static void check_start(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t ao = (uint64_t)ao_of(d);
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t min_io = (uint64_t)t->minimum_io_size.value;
	uint64_t opt = (uint64_t)t->optimal_io_size.value;
	struct blkalign_finding *f;
	uint64_t r;

	r = ba_off_grid(l->start, ao, pss);
	if (r) {
		f = ba_device_add_finding(d, "start-physical", BLKALIGN_ERROR, i);
		if (!f)
			return;
		f->value = l->start;
		f->granularity = pss;
		f->remainder = r;
		f->message = ba_pool_printf(
			&d->pool,
			"'%s' starts at byte %" PRIu64 ", %" PRIu64
			" bytes past a %" PRIu64 "-byte physical sector boundary",
			l->name, l->start, r, pss);
		f->explanation = ba_pool_printf(
			&d->pool,
			"every %s write straddles two physical sectors: the "
			"drive reads, merges and rewrites both "
			"(read-modify-write), up to twice the device I/O",
			human(d, pss));
		start_fix(d, f, l);
		return;
	}
	if (min_io > pss) {
		r = ba_off_grid(l->start, ao, min_io);
		if (r) {
			f = ba_device_add_finding(
				d, d->md_array ? "raid-chunk" : "start-io-min",
				BLKALIGN_WARNING, i);
			if (!f)
				return;
			f->value = l->start;
			f->granularity = min_io;
			f->remainder = r;
			f->message = ba_pool_printf(
				&d->pool,
				"'%s' starts %" PRIu64 " bytes off the %s "
				"minimum I/O grain of the device",
				l->name, r, human(d, min_io));
			f->explanation = ba_pool_printf(
				&d->pool,
				"writes of %s straddle two units of the device "
				"below (RAID chunks): each costs two partial "
				"writes",
				human(d, min_io));
			start_fix(d, f, l);
			return;
		}
	}
	if (opt > 0 && opt != min_io) {
		r = ba_off_grid(l->start, ao, opt);
		if (r) {
			f = ba_device_add_finding(
				d, d->md_array ? "raid-stripe" : "start-io-opt",
				BLKALIGN_WARNING, i);
			if (!f)
				return;
			f->value = l->start;
			f->granularity = opt;
			f->remainder = r;
			f->message = ba_pool_printf(
				&d->pool,
				"'%s' starts %" PRIu64 " bytes off the %s "
				"optimal I/O grain (stripe width) of the device",
				l->name, r, human(d, opt));
			f->explanation = ba_pool_printf(
				&d->pool,
				"full-stripe writes of %s become two "
				"partial-stripe writes (parity read-modify-write "
				"on RAID-5/6)",
				human(d, opt));
			start_fix(d, f, l);
			return;
		}
	}
	r = ba_off_grid(l->start, ao, MIB);
	if (r && is_partition(l)) {
		f = ba_device_add_finding(d, "start-mib", BLKALIGN_INFO, i);
		if (!f)
			return;
		f->value = l->start;
		f->granularity = MIB;
		f->remainder = r;
		f->message = ba_pool_printf(
			&d->pool,
			"'%s' starts at byte %" PRIu64 ", not on a 1 MiB "
			"boundary, but on the physical sector and I/O grid",
			l->name, l->start);
		f->explanation = ba_pool_printf(
			&d->pool,
			"no cost on this device; 1 MiB keeps the start aligned "
			"on any device the partition is copied to");
		start_fix(d, f, l);
	}
}

static void check_end(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t lss = (uint64_t)t->logical_sector_size.value;
	uint64_t end = l->start + l->size;
	uint64_t r = ba_off_grid(end, (uint64_t)ao_of(d), pss);
	struct blkalign_finding *f;

	if (!r)
		return;
	f = ba_device_add_finding(d, "size-physical", BLKALIGN_WARNING, i);
	if (!f)
		return;
	f->value = end;
	f->granularity = pss;
	f->remainder = r;
	f->suggested = l->size >= r ? l->size - r : 0;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' ends at byte %" PRIu64 ", %" PRIu64 " bytes into a "
		"%" PRIu64 "-byte physical sector",
		l->name, end, r, pss);
	f->explanation = ba_pool_printf(
		&d->pool,
		"its last physical sector is shared with what follows: writes "
		"there are read-modify-write");
	f->fix = ba_pool_printf(
		&d->pool,
		"shrink '%s' to %" PRIu64 " sectors (%" PRIu64
		" bytes) after shrinking what it holds",
		l->name, f->suggested / lss, f->suggested);
}

/*
 * md, LVM (dm), LUKS (dm-crypt) and ZFS submit their I/O below the
 * partition's page cache, so its soft block size shapes nothing there.
 */
static bool bypasses_page_cache(const struct ba_device *d, int i)
{
	for (size_t k = 0; k < d->nlayers; k++) {
		enum blkalign_layer_kind kind = d->layers[k].kind;

		if (d->layers[k].parent == i &&
		    (kind == BLKALIGN_LAYER_MD || kind == BLKALIGN_LAYER_LVM ||
		     kind == BLKALIGN_LAYER_LUKS || kind == BLKALIGN_LAYER_ZFS))
			return true;
	}
	return false;
}

static void check_soft_block(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t page = (uint64_t)t->page_size.value;
	uint64_t lss = (uint64_t)t->logical_sector_size.value;
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t max_bytes = (uint64_t)t->max_sectors_kb.value * KIB;
	uint64_t segs = (uint64_t)t->max_segments.value;
	uint64_t unit = page > pss ? page : pss;
	struct blkalign_finding *f;
	uint64_t cap, cap_aligned;

	/* Only a soft block below the page costs anything (4Kn: never). */
	if (l->soft_block_size >= page)
		return;
	f = ba_device_add_finding(d, "soft-block-size",
				  bypasses_page_cache(d, i) ? BLKALIGN_INFO :
							      BLKALIGN_WARNING,
				  i);
	if (!f)
		return;
	f->soft_block_size = l->soft_block_size;
	cap = segs * l->soft_block_size;
	cap_aligned = segs * page;
	if (max_bytes && cap > max_bytes)
		cap = max_bytes;
	if (max_bytes && cap_aligned > max_bytes)
		cap_aligned = max_bytes;
	f->request_cap = cap;
	f->request_cap_aligned = cap_aligned;
	f->value = l->size;
	f->granularity = page;
	f->remainder = l->size % page;
	f->suggested = l->size / unit * unit;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' is %" PRIu64 " bytes, not a multiple of the %" PRIu64
		"-byte page: the kernel gives it a %u-byte soft block size",
		l->name, l->size, page, l->soft_block_size);
	f->explanation = ba_pool_printf(
		&d->pool,
		"%sbuffered writes to it (mkfs, dd, raw databases) go out in "
		"requests of at most %s instead of %s: %.1fx as many requests",
		f->severity == BLKALIGN_INFO ?
			"what it holds does its I/O below the partition's page "
			"cache, so only raw I/O on the partition itself pays: " : "",
		human(d, cap), human(d, cap_aligned),
		cap ? (double)cap_aligned / (double)cap : 0.0);
	f->fix = ba_pool_printf(
		&d->pool,
		"resize '%s' to %" PRIu64 " sectors (%" PRIu64
		" bytes, a multiple of %s)",
		l->name, f->suggested / lss, f->suggested, human(d, unit));
}

static void check_past_end(struct ba_device *d, int i)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t end = l->start + l->size;
	struct blkalign_finding *f;

	if (end <= d->pub.size)
		return;
	f = ba_device_add_finding(d, "partition-past-end", BLKALIGN_ERROR, i);
	if (!f)
		return;
	f->value = end;
	f->granularity = d->pub.size;
	f->remainder = end - d->pub.size;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' ends at byte %" PRIu64 ", %" PRIu64
		" bytes past the end of the device",
		l->name, end, end - d->pub.size);
	f->explanation = "the kernel truncates or refuses the partition; "
			 "data past the end is lost";
	f->fix = "check whether the image is truncated or the table was "
		 "copied from a larger disk; fix the table with sfdisk or gdisk";
}

static void overlap(struct ba_device *d, int a, int b)
{
	const struct blkalign_layer *x = &d->layers[a], *y = &d->layers[b];
	uint64_t xe = x->start + x->size, ye = y->start + y->size;
	uint64_t lo = x->start > y->start ? x->start : y->start;
	uint64_t hi = xe < ye ? xe : ye;
	struct blkalign_finding *f;

	f = ba_device_add_finding(d, "partition-overlap", BLKALIGN_ERROR, b);
	if (!f)
		return;
	f->value = y->start;
	f->remainder = hi - lo;
	f->message = ba_pool_printf(&d->pool,
				    "'%s' overlaps '%s' by %" PRIu64 " bytes",
				    y->name, x->name, hi - lo);
	f->explanation = "writes to one partition corrupt the other";
	f->fix = "fix the table (sfdisk, gdisk) before using either partition";
}

/*
 * Overlaps among siblings (same parent).  A device has few partitions
 * (libblkid lists only used entries), so pairs are cheap; containers and
 * what they contain are never siblings.
 */
static void check_overlaps(struct ba_device *d)
{
	for (size_t i = 1; i < d->nlayers; i++) {
		const struct blkalign_layer *y = &d->layers[i];

		for (size_t j = 1; j < i; j++) {
			const struct blkalign_layer *x = &d->layers[j];

			if (x->parent != y->parent || !x->size || !y->size)
				continue;
			if (x->start < y->start + y->size &&
			    y->start < x->start + x->size)
				overlap(d, (int)j, (int)i);
		}
	}
}

static void check_inside_parent(struct ba_device *d, int i)
{
	const struct blkalign_layer *l = &d->layers[i];
	const struct blkalign_layer *p;
	struct blkalign_finding *f;

	if (l->parent <= 0)
		return;
	p = &d->layers[l->parent];
	if (l->start >= p->start && l->start + l->size <= p->start + p->size)
		return;
	f = ba_device_add_finding(d, "partition-outside-container",
				  BLKALIGN_ERROR, i);
	if (!f)
		return;
	f->value = l->start;
	f->message = ba_pool_printf(&d->pool,
				    "'%s' is not entirely inside '%s'",
				    l->name, p->name);
	f->explanation = "the partition overlaps space its container does "
			 "not own";
	f->fix = "fix the table (sfdisk, fdisk) before using the partition";
}

static void check_device(struct ba_device *d)
{
	const struct blkalign_topology *t = &d->pub.topology;
	struct blkalign_finding *f;

	if (t->alignment_offset.value < 0) {
		f = ba_device_add_finding(d, "stack-misaligned", BLKALIGN_ERROR,
					  0);
		if (f) {
			f->message = ba_pool_printf(
				&d->pool,
				"the kernel reports alignment_offset -1 for "
				"'%s': the devices it is stacked on have "
				"incompatible alignment",
				d->pub.name);
			f->explanation = "no start on this device is aligned "
					 "on every device below it";
			f->fix = "check the alignment of each device below "
				 "(blkalign check on each of them)";
		}
	}
	if (t->optimal_io_note) {
		f = ba_device_add_finding(d, "io-opt-ignored", BLKALIGN_INFO, 0);
		if (f) {
			f->value = (uint64_t)t->optimal_io_size_raw;
			f->message = ba_pool_printf(
				&d->pool,
				"optimal I/O size %" PRId64 " ignored: %s",
				t->optimal_io_size_raw, t->optimal_io_note);
			f->explanation = "as libfdisk does; partitioning "
					 "tools would otherwise pick odd starts";
			f->fix = "nothing to do";
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

	check_device(d);
	for (size_t i = 0; i < d->nlayers; i++) {
		struct blkalign_layer *l = &d->layers[i];

		l->soft_block_size = blkalign_soft_block_size(
			l->extended ? ba_extended_node_bytes(l->size, lss) :
				      l->size,
			lss, (uint32_t)d->pub.topology.page_size.value);
		l->alignment_offset = i == 0 ?
			d->pub.topology.alignment_offset.value :
			blkalign_alignment_offset(
				l->start,
				(uint32_t)d->pub.topology.physical_sector_size.value,
				(uint32_t)d->pub.topology.minimum_io_size.value,
				d->pub.topology.alignment_offset.value);
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
		if (i > 0 || (!d->dm_placed && !has_partitions(d)))
			check_start(d, (int)i);
		if (is_partition(l))
			check_end(d, (int)i);
		check_soft_block(d, (int)i);
	}
	check_overlaps(d);
	ba_rules_stack_run(d);
}

const char *blkalign_layer_kind_name(enum blkalign_layer_kind k)
{
	switch (k) {
	case BLKALIGN_LAYER_DISK:
		return "disk";
	case BLKALIGN_LAYER_PARTITION:
		return "partition";
	case BLKALIGN_LAYER_BSD:
		return "bsd";
	case BLKALIGN_LAYER_MD:
		return "md";
	case BLKALIGN_LAYER_LVM:
		return "lvm";
	case BLKALIGN_LAYER_LUKS:
		return "luks";
	case BLKALIGN_LAYER_FILESYSTEM:
		return "filesystem";
	case BLKALIGN_LAYER_ZFS:
		return "zfs";
	}
	return "unknown";
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
