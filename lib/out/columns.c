/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.c - the columns of check's tables, defined once: the layer
 * table's (chosen with -o; each named after the JSON key of the layer
 * object that holds the same value, upper-case) and the topology's, with
 * how each layer's cell is written.  report-text.c fills the tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "columns.h"
#include "out/out.h"

#define NUM SCOLS_FL_RIGHT

/*
 * In BA_LCOL_* order.  Only VERDICT and DETAIL give way to a narrow
 * width (a relative width hint, as libsmartcols reduces) and they wrap
 * onto more lines; every other column keeps its width, so a name is
 * never cut: a line too long for the width just is.
 */
const struct ba_column ba_layer_columns[BA_LCOL_COUNT] = {
	{"NAME", "layer name (JSON name), drawn as a tree", 0, SCOLS_FL_TREE,
	 true},
	{"KIND", "disk, partition, md, lvm, luks, filesystem... (JSON kind)", 0,
	 0, true},
	{"START", "first logical sector (JSON start: the same, in bytes)", 0,
	 NUM, true},
	{"END", "last logical sector", 0, NUM, true},
	{"SIZE", "size, lsblk-like or in bytes (JSON size)", 0, NUM, true},
	{"SOFT_BLOCK_SIZE", "the kernel's soft block size of the device", 0,
	 NUM, true},
	{"ALIGNMENT_OFFSET", "the kernel's alignment offset, bytes", 0, NUM,
	 true},
	{"VERDICT", "the codes of the layer's findings, or ok", 0.3,
	 SCOLS_FL_WRAP, true},
	{"DETAIL", "what a stack layer is: md level and chunk, LVM extent...",
	 0.3, SCOLS_FL_WRAP, true},
	{"NUMBER", "partition number", 0, NUM, false},
	{"SCHEME", "the partition table holding it (dos, gpt...)", 0, 0, false},
	{"TYPE", "partition type or format", 0, 0, false},
	{"PARENT", "the layer below", 0, 0, false},
	{"UUID", "the format's UUID", 0, 0, false},
	{"PART_NAME", "GPT partition name", 0, 0, false},
	{"USED_SIZE", "bytes the contents use (filesystems read)", 0, NUM,
	 false},
};

const struct ba_column ba_topology_columns[BA_TCOL_COUNT] = {
	{"TOPOLOGY", "the value", 0, 0, true},
	{"VALUE", "bytes, or a count", 0, NUM, true},
	{"SOURCE", "where the value came from", 0, 0, true},
};

/* check's layer table: blkalign_text_table_column of
 * BLKALIGN_TEXT_TABLE_LAYERS. */
int blkalign_text_column(size_t i, const char **name, const char **help,
			 bool *dflt)
{
	return blkalign_text_table_column(BLKALIGN_TEXT_TABLE_LAYERS, i, name,
					  help, dflt);
}

int blkalign_text_columns_check(const char *list, const char **bad,
				size_t *badlen)
{
	return blkalign_text_table_columns_check(BLKALIGN_TEXT_TABLE_LAYERS,
						 list, bad, badlen);
}

