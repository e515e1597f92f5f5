/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model-json.c - `model` results as JSON, through json-c like json.c:
 * snake_case keys, byte counts as integers, a schema_version, keys only
 * ever added (docs/model.md).
 */
#include <errno.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "analyze/analyze.h"
#include "out/out.h"

/* A ratio, or null when the aligned count is 0 and the actual is not. */
static void put_ratio(struct json_object *o, const char *k, uint64_t a,
		      uint64_t b)
{
	double r = blkalign_model_ratio(a, b);

	json_object_object_add(o, k, (b || !a) ? ba_json_new_double(r) : NULL);
}

static struct json_object *cost_json(const struct blkalign_model_cost *c,
				     bool raid)
{
	struct json_object *o = json_object_new_object();

	ba_json_u64(o, "bytes", c->bytes);
	ba_json_u64(o, "ios", c->ios);
	ba_json_u64(o, "bios", c->bios);
	ba_json_u64(o, "soft_block_size", c->soft_block_size);
	ba_json_u64(o, "request_cap", c->request_cap);
	ba_json_u64(o, "request_cap_min", c->request_cap_min);
	ba_json_u64(o, "request_cap_max", c->request_cap_max);
	ba_json_u64(o, "requests", c->requests);
	ba_json_u64(o, "request_bytes", c->request_bytes);
	ba_json_requests(o, &(struct ba_json_requests){
				    .requests = c->requests,
				    .bytes = c->request_bytes,
				    .max = c->request_max,
				    .min = c->request_min,
				    .sizes = c->sizes,
				    .nsizes = c->nsizes,
				    .sizes_other = c->sizes_other,
			    });
	ba_json_u64(o, "physical_sectors", c->physical_sectors);
	ba_json_u64(o, "partial_requests", c->partial_requests);
	ba_json_u64(o, "rmw", c->rmw);
	if (raid) {
		ba_json_u64(o, "chunk_straddles", c->chunk_straddles);
		ba_json_u64(o, "raid_stripes", c->raid_stripes);
		ba_json_u64(o, "raid_full_stripes", c->raid_full_stripes);
		ba_json_u64(o, "raid_rmw_stripes", c->raid_rmw_stripes);
		ba_json_u64(o, "raid_rcw_stripes", c->raid_rcw_stripes);
		ba_json_u64(o, "raid_reads", c->raid_reads);
		ba_json_u64(o, "raid_writes", c->raid_writes);
		ba_json_u64(o, "raid_member_rmw", c->raid_member_rmw);
	}
	return o;
}

static struct json_object *
geometry_json(const struct blkalign_model_geometry *g)
{
	struct json_object *o = json_object_new_object();

	ba_json_u64(o, "logical_sector_size", g->logical_sector_size);
	ba_json_u64(o, "physical_sector_size", g->physical_sector_size);
	ba_json_u64(o, "minimum_io_size", g->minimum_io_size);
	ba_json_u64(o, "optimal_io_size", g->optimal_io_size);
	ba_json_u64(o, "alignment_offset", g->alignment_offset);
	ba_json_u64(o, "max_segments", g->max_segments);
	ba_json_u64(o, "max_sectors_kb", g->max_sectors_kb);
	ba_json_u64(o, "max_segment_size", g->max_segment_size);
	ba_json_u64(o, "virt_boundary_mask", g->virt_boundary_mask);
	ba_json_u64(o, "page_size", g->page_size);
	ba_json_u64(o, "read_ahead_kb", g->read_ahead_kb);
	return o;
}

static struct json_object *layer_json(const char *name,
				      const struct blkalign_model_layer *l)
{
	struct json_object *o = json_object_new_object();

	if (name)
		ba_json_str(o, "name", name);
	ba_json_u64(o, "start", l->start);
	ba_json_u64(o, "size", l->length);
	if (l->raid_disks) {
		json_object_object_add(o, "raid_level",
				       json_object_new_int(l->raid_level));
		ba_json_u64(o, "raid_disks", l->raid_disks);
		ba_json_u64(o, "raid_chunk", l->raid_chunk);
		if (l->raid_member_physical) {
			ba_json_u64(o, "raid_member_physical_sector_size",
				    l->raid_member_physical);
			ba_json_u64(o, "raid_members_misaligned",
				    l->raid_members_misaligned);
		}
	}
	return o;
}

static struct json_object *model_json(const char *name,
				      const struct blkalign_model *m)
{
	struct json_object *o = json_object_new_object();
	struct json_object *w = json_object_new_object();
	struct json_object *r = json_object_new_object();
	const struct blkalign_model_cost *a = &m->cost, *b = &m->cost_aligned;
	bool raid = m->actual.raid_disks != 0;

	ba_json_str(w, "name", m->workload.name);
	ba_json_str(w, "direction",
		    m->workload.dir == BLKALIGN_IO_WRITE ? "write" : "read");
	ba_json_str(w, "rw", /* schema_version 1's direction */
		    m->workload.dir == BLKALIGN_IO_WRITE ? "write" : "read");
	ba_json_str(w, "pattern",
		    m->workload.pattern == BLKALIGN_IO_RANDOM ? "rand" : "seq");
	ba_json_str(w, "path",
		    m->workload.path == BLKALIGN_IO_DIRECT ? "direct"
							   : "buffered");
	ba_json_u64(w, "io_size", m->workload.io_size);
	ba_json_u64(w, "total", m->workload.total);

	put_ratio(r, "requests", a->requests, b->requests);
	put_ratio(r, "physical_sectors", a->physical_sectors,
		  b->physical_sectors);
	put_ratio(r, "device_ios", a->requests + a->rmw, b->requests + b->rmw);
	if (raid)
		put_ratio(r, "raid_ios", a->raid_reads + a->raid_writes,
			  b->raid_reads + b->raid_writes);

	json_object_object_add(o, "layer", layer_json(name, &m->actual));
	json_object_object_add(o, "aligned_layer",
			       layer_json(NULL, &m->aligned));
	ba_json_str(o, "kernel", blkalign_kernel_name(m->kernel));
	json_object_object_add(o, "workload", w);
	json_object_object_add(o, "actual", cost_json(a, raid));
	json_object_object_add(o, "aligned", cost_json(b, raid));
	json_object_object_add(o, "ratios", r);
	return o;
}

/**
 * blkalign_model_write_json: the models of one run as one document:
 * { schema_version, version, command, path, topology (and schema_version
 * 1's target and geometry), models: [ { layer,
 * aligned_layer, kernel, workload, actual, aligned, ratios } ] }.
 * Returns: 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_model_write_json(const char *target,
			      const struct blkalign_model_geometry *g,
			      const char *const *layer_names,
			      const struct blkalign_model *const *models,
			      size_t nmodels, FILE *out)
{
	struct blkalign_model_geometry geom;
	struct json_object *root, *arr, *topo;

	if (ba_model_geometry_in(&geom, g) || (!models && nmodels) || !out)
		return -EINVAL;
	if (ba_json_root_array(&root, &arr, "model"))
		return -ENOMEM;
	ba_json_str(root, "path", target);
	topo = geometry_json(&geom);
	json_object_object_add(root, "topology", topo);
	/* schema_version 1's names of the same: path, topology */
	ba_json_str(root, "target", target);
	json_object_object_add(root, "geometry", json_object_get(topo));
	for (size_t i = 0; i < nmodels; i++)
		json_object_array_add(
			arr, model_json(layer_names ? layer_names[i] : NULL,
					models[i]));
	json_object_object_add(root, "models", arr);
	return ba_json_write(root, out);
}
