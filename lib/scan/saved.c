/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * saved.c - a report saved by `check --json` read back into device
 * records (check, plan and model --from): the scan of another time or
 * another host.  Only what the scan recorded is taken (topology, table,
 * layers, problems and the scan's facts); the findings are made again by
 * the rules, so a saved report is judged by this version's rules.
 * A file that is not such a report is refused with why; nothing in it is
 * trusted: every index and count is checked.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include <json-c/json.h>

#include "scan/scan.h"

/* The reader of one file: the report to fill and the first error. */
struct saved {
	struct blkalign_report *r;
	const char *file;
	char why[256];
};

__attribute__((format(printf, 2, 3))) static int bad(struct saved *s,
						     const char *fmt, ...)
{
	va_list ap;

	if (!s->why[0]) {
		va_start(ap, fmt);
		vsnprintf(s->why, sizeof(s->why), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* An integer member, or @def when it is absent or null. */
static int64_t num(struct json_object *o, const char *key, int64_t def)
{
	struct json_object *v = get(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		return def;
	return json_object_get_int64(v);
}

static uint64_t unum(struct json_object *o, const char *key)
{
	return (uint64_t)num(o, key, 0);
}

static bool flag(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

/* A string member copied into @d's pool, or NULL. */
static const char *str(struct ba_device *d, struct json_object *o,
		       const char *key)
{
	struct json_object *v = get(o, key);

	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	return ba_pool_strdup(&d->pool, json_object_get_string(v));
}

/* A string value, or "" for anything else. */
static const char *text(struct json_object *v)
{
	return v && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* The enum value whose name is @s (@name_of of 0..@n-1), or -1. */
static int enum_of(const char *(*name_of)(int), int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(name_of(i), s))
			return i;
	return -1;
}

static const char *kind_name(int k)
{
	return blkalign_layer_kind_name((enum blkalign_layer_kind)k);
}

static const char *source_name(int k)
{
	return blkalign_source_name((enum blkalign_source)k);
}

/* Byte counts beyond this are no disk's (2^62: no sum of two overflows). */
#define SAVED_MAX_BYTES ((uint64_t)1 << 62)

static bool pow2_in(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v <= hi && ba_is_pow2((uint64_t)v);
}

/*
 * A saved topology is what the scan leaves (ba_topology_finish): sector
 * and page sizes powers of two in the kernel's ranges, the rest positive
 * and bounded.  Anything else was not written by blkalign.
 */
static const char *bad_topology(const struct blkalign_topology *t)
{
	int64_t lss = t->logical_sector_size.value;
	int64_t pss = t->physical_sector_size.value;

	if (!pow2_in(lss, 512, 65536))
		return "logical_sector_size";
	if (!pow2_in(pss, lss, 16 * 1048576))
		return "physical_sector_size";
	if (t->minimum_io_size.value <= 0 ||
	    t->minimum_io_size.value > ((int64_t)1 << 30))
		return "minimum_io_size";
	if (t->optimal_io_size.value < 0 ||
	    t->optimal_io_size.value > ((int64_t)1 << 30) ||
	    t->optimal_io_size.value % pss)
		return "optimal_io_size";
	if (t->alignment_offset.value < -1 ||
	    t->alignment_offset.value > ((int64_t)1 << 30))
		return "alignment_offset";
	if (!pow2_in(t->page_size.value, 4096, 1048576))
		return "page_size";
	if (t->max_segments.value < 1 || t->max_segments.value > 65535)
		return "max_segments";
	if (t->max_sectors_kb.value < 1 ||
	    t->max_sectors_kb.value > ((int64_t)1 << 22))
		return "max_sectors_kb";
	if (t->max_segment_size.value < 512 ||
	    t->max_segment_size.value > UINT32_MAX)
		return "max_segment_size";
	if (t->virt_boundary_mask.value < 0 ||
	    t->virt_boundary_mask.value > UINT32_MAX)
		return "virt_boundary_mask";
	if (t->read_ahead_kb.value < 1 ||
	    t->read_ahead_kb.value > ((int64_t)1 << 22))
		return "read_ahead_kb";
	return NULL;
}

/* Layer numbers past what any prober reports. */
static const char *bad_layer(const struct blkalign_layer *l)
{
	const uint64_t g = (uint64_t)1 << 30;

	if (l->start > SAVED_MAX_BYTES || l->size > SAVED_MAX_BYTES ||
	    l->data_offset > SAVED_MAX_BYTES ||
	    l->used_size > SAVED_MAX_BYTES || l->lower_start > SAVED_MAX_BYTES)
		return "a byte count past 2^62";
	if (l->number < 0 || l->number > 65535)
		return "a partition number";
	if (l->unit > g || l->sector_size > g || l->raid_chunk > g ||
	    l->raid_stripe_width > SAVED_MAX_BYTES ||
	    l->extent_size > SAVED_MAX_BYTES || l->fs_stride > g ||
	    l->fs_stripe_width > SAVED_MAX_BYTES || l->zfs_ashift > 24)
		return "a stack unit past 1 GiB";
	if (l->raid_disks > 4096 || l->raid_data_disks > l->raid_disks ||
	    l->raid_level < -1 || l->raid_level > 10 ||
	    l->raid_member_physical > 65536 ||
	    l->raid_members_misaligned > l->raid_disks)
		return "RAID disks or level";
	return NULL;
}

static void topology(struct ba_device *d, struct json_object *o)
{
	struct blkalign_topology *t = &d->pub.topology;
	struct json_object *src = get(o, "sources");

	for (size_t i = 0; i < BA_TOPOLOGY_NFIELDS; i++) {
		const struct ba_topology_field *k = &ba_topology_fields[i];
		struct blkalign_value *v = (void *)((char *)t + k->off);
		struct json_object *s = get(src, k->key);
		int from =
			enum_of(source_name, BLKALIGN_SRC_FORMAT + 1, text(s));

		v->value = num(o, k->key, 0);
		v->source = get(o, k->key) && from > 0
				    ? (enum blkalign_source)from
				    : BLKALIGN_SRC_NONE;
	}
	t->optimal_io_size_raw = num(o, "optimal_io_size_raw", 0);
	t->optimal_io_note = str(d, o, "optimal_io_note");
}

static void table(struct ba_device *d, struct json_object *o)
{
	struct blkalign_table *t = &d->pub.table;
	struct json_object *u = get(o, "usable_source");

	if (!o || !json_object_is_type(o, json_type_object))
		return;
	t->id = str(d, o, "id");
	t->usable_start = unum(o, "usable_start");
	t->usable_end = unum(o, "usable_end");
	t->usable_from_table = u && !strcmp(text(u), "table");
	t->gpt_primary = str(d, o, "gpt_primary");
	t->gpt_backup = str(d, o, "gpt_backup");
}

static int layer(struct saved *s, struct ba_device *d, struct json_object *o)
{
	struct json_object *k = get(o, "kind"), *p = get(o, "parent");
	struct blkalign_layer *l;
	int kind = enum_of(kind_name, BLKALIGN_LAYER_TABLE + 1, text(k));
	int64_t v;

	if (kind < 0 || !json_object_is_type(get(o, "name"), json_type_string))
		return bad(s, "a layer without a known kind or a name");
	if ((kind == BLKALIGN_LAYER_DISK) != (d->nlayers == 0))
		return bad(s, "layer 0, and only it, must be the disk");
	l = ba_device_add_layer(d);
	if (!l)
		return -ENOMEM;
	l->kind = (enum blkalign_layer_kind)kind;
	l->name = str(d, o, "name");
	l->number = (int)num(o, "number", 0);
	l->scheme = kind == BLKALIGN_LAYER_DISK ? NULL : str(d, o, "scheme");
	l->type = str(d, o, "type");
	l->start = unum(o, "start");
	l->size = unum(o, "size");
	l->parent = -1;
	if (p && json_object_is_type(p, json_type_string)) {
		const char *name = text(p);

		/* a parent comes before its children */
		for (size_t i = 0; i + 1 < d->nlayers && l->parent < 0; i++)
			if (!strcmp(d->layers[i].name, name))
				l->parent = (int)i;
		if (l->parent < 0)
			return bad(s,
				   "layer '%s' names a parent before it "
				   "that is not there",
				   l->name);
	} else if (kind != BLKALIGN_LAYER_DISK) {
		return bad(s, "layer '%s' has no parent", l->name);
	}
	l->extended = flag(o, "extended");
	l->logical = flag(o, "logical");
	l->ebr = unum(o, "ebr");
	l->version = str(d, o, "version");
	l->unit = (uint32_t)num(o, "unit", 0);
	l->sector_size = (uint32_t)num(o, "sector_size", 0);
	l->raid_level = (int32_t)num(o, "raid_level", 0);
	l->raid_disks = (uint32_t)num(o, "raid_disks", 0);
	l->raid_data_disks = (uint32_t)num(o, "raid_data_disks", 0);
	l->raid_chunk = unum(o, "raid_chunk");
	l->raid_stripe_width = unum(o, "raid_stripe_width");
	/* out of range becomes UINT32_MAX, which bad_layer() refuses */
	v = num(o, "raid_member_physical_sector_size", 0);
	l->raid_member_physical =
		v >= 0 && v <= 65536 ? (uint32_t)v : UINT32_MAX;
	v = num(o, "raid_members_misaligned", 0);
	l->raid_members_misaligned =
		v >= 0 && v <= 4096 ? (uint32_t)v : UINT32_MAX;
	l->data_offset = unum(o, "data_offset");
	l->extent_size = unum(o, "extent_size");
	l->fs_stride = unum(o, "fs_stride");
	l->fs_stripe_width = unum(o, "fs_stripe_width");
	l->zfs_ashift = (uint32_t)num(o, "ashift", 0);
	l->lower_device = str(d, o, "lower_device");
	l->lower_start = unum(o, "lower_start");
	l->used_size = unum(o, "used_size");
	l->uuid = str(d, o, "uuid");
	l->part_name = str(d, o, "part_name");
	l->array = str(d, o, "array");
	return 0;
}

static int dos(struct saved *s, struct ba_device *d, struct json_object *o)
{
	struct json_object *v = get(o, "primary"), *st = get(o, "state");
	struct ba_dos_check *c;
	int state = name_index(ba_ebr_state_names, 4, text(st));

	if (!o || json_object_is_type(o, json_type_null))
		return 0;
	if (state < 0 || !json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != 4)
		return bad(s, "a dos walk without its state or 4 entries");
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->has_signature = flag(o, "has_signature");
	c->protective = flag(o, "protective");
	c->nprimary = (unsigned int)num(o, "nprimary", 0);
	c->nlogical = (unsigned int)num(o, "nlogical", 0);
	c->state = (enum ba_ebr_state)state;
	c->bad_lba = unum(o, "bad_lba");
	c->truncated = flag(o, "truncated");
	for (size_t i = 0; i < 4; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);

		c->primary[i].type = (uint8_t)num(e, "type", 0);
		c->primary[i].start = unum(e, "start");
		c->primary[i].sectors = unum(e, "sectors");
	}
	d->dos = c;
	return 0;
}

static int gpt_header(struct saved *s, struct ba_device *d,
		      struct json_object *o, struct ba_gpt_header *h)
{
	struct json_object *st = get(o, "state"), *v = get(o, "outside");
	int state = name_index(ba_gpt_state_names, 4, text(st));
	size_t n = json_object_is_type(v, json_type_array)
			   ? json_object_array_length(v)
			   : 0;

	if (state < 0)
		return bad(s, "a GPT header without a known state");
	h->state = (enum ba_gpt_state)state;
	h->why = str(d, o, "why");
	h->first_usable_lba = unum(o, "first_usable_lba");
	h->last_usable_lba = unum(o, "last_usable_lba");
	h->short_by = unum(o, "short_by");
	h->noutside = (uint32_t)num(o, "noutside", 0);
	if (n > 8 || n != (h->noutside < 8 ? h->noutside : 8))
		return bad(s, "a GPT header's entries outside do not match "
			      "their count");
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(v, k);

		h->outside[k].index = (uint32_t)num(e, "index", 0);
		h->outside[k].first_lba = unum(e, "first_lba");
		h->outside[k].last_lba = unum(e, "last_lba");
	}
	return 0;
}

static int gpt(struct saved *s, struct ba_device *d, struct json_object *o)
{
	struct ba_gpt_check *c;
	int rc;

	if (!o || json_object_is_type(o, json_type_null))
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	d->gpt = c;
	rc = gpt_header(s, d, get(o, "primary"), &c->primary);
	return rc ? rc : gpt_header(s, d, get(o, "backup"), &c->backup);
}

static int hex_id(const char *hex, uint8_t id[16])
{
	if (!hex || strlen(hex) != 32)
		return -1;
	for (int i = 0; i < 16; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		id[i] = (uint8_t)b;
	}
	return 0;
}

/* A dm device on a RAID-1: its start on each member's disk. */
static int mirrors(struct saved *s, struct ba_device *d, struct json_object *v)
{
	size_t n = json_object_is_type(v, json_type_array)
			   ? json_object_array_length(v)
			   : 0;

	if (!n)
		return 0;
	if (n > 4096)
		return bad(s, "a dm device with more than 4096 mirrors");
	d->dm.members = ba_pool_calloc(&d->pool, n, sizeof(*d->dm.members));
	if (!d->dm.members)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(v, k);
		struct ba_dm_member *m = &d->dm.members[k];

		m->disk = str(d, e, "disk");
		m->start = unum(e, "start");
		m->pss = unum(e, "physical_sector_size");
		m->ao = unum(e, "alignment_offset");
		if (!m->disk || m->start > SAVED_MAX_BYTES || m->pss > 65536 ||
		    m->ao > 65536)
			return bad(s, "a dm mirror without a disk or with "
				      "numbers out of range");
	}
	d->dm.nmembers = n;
	return 0;
}

static int markers(struct saved *s, struct ba_device *d, struct json_object *v)
{
	size_t n = json_object_is_type(v, json_type_array)
			   ? json_object_array_length(v)
			   : 0;

	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(v, k);
		struct json_object *l = get(e, "layer"), *id = get(e, "id");
		struct ba_fix_marker m;
		int i = -1;

		memset(&m, 0, sizeof(m));
		for (size_t j = 0; l && j < d->nlayers && i < 0; j++)
			if (!strcmp(d->layers[j].name, text(l)))
				i = (int)j;
		if (i < 0)
			return bad(s, "a fix marker on no layer");
		if (id && json_object_is_type(id, json_type_string)) {
			if (hex_id(json_object_get_string(id), m.id))
				return bad(s, "a fix marker id that is not "
					      "32 hex digits");
			m.has_id = true;
		}
		snprintf(m.what, sizeof(m.what), "%s", text(get(e, "what")));
		snprintf(m.cut, sizeof(m.cut), "%s", text(get(e, "cut")));
		if (ba_device_add_marker(d, i, &m))
			return -ENOMEM;
	}
	return 0;
}

static int scan_facts(struct saved *s, struct ba_device *d,
		      struct json_object *o)
{
	struct json_object *dm = get(o, "dm");
	int rc;

	if (!o)
		return bad(s, "a device without its \"scan\" facts (a report "
			      "of blkalign before 0.2)");
	d->md_array = flag(o, "md_array");
	rc = dos(s, d, get(o, "dos"));
	if (!rc)
		rc = gpt(s, d, get(o, "gpt"));
	if (!rc)
		rc = markers(s, d, get(o, "fix_markers"));
	if (!rc && dm && json_object_is_type(dm, json_type_object)) {
		d->dm.placed = true;
		d->dm.start = unum(dm, "start");
		d->dm.pss = unum(dm, "physical_sector_size");
		d->dm.ao = unum(dm, "alignment_offset");
		d->dm.disk = str(d, dm, "disk");
		d->dm.chunk = unum(dm, "raid_chunk");
		d->dm.stripe = unum(dm, "raid_stripe_width");
		d->dm.sector_size = (uint32_t)unum(dm, "crypt_sector_size");
		rc = mirrors(s, d, get(dm, "mirrors"));
	}
	return rc;
}

static int device(struct saved *s, struct ba_device *d, struct json_object *o)
{
	struct json_object *type = get(o, "type"), *v;
	const char *t = type ? json_object_get_string(type) : "";
	size_t n;
	int rc = 0;

	d->pub.path = str(d, o, "path");
	d->pub.name = str(d, o, "name");
	if (!d->pub.path || !d->pub.name)
		return bad(s, "a device without a path or a name");
	d->pub.is_block_device = !strcmp(t, "block");
	d->pub.failed = !strcmp(t, "unknown");
	d->pub.size = unum(o, "size");
	d->pub.scheme = str(d, o, "scheme");
	d->pub.bytes_read = unum(o, "bytes_read");
	/* absent from reports made before images were read through NBD */
	d->pub.image_format = str(d, o, "image_format");
	d->pub.image_reader = str(d, o, "image_reader"); /* absent: NULL */
	d->pub.virtual_size = unum(o, "virtual_size");
	d->pub.cluster_size = (uint32_t)unum(o, "cluster_size");
	d->pub.bytes_skipped = unum(o, "bytes_skipped"); /* absent: 0 */
	d->pub.whole_disk = str(d, o, "whole_disk");
	d->pub.partition_number = (int)num(o, "partition_number", 0);
	topology(d, get(o, "topology"));
	table(d, get(o, "table"));
	if (d->pub.size > SAVED_MAX_BYTES)
		return bad(s, "device '%s' is larger than 2^62 bytes",
			   d->pub.path);
	v = get(o, "problems");
	n = json_object_is_type(v, json_type_array)
		    ? json_object_array_length(v)
		    : 0;
	for (size_t k = 0; k < n; k++)
		ba_device_problem(d, "%s",
				  text(json_object_array_get_idx(v, k)));
	if (d->pub.failed)
		return 0;
	v = get(o, "layers");
	n = json_object_is_type(v, json_type_array)
		    ? json_object_array_length(v)
		    : 0;
	if (!n)
		return bad(s, "device '%s' has no layers", d->pub.path);
	if (bad_topology(&d->pub.topology))
		return bad(s,
			   "device '%s' has a topology no kernel reports (%s)",
			   d->pub.path, bad_topology(&d->pub.topology));
	for (size_t k = 0; k < n && !rc; k++)
		rc = layer(s, d, json_object_array_get_idx(v, k));
	for (size_t k = 0; k < d->nlayers && !rc; k++)
		if (bad_layer(&d->layers[k]))
			rc = bad(s, "layer '%s' has %s no scan records",
				 d->layers[k].name, bad_layer(&d->layers[k]));
	if (!rc)
		rc = scan_facts(s, d, get(o, "scan"));
	if (!rc)
		d->scanned = true;
	return rc;
}

static bool wanted(struct json_object *o, const char *target)
{
	struct json_object *p = get(o, "path"), *n = get(o, "name");

	return !target || (p && !strcmp(text(p), target)) ||
	       (n && !strcmp(text(n), target));
}

/**
 * ba_scan_saved_json: the devices of the parsed report @root (named
 * @file in messages), all or those whose path or name is @target, as new
 * device records of @r.  Returns as ba_scan_saved().
 */
int ba_scan_saved_json(struct blkalign_report *r, struct json_object *root,
		       const char *file, const char *target)
{
	struct saved s = {.r = r, .file = file};
	struct json_object *devs = get(root, "devices");
	size_t n, found = 0;
	int rc = 0;

	/* check's document is the same in schema_version 1 and 2 but for
	 * the keys 2 added beside it: a report saved by an older blkalign
	 * reads as well */
	if (num(root, "schema_version", 0) < 1 ||
	    num(root, "schema_version", 0) > BLKALIGN_SCHEMA_VERSION ||
	    !json_object_is_type(devs, json_type_array)) {
		ba_log(r->ctx,
		       "%s: not a report of '%s' "
		       "(schema_version 1 to %d with devices[])",
		       file, ba_word(r->ctx, BLKALIGN_WORD_CHECK_JSON),
		       BLKALIGN_SCHEMA_VERSION);
		return -EINVAL;
	}
	n = json_object_array_length(devs);
	for (size_t k = 0; k < n && !rc; k++) {
		struct json_object *o = json_object_array_get_idx(devs, k);
		struct ba_device *d;

		if (!wanted(o, target))
			continue;
		d = ba_report_add_device(r);
		if (!d)
			return -ENOMEM;
		d->saved = true;
		found++;
		s.why[0] = '\0';
		rc = device(&s, d, o);
		if (rc == -EINVAL) {
			ba_log(r->ctx, "%s: device %zu: %s", file, k, s.why);
			if (!d->pub.path)
				d->pub.path = ba_pool_strdup(&d->pool, file);
			if (!d->pub.name)
				d->pub.name = d->pub.path;
			ba_device_problem(
				d, "the saved report is not usable: %s", s.why);
			d->pub.failed = true;
			d->scanned = false;
		}
	}
	if (!rc && !found) {
		ba_log(r->ctx, "%s: no device '%s' in it", file,
		       target ? target : "");
		rc = -ENOENT;
	}
	return rc;
}

/**
 * ba_scan_saved: the devices of the report @file (all, or those whose
 * path or name is @target) as new device records of @r.
 * Returns: 0, -ENOENT when no device is @target, -EINVAL when @file is
 * not such a report (logged with why), -ENOMEM, or -errno.
 */
int ba_scan_saved(struct blkalign_report *r, const char *file,
		  const char *target)
{
	struct json_object *root;
	int rc;

	errno = 0;
	root = json_object_from_file(file);
	if (!root) {
		/* errno when the file could not be read at all, else it is
		 * not JSON */
		rc = errno && errno != EINVAL ? -errno : -EINVAL;
		ba_log(r->ctx, "%s: %s", file,
		       rc == -EINVAL ? "not a JSON document" : strerror(-rc));
		return rc;
	}
	rc = ba_scan_saved_json(r, root, file, target);
	json_object_put(root);
	return rc;
}