/* What a stack layer is, in a few words: "md 1.2 raid5, chunk 128K". */
static void detail(const struct blkalign_layer *l, char *buf, size_t len)
{
	char a[16], b[16];

	if (l->lower_device) {
		snprintf(buf, len, "%s on %s at byte %" PRIu64,
			 l->type ? l->type : "dm", l->lower_device,
			 l->lower_start);
		return;
	}
	if (l->raid_disks) {
		blkalign_size_format(l->raid_chunk, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		blkalign_size_format(l->raid_stripe_width, BLKALIGN_SIZE_LSBLK,
				     b, sizeof(b));
		snprintf(buf, len,
			 "md %s raid%d, %u disks, chunk %s, stripe %s",
			 l->version ? l->version : "?", l->raid_level,
			 l->raid_disks, l->raid_chunk ? a : "-",
			 l->raid_stripe_width ? b : "-");
		return;
	}
	switch (l->kind) {
	case BLKALIGN_LAYER_LVM:
		blkalign_size_format(l->data_offset, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		blkalign_size_format(l->extent_size, BLKALIGN_SIZE_LSBLK, b,
				     sizeof(b));
		snprintf(buf, len, "LVM2 PV, pe_start %s, extent %s", a,
			 l->extent_size ? b : "-");
		break;
	case BLKALIGN_LAYER_LUKS:
		blkalign_size_format(l->data_offset, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		snprintf(buf, len, "LUKS%s, payload at %s, sector %u",
			 l->version ? l->version : "", a,
			 l->unit ? l->unit : 512);
		break;
	case BLKALIGN_LAYER_ZFS:
		snprintf(buf, len, "zfs, ashift %u", l->zfs_ashift);
		break;
	case BLKALIGN_LAYER_FILESYSTEM:
		blkalign_size_format(l->fs_stride, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		blkalign_size_format(l->fs_stripe_width, BLKALIGN_SIZE_LSBLK, b,
				     sizeof(b));
		snprintf(buf, len, "%s, block %u%s%s%s%s",
			 l->type ? l->type : "?", l->unit,
			 l->fs_stride ? ", stride " : "", l->fs_stride ? a : "",
			 l->fs_stripe_width ? "/" : "",
			 l->fs_stripe_width ? b : "");
		break;
	default:
		buf[0] = '\0';
	}
}

/*
 * The text of column @id for layer @i of @d into @buf; "" when the
 * layer has no such value.  VERDICT is the caller's (it knows the
 * findings of each layer).
 */
void ba_layer_cell(const struct blkalign_device *d, size_t i, int id,
		   unsigned int flags, char *buf, size_t len)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t lss = (uint64_t)d->topology.logical_sector_size.value;
	uint64_t sectors, first;
	const char *s;
	/* a stack layer has no soft block of its own */
	bool blockdev = l->kind <= BLKALIGN_LAYER_BSD;

	if (!lss)
		lss = BA_SECTOR;
	sectors = l->size / lss;
	first = l->start / lss;
	buf[0] = '\0';
	switch (id) {
	case BA_LCOL_NAME:
		snprintf(buf, len, "%s", l->name ? l->name : "");
		break;
	case BA_LCOL_KIND:
		snprintf(buf, len, "%s", blkalign_layer_kind_name(l->kind));
		break;
	case BA_LCOL_START:
		snprintf(buf, len, "%" PRIu64, first);
		break;
	case BA_LCOL_END:
		snprintf(buf, len, "%" PRIu64,
			 sectors ? first + sectors - 1 : first);
		break;
	case BA_LCOL_SIZE:
		ba_text_size(l->size, flags, buf, len);
		break;
	case BA_LCOL_SOFT_BLOCK_SIZE:
		if (blockdev)
			snprintf(buf, len, "%u", l->soft_block_size);
		else
			snprintf(buf, len, "-");
		break;
	case BA_LCOL_ALIGNMENT_OFFSET:
		if (blockdev)
			snprintf(buf, len, "%" PRId64, l->alignment_offset);
		else
			snprintf(buf, len, "-");
		break;
	case BA_LCOL_DETAIL:
		detail(l, buf, len);
		break;
	case BA_LCOL_NUMBER:
		if (l->kind == BLKALIGN_LAYER_PARTITION ||
		    l->kind == BLKALIGN_LAYER_BSD)
			snprintf(buf, len, "%d", l->number);
		break;
	case BA_LCOL_SCHEME:
		s = l->kind == BLKALIGN_LAYER_DISK ? d->scheme : l->scheme;
		snprintf(buf, len, "%s", s ? s : "");
		break;
	case BA_LCOL_TYPE:
		snprintf(buf, len, "%s", l->type ? l->type : "");
		break;
	case BA_LCOL_PARENT:
		if (l->parent >= 0 && (size_t)l->parent < d->nlayers)
			snprintf(buf, len, "%s", d->layers[l->parent].name);
		break;
	case BA_LCOL_UUID:
		snprintf(buf, len, "%s", l->uuid ? l->uuid : "");
		break;
	case BA_LCOL_PART_NAME:
		snprintf(buf, len, "%s", l->part_name ? l->part_name : "");
		break;
	case BA_LCOL_USED_SIZE:
		if (l->used_size)
			ba_text_size(l->used_size, flags, buf, len);
		break;
	}
}
