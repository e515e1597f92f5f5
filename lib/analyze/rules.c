/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules.c - the alignment rules: pure functions from a device's layers
 * and topology to findings.  Each rule is documented in blkalign(8) with
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

#include "blkalignP.h"

static uint64_t topo_grain(const struct blkalign_topology *t)
{
	return ba_grain((uint64_t)t->physical_sector_size.value,
			(uint64_t)t->minimum_io_size.value,
			(uint64_t)t->optimal_io_size.value);
}

static const char *human(struct ba_device *d, uint64_t bytes)
{
	char buf[32];

	return ba_pool_strdup(&d->pool,
			      ba_size_words(bytes, buf, sizeof(buf), " bytes"));
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

static void start_fix(struct ba_device *d, struct blkalign_finding *f,
		      const struct blkalign_layer *l)
{
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;

	f->suggested = ba_round_up_grid(l->start, (uint64_t)ao_of(d),
					topo_grain(&d->pub.topology));
	if (l->kind == BLKALIGN_LAYER_DISK) {
		uint64_t pss =
			(uint64_t)d->pub.topology.physical_sector_size.value;

		f->suggested =
			ba_round_up_grid(l->start, (uint64_t)ao_of(d), pss);
		f->fix = ba_pool_printf(
			&d->pool,
			"data written on the whole of '%s' starts off the grid: "
			"put it in a partition that starts on it (sector %" PRIu64
			", or %" PRIu64 " on the 1 MiB grain)",
			l->name, f->suggested / lss,
			ba_round_up_grid(MIB, (uint64_t)ao_of(d),
					 topo_grain(&d->pub.topology)) /
				lss);
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

/* Start off the minimum I/O grain (a RAID chunk): a warning. */
static void start_io_min(struct ba_device *d, int i, uint64_t min_io,
			 uint64_t r)
{
	const struct blkalign_layer *l = &d->layers[i];
	struct blkalign_finding *f = ba_device_add_finding(
		d, d->md_array ? "raid-chunk" : "start-io-min",
		BLKALIGN_WARNING, i);

	if (!f)
		return;
	f->value = l->start;
	f->granularity = min_io;
	f->remainder = r;
	f->message = ba_pool_printf(&d->pool,
				    "'%s' starts %" PRIu64 " bytes off the %s "
				    "minimum I/O grain of the device",
				    l->name, r, human(d, min_io));
	f->explanation = ba_pool_printf(
		&d->pool,
		"writes of %s straddle two units of the device below (RAID "
		"chunks): each costs two partial writes",
		human(d, min_io));
	start_fix(d, f, l);
}

/* Start off the optimal I/O grain (a RAID stripe): a warning. */
static void start_io_opt(struct ba_device *d, int i, uint64_t opt, uint64_t r)
{
	const struct blkalign_layer *l = &d->layers[i];
	struct blkalign_finding *f = ba_device_add_finding(
		d, d->md_array ? "raid-stripe" : "start-io-opt",
		BLKALIGN_WARNING, i);

	if (!f)
		return;
	f->value = l->start;
	f->granularity = opt;
	f->remainder = r;
	f->message = ba_pool_printf(&d->pool,
				    "'%s' starts %" PRIu64
				    " bytes off the %s optimal I/O grain "
				    "(stripe width) of the device",
				    l->name, r, human(d, opt));
	f->explanation = ba_pool_printf(
		&d->pool,
		"full-stripe writes of %s become two partial-stripe writes "
		"(parity read-modify-write on RAID-5/6)",
		human(d, opt));
	start_fix(d, f, l);
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
	struct blkalign_finding *f;

	if (!r || !may_hide_4k(&d->pub.topology))
		return;
	f = ba_device_add_finding(d, "start-4k", BLKALIGN_INFO, i);
	if (!f)
		return;
	f->value = l->start;
	f->granularity = HIDDEN_PSS;
	f->remainder = r;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' starts at byte %" PRIu64 ", %s past a 4 KiB boundary; "
		"the disk reports 512-byte physical sectors, but most drives "
		"sold since 2011 have 4 KiB physical sectors behind 512-byte "
		"reporting",
		l->name, l->start, human(d, r));
	f->explanation = "none as reported; if the drive hides 4 KiB "
			 "physical sectors, every 4 KiB write straddles two "
			 "of them (read-modify-write, up to twice the I/O)";
	f->fix = ba_pool_printf(
		&d->pool,
		"'blkalign bench' on the disk measures where writes are slow "
		"(its physical sector); to be safe, move '%s' to a 1 MiB "
		"boundary (sector %" PRIu64 ")",
		l->name,
		ba_round_up_grid(l->start, (uint64_t)ao_of(d), MIB) / 512);
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
	struct blkalign_finding *f;
	bool off = false;
	uint64_t r;

	r = ba_off_grid(l->start, ao, pss);
	if (r) {
		off = true;
		f = ba_device_add_finding(d, "start-physical", BLKALIGN_ERROR,
					  i);
		if (!f)
			return;
		f->value = l->start;
		f->granularity = pss;
		f->remainder = r;
		f->message =
			ba_pool_printf(&d->pool,
				       "'%s' starts at byte %" PRIu64
				       ", %" PRIu64 " bytes past a %" PRIu64
				       "-byte physical sector boundary",
				       l->name, l->start, r, pss);
		f->explanation = ba_pool_printf(
			&d->pool,
			"every %s write straddles two physical sectors: the "
			"drive reads, merges and rewrites both "
			"(read-modify-write), up to twice the device I/O",
			human(d, pss));
		start_fix(d, f, l);
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
			"boundary, but on the physical sector and I/O grid%s",
			l->name, l->start,
			may_hide_4k(t) && !ba_off_grid(l->start, ao, HIDDEN_PSS)
				? " and on the 4 KiB grid (aligned on a drive "
				  "with 4 KiB physical sectors too)"
				: "");
		f->explanation = ba_pool_printf(
			&d->pool,
			"no cost on this device; 1 MiB keeps the start aligned "
			"on any device the partition is copied to");
		start_fix(d, f, l);
	}
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

static bool bypasses_page_cache(const struct ba_device *d, int i);
/* The unit of size_fix for layer @i. */
static uint64_t size_unit(const struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	uint64_t pss = (uint64_t)t->physical_sector_size.value;
	uint64_t page = (uint64_t)t->page_size.value;

	if (bypasses_page_cache(d, i))
		return pss ? pss : 512;
	return ba_lcm64(page ? page : 4096, pss ? pss : 512);
}

/* "resize 'X' to N sectors (B bytes, ...)" or "grow ..." for size_fix. */
static const char *resize_text(struct ba_device *d, int i, uint64_t size,
			       uint64_t unit)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;

	return ba_pool_printf(&d->pool,
			      "%s '%s' to %" PRIu64 " sectors (%" PRIu64
			      " bytes, a multiple of %s)%s",
			      size > l->size ? "grow" : "resize", l->name,
			      size / lss, size, human(d, unit),
			      size < l->size ? " after shrinking what it holds"
					     : "");
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
	struct blkalign_finding *f;

	if (!r)
		return;
	f = ba_device_add_finding(d, "size-physical", BLKALIGN_WARNING, i);
	if (!f)
		return;
	f->value = end;
	f->granularity = pss;
	f->remainder = r;
	f->message = ba_pool_printf(&d->pool,
				    "'%s' ends at byte %" PRIu64 ", %" PRIu64
				    " bytes into a "
				    "%" PRIu64 "-byte physical sector",
				    l->name, end, r, pss);
	f->explanation = ba_pool_printf(
		&d->pool,
		"its last physical sector is shared with what follows: writes "
		"there are read-modify-write");
	if (ba_off_grid(l->start, ao, pss)) {
		/* the end is off because the start is: the start moves
		 * first, and its size (a multiple of the unit, or the one
		 * size_fix gives) then ends on the grid */
		f->suggested = l->size % unit ? size_fix(d, l, unit) : l->size;
		f->fix = f->suggested == l->size
				 ? ba_pool_printf(
					   &d->pool,
					   "move the start of '%s' to the "
					   "physical sector grid first "
					   "(start-physical): its end follows, "
					   "with the size it has",
					   l->name)
				 : ba_pool_printf(
					   &d->pool,
					   "move the start of '%s' to the "
					   "physical sector grid first "
					   "(start-physical), then %s",
					   l->name,
					   resize_text(d, i, f->suggested,
						       unit));
		return;
	}
	f->suggested = size_fix(d, l, unit);
	f->fix = resize_text(d, i, f->suggested, unit);
}

/*
 * md, LVM (dm), LUKS (dm-crypt) and ZFS submit their I/O below the
 * partition's page cache, so its soft block size shapes nothing there
 * (ba_rules_run marks those layers once).
 */
static bool bypasses_page_cache(const struct ba_device *d, int i)
{
	return d->below_cache && i >= 0 && (size_t)i < d->nlayers &&
	       d->below_cache[i];
}

static bool *mark_below_cache(const struct ba_device *d)
{
	bool *b = calloc(d->nlayers ? d->nlayers : 1, sizeof(*b));

	for (size_t k = 0; b && k < d->nlayers; k++) {
		enum blkalign_layer_kind kind = d->layers[k].kind;
		int p = d->layers[k].parent;

		if (p >= 0 && (size_t)p < d->nlayers &&
		    (kind == BLKALIGN_LAYER_MD || kind == BLKALIGN_LAYER_LVM ||
		     kind == BLKALIGN_LAYER_LUKS || kind == BLKALIGN_LAYER_ZFS))
			b[p] = true;
	}
	return b;
}

static void check_soft_block(struct ba_device *d, int i)
{
	const struct blkalign_topology *t = &d->pub.topology;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t page = (uint64_t)t->page_size.value;
	uint64_t max_bytes = (uint64_t)t->max_sectors_kb.value * KIB;
	uint64_t segs = (uint64_t)t->max_segments.value;
	struct blkalign_finding *f;
	uint64_t cap, cap_aligned;

	/* Only a soft block below the page costs anything (4Kn: never). */
	if (l->soft_block_size >= page)
		return;
	f = ba_device_add_finding(d, "soft-block-size",
				  bypasses_page_cache(d, i) ? BLKALIGN_INFO
							    : BLKALIGN_WARNING,
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
	f->suggested = size_fix(d, l, size_unit(d, i));
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' is %" PRIu64 " bytes, not a multiple of the %" PRIu64
		"-byte page: the kernel gives it a %u-byte soft block size",
		l->name, l->size, page, l->soft_block_size);
	f->explanation = ba_pool_printf(
		&d->pool,
		"%sbuffered writes to it (mkfs, dd, raw databases) go out in "
		"requests of at most %s instead of %s: %.1fx as many requests",
		f->severity == BLKALIGN_INFO
			? "what it holds does its I/O below the partition's page "
			  "cache, so only raw I/O on the partition itself pays: "
			: "",
		human(d, cap), human(d, cap_aligned),
		cap ? (double)cap_aligned / (double)cap : 0.0);
	f->fix = resize_text(d, i, f->suggested, size_unit(d, i));
}

/* An image whose size is not a whole number of logical sectors: a loop
 * device over it ends at the last whole sector. */
static void check_disk_sectors(struct ba_device *d)
{
	const struct blkalign_layer *l = &d->layers[0];
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;
	uint64_t unit = size_unit(d, 0);
	struct blkalign_finding *f;

	if (!lss || !(l->size % lss) || d->pub.is_block_device)
		return;
	f = ba_device_add_finding(d, "size-logical", BLKALIGN_WARNING, 0);
	if (!f)
		return;
	f->value = l->size;
	f->granularity = lss;
	f->remainder = l->size % lss;
	f->suggested = size_fix(d, l, unit);
	f->message = ba_pool_printf(&d->pool,
				    "'%s' is %" PRIu64
				    " bytes, not a whole number of %" PRIu64
				    "-byte sectors",
				    l->name, l->size, lss);
	f->explanation = ba_pool_printf(
		&d->pool,
		"its last %" PRIu64 " bytes are out of reach: a loop device "
		"over it has %" PRIu64 " sectors",
		l->size % lss, l->size / lss);
	f->fix = resize_text(d, 0, f->suggested, unit);
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
	f->message = ba_pool_printf(&d->pool,
				    "'%s' ends at byte %" PRIu64 ", %" PRIu64
				    " bytes past the end of the device",
				    l->name, end, end - d->pub.size);
	f->explanation = "the kernel truncates or refuses the partition; "
			 "data past the end is lost";
	f->fix =
		"check whether the image is truncated or the table was "
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
	f->message = ba_pool_printf(
		&d->pool, "'%s' is not entirely inside '%s'", l->name, p->name);
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
		f = ba_device_add_finding(d, "io-opt-ignored", BLKALIGN_INFO,
					  0);
		if (f) {
			f->value = (uint64_t)t->optimal_io_size_raw;
			f->message = ba_pool_printf(
				&d->pool,
				"optimal I/O size %" PRId64 " ignored: %s",
				t->optimal_io_size_raw, t->optimal_io_note);
			f->explanation =
				"as libfdisk does; partitioning "
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

	ba_rules_table_run(d);
	free(d->below_cache);
	d->below_cache = mark_below_cache(d);
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
	free(d->below_cache);
	d->below_cache = NULL;
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
