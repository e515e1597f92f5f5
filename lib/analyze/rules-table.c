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

#include "analyze/analyze.h"
#include "scan/scan.h"

/* The EBR chain: where it breaks, or goes on past the kernel's limit. */
static void dos_findings(struct ba_device *d, const struct ba_dos_check *chk)
{
	static const enum ba_text why[] = {
		[BA_EBR_LOOP] = BA_T_EBR_LOOP,
		[BA_EBR_OUTSIDE] = BA_T_EBR_OUTSIDE,
		[BA_EBR_BROKEN] = BA_T_EBR_BROKEN,
	};
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;
	struct ba_finding *f;

	if (chk->state == BA_EBR_OK && !chk->truncated)
		return;
	f = ba_device_add_finding(d, BA_CODE_DOS_EBR_CHAIN, BLKALIGN_ERROR, 0);
	if (!f)
		return;
	f->pub.value = chk->bad_lba * lss;
	if (chk->state == BA_EBR_OK) {
		f->arg[0] = chk->nlogical;
		f->arg[1] = BA_DOS_KERNEL_PARTS;
		f->arg[2] = chk->bad_lba;
		ba_finding_say(f, BA_T_EBR_PAST_KERNEL,
			       BA_T_EBR_PAST_KERNEL_WHY, BA_T_EBR_FIX);
		return;
	}
	f->arg[0] = chk->bad_lba;
	f->arg[1] = chk->nlogical;
	ba_finding_say(f, why[chk->state], BA_T_EBR_BREAK_WHY, BA_T_EBR_FIX);
}

/* Used entries outside the usable range of the header @h libblkid read. */
static void gpt_outside(struct ba_device *d, const struct ba_gpt_header *h)
{
	if (h->state != BA_GPT_OK)
		return;
	for (uint32_t k = 0; k < h->noutside && k < 8; k++) {
		const struct ba_gpt_entry *e = &h->outside[k];
		struct ba_finding *f = ba_device_add_finding(
			d, BA_CODE_GPT_ENTRY_OUTSIDE, BLKALIGN_ERROR, 0);
		bool more = h->noutside > 8 && k == 7;

		if (!f)
			return;
		f->pub.value = e->first_lba;
		f->arg[0] = e->index;
		f->arg[1] = e->first_lba;
		f->arg[2] = e->last_lba;
		f->arg[3] = h->first_usable_lba;
		f->arg[4] = h->last_usable_lba;
		f->arg[5] = more ? h->noutside - 8 : 0;
		ba_finding_say(f,
			       more ? BA_T_GPT_OUTSIDE_MORE : BA_T_GPT_OUTSIDE,
			       BA_T_GPT_OUTSIDE_WHY, BA_T_GPT_OUTSIDE_FIX);
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
		struct ba_finding *f;

		if (!e->type || e->type == 0xee)
			continue;
		for (size_t k = 1; k < d->nlayers && !found; k++)
			found = d->layers[k].kind == BLKALIGN_LAYER_PARTITION &&
				d->layers[k].start == e->start * lss &&
				d->layers[k].size == e->sectors * lss;
		if (found)
			continue;
		f = ba_device_add_finding(d, BA_CODE_GPT_HYBRID_MBR,
					  BLKALIGN_WARNING, 0);
		if (!f)
			return;
		f->pub.value = e->start * lss;
		f->arg[0] = (uint64_t)i + 1;
		f->arg[1] = e->type;
		f->arg[2] = e->start;
		f->arg[3] = e->sectors;
		ba_finding_say(f, BA_T_HYBRID_MBR, BA_T_HYBRID_MBR_WHY,
			       BA_T_HYBRID_MBR_FIX);
	}
}

/* The texts of header @h's finding: missing or corrupt, and why. */
static enum ba_text header_text(const struct ba_gpt_header *h)
{
	if (h->state == BA_GPT_ABSENT)
		return h->why ? BA_T_GPT_MISSING_BECAUSE : BA_T_GPT_MISSING;
	return h->why ? BA_T_GPT_CORRUPT_BECAUSE : BA_T_GPT_CORRUPT;
}

