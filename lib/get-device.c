/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get-device.c - the getters of the audit's results: a device, its layers,
 * findings, partition table and topology (check.c, scan/). Field meanings:
 * include/blkalign.h.
 */
#include "get.h"

/* Where each key's value is in the topology. */
#define K(key, field)     \
	[BLKALIGN_TOPO_## \
		key] = {#field, offsetof(struct blkalign_topology, field)}
static const struct ba_topology_field keys[] = {
	K(LOGICAL_SECTOR_SIZE, logical_sector_size),
	K(PHYSICAL_SECTOR_SIZE, physical_sector_size),
	K(MINIMUM_IO_SIZE, minimum_io_size),
	K(OPTIMAL_IO_SIZE, optimal_io_size),
	K(ALIGNMENT_OFFSET, alignment_offset),
	K(MAX_SEGMENTS, max_segments),
	K(MAX_SECTORS_KB, max_sectors_kb),
	K(MAX_SEGMENT_SIZE, max_segment_size),
	K(VIRT_BOUNDARY_MASK, virt_boundary_mask),
	K(ROTATIONAL, rotational),
	K(PAGE_SIZE, page_size),
	K(READ_AHEAD_KB, read_ahead_kb),
};
#undef K

int64_t blkalign_topology_get(const struct blkalign_topology *t,
			      enum blkalign_topology_key k,
			      enum blkalign_source *src)
{
	const struct blkalign_value *v;

	if (src)
		*src = BLKALIGN_SRC_NONE;
	if (!t || (size_t)k >= sizeof(keys) / sizeof(keys[0]))
		return 0;
	v = (const struct blkalign_value *)((const char *)t + keys[k].off);
	if (src)
		*src = v->source;
	return v->value;
}

const char *blkalign_topology_key_name(enum blkalign_topology_key k)
{
	return (size_t)k < sizeof(keys) / sizeof(keys[0]) ? keys[k].key : NULL;
}

BA_GET(topology, int64_t, optimal_io_size_raw);
BA_GET(topology, const char *, optimal_io_note);

/* Every finding code the library can emit, by index. */
size_t blkalign_finding_ncodes(void)
{
	return BA_NCODES;
}

const struct blkalign_code *blkalign_finding_code(size_t i)
{
	return i < BA_NCODES ? ba_code_row((enum ba_code)i) : NULL;
}

BA_GET(layer, const char *, name);
BA_GET(layer, enum blkalign_layer_kind, kind);
BA_GET(layer, int, number);
BA_GET(layer, const char *, scheme);
BA_GET(layer, const char *, type);
BA_GET(layer, uint64_t, start);
BA_GET(layer, uint64_t, size);
BA_GET(layer, uint32_t, soft_block_size);
BA_GET(layer, int, parent);
BA_GET(layer, bool, extended);
BA_GET(layer, bool, logical);
BA_GET(layer, int64_t, alignment_offset);
BA_GET(layer, const char *, version);
BA_GET(layer, uint32_t, unit);
BA_GET(layer, uint32_t, sector_size);
BA_GET(layer, int32_t, raid_level);
BA_GET(layer, uint32_t, raid_disks);
BA_GET(layer, uint32_t, raid_data_disks);
BA_GET(layer, uint64_t, raid_chunk);
BA_GET(layer, uint64_t, raid_stripe_width);
BA_GET(layer, uint64_t, data_offset);
BA_GET(layer, uint64_t, extent_size);
BA_GET(layer, uint64_t, fs_stride);
BA_GET(layer, uint64_t, fs_stripe_width);
BA_GET(layer, uint32_t, zfs_ashift);
BA_GET(layer, const char *, lower_device);
BA_GET(layer, uint64_t, lower_start);
BA_GET(layer, uint64_t, used_size);
BA_GET(layer, const char *, uuid);
BA_GET(layer, const char *, part_name);
BA_GET(layer, const char *, array);
BA_GET(layer, uint32_t, raid_member_physical);
BA_GET(layer, uint32_t, raid_members_misaligned);
BA_GET(layer, uint64_t, ebr);
BA_GET(layer, uint64_t, map_bytes);
BA_GET(layer, const char *, map_source);
BA_GET(layer, const char *, map_problem);

BA_GET(finding, const char *, code);
BA_GET(finding, enum blkalign_severity, severity);
BA_GET(finding, int, layer);
BA_GET(finding, const char *, message);
BA_GET(finding, const char *, explanation);
BA_GET(finding, const char *, fix);
BA_GET(finding, uint64_t, value);
BA_GET(finding, uint64_t, granularity);
BA_GET(finding, uint64_t, remainder);
BA_GET(finding, uint64_t, suggested);
BA_GET(finding, uint32_t, soft_block_size);
BA_GET(finding, uint64_t, request_cap);
BA_GET(finding, uint64_t, request_cap_aligned);

BA_GET(code, const char *, code);
BA_GET(code, enum blkalign_severity, severity);
BA_GET(code, const char *, summary);

BA_GET(table, const char *, id);
BA_GET(table, uint64_t, usable_start);
BA_GET(table, uint64_t, usable_end);
BA_GET(table, bool, usable_from_table);
BA_GET(table, const char *, gpt_primary);
BA_GET(table, const char *, gpt_backup);

BA_GET(device, const char *, path);
BA_GET(device, const char *, name);
BA_GET(device, bool, is_block_device);
BA_GET(device, uint64_t, size);
BA_GET_REF(device, const struct blkalign_topology *, topology, topology);
BA_GET(device, const char *, scheme);
BA_GET(device, uint64_t, bytes_read);
BA_GET(device, size_t, nlayers);
BA_GET_REF_AT(device, const struct blkalign_layer *, layer, layers, nlayers);
BA_GET(device, size_t, nfindings);
BA_GET_REF_AT(device, const struct blkalign_finding *, finding, findings,
	      nfindings);
BA_GET(device, size_t, nproblems);
BA_GET_AT(device, const char *, problem, problems, nproblems);
BA_GET(device, bool, failed);
BA_GET(device, const char *, whole_disk);
BA_GET(device, int, partition_number);
BA_GET_REF(device, const struct blkalign_table *, table, table);
BA_GET(device, const char *, image_format);
BA_GET(device, uint64_t, virtual_size);
BA_GET(device, uint32_t, cluster_size);
BA_GET(device, uint64_t, bytes_skipped);
BA_GET(device, const char *, image_reader);
