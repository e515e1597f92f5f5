/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology.c - the geometry and queue limits of a device: from sysfs for
 * block devices (the BLK* ioctls as fallback), from options or defaults
 * for images.  The raw alignment_offset is kept, including the kernel's
 * -1 for a misaligned stack, which libblkid hides.
 */
#include <errno.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "scan/scan.h"

static void set(struct blkalign_value *v, int64_t value,
		enum blkalign_source src)
{
	v->value = value;
	v->source = src;
}

/*
 * Images: the --logical-sector-size... options, else the sector sizes
 * the image's format gave (set in @t before, with their source: image or
 * format), else kernel defaults.  A physical sector the format does not
 * record follows the logical one, as on a disk.
 */
void ba_topology_image(const struct blkalign_ctx *ctx,
		       struct blkalign_topology *t)
{
	const struct blkalign_image_geometry *g = &ctx->image;
	struct blkalign_value l = t->logical_sector_size;
	struct blkalign_value p = t->physical_sector_size;
	uint32_t lss, pss;

	if (g->logical_sector_size)
		l = (struct blkalign_value){g->logical_sector_size,
					    BLKALIGN_SRC_OPTION};
	else if (!l.source)
		l = (struct blkalign_value){512, BLKALIGN_SRC_ASSUMED};
	lss = (uint32_t)l.value;
	if (g->physical_sector_size)
		p = (struct blkalign_value){g->physical_sector_size,
					    BLKALIGN_SRC_OPTION};
	else if (!p.source || p.value < l.value)
		p = (struct blkalign_value){lss, BLKALIGN_SRC_ASSUMED};
	pss = (uint32_t)p.value;
	t->logical_sector_size = l;
	t->physical_sector_size = p;
	set(&t->minimum_io_size, g->minimum_io_size ? g->minimum_io_size : pss,
	    g->minimum_io_size ? BLKALIGN_SRC_OPTION : BLKALIGN_SRC_ASSUMED);
	set(&t->optimal_io_size, g->optimal_io_size,
	    g->optimal_io_size ? BLKALIGN_SRC_OPTION : BLKALIGN_SRC_ASSUMED);
	set(&t->alignment_offset, g->alignment_offset,
	    g->alignment_offset_set ? BLKALIGN_SRC_OPTION
				    : BLKALIGN_SRC_ASSUMED);
	set(&t->max_segments, BA_DEF_MAX_SEGMENTS, BLKALIGN_SRC_ASSUMED);
	set(&t->max_sectors_kb, BA_DEF_MAX_SECTORS_KB, BLKALIGN_SRC_ASSUMED);
	set(&t->max_segment_size, BA_DEF_MAX_SEGMENT_SIZE,
	    BLKALIGN_SRC_ASSUMED);
	set(&t->virt_boundary_mask, 0, BLKALIGN_SRC_ASSUMED);
	set(&t->read_ahead_kb, BA_DEF_READ_AHEAD_KB, BLKALIGN_SRC_ASSUMED);
}

struct sysfs_attr {
	const char *name;
	size_t field;
};

#define TOPO_FIELD(f) offsetof(struct blkalign_topology, f)

/* queue/ attributes of the whole disk, in libblkid's order of trust. */
static const struct sysfs_attr queue_attrs[] = {
	{"queue/logical_block_size", TOPO_FIELD(logical_sector_size)},
	{"queue/physical_block_size", TOPO_FIELD(physical_sector_size)},
	{"queue/minimum_io_size", TOPO_FIELD(minimum_io_size)},
	{"queue/optimal_io_size", TOPO_FIELD(optimal_io_size)},
	{"queue/max_segments", TOPO_FIELD(max_segments)},
	{"queue/max_sectors_kb", TOPO_FIELD(max_sectors_kb)},
	{"queue/max_segment_size", TOPO_FIELD(max_segment_size)},
	{"queue/virt_boundary_mask", TOPO_FIELD(virt_boundary_mask)},
	{"queue/rotational", TOPO_FIELD(rotational)},
	{"queue/read_ahead_kb", TOPO_FIELD(read_ahead_kb)},
};

/**
 * ba_topology_sysfs: read the queue limits of @diskdir and the
 * alignment_offset of @devdir (the partition itself, or the disk).
 * Returns: 0, or -errno when the disk has no readable queue/.
 */
int ba_topology_sysfs(const struct blkalign_ctx *ctx, const char *diskdir,
		      const char *devdir, struct blkalign_topology *t)
{
	size_t i, found = 0;
	int64_t v;

	(void)ctx;
	for (i = 0; i < sizeof(queue_attrs) / sizeof(queue_attrs[0]); i++) {
		struct blkalign_value *dst =
			(void *)((char *)t + queue_attrs[i].field);

		if (ba_sysfs_read_s64(diskdir, queue_attrs[i].name, &v) == 0) {
			set(dst, v, BLKALIGN_SRC_SYSFS);
			found++;
		}
	}
	/*
	 * The partition attribute is printed with %u by older kernels, so a
	 * misaligned stack (-1) reads as 4294967295 there.
	 */
	if (ba_sysfs_read_s64(devdir, "alignment_offset", &v) == 0) {
		if (v == 4294967295LL)
			v = -1;
		set(&t->alignment_offset, v, BLKALIGN_SRC_SYSFS);
	}
	return found ? 0 : -ENOENT;
}

