/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-out.c - a realignment plan written out: as an sfdisk script of
 * the target layout (sfdisk(8) "INPUT FORMATS"), and as JSON through
 * json-c like json.c (snake_case keys, byte counts as integers, a
 * schema_version; docs/plan.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"

static const struct blkalign_plan_part *part_of(const struct blkalign_plan *p,
						int layer)
{
	for (size_t k = 0; k < p->nparts; k++)
		if (p->parts[k].layer == layer)
			return &p->parts[k];
	return NULL;
}

/* sfdisk takes dos types as hex without "0x", GPT types as GUIDs. */
static const char *sfdisk_type(const char *type)
{
	if (!type)
		return NULL;
	if (!strncmp(type, "0x", 2))
		return type + 2;
	return type;
}

/**
 * blkalign_plan_write_sfdisk: the planned layout as an sfdisk script
 * (unit: sectors); partitions that cannot be planned, or are not @only
 * when it is not 0, keep their place.
 * Returns: 0, -EINVAL (no table sfdisk writes) or -EIO.
 */
int blkalign_plan_write_sfdisk(const struct blkalign_plan *p, int only,
			       FILE *out)
{
	const struct blkalign_device *d;
	uint64_t lss;
	bool gpt, dos;

	if (!p || !out)
		return -EINVAL;
	d = p->device;
	gpt = d->scheme && !strcmp(d->scheme, "gpt");
	dos = d->scheme && !strcmp(d->scheme, "dos");
	if (!gpt && !dos)
		return -EINVAL;
	lss = (uint64_t)d->topology.logical_sector_size.value;
	fprintf(out, "label: %s\n", d->scheme);
	if (p->label_id)
		fprintf(out, "label-id: %s%s\n", dos ? "0x" : "", p->label_id);
	fprintf(out, "unit: sectors\nsector-size: %" PRIu64 "\n\n", lss);
	for (size_t i = 1; i < d->nlayers; i++) {
		const struct blkalign_layer *l = &d->layers[i];
		const struct blkalign_plan_part *pp = part_of(p, (int)i);
		uint64_t start = l->start, size = l->size;
		const char *type = sfdisk_type(l->type);

		if (l->kind != BLKALIGN_LAYER_PARTITION)
			continue;
		if (pp && pp->action != BLKALIGN_PLAN_IMPOSSIBLE &&
		    (!only || pp->number == only)) {
			start = pp->new_start;
			size = pp->new_size;
		}
		fprintf(out, "%s : start=%" PRIu64 ", size=%" PRIu64, l->name,
			start / lss, size / lss);
		if (type)
			fprintf(out, ", type=%s", type);
		if (gpt && pp && pp->uuid)
			fprintf(out, ", uuid=%s", pp->uuid);
		if (gpt && pp && pp->part_name && !strchr(pp->part_name, '"'))
			fprintf(out, ", name=\"%s\"", pp->part_name);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

static void put_s64(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static struct json_object *part_json(const struct blkalign_plan_part *pp,
				     double tput)
{
	struct json_object *o = json_object_new_object();
	struct json_object *cmds = json_object_new_array();

	put_str(o, "name", pp->name);
	put_s64(o, "number", pp->number);
	put_str(o, "action", blkalign_plan_action_name(pp->action));
	put_u64(o, "old_start", pp->old_start);
	put_u64(o, "old_size", pp->old_size);
	put_u64(o, "new_start", pp->new_start);
	put_u64(o, "new_size", pp->new_size);
	put_s64(o, "start_shift", (int64_t)(pp->new_start - pp->old_start));
	put_s64(o, "size_change", (int64_t)(pp->new_size - pp->old_size));
	put_str(o, "content", pp->content);
	if (pp->used_known)
		put_u64(o, "used_size", pp->used_size);
	else
		json_object_object_add(o, "used_size", NULL);
	put_u64(o, "limit", pp->limit);
	put_u64(o, "bytes_to_copy", pp->bytes_to_copy);
	json_object_object_add(
		o, "estimated_seconds",
		json_object_new_double(tput > 0 ? pp->bytes_to_copy / tput :
						  0));
	put_str(o, "reason", pp->reason);
	for (size_t c = 0; c < pp->ncommands; c++)
		json_object_array_add(cmds,
				      json_object_new_string(pp->commands[c]));
	json_object_object_add(o, "commands", cmds);
	put_u64(o, "findings_before", pp->findings_before);
	put_u64(o, "findings_after", pp->findings_after);
	put_str(o, "uuid", pp->uuid);
	put_str(o, "part_name", pp->part_name);
	return o;
}

static struct json_object *plan_json(const struct blkalign_plan *p,
				     int only, double tput)
{
	const struct blkalign_device *d = p->device;
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();

	put_str(o, "path", d->path);
	put_str(o, "name", d->name);
	put_str(o, "scheme", d->scheme);
	put_u64(o, "size", d->size);
	put_u64(o, "logical_sector_size",
		(uint64_t)d->topology.logical_sector_size.value);
	put_u64(o, "grain", p->grain);
	put_u64(o, "size_granularity", p->size_granularity);
	put_u64(o, "usable_end", p->usable_end);
	for (size_t k = 0; k < p->nparts; k++)
		if (!only || p->parts[k].number == only)
			json_object_array_add(arr,
					      part_json(&p->parts[k], tput));
	json_object_object_add(o, "partitions", arr);
	put_u64(o, "remaining_findings", p->remaining);
	return o;
}

/**
 * blkalign_plan_write_json: { schema_version, version,
 * throughput_bytes_per_second, devices: [ { path, ..., partitions: [] } ] }.
 * Returns: 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_plan_write_json(struct blkalign_plan *const *plans,
			     size_t nplans, int only, double tput, FILE *out)
{
	struct json_object *root, *arr;
	const char *text;
	int rc = 0;

	if ((!plans && nplans) || !out)
		return -EINVAL;
	root = json_object_new_object();
	arr = json_object_new_array();
	if (!root || !arr) {
		json_object_put(root);
		json_object_put(arr);
		return -ENOMEM;
	}
	put_u64(root, "schema_version", BLKALIGN_SCHEMA_VERSION);
	put_str(root, "version", BLKALIGN_VERSION);
	json_object_object_add(root, "throughput_bytes_per_second",
			       json_object_new_double(tput));
	for (size_t i = 0; i < nplans; i++)
		json_object_array_add(arr, plan_json(plans[i], only, tput));
	json_object_object_add(root, "devices", arr);
	text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		rc = -ENOMEM;
	else if (fputs(text, out) == EOF || fputc('\n', out) == EOF)
		rc = -EIO;
	json_object_put(root);
	return rc;
}
