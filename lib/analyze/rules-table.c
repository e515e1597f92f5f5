/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules-table.c - the rules on what the scan read of the partition
 * table and around it: the dos EBR chain, both GPT headers, hybrid MBR
 * entries, partitions left by an interrupted fix, and a device-mapper
 * device's start on the disk below.  Pure: functions of the device
 * record (scan/scan.c, stack.c and dm.c fill it); nothing is read here.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"

/* The EBR chain: where it breaks, or goes on past the kernel's limit. */
static void dos_findings(struct ba_device *d, const struct ba_dos_check *chk)
{
	static const char *const why[] = {
		[BA_EBR_LOOP] = "loops back on itself",
		[BA_EBR_OUTSIDE] = "points outside the extended partition",
		[BA_EBR_BROKEN] = "reaches a record without its signature",
	};
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;
	struct blkalign_finding *f;

	if (chk->state == BA_EBR_OK && chk->truncated) {
		f = ba_device_add_finding(d, "dos-ebr-chain", BLKALIGN_ERROR,
					  0);
		if (!f)
			return;
		f->value = chk->bad_lba * lss;
		f->message = ba_pool_printf(
			&d->pool,
			"the chain of logical partitions on '%s' goes on past "
			"the %u the kernel shows (it stops at %u partitions "
			"in all), at sector %" PRIu64,
			d->pub.name, chk->nlogical, BA_DOS_KERNEL_PARTS,
			chk->bad_lba);
		f->explanation = "the partitions after it exist for no kernel "
				 "and are not checked; partitioning tools may "
				 "still list them";
		f->fix = "inspect with 'sfdisk -d' and rewrite the logical "
			 "partitions with sfdisk or fdisk";
		return;
	}
	if (chk->state == BA_EBR_OK)
		return;
	f = ba_device_add_finding(d, "dos-ebr-chain", BLKALIGN_ERROR, 0);
	if (!f)
		return;
	f->value = chk->bad_lba * lss;
	f->message = ba_pool_printf(
		&d->pool,
		"the chain of logical partitions on '%s' %s at sector %" PRIu64
		", after %u logical partitions",
		d->pub.name, why[chk->state], chk->bad_lba, chk->nlogical);
	f->explanation = "logical partitions after the break are not listed "
			 "and their alignment is not checked; the kernel and "
			 "partitioning tools may disagree about them";
	f->fix = "inspect with 'sfdisk -d' and rewrite the logical partitions "
		 "with sfdisk or fdisk";
}

/* Used entries outside the usable range of the header @h libblkid read. */
static void gpt_outside(struct ba_device *d, const struct ba_gpt_header *h)
{
	if (h->state != BA_GPT_OK)
		return;
	for (uint32_t k = 0; k < h->noutside && k < 8; k++) {
		const struct ba_gpt_entry *e = &h->outside[k];
		struct blkalign_finding *f = ba_device_add_finding(
			d, "gpt-entry-outside", BLKALIGN_ERROR, 0);

		if (!f)
			return;
		f->value = e->first_lba;
		f->message = ba_pool_printf(
			&d->pool,
			"GPT entry %u of '%s' (sectors %" PRIu64 " to %" PRIu64
			") lies outside the usable range (%" PRIu64
			" to %" PRIu64 ")%s",
			e->index, d->pub.name, e->first_lba, e->last_lba,
			h->first_usable_lba, h->last_usable_lba,
			h->noutside > 8 && k == 7
				? ba_pool_printf(&d->pool, " (and %u more)",
						 h->noutside - 8)
				: "");
		f->explanation = "libblkid (and lsblk, blkid, this audit) "
				 "skips it, the kernel still makes a partition "
				 "of it: it may overlap the table or the "
				 "backup, and nothing here checks it";
		f->fix = "fix the entry with gdisk or sfdisk, inside the "
			 "usable range (sgdisk -v lists it)";
	}
}

/*
 * A hybrid MBR (an 0xee entry and others beside it): every other entry
 * should be one of the GPT's partitions, as gdisk makes them; sgdisk -v
 * warns about those that are not.
 */
static void hybrid_mbr(struct ba_device *d, const struct ba_dos_check *chk)
{
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;

	for (int i = 0; i < 4; i++) {
		const struct ba_dos_part *e = &chk->primary[i];
		bool found = false;
		struct blkalign_finding *f;

		if (!e->type || e->type == 0xee)
			continue;
		for (size_t k = 1; k < d->nlayers && !found; k++)
			found = d->layers[k].kind == BLKALIGN_LAYER_PARTITION &&
				d->layers[k].start == e->start * lss &&
				d->layers[k].size == e->sectors * lss;
		if (found)
			continue;
		f = ba_device_add_finding(d, "gpt-hybrid-mbr", BLKALIGN_WARNING,
					  0);
		if (!f)
			return;
		f->value = e->start * lss;
		f->message = ba_pool_printf(
			&d->pool,
			"entry %d of the hybrid MBR of '%s' (type 0x%02x, sectors "
			"%" PRIu64 "+%" PRIu64
			") is none of its GPT partitions",
			i + 1, d->pub.name, e->type, e->start, e->sectors);
		f->explanation = "what reads the MBR (BIOS boot loaders, older "
				 "systems) sees a partition that the GPT, and "
				 "every tool that reads it, does not";
		f->fix = "rebuild the hybrid MBR to match the GPT (gdisk: "
			 "'r', then 'h'), or replace it with a protective one "
			 "(gdisk: 'x', then 'n', then 'w')";
	}
}