/* Fill what sysfs did not give from the BLK* ioctls of an open device. */
void ba_topology_ioctl(int fd, struct blkalign_topology *t)
{
	unsigned int u;
	int i;

	if (!t->logical_sector_size.source && ioctl(fd, BLKSSZGET, &i) == 0)
		set(&t->logical_sector_size, i, BLKALIGN_SRC_IOCTL);
	if (!t->physical_sector_size.source && ioctl(fd, BLKPBSZGET, &u) == 0)
		set(&t->physical_sector_size, u, BLKALIGN_SRC_IOCTL);
	if (!t->minimum_io_size.source && ioctl(fd, BLKIOMIN, &u) == 0)
		set(&t->minimum_io_size, u, BLKALIGN_SRC_IOCTL);
	if (!t->optimal_io_size.source && ioctl(fd, BLKIOOPT, &u) == 0)
		set(&t->optimal_io_size, u, BLKALIGN_SRC_IOCTL);
	if (!t->alignment_offset.source && ioctl(fd, BLKALIGNOFF, &i) == 0)
		set(&t->alignment_offset, i, BLKALIGN_SRC_IOCTL);
	if (!t->max_sectors_kb.source) {
		unsigned short sect;

		if (ioctl(fd, BLKSECTGET, &sect) == 0)
			set(&t->max_sectors_kb, sect / 2, BLKALIGN_SRC_IOCTL);
	}
}

/*
 * Sanity: sector sizes must be powers of two with physical >= logical
 * (util-linux once stored the disk sequence number as the physical sector
 * size); min I/O defaults to the physical sector; optimal I/O is ignored
 * the way libfdisk ignores it.
 */
void ba_topology_finish(const struct blkalign_ctx *ctx,
			struct blkalign_topology *t)
{
	int64_t lss, pss;

	if (!ba_is_pow2(t->logical_sector_size.value) ||
	    t->logical_sector_size.value < 512)
		set(&t->logical_sector_size, 512, BLKALIGN_SRC_ASSUMED);
	lss = t->logical_sector_size.value;
	if (!ba_is_pow2(t->physical_sector_size.value) ||
	    t->physical_sector_size.value < lss)
		set(&t->physical_sector_size, lss, BLKALIGN_SRC_ASSUMED);
	pss = t->physical_sector_size.value;
	if (t->minimum_io_size.value <= 0)
		set(&t->minimum_io_size, pss, t->physical_sector_size.source);

	t->optimal_io_size_raw = t->optimal_io_size.value;
	if (t->optimal_io_size.value == BA_BOGUS_OPT_IO) {
		t->optimal_io_note = "33553920 (32 MiB - 512) is a known "
				     "controller error";
		t->optimal_io_size.value = 0;
	} else if (t->optimal_io_size.value < 0 ||
		   t->optimal_io_size.value % pss) {
		t->optimal_io_note = "not a multiple of the physical sector "
				     "size";
		t->optimal_io_size.value = 0;
	}
	if (!t->alignment_offset.source)
		set(&t->alignment_offset, 0, BLKALIGN_SRC_ASSUMED);
	if (!t->max_segments.source)
		set(&t->max_segments, BA_DEF_MAX_SEGMENTS,
		    BLKALIGN_SRC_ASSUMED);
	if (!t->max_sectors_kb.source)
		set(&t->max_sectors_kb, BA_DEF_MAX_SECTORS_KB,
		    BLKALIGN_SRC_ASSUMED);
	if (!t->max_segment_size.source)
		set(&t->max_segment_size, BA_DEF_MAX_SEGMENT_SIZE,
		    BLKALIGN_SRC_ASSUMED);
	if (t->read_ahead_kb.value <= 0 || t->read_ahead_kb.value > UINT32_MAX)
		set(&t->read_ahead_kb, BA_DEF_READ_AHEAD_KB,
		    BLKALIGN_SRC_ASSUMED);
	set(&t->page_size, ctx->page_size, BLKALIGN_SRC_HOST);
}

const char *blkalign_source_name(enum blkalign_source s)
{
	switch (s) {
	case BLKALIGN_SRC_ASSUMED:
		return "assumed";
	case BLKALIGN_SRC_OPTION:
		return "option";
	case BLKALIGN_SRC_SYSFS:
		return "sysfs";
	case BLKALIGN_SRC_IOCTL:
		return "ioctl";
	case BLKALIGN_SRC_HOST:
		return "host";
	case BLKALIGN_SRC_IMAGE:
		return "image";
	case BLKALIGN_SRC_FORMAT:
		return "format";
	case BLKALIGN_SRC_NONE:
		break;
	}
	return "unknown";
}
