/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-json.c - `trace` results as JSON: the block requests tracefs saw,
 * per direction, with sizes, alignment and latency (docs/model.md), and
 * per extent of the disks below ("below").
 */
#include <errno.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"

static struct json_object *dir_json(const struct blkalign_trace_dir *d)
{
	struct json_object *o = json_object_new_object();
	struct json_object *h = json_object_new_array();
	struct json_object *lat = json_object_new_object();

	ba_json_u64(o, "requests", d->requests);
	ba_json_u64(o, "request_bytes", d->bytes);
	ba_json_u64(o, "bytes",
		    d->bytes); /* schema_version 1's request_bytes */
	ba_json_requests(o, &(struct ba_json_requests){
				    .requests = d->requests,
				    .bytes = d->bytes,
				    .max = d->request_max,
				    .min = d->request_min,
				    .sizes = d->sizes,
				    .nsizes = d->nsizes,
				    .sizes_other = d->sizes_other,
			    });
	/* power-of-two buckets of sectors: [2^i, 2^(i+1)) */
	for (size_t i = 0; i < 32; i++) {
		struct json_object *b;

		if (!d->hist_log2[i])
			continue;
		b = json_object_new_object();
		ba_json_u64(b, "sectors_from", (uint64_t)1 << i);
		ba_json_u64(b, "sectors_to", ((uint64_t)1 << (i + 1)) - 1);
		ba_json_u64(b, "count", d->hist_log2[i]);
		json_object_array_add(h, b);
	}
	json_object_object_add(o, "histogram", h);
	ba_json_u64(o, "off_physical", d->off_physical);
	ba_json_u64(o, "off_4k_in_layer", d->off_page_in_layer);
	ba_json_u64(o, "partial_requests", d->partial_requests);
	ba_json_u64(o, "rmw", d->rmw);
	ba_json_u64(o, "physical_sectors", d->physical_sectors);
	ba_json_u64(lat, "completed", d->completed);
	ba_json_u64(lat, "p50_ns", d->lat_p50_ns);
	ba_json_u64(lat, "p90_ns", d->lat_p90_ns);
	ba_json_u64(lat, "p99_ns", d->lat_p99_ns);
	ba_json_u64(lat, "max_ns", d->lat_max_ns);
	json_object_object_add(o, "latency", lat);
	return o;
}

/* The extents on the disks below and what reached each. */
static struct json_object *below_json(const struct blkalign_trace_summary *s)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < s->nbelow; i++) {
		const struct blkalign_trace_below *b = &s->below[i];
		struct json_object *o = json_object_new_object();
		struct json_object *r = json_object_new_object();
		struct json_object *w = json_object_new_object();
		char dev[32];

		snprintf(dev, sizeof(dev), "%u:%u", b->major, b->minor);
		ba_json_str(o, "name", b->name);
		ba_json_str(o, "dev", dev);
		ba_json_u64(o, "major", b->major);
		ba_json_u64(o, "minor", b->minor);
		ba_json_u64(o, "start", b->start);
		ba_json_u64(o, "size", b->size);
		ba_json_u64(o, "layer_offset", b->layer_offset);
		ba_json_u64(o, "physical_sector_size", b->physical_sector_size);
		ba_json_u64(o, "alignment_offset", b->alignment_offset);
		ba_json_u64(r, "requests", b->read_requests);
		ba_json_u64(r, "request_bytes", b->read_bytes);
		ba_json_u64(r, "bytes", b->read_bytes); /* v1's */
		ba_json_u64(w, "requests", b->write_requests);
		ba_json_u64(w, "request_bytes", b->write_bytes);
		ba_json_u64(w, "bytes", b->write_bytes); /* v1's */
		json_object_object_add(o, "read", r);
		json_object_object_add(o, "write", w);
		ba_json_u64(o, "off_physical", b->off_physical);
		ba_json_u64(o, "partial_requests", b->partial_requests);
		json_object_array_add(a, o);
	}
	return a;
}

/* The traced disk's topology: null values when unknown (a replayed file
 * without its header line). */
static struct json_object *topology_json(const struct blkalign_trace_summary *s)
{
	struct json_object *o = json_object_new_object();
	bool known = s->logical_sector_size != 0;

	json_object_object_add(
		o, "logical_sector_size",
		known ? json_object_new_uint64(s->logical_sector_size) : NULL);
	json_object_object_add(
		o, "physical_sector_size",
		known ? json_object_new_uint64(s->physical_sector_size) : NULL);
	json_object_object_add(
		o, "alignment_offset",
		known ? json_object_new_uint64(s->alignment_offset) : NULL);
	return o;
}

static struct json_object *
directions_json(const struct blkalign_trace_summary *s)
{
	struct json_object *dirs = json_object_new_object();

	json_object_object_add(dirs, "read", dir_json(&s->read));
	json_object_object_add(dirs, "write", dir_json(&s->write));
	json_object_object_add(dirs, "discard", dir_json(&s->discard));
	json_object_object_add(dirs, "flush", dir_json(&s->flush));
	json_object_object_add(dirs, "other", dir_json(&s->other));
	return dirs;
}

/**
 * ba_trace_summary_write_json: trace's summary @s (act/trace.c's
 * blkalign_trace_write_json) as one document.
 * Returns: 0, -EINVAL, -ENOMEM or -EIO.
 */
int ba_trace_summary_write_json(const struct blkalign_trace_summary *s,
				FILE *out)
{
	struct json_object *root, *dirs;

	if (!s || !out)
		return -EINVAL;
	root = ba_json_root("trace");
	if (!root)
		return -ENOMEM;
	ba_json_str(root, "path", s->device);
	json_object_object_add(root, "topology", topology_json(s));
	/* schema_version 1's names: device (path), the flat sector sizes
	 * (topology: 0 where it says null), requests (directions) */
	ba_json_str(root, "device", s->device);
	ba_json_u64(root, "major", s->major);
	ba_json_u64(root, "minor", s->minor);
	ba_json_u64(root, "layer_start", s->layer_start);
	ba_json_u64(root, "layer_size", s->layer_size);
	ba_json_u64(root, "logical_sector_size", s->logical_sector_size);
	ba_json_u64(root, "physical_sector_size", s->physical_sector_size);
	ba_json_u64(root, "alignment_offset", s->alignment_offset);
	ba_json_seconds(root, "seconds", s->seconds);
	ba_json_seconds(root, "event_seconds", s->event_seconds);
	ba_json_u64(root, "events", s->events);
	ba_json_u64(root, "lost_events", s->lost_events);
	ba_json_u64(root, "unmatched_completions", s->unmatched);
	dirs = directions_json(s);
	json_object_object_add(root, "directions", dirs);
	json_object_object_add(root, "requests", json_object_get(dirs));
	json_object_object_add(root, "below", below_json(s));
	return ba_json_write(root, out);
}
