/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack.c - what each partition (or the whole disk) holds: libblkid says
 * which signature is there, our bounded parsers (probe/<format>.c) read
 * where its data starts and its geometry, and a layer is added below the
 * partition with the absolute byte offset of that data on the device.
 *
 * Layer starts are absolute (bytes from the start of the disk); the fd
 * read may be the disk or one partition of it (a partition target), so
 * each read is made at the layer's start less the disk position of the
 * fd's first byte (struct src).
 *
 * A RAID-1 member holds a plain copy of the array, so what is inside its
 * data area is probed too; other levels stripe the array across members
 * and their contents can only be seen on the assembled device.
 */
#include <blkid.h>
#include <errno.h>
#include <string.h>

#include "probe/probe.h"
#include "used/used.h"

static const struct {
	const char *blkid_type;
	const struct ba_prober *prober;
	const char *short_name;
} content_types[] = {
	{"linux_raid_member", &ba_md_prober, "md"},
	{"LVM2_member", &ba_lvm_prober, "lvm"},
	{"crypto_LUKS", &ba_luks_prober, "luks"},
	{"ext2", &ba_ext_prober, "ext2"},
	{"ext3", &ba_ext_prober, "ext3"},
	{"ext4", &ba_ext_prober, "ext4"},
	{"ext4dev", &ba_ext_prober, "ext4"},
	{"xfs", &ba_xfs_prober, "xfs"},
	{"btrfs", &ba_btrfs_prober, "btrfs"},
	{"vfat", &ba_fat_prober, "vfat"},
	{"exfat", &ba_exfat_prober, "exfat"},
	{"ntfs", &ba_ntfs_prober, "ntfs"},
	{"swap", &ba_swap_prober, "swap"},
	/* a swap area holding a hibernation image (S1SUSPEND...) */
	{"swsuspend", &ba_swap_prober, "swap"},
	{"zfs_member", &ba_zfs_prober, "zfs"},
	{"gpt", &ba_gpt_nested_prober, "gpt"},
};

#define MAX_DEPTH 4
#define NTYPES	  (sizeof(content_types) / sizeof(content_types[0]))

/* content_types' libblkid names, NULL-terminated, for the type filter. */
static const char *blkid_names[NTYPES + 1] = {
	"linux_raid_member",
	"LVM2_member",
	"crypto_LUKS",
	"ext2",
	"ext3",
	"ext4",
	"ext4dev",
	"xfs",
	"btrfs",
	"vfat",
	"exfat",
	"ntfs",
	"swap",
	"swsuspend",
	NULL,
};
/*
 * ZFS is left out: libblkid reads four 256 KiB labels of every region to
 * look for it; our prober checks 8 bytes per label first (stack_zfs()).
 * A GPT inside a partition is no superblock of libblkid's: ours looks
 * for it where nothing else was found.
 */
_Static_assert(NTYPES == 16,
	       "blkid_names lists every type but zfs_member and gpt");

static enum blkalign_layer_kind layer_kind(enum ba_content_kind k)
{
	switch (k) {
	case BA_CONTENT_MD:
		return BLKALIGN_LAYER_MD;
	case BA_CONTENT_LVM:
		return BLKALIGN_LAYER_LVM;
	case BA_CONTENT_LUKS:
		return BLKALIGN_LAYER_LUKS;
	case BA_CONTENT_ZFS:
		return BLKALIGN_LAYER_ZFS;
	case BA_CONTENT_TABLE:
		return BLKALIGN_LAYER_TABLE;
	case BA_CONTENT_FS:
	case BA_CONTENT_NONE:
		break;
	}
	return BLKALIGN_LAYER_FILESYSTEM;
}

/* libblkid's TYPE for [off, off+size), or 1 when nothing is there. */
static int blkid_type(int fd, uint64_t off, uint64_t size, char *type,
		      size_t len)
{
	const char *val = NULL;
	blkid_probe pr;
	int rc;

	pr = blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	rc = blkid_probe_set_device(pr, fd, (blkid_loff_t)off,
				    (blkid_loff_t)size);
	if (rc) {
		rc = -EIO;
		goto out;
	}
	blkid_probe_enable_partitions(pr, 0);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	/* Only the types we have rules for: libblkid reads less. */
	blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_ONLYIN,
					    (char **)blkid_names);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0 &&
	    val) {
		snprintf(type, len, "%s", val);
	} else {
		/* 1: nothing; -2: ambivalent (two signatures): not ours */
		rc = rc < 0 && rc != -2 ? -EIO : 1;
	}
