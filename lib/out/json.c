/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - the objects of the report as JSON (a device and what it
 * holds; report-stream.c writes the document around them), and the list
 * of finding codes.  Keys are snake_case, byte counts are integers, and
 * keys are only ever added (docs/json-schema.md).
 */
#include <errno.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"
#include "scan/scan.h"

/* A device's topology, as check and plan write it: each value (null when
 * unknown), then where each came from. */
struct json_object *ba_json_topology(const struct blkalign_topology *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *src = json_object_new_object();

	for (size_t i = 0; i < BA_TOPOLOGY_NFIELDS; i++) {
		const struct ba_topology_field *k = &ba_topology_fields[i];
		const struct blkalign_value *v =
			(const void *)((const char *)t + k->off);

		if (v->source == BLKALIGN_SRC_NONE) {
			json_object_object_add(o, k->key, NULL);
		} else {
			ba_json_s64(o, k->key, v->value);
		}
		ba_json_str(src, k->key, blkalign_source_name(v->source));
	}
	ba_json_s64(o, "optimal_io_size_raw", t->optimal_io_size_raw);
	ba_json_str(o, "optimal_io_note", t->optimal_io_note);
	json_object_object_add(o, "sources", src);
	return o;
}

/* The geometry of stack layers; keys with no value are left out. */
static void stack_fields(struct json_object *o, const struct blkalign_layer *l)
{
	ba_json_str(o, "version", l->version);
	ba_json_u64(o, "data_offset", l->data_offset);
	if (l->unit)
		ba_json_s64(o, "unit", l->unit);
	if (l->sector_size)
		ba_json_s64(o, "sector_size", l->sector_size);
	if (l->raid_disks) {
		ba_json_s64(o, "raid_level", l->raid_level);
		ba_json_s64(o, "raid_disks", l->raid_disks);
		ba_json_s64(o, "raid_data_disks", l->raid_data_disks);
		ba_json_u64(o, "raid_chunk", l->raid_chunk);
		ba_json_u64(o, "raid_stripe_width", l->raid_stripe_width);
		if (l->raid_member_physical) {
			ba_json_s64(o, "raid_member_physical_sector_size",
				    l->raid_member_physical);
			ba_json_s64(o, "raid_members_misaligned",
				    l->raid_members_misaligned);
		}
	}
	if (l->kind == BLKALIGN_LAYER_LVM)
		ba_json_u64(o, "extent_size", l->extent_size);
	if (l->kind == BLKALIGN_LAYER_FILESYSTEM) {
		ba_json_u64(o, "fs_stride", l->fs_stride);
		ba_json_u64(o, "fs_stripe_width", l->fs_stripe_width);
	}
	if (l->kind == BLKALIGN_LAYER_ZFS)
		ba_json_s64(o, "ashift", l->zfs_ashift);
}

static struct json_object *layer_json(const struct blkalign_device *d,
				      const struct blkalign_layer *l)
{
	struct json_object *o = json_object_new_object();

	ba_json_str(o, "name", l->name);
	ba_json_str(o, "kind", blkalign_layer_kind_name(l->kind));
	if (l->kind == BLKALIGN_LAYER_PARTITION ||
	    l->kind == BLKALIGN_LAYER_BSD)
		ba_json_s64(o, "number", l->number);
	ba_json_str(o, "scheme",
		    l->kind == BLKALIGN_LAYER_DISK ? d->scheme : l->scheme);
	ba_json_str(o, "type", l->type);
	ba_json_u64(o, "start", l->start);
	ba_json_u64(o, "size", l->size);
	/* Block devices only: a stack layer has no soft block of its own. */
	if (l->kind <= BLKALIGN_LAYER_BSD) {
		ba_json_s64(o, "soft_block_size", l->soft_block_size);
		ba_json_s64(o, "alignment_offset", l->alignment_offset);
	}
	ba_json_str(o, "parent",
		    l->parent >= 0 ? d->layers[l->parent].name : NULL);
	json_object_object_add(o, "extended",
			       json_object_new_boolean(l->extended));
	json_object_object_add(o, "logical",
			       json_object_new_boolean(l->logical));
	if (l->logical)
		ba_json_u64(o, "ebr", l->ebr);
	if (l->kind >= BLKALIGN_LAYER_MD || l->raid_disks)
		stack_fields(o, l);
	if (l->kind == BLKALIGN_LAYER_MD)
		ba_json_str(o, "array", l->array);
	if (l->lower_device) {
		ba_json_str(o, "lower_device", l->lower_device);
		ba_json_u64(o, "lower_start", l->lower_start);
	}
	if (l->used_size)
		ba_json_u64(o, "used_size", l->used_size);
	if (l->uuid)
		ba_json_str(o, "uuid", l->uuid);
	if (l->part_name)
		ba_json_str(o, "part_name", l->part_name);
	return o;
}

/* The table's facts beside its partitions; null when none was read. */
static struct json_object *table_json(const struct blkalign_table *t)
{
	struct json_object *o;