/* A damaged or missing header, and a table for a larger disk. */
static void gpt_findings(struct ba_device *d, const struct ba_gpt_check *chk)
{
	static const char *const which[] = {"primary", "backup"};
	const struct ba_gpt_header *h[2] = {&chk->primary, &chk->backup};
	bool other_ok;

	for (int i = 0; i < 2; i++) {
		struct ba_finding *f;

		if (h[i]->state == BA_GPT_UNREADABLE ||
		    h[i]->state == BA_GPT_OK)
			continue;
		/* A backup can only be judged when a GPT is there at all. */
		if (h[i]->state == BA_GPT_ABSENT && h[!i]->state != BA_GPT_OK)
			continue;
		other_ok = h[!i]->state == BA_GPT_OK;
		f = ba_device_add_finding(d,
					  i == 0 ? BA_CODE_GPT_PRIMARY_BAD
						 : BA_CODE_GPT_BACKUP_BAD,
					  BLKALIGN_ERROR, 0);
		if (!f)
			return;
		f->str[0] = which[i];
		f->str[1] = h[i]->why;
		f->str[2] = which[!i];
		ba_finding_say(
			f, header_text(h[i]),
			other_ok ? BA_T_GPT_OTHER_USED : BA_T_GPT_NEITHER,
			other_ok ? BA_T_GPT_OTHER_FIX : BA_T_GPT_RESTORE_FIX);
		if (h[i]->short_by) {
			/* not damage: the device is shorter than the disk
			 * the table was written for */
			f->pub.value = d->pub.size + h[i]->short_by;
			f->pub.remainder = h[i]->short_by;
			f->arg[0] = d->pub.size;
			ba_finding_say(f, BA_T_GPT_SHORT, BA_T_GPT_SHORT_WHY,
				       BA_T_GPT_SHORT_FIX);
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
		struct ba_finding *f;
		char id[33];

		f = ba_device_add_finding(d, BA_CODE_FIX_INTERRUPTED,
					  BLKALIGN_ERROR, mk->layer);
		if (!f)
			return;
		ba_fix_id_hex(mk->m.id, id);
		f->pub.value = l->start;
		f->str[0] = ba_pool_strdup(&d->pool, mk->m.what);
		f->str[1] = ba_pool_strdup(&d->pool, id);
		ba_finding_say(f, mk->m.has_id ? BA_T_MARKER_ID : BA_T_MARKER,
			       BA_T_MARKER_WHY, BA_T_MARKER_FIX);
	}
}

/*
 * A dm device's start on the physical sector grid of the disk below; on
 * a RAID-1, of each member's disk (the kernel's alignment_offset of the
 * array is -1 when they disagree): the first copy off its grid.
 */
static void dm_findings(struct ba_device *d)
{
	const struct blkalign_layer *l = &d->layers[0];
	const struct ba_dm_place *p = &d->dm;
	const char *disk = p->disk ? p->disk : l->lower_device;
	uint64_t r = 0, at = p->start, pss = p->pss;
	struct ba_finding *f;

	if (!p->placed || !p->pss)
		return;
	if (p->nmembers) {
		for (size_t i = 0; i < p->nmembers && !r; i++) {
			const struct ba_dm_member *m = &p->members[i];

			r = ba_off_grid(m->start, m->ao, m->pss);
			if (r) {
				at = m->start;
				pss = m->pss;
				disk = m->disk;
			}
		}
	} else {
		r = ba_off_grid(p->start, p->ao, p->pss);
	}
	if (!r)
		return;
	f = ba_device_add_finding(d, BA_CODE_START_PHYSICAL, BLKALIGN_ERROR, 0);
	if (!f)
		return;
	f->pub.value = at;
	f->pub.granularity = pss;
	f->pub.remainder = r;
	f->str[0] = l->type;
	f->str[1] = disk;
	ba_finding_say(f, BA_T_DM_START, BA_T_DM_START_WHY, BA_T_DM_START_FIX);
}

/*
 * A dm device on an md array (an LV on a RAID PV): its start off the
 * array's chunk grid, else off its full-stripe grid.
 */
static void dm_raid_findings(struct ba_device *d)
{
	const struct ba_dm_place *p = &d->dm;
	uint64_t gran = p->chunk, r;
	bool chunk = true;
	struct ba_finding *f;

	if (!p->placed || !p->chunk || p->chunk <= p->pss)
		return;
	r = p->start % p->chunk;
	if (!r && p->stripe > p->chunk && p->stripe % p->chunk == 0) {
		chunk = false;
		gran = p->stripe;
		r = p->start % p->stripe;
	}
	if (!r)
		return;
	f = ba_device_add_finding(
		d, chunk ? BA_CODE_RAID_CHUNK : BA_CODE_RAID_STRIPE,
		BLKALIGN_WARNING, 0);
	if (!f)
		return;
	f->pub.value = p->start;
	f->pub.granularity = gran;
	f->pub.remainder = r;
	f->str[0] = d->layers[0].type;
	f->str[1] = p->disk ? p->disk : d->layers[0].lower_device;
	f->str[2] = chunk ? "chunk" : "full-stripe";
	ba_finding_say(f, BA_T_DM_RAID,
		       chunk ? BA_T_DATA_START_CHUNK_WHY
			     : BA_T_DATA_START_STRIPE_WHY,
		       BA_T_DM_RAID_FIX);
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
	dm_raid_findings(d);
}