out:
	blkid_free_probe(pr);
	return rc;
}

static void fill_layer(struct ba_device *d, struct blkalign_layer *l,
		       const struct ba_content *c)
{
	l->version =
		c->version[0] ? ba_pool_strdup(&d->pool, c->version) : NULL;
	l->unit = c->kind == BA_CONTENT_ZFS && c->zfs_ashift < 32
			  ? 1U << c->zfs_ashift
			  : c->block_size;
	l->sector_size = c->sector_size;
	l->raid_level = c->md_level;
	l->raid_disks = c->md_raid_disks;
	l->raid_data_disks = c->md_data_disks;
	l->raid_chunk = c->md_chunk;
	l->raid_stripe_width = c->md_chunk * c->md_data_disks;
	l->data_offset = c->data_offset;
	l->extent_size = c->lvm_extent_size;
	l->fs_stride = c->fs_stride;
	l->fs_stripe_width = c->fs_stripe_width;
	l->zfs_ashift = c->zfs_ashift;
	l->used_size = c->used_size;
}

/* What is read: @fd and @io, whose byte 0 is byte @base of the disk. */
struct src {
	int fd;
	struct ba_io *io;
	uint64_t base;
	bool maps; /* read each partition's map of used blocks */
};

/*
 * Where layer @i lies in @s: its offset into the fd in @off, or false
 * when it is not all inside what @s reads.
 */
static bool region_of(const struct ba_device *d, const struct src *s, int i,
		      uint64_t *off)
{
	uint64_t start = d->layers[i].start, size = d->layers[i].size;

	if (start < s->base || start - s->base > s->io->size ||
	    size > s->io->size - (start - s->base))
		return false;
	*off = start - s->base;
	return true;
}

static int probe_region(struct ba_device *d, const struct src *s, int parent,
			int depth);

/*
 * The bytes of partition layer @part (at @off of what @s reads) a move
 * copies, by the map of used blocks of its contents (layer @content), as
 * fix reads and shapes it (fix-used.c): into the partition's map_*.
 * Returns 0 (a map that cannot be read is said in map_problem), or
 * -ENOMEM.
 */