/* A damaged or missing header, and a table for a larger disk. */
static void gpt_findings(struct ba_device *d, const struct ba_gpt_check *chk)
{
	static const char *const which[] = {"primary", "backup"};
	const struct ba_gpt_header *h[2] = {&chk->primary, &chk->backup};
	bool other_ok;

	for (int i = 0; i < 2; i++) {
		struct blkalign_finding *f;

		if (h[i]->state == BA_GPT_UNREADABLE ||
		    h[i]->state == BA_GPT_OK)
			continue;
		/* A backup can only be judged when a GPT is there at all. */
		if (h[i]->state == BA_GPT_ABSENT && h[!i]->state != BA_GPT_OK)
			continue;
		other_ok = h[!i]->state == BA_GPT_OK;
		f = ba_device_add_finding(
			d, i == 0 ? "gpt-primary-bad" : "gpt-backup-bad",
			BLKALIGN_ERROR, 0);
		if (!f)
			return;
		f->message = ba_pool_printf(
			&d->pool, "%s GPT header on '%s' is %s%s%s", which[i],
			d->pub.name,
			h[i]->state == BA_GPT_ABSENT ? "missing" : "corrupt",
			h[i]->why ? ": " : "", h[i]->why ? h[i]->why : "");
		f->explanation =
			other_ok
				? ba_pool_printf(&d->pool,
						 "the %s header is intact "
						 "and was used",
						 which[!i])
				: "neither header is intact: the partitions listed may "
				  "be wrong";
		f->fix =
			other_ok
				? "rewrite both headers from the good copy (gdisk: "
				  "'r' then 'b' or 'c', then 'w'; or sgdisk -e)"
				: "restore the table from a backup (sgdisk --load-backup)";
		if (h[i]->short_by) {
			/* not damage: the device is shorter than the disk
			 * the table was written for */
			f->value = d->pub.size + h[i]->short_by;
			f->remainder = h[i]->short_by;
			f->message = ba_pool_printf(
				&d->pool,
				"the %s GPT header on '%s' describes a disk of "
				"%" PRIu64 " bytes, but '%s' has %" PRIu64
				": it is %" PRIu64 " bytes shorter than its "
				"table",
				which[i], d->pub.name,
				d->pub.size + h[i]->short_by, d->pub.name,
				d->pub.size, h[i]->short_by);
			f->explanation = "a truncated image, or a table copied "
					 "from a larger disk: its partitions "
					 "may run past the end";
			f->fix = ba_pool_printf(
				&d->pool,
				"a truncated image: grow it back (truncate -s "
				"%" PRIu64 "); a table from a larger disk: "
				"rewrite it for this one (sgdisk -e moves the "
				"backup to the end) and check that every "
				"partition ends inside it",
				d->pub.size + h[i]->short_by);
		}
	}
	gpt_outside(d, h[0]->state == BA_GPT_OK ? h[0] : h[1]);
}

/* Partitions that start with the marker of an interrupted fix. */
static void marker_findings(struct ba_device *d)
{
	for (size_t k = 0; k < d->nmarkers; k++) {
		const struct ba_marker *mk = &d->markers[k];
		const struct blkalign_layer *l = &d->layers[mk->layer];
		struct blkalign_finding *f;
		char id[33];

		f = ba_device_add_finding(d, "fix-interrupted", BLKALIGN_ERROR,
					  mk->layer);
		if (!f)
			return;
		ba_fix_id_hex(mk->m.id, id);
		f->value = l->start;
		f->message = ba_pool_printf(
			&d->pool,
			"'%s' starts with the marker of an interrupted blkalign "
			"fix (%s%s%s)",
			l->name, mk->m.what, mk->m.has_id ? "; fix " : "",
			mk->m.has_id ? id : "");
		f->explanation =
			"its data are partly at the old and partly at the "
			"new place, and its first MiB is in the fix's journal: "
			"mounting, formatting or repartitioning it now loses "
			"data";
		f->fix = "run 'blkalign fix --resume' (or '--rollback') with "
			 "the journal of that fix; 'blkalign fix --inspect' "
			 "with the disk says what it holds";
	}
}

/* A dm device's start on the physical sector grid of the disk below. */
static void dm_findings(struct ba_device *d)
{
	const struct blkalign_layer *l = &d->layers[0];
	const struct ba_dm_place *p = &d->dm;
	struct blkalign_finding *f;
	uint64_t r;

	if (!p->placed || !p->pss)
		return;
	r = (p->start % p->pss + p->pss - p->ao % p->pss) % p->pss;
	if (!r)
		return;
	f = ba_device_add_finding(d, "start-physical", BLKALIGN_ERROR, 0);
	if (!f)
		return;
	f->value = p->start;
	f->granularity = p->pss;
	f->remainder = r;
	f->message = ba_pool_printf(
		&d->pool,
		"'%s' (%s) starts at byte %" PRIu64 " of '%s', %" PRIu64
		" bytes past a %" PRIu64 "-byte physical sector boundary",
		d->pub.name, l->type, p->start, l->lower_device, r, p->pss);
	f->explanation = "every 4 KiB write through it straddles two "
			 "physical sectors of the disk below: "
			 "read-modify-write";
	f->fix = "recreate the mapping (or the partition it maps, for "
		 "kpartx) on a 1 MiB boundary of the device below";
}

/**
 * ba_rules_table_run: the findings on the table facts of @d, in the order
 * the scan found them (GPT headers, the dos walk or the hybrid MBR, fix
 * markers, the dm placement).
 */
void ba_rules_table_run(struct ba_device *d)
{
	if (!d->nlayers)
		return;
	if (d->gpt)
		gpt_findings(d, d->gpt);
	if (d->dos && (!d->pub.scheme || !strcmp(d->pub.scheme, "dos")))
		dos_findings(d, d->dos);
	else if (d->dos && d->dos->protective)
		hybrid_mbr(d, d->dos);
	marker_findings(d);
	dm_findings(d);
}
