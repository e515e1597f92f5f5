/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-out.c - a realignment plan written out: as an sfdisk script of
 * the target layout (sfdisk(8) "INPUT FORMATS"), and as JSON through
 * json-c like json.c (snake_case keys, byte counts as integers, a
 * schema_version; docs/plan.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
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

static struct json_object *part_json(const struct blkalign_plan_part *pp,
				     double tput)
{
	struct json_object *o = json_object_new_object();
	struct json_object *cmds = json_object_new_array();

	ba_json_str(o, "name", pp->name);
	ba_json_s64(o, "number", pp->number);
	ba_json_str(o, "action", blkalign_plan_action_name(pp->action));
	ba_json_u64(o, "old_start", pp->old_start);
	ba_json_u64(o, "old_size", pp->old_size);
	ba_json_u64(o, "new_start", pp->new_start);
	ba_json_u64(o, "new_size", pp->new_size);
	ba_json_s64(o, "start_shift", (int64_t)(pp->new_start - pp->old_start));
	ba_json_s64(o, "size_change", (int64_t)(pp->new_size - pp->old_size));
	ba_json_str(o, "content", pp->content);
	if (pp->used_known)
		ba_json_u64(o, "used_size", pp->used_size);
	else
		json_object_object_add(o, "used_size", NULL);
	ba_json_u64(o, "limit", pp->limit);
	ba_json_u64(o, "bytes_to_copy", pp->bytes_to_copy);
	ba_json_str(o, "map_source", pp->map_source);
	ba_json_str(o, "map_problem", pp->map_problem);
	json_object_object_add(
		o, "estimated_seconds",
		ba_json_new_double(tput > 0 ? pp->bytes_to_copy / tput : 0));
	ba_json_str(o, "reason", pp->reason);
	for (size_t c = 0; c < pp->ncommands; c++)
		json_object_array_add(cmds,
				      json_object_new_string(pp->commands[c]));
	json_object_object_add(o, "commands", cmds);
	ba_json_u64(o, "findings_before", pp->findings_before);
	ba_json_u64(o, "findings_after", pp->findings_after);
	ba_json_str(o, "uuid", pp->uuid);
	ba_json_str(o, "part_name", pp->part_name);
	return o;
}

static struct json_object *plan_json(const struct blkalign_plan *p, int only,
				     double tput)
{
	const struct blkalign_device *d = p->device;
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();

	ba_json_str(o, "path", d->path);
	ba_json_str(o, "name", d->name);
	ba_json_str(o, "scheme", d->scheme);
	ba_json_u64(o, "size", d->size);
	json_object_object_add(o, "topology", ba_json_topology(&d->topology));
	/* schema_version 1's: topology.logical_sector_size */
	ba_json_u64(o, "logical_sector_size",
		    (uint64_t)d->topology.logical_sector_size.value);
	ba_json_u64(o, "grain", p->grain);
	ba_json_u64(o, "size_granularity", p->size_granularity);
	ba_json_u64(o, "usable_end", p->usable_end);
	for (size_t k = 0; k < p->nparts; k++)
		if (!only || p->parts[k].number == only)
			json_object_array_add(arr,
					      part_json(&p->parts[k], tput));
	json_object_object_add(o, "partitions", arr);
	ba_json_u64(o, "remaining_findings", p->remaining);
	return o;
}

/**
 * blkalign_plan_write_json: { schema_version, version,
 * throughput_bytes_per_second, devices: [ { path, ..., partitions: [] } ] }.
 * Returns: 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_plan_write_json(struct blkalign_plan *const *plans, size_t nplans,
			     int only, double tput, FILE *out)
{
	struct json_object *root, *arr;

	if ((!plans && nplans) || !out)
		return -EINVAL;
	if (ba_json_root_array(&root, &arr, "plan"))
		return -ENOMEM;
	json_object_object_add(root, "throughput_bytes_per_second",
			       ba_json_new_double(tput));
	for (size_t i = 0; i < nplans; i++)
		json_object_array_add(arr, plan_json(plans[i], only, tput));
	json_object_object_add(root, "devices", arr);
	return ba_json_write(root, out);
}