static int map_partition(struct ba_device *d, const struct src *s, int part,
			 int content, uint64_t off)
{
	struct blkalign_layer *p = &d->layers[part];
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;
	uint64_t len = p->size, head = len < BA_USED_HEAD ? len : BA_USED_HEAD;
	struct ba_used_map m;
	char why[256];
	int rc;

	if (!lss || len % lss)
		return 0;
	p->map_source = ba_used_source_of(d->layers[content].type);
	rc = ba_used_read(s->io, off, len, d->layers[content].type, &m, why,
			  sizeof(why));
	if (!rc) {
		p->map_source = m.source;
		rc = ba_used_shape(&m, 0, lss, len, head, BA_USED_MOVE_MAX, why,
				   sizeof(why));
	}
	if (!rc)
		p->map_bytes = m.used;
	ba_used_free(&m);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		p->map_bytes = 0;
		p->map_problem =
			ba_pool_strdup(&d->pool, why[0] ? why : strerror(-rc));
		if (!p->map_problem)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Probe what layer @parent holds and add it as a child layer.
 * Returns 0 (also when nothing is found or it cannot be parsed, which is
 * reported as a problem), or -ENOMEM.
 */
static int probe_region(struct ba_device *d, const struct src *s, int parent,
			int depth)
{
	uint64_t off, size = d->layers[parent].size;
	const char *pname = d->layers[parent].name;
	struct ba_io *io = s->io;
	struct blkalign_layer *l;
	struct ba_content c;
	char type[64];
	size_t i;
	int rc, idx;

	if (depth > MAX_DEPTH || size == 0 || !region_of(d, s, parent, &off))
		return 0;
	rc = ba_io_expose(io, off, size);
	if (rc == 0)
		rc = blkid_type(s->fd, off, size, type, sizeof(type));
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		ba_device_problem(d, "cannot probe the contents of '%s'",
				  pname);
		return 0;
	}
	if (rc == 1) {
		/* ZFS labels libblkid does not read, and a LUKS header in a
		 * region under 2 KiB, which libblkid does not probe (a
		 * header cut short: said by the LUKS prober) */
		memset(&c, 0, sizeof(c));
		if (ba_zfs_prober.probe(io, off, size, &c) == 0)
			snprintf(type, sizeof(type), "zfs_member");
		else if (ba_gpt_nested_prober.probe(io, off, size, &c) == 0)
			snprintf(type, sizeof(type), "gpt");
		else if (size < 4096 &&
			 ba_luks_prober.probe(io, off, size, &c) != 1)
			snprintf(type, sizeof(type), "crypto_LUKS");
		else
			return 0;
	}
	for (i = 0; i < sizeof(content_types) / sizeof(content_types[0]); i++)
		if (!strcmp(content_types[i].blkid_type, type))
			break;
	if (i == sizeof(content_types) / sizeof(content_types[0]))
		return 0; /* a signature we have no alignment rules for */

	memset(&c, 0, sizeof(c));
	rc = content_types[i].prober->probe(io, off, size, &c);
	if (rc < 0 && c.note[0]) {
		ba_device_problem(d, "'%s' holds %s, but %s", pname, type,
				  c.note);
		return 0;
	}
	if (rc < 0) {
		ba_device_problem(d,
				  "cannot parse the %s signature on '%s': %s",
				  type, pname, strerror(-rc));
		return 0;
	}
	if (rc == 1 || c.data_offset > size)
		return 0;

	l = ba_device_add_layer(d);
	if (!l)
		return -ENOMEM;
	idx = (int)(l - d->layers);
	l->kind = layer_kind(content_types[i].prober->kind);
	l->name = ba_pool_printf(&d->pool, "%s:%s", pname,
				 content_types[i].short_name);
	l->type = ba_pool_strdup(&d->pool, c.type[0] ? c.type : type);
	l->parent = parent;
	l->start = d->layers[parent].start + c.data_offset;
	l->size = c.data_size && c.data_size <= size - c.data_offset
			  ? c.data_size
			  : size - c.data_offset;
	fill_layer(d, l, &c);
	if (s->maps && depth == 0 &&
	    d->layers[parent].kind == BLKALIGN_LAYER_PARTITION) {
		rc = map_partition(d, s, parent, idx, off);
		if (rc)
			return rc;
	}

	/* A mirror member holds the array's contents as they are. */
	if (c.kind == BA_CONTENT_MD && c.md_level == 1)
		return probe_region(d, s, idx, depth + 1);
	return 0;
}

/* A partition that starts with the marker of an interrupted fix. */
static int fix_marker(struct ba_device *d, const struct src *s, int i)
{
	char buf[512];
	struct ba_fix_marker m;
	uint64_t off;

	/* only its first sector need be there (a truncated image) */
	if (d->layers[i].size < sizeof(buf) || d->layers[i].start < s->base)
		return 0;
	off = d->layers[i].start - s->base;
	if (ba_io_read(s->io, off, sizeof(buf), buf) ||
	    !ba_fix_marker_parse(buf, sizeof(buf), &m))
		return 0;
	return ba_device_add_marker(d, i, &m);
}

/**
 * ba_stack_probe: probe the contents of every partition of @d (or of the
 * whole disk when it has no partition table) and add the stack layers.
 * @fd and @io read the disk from its byte @base on: 0 for the disk
 * itself, the partition's start when they read one partition node (the
 * layers outside what they read are not probed).  With @maps, each
 * partition's map of used blocks is read too (map_partition).
 * Returns: 0 or -ENOMEM.
 */
int ba_stack_probe(struct ba_device *d, int fd, struct ba_io *io, uint64_t base,
		   bool maps)
{
	const struct src s = {.fd = fd, .io = io, .base = base, .maps = maps};
	size_t n = d->nlayers;
	bool any = false;
	int rc;

	for (size_t i = 1; i < n; i++) {
		if (d->layers[i].extended)
			continue;
		any = true;
		rc = fix_marker(d, &s, (int)i);
		if (!rc)
			rc = probe_region(d, &s, (int)i, 0);
		if (rc)
			return rc;
	}
	if (!any && !d->pub.scheme)
		return probe_region(d, &s, 0, 0);
	return 0;
}
