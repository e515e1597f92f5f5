/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - the report as JSON, through json-c; nothing else in the tree
 * includes json-c.  Keys are snake_case, byte counts are integers, and
 * keys are only ever added (docs/json-schema.md).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>

#include "blkalignP.h"

static void put_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static const struct {
	const char *key;
	size_t off;
} topo_keys[] = {
#define K(f) { #f, offsetof(struct blkalign_topology, f) }
	K(logical_sector_size), K(physical_sector_size), K(minimum_io_size),
	K(optimal_io_size), K(alignment_offset), K(max_segments),
	K(max_sectors_kb), K(max_segment_size), K(virt_boundary_mask),
	K(rotational), K(page_size),
#undef K
};

static struct json_object *topology_json(const struct blkalign_topology *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *src = json_object_new_object();

	for (size_t i = 0; i < sizeof(topo_keys) / sizeof(topo_keys[0]); i++) {
		const struct blkalign_value *v =
			(const void *)((const char *)t + topo_keys[i].off);

		if (v->source == BLKALIGN_SRC_NONE) {
			json_object_object_add(o, topo_keys[i].key, NULL);
		} else {
			put_int(o, topo_keys[i].key, v->value);
		}
		put_str(src, topo_keys[i].key, blkalign_source_name(v->source));
	}
	put_int(o, "optimal_io_size_raw", t->optimal_io_size_raw);
	put_str(o, "optimal_io_note", t->optimal_io_note);
	json_object_object_add(o, "sources", src);
	return o;
}

/* The geometry of stack layers; keys with no value are left out. */
static void stack_fields(struct json_object *o, const struct blkalign_layer *l)
{
	put_str(o, "version", l->version);
	put_int(o, "data_offset", (int64_t)l->data_offset);
	if (l->unit)
		put_int(o, "unit", l->unit);
	if (l->sector_size)
		put_int(o, "sector_size", l->sector_size);
	if (l->raid_disks) {
		put_int(o, "raid_level", l->raid_level);
		put_int(o, "raid_disks", l->raid_disks);
		put_int(o, "raid_data_disks", l->raid_data_disks);
		put_int(o, "raid_chunk", (int64_t)l->raid_chunk);
		put_int(o, "raid_stripe_width", (int64_t)l->raid_stripe_width);
	}
	if (l->kind == BLKALIGN_LAYER_LVM)
		put_int(o, "extent_size", (int64_t)l->extent_size);
	if (l->kind == BLKALIGN_LAYER_FILESYSTEM) {
		put_int(o, "fs_stride", (int64_t)l->fs_stride);
		put_int(o, "fs_stripe_width", (int64_t)l->fs_stripe_width);
	}
	if (l->kind == BLKALIGN_LAYER_ZFS)
		put_int(o, "ashift", l->zfs_ashift);
}

static struct json_object *layer_json(const struct blkalign_device *d,
				      const struct blkalign_layer *l)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "name", l->name);
	put_str(o, "kind", blkalign_layer_kind_name(l->kind));
	if (l->kind == BLKALIGN_LAYER_PARTITION || l->kind == BLKALIGN_LAYER_BSD)
		put_int(o, "number", l->number);
	put_str(o, "scheme", l->kind == BLKALIGN_LAYER_DISK ? d->scheme :
							      l->scheme);
	put_str(o, "type", l->type);
	put_int(o, "start", (int64_t)l->start);
	put_int(o, "size", (int64_t)l->size);
	/* Block devices only: a stack layer has no soft block of its own. */
	if (l->kind <= BLKALIGN_LAYER_BSD) {
		put_int(o, "soft_block_size", l->soft_block_size);
		put_int(o, "alignment_offset", l->alignment_offset);
	}
	put_str(o, "parent", l->parent >= 0 ? d->layers[l->parent].name : NULL);
	json_object_object_add(o, "extended", json_object_new_boolean(l->extended));
	json_object_object_add(o, "logical", json_object_new_boolean(l->logical));
	if (l->kind >= BLKALIGN_LAYER_MD || l->raid_disks)
		stack_fields(o, l);
	if (l->lower_device) {
		put_str(o, "lower_device", l->lower_device);
		put_int(o, "lower_start", (int64_t)l->lower_start);
	}
	return o;
}

static struct json_object *finding_json(const struct blkalign_device *d,
					const struct blkalign_finding *f)
{
	struct json_object *o = json_object_new_object();
	char mc[256];

	put_str(o, "code", f->code);
	put_str(o, "severity", blkalign_severity_name(f->severity));
	put_str(o, "layer", d->layers[f->layer].name);
	put_str(o, "message", f->message);
	put_str(o, "explanation", f->explanation);
	put_str(o, "fix", f->fix);
	put_str(o, "model_cost",
		blkalign_finding_cost(d, f, mc, sizeof(mc)) ? NULL : mc);
	put_int(o, "value", (int64_t)f->value);
	put_int(o, "granularity", (int64_t)f->granularity);
	put_int(o, "remainder", (int64_t)f->remainder);
	put_int(o, "suggested", (int64_t)f->suggested);
	if (f->soft_block_size) {
		put_int(o, "soft_block_size", f->soft_block_size);
		put_int(o, "request_cap", (int64_t)f->request_cap);
		put_int(o, "request_cap_aligned",
			(int64_t)f->request_cap_aligned);
	}
	return o;
}

static struct json_object *device_json(const struct blkalign_device *d)
{
	struct json_object *o = json_object_new_object();
	struct json_object *layers = json_object_new_array();
	struct json_object *findings = json_object_new_array();
	struct json_object *problems = json_object_new_array();

	put_str(o, "path", d->path);
	put_str(o, "name", d->name);
	put_str(o, "type", d->failed ? "unknown" :
			   d->is_block_device ? "block" : "image");
	put_int(o, "size", (int64_t)d->size);
	put_str(o, "scheme", d->scheme);
	put_int(o, "bytes_read", (int64_t)d->bytes_read);
	json_object_object_add(o, "topology", topology_json(&d->topology));
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
	return o;
}

/**
 * blkalign_report_write_json: write @r to @out as one JSON document.
 * Returns: 0, -ENOMEM, or -EIO when writing failed.
 */
int blkalign_report_write_json(const struct blkalign_report *r, FILE *out)
{
	struct json_object *root, *devices;
	const char *text;
	int rc = 0;

	if (!r || !out)
		return -EINVAL;
	root = json_object_new_object();
	devices = json_object_new_array();
	if (!root || !devices) {
		json_object_put(root);
		json_object_put(devices);
		return -ENOMEM;
	}
	put_int(root, "schema_version", BLKALIGN_SCHEMA_VERSION);
	put_str(root, "version", BLKALIGN_VERSION);
	for (size_t i = 0; i < r->ndevices; i++)
		json_object_array_add(devices, device_json(&r->devices[i]->pub));
	json_object_object_add(root, "devices", devices);
	put_int(root, "status", r->status);
	text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) == EOF || fputc('\n', out) == EOF)
		rc = text ? -EIO : -ENOMEM;
	json_object_put(root);
	return rc;
}