	if (!t->usable_end)
		return NULL;
	o = json_object_new_object();
	ba_json_str(o, "id", t->id);
	ba_json_u64(o, "usable_start", t->usable_start);
	ba_json_u64(o, "usable_end", t->usable_end);
	json_object_object_add(o, "usable_source",
			       json_object_new_string(t->usable_from_table
							      ? "table"
							      : "assumed"));
	ba_json_str(o, "gpt_primary", t->gpt_primary);
	ba_json_str(o, "gpt_backup", t->gpt_backup);
	return o;
}

static struct json_object *finding_json(const struct blkalign_device *d,
					const struct blkalign_finding *f)
{
	struct json_object *o = json_object_new_object();
	char mc[256];

	ba_json_str(o, "code", f->code);
	ba_json_str(o, "severity", blkalign_severity_name(f->severity));
	ba_json_str(o, "layer", d->layers[f->layer].name);
	ba_json_str(o, "message", f->message);
	ba_json_str(o, "explanation", f->explanation);
	ba_json_str(o, "fix", f->fix);
	ba_json_str(o, "model_cost",
		    blkalign_finding_cost(d, f, mc, sizeof(mc)) ? NULL : mc);
	ba_json_u64(o, "value", f->value);
	ba_json_u64(o, "granularity", f->granularity);
	ba_json_u64(o, "remainder", f->remainder);
	ba_json_u64(o, "suggested", f->suggested);
	if (f->soft_block_size) {
		ba_json_s64(o, "soft_block_size", f->soft_block_size);
		ba_json_u64(o, "request_cap", f->request_cap);
		ba_json_u64(o, "request_cap_aligned", f->request_cap_aligned);
	}
	return o;
}

/* The dos walk as the rules judge it (sectors, as in the table). */
static struct json_object *dos_json(const struct ba_dos_check *c)
{
	struct json_object *o = json_object_new_object();
	struct json_object *v = json_object_new_array();

	ba_json_bool(o, "has_signature", c->has_signature);
	ba_json_bool(o, "protective", c->protective);
	ba_json_u64(o, "nprimary", c->nprimary);
	ba_json_u64(o, "nlogical", c->nlogical);
	ba_json_str(o, "state", ba_ebr_state_names[c->state]);
	ba_json_u64(o, "bad_lba", c->bad_lba);
	ba_json_bool(o, "truncated", c->truncated);
	for (int i = 0; i < 4; i++) {
		struct json_object *e = json_object_new_object();

		ba_json_u64(e, "type", c->primary[i].type);
		ba_json_u64(e, "start", c->primary[i].start);
		ba_json_u64(e, "sectors", c->primary[i].sectors);
		json_object_array_add(v, e);
	}
	json_object_object_add(o, "primary", v);
	return o;
}

static struct json_object *gpt_header_json(const struct ba_gpt_header *h)
{
	struct json_object *o = json_object_new_object();
	struct json_object *v = json_object_new_array();

	ba_json_str(o, "state", ba_gpt_state_names[h->state]);
	ba_json_str(o, "why", h->why);
	ba_json_u64(o, "first_usable_lba", h->first_usable_lba);
	ba_json_u64(o, "last_usable_lba", h->last_usable_lba);
	ba_json_u64(o, "short_by", h->short_by);
	ba_json_u64(o, "noutside", h->noutside);
	for (uint32_t k = 0; k < h->noutside && k < 8; k++) {
		struct json_object *e = json_object_new_object();

		ba_json_u64(e, "index", h->outside[k].index);
		ba_json_u64(e, "first_lba", h->outside[k].first_lba);
		ba_json_u64(e, "last_lba", h->outside[k].last_lba);
		json_object_array_add(v, e);
	}
	json_object_object_add(o, "outside", v);
	return o;
}

/*
 * What the scan recorded for the rules beyond the layers: with it, a
 * saved report is judged again exactly as the device was (check --from).
 */
static void u64_or_null(struct json_object *o, const char *k, uint64_t v)
{
	if (v)
		ba_json_u64(o, k, v);
	else
		json_object_object_add(o, k, NULL);
}

static struct json_object *scan_json(const struct ba_device *bd)
{
	const struct blkalign_device *d = &bd->pub;
	struct json_object *o = json_object_new_object();
	struct json_object *m = json_object_new_array();

	ba_json_bool(o, "md_array", bd->md_array);
	json_object_object_add(o, "dos", bd->dos ? dos_json(bd->dos) : NULL);
	if (bd->gpt) {
		struct json_object *g = json_object_new_object();

		json_object_object_add(g, "primary",
				       gpt_header_json(&bd->gpt->primary));
		json_object_object_add(g, "backup",
				       gpt_header_json(&bd->gpt->backup));
		json_object_object_add(o, "gpt", g);
	} else {
		json_object_object_add(o, "gpt", NULL);
	}
	for (size_t k = 0; k < bd->nmarkers; k++) {
		const struct ba_marker *mk = &bd->markers[k];
		struct json_object *e = json_object_new_object();
		char id[33];

		ba_fix_id_hex(mk->m.id, id);
		ba_json_str(e, "layer", d->layers[mk->layer].name);
		ba_json_str(e, "id", mk->m.has_id ? id : NULL);
		ba_json_str(e, "what", mk->m.what);
		ba_json_str(e, "cut", mk->m.cut);
		json_object_array_add(m, e);
	}
	json_object_object_add(o, "fix_markers", m);
	if (bd->dm.placed) {
		struct json_object *e = json_object_new_object();

		ba_json_u64(e, "start", bd->dm.start);
		ba_json_u64(e, "physical_sector_size", bd->dm.pss);
		ba_json_u64(e, "alignment_offset", bd->dm.ao);
		ba_json_str(e, "disk", bd->dm.disk);
		/* 0: not an md array below, not dm-crypt */
		u64_or_null(e, "raid_chunk", bd->dm.chunk);
		u64_or_null(e, "raid_stripe_width", bd->dm.stripe);
		u64_or_null(e, "crypt_sector_size", bd->dm.sector_size);
		if (bd->dm.nmembers) {
			struct json_object *ms = json_object_new_array();

			for (size_t i = 0; i < bd->dm.nmembers; i++) {
				const struct ba_dm_member *mb =
					&bd->dm.members[i];
				struct json_object *me =
					json_object_new_object();

				ba_json_str(me, "disk", mb->disk);
				ba_json_u64(me, "start", mb->start);
				ba_json_u64(me, "physical_sector_size",
					    mb->pss);
				ba_json_u64(me, "alignment_offset", mb->ao);
				json_object_array_add(ms, me);
			}
			json_object_object_add(e, "mirrors", ms);
		}
		json_object_object_add(o, "dm", e);
	} else {
		json_object_object_add(o, "dm", NULL);
	}
	return o;
}

/*
 * A device's object of the document's "devices"; @alone: a line of its
 * own (--json=lines), which starts with the schema_version.
 */
struct json_object *ba_device_json(const struct ba_device *bd, bool alone)
{
	const struct blkalign_device *d = &bd->pub;
	struct json_object *o = json_object_new_object();
	struct json_object *layers = json_object_new_array();
	struct json_object *findings = json_object_new_array();
	struct json_object *problems = json_object_new_array();

	if (alone)
		ba_json_u64(o, "schema_version", BLKALIGN_SCHEMA_VERSION);
	ba_json_str(o, "path", d->path);
	ba_json_str(o, "name", d->name);
	ba_json_str(o, "type",
		    d->failed		 ? "unknown"
		    : d->is_block_device ? "block"
					 : "image");
	ba_json_u64(o, "size", d->size);
	ba_json_str(o, "scheme", d->scheme);
	ba_json_u64(o, "bytes_read", d->bytes_read);
	ba_json_str(o, "image_format", d->image_format);
	ba_json_str(o, "image_reader", d->image_reader);
	u64_or_null(o, "virtual_size", d->image_format ? d->virtual_size : 0);
	u64_or_null(o, "cluster_size", d->cluster_size);
	ba_json_u64(o, "bytes_skipped", d->bytes_skipped);
	json_object_object_add(o, "topology", ba_json_topology(&d->topology));
	json_object_object_add(o, "table", table_json(&d->table));
	for (size_t i = 0; i < d->nlayers; i++)
		json_object_array_add(layers, layer_json(d, &d->layers[i]));
	for (size_t i = 0; i < d->nfindings; i++)
		json_object_array_add(findings,
				      finding_json(d, &d->findings[i]));
	for (size_t i = 0; i < d->nproblems; i++)
		json_object_array_add(problems,
				      json_object_new_string(d->problems[i]));
	json_object_object_add(o, "layers", layers);
	json_object_object_add(o, "findings", findings);
	json_object_object_add(o, "problems", problems);
	if (d->whole_disk) {
		ba_json_str(o, "whole_disk", d->whole_disk);
		ba_json_s64(o, "partition_number", d->partition_number);
	}
	json_object_object_add(o, "scan", scan_json(bd));
	return o;
}

/**
 * blkalign_finding_codes_write_json: { schema_version, version, codes:
 * [{ code, severity, summary }] }, every code the library can emit (what
 * `check --list-codes --json` prints).  Returns 0, -EINVAL, -ENOMEM or
 * -EIO.
 */
int blkalign_finding_codes_write_json(FILE *out)
{
	struct json_object *root, *arr;

	if (!out)
		return -EINVAL;
	if (ba_json_root_array(&root, &arr, "check"))
		return -ENOMEM;
	for (const struct blkalign_code *c = ba_finding_codes(); c->code; c++) {
		struct json_object *o = json_object_new_object();

		if (!o) {
			json_object_put(arr);
			json_object_put(root);
			return -ENOMEM;
		}
		ba_json_str(o, "code", c->code);
		ba_json_str(o, "severity", blkalign_severity_name(c->severity));
		ba_json_str(o, "summary", c->summary);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "codes", arr);
	return ba_json_write(root, out);
}
