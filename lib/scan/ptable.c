/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ptable.c - partition layers: from the on-disk table through libblkid
 * (dos with logical partitions, gpt, bsd nested in dos, sun, sgi, atari,
 * mac...), or from the kernel's view in sysfs when the device cannot be
 * read (--sysroot, no permission).
 */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "ptable.h"

/* Kernel partition naming: "sda" + 1, "loop0" + "p" + 1. */
static const char *part_name(struct ba_device *d, int partno)
{
	const char *disk = d->pub.name;
	size_t n = strlen(disk);
	bool digit = n && disk[n - 1] >= '0' && disk[n - 1] <= '9';

	return ba_pool_printf(&d->pool, "%s%s%d", disk, digit ? "p" : "",
			      partno);
}

static int find_layer_by_number(const struct ba_device *d, int partno)
{
	for (size_t i = 0; i < d->nlayers; i++)
		if (d->layers[i].kind != BLKALIGN_LAYER_DISK &&
		    d->layers[i].number == partno)
			return (int)i;
	return -1;
}

static int add_partition(struct ba_device *d, blkid_partition par)
{
	blkid_parttable tab = blkid_partition_get_table(par);
	blkid_partition parent = tab ? blkid_parttable_get_parent(tab) : NULL;
	struct blkalign_layer *l;
	const char *type = blkid_partition_get_type_string(par);
	int partno = blkid_partition_get_partno(par);
	blkid_loff_t start = blkid_partition_get_start(par);
	blkid_loff_t size = blkid_partition_get_size(par);
	const char *s;
	char hex[8];

	if (start < 0 || size < 0 || (uint64_t)start > UINT64_MAX / 512 / 2 ||
	    (uint64_t)size > UINT64_MAX / 512 / 2)
		return -ERANGE;
	l = ba_device_add_layer(d);
	if (!l)
		return -ENOMEM;
	/* A BSD label nested in a dos slice: its partitions are "bsd". */
	l->kind = parent ? BLKALIGN_LAYER_BSD : BLKALIGN_LAYER_PARTITION;
	l->number = partno;
	l->name = part_name(d, partno);
	/* libblkid reports partitions in 512-byte sectors, whatever the LBA. */
	l->start = (uint64_t)start * 512;
	l->size = (uint64_t)size * 512;
	l->scheme = ba_pool_strdup(&d->pool,
				   tab ? blkid_parttable_get_type(tab) : NULL);
	if (!type) {
		snprintf(hex, sizeof(hex), "0x%x",
			 (unsigned int)blkid_partition_get_type(par) & 0xff);
		type = hex;
	}
	l->type = ba_pool_strdup(&d->pool, type);
	l->extended = blkid_partition_is_extended(par);
	l->logical = blkid_partition_is_logical(par);
	s = blkid_partition_get_uuid(par);
	l->uuid = s && *s ? ba_pool_strdup(&d->pool, s) : NULL;
	s = blkid_partition_get_name(par);
	l->part_name = s && *s ? ba_pool_strdup(&d->pool, s) : NULL;
	l->parent = 0;
	if (parent)
		l->parent = find_layer_by_number(
			d, blkid_partition_get_partno(parent));
	if (l->parent < 0)
		l->parent = 0;
	return 0;
}

/* Logical partitions sit inside the extended one: make that the parent. */
static void link_logicals(struct ba_device *d)
{
	int ext = -1;

	for (size_t i = 0; i < d->nlayers; i++)
		if (d->layers[i].extended && d->layers[i].parent == 0)
			ext = (int)i;
	if (ext < 0)
		return;
	for (size_t i = 0; i < d->nlayers; i++)
		if (d->layers[i].logical)
			d->layers[i].parent = ext;
}

/* A partition of blkalign's own dos walk as a layer (number @partno). */
static int add_walked(struct ba_device *d, const struct ba_dos_part *p,
		      int partno, uint32_t lss, bool logical)
{
	struct blkalign_layer *l = ba_device_add_layer(d);

	if (!l)
		return -ENOMEM;
	l->kind = BLKALIGN_LAYER_PARTITION;
	l->number = partno;
	l->name = part_name(d, partno);
	l->start = p->start * lss;
	l->size = p->sectors * lss;
	l->scheme = "dos";
	l->type = ba_pool_printf(&d->pool, "0x%x", p->type);
	l->extended = !logical &&
		      (p->type == 0x05 || p->type == 0x0f || p->type == 0x85);
	l->logical = logical;
	return 0;
}

/*
 * A dos table whose chain of logical partitions goes on past where the
 * kernel stops (256 partitions): libblkid would walk all of it (tens of
 * thousands of links take minutes); the partitions the kernel shows come
 * from blkalign's own walk instead.  1 when it did that, 0 when libblkid
 * is to read the table, -errno.
 */
static int long_dos_chain(struct ba_device *d, struct ba_io *io, uint32_t lss)
{
	struct ba_dos_check *chk = calloc(1, sizeof(*chk));
	int rc;

	if (!chk)
		return -ENOMEM;
	rc = ba_dos_check(io, lss, chk);
	if (rc) {
		free(chk);
		return rc < 0 ? rc : 0;
	}
	/* the scan keeps the walk for the rules (scan.c dos_scan) */
	free(d->dos);
	d->dos = chk;
	if (!chk->truncated || chk->protective)
		return 0;
	d->pub.scheme = "dos";
	for (int i = 0; i < 4 && !rc; i++)
		if (chk->primary[i].type)
			rc = add_walked(d, &chk->primary[i], i + 1, lss, false);
	for (unsigned int k = 0; k < chk->nlogical && !rc; k++)
		rc = add_walked(d, &chk->logical[k], 5 + (int)k, lss, true);
	if (rc)
		return rc;
	link_logicals(d);
	return 1;
}

/**
 * ba_ptable_probe: a libblkid probe of @fd for its partition table alone
 * (no superblocks, entry details on), with @sector_size logical sectors:
 * what the scan reads and what the NBD source fills the memfd for.
 * Returns: 0 and *@out to free with blkid_free_probe, or -errno.
 */
int ba_ptable_probe(int fd, uint32_t sector_size, blkid_probe *out)
{
	blkid_probe pr = blkid_new_probe();

	*out = NULL;
	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_set_sectorsize(pr, sector_size);
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	*out = pr;
	return 0;
}

/**
 * ba_ptable_read: probe the partition table on @fd with libblkid and add
 * a layer per partition below layer 0 (the disk); our own dos walk reads
 * through @io (the same bytes as @fd).
 * Returns: 0 (no table is not an error), -errno on failure.
 */
int ba_ptable_read(struct ba_device *d, int fd, struct ba_io *io,
		   uint32_t sector_size)
{
	blkid_probe pr;
	blkid_partlist ls;
	blkid_parttable tab;
	int rc, n;

	rc = long_dos_chain(d, io, sector_size);
	if (rc)
		return rc < 0 ? rc : 0;
	rc = ba_ptable_probe(fd, sector_size, &pr);
	if (rc)
		return rc;
	ls = blkid_probe_get_partitions(pr);
	if (!ls) {
		/* NULL means "no table" unless errno says the read failed. */
		rc = (errno == EIO) ? -EIO : 0;
		goto out;
	}
	tab = blkid_partlist_get_table(ls);
	d->pub.scheme = ba_pool_strdup(
		&d->pool, tab ? blkid_parttable_get_type(tab) : NULL);
	if (tab && blkid_parttable_get_id(tab) && *blkid_parttable_get_id(tab))
		d->pub.table.id =
			ba_pool_strdup(&d->pool, blkid_parttable_get_id(tab));
	n = blkid_partlist_numof_partitions(ls);
	for (int i = 0; i < n; i++) {
		blkid_partition par = blkid_partlist_get_partition(ls, i);

		if (!par)
			continue;
		rc = add_partition(d, par);
		if (rc)
			goto out;
	}
	link_logicals(d);
	rc = 0;
out:
	blkid_free_probe(pr);
	return rc;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int only_dirs(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/*
 * The block device the kernel makes for a dos extended partition covers
 * only its first sectors, "to prevent someone doing mkfs or mkswap on an
 * extended partition, but leave room for LILO": min(size, max(logical
 * sector / 512, 2)) 512-byte sectors (block/partitions/msdos.c).
 */
uint64_t ba_extended_node_bytes(uint64_t size_bytes,
				uint32_t logical_sector_size)
{
	uint64_t n =
		logical_sector_size / 512 > 2 ? logical_sector_size / 512 : 2;

	if (n > size_bytes / 512)
		n = size_bytes / 512;
	return n * 512;
}

/*
 * The kernel shows a dos extended partition as a stub of a few sectors
 * (ba_extended_node_bytes); a primary partition that small is not
 * plausible, so a tiny partition 1-4 is taken for one.
 */
bool ba_is_extended_node(const struct ba_device *d, uint64_t size_bytes,
			 int partno)
{
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;

	return partno >= 1 && partno <= 4 && size_bytes > 0 &&
	       size_bytes <= ba_extended_node_bytes(UINT64_MAX, lss);
}

/**
 * ba_ptable_sysfs: partitions as the kernel sees them: every
 * subdirectory of @diskdir with a "partition" attribute.
 * Returns: 0 or -errno.
 */
int ba_ptable_sysfs(const struct blkalign_ctx *ctx, struct ba_device *d,
		    const char *diskdir)
{
	struct dirent **names = NULL;
	int n, rc = 0;

	(void)ctx;
	n = scandir(diskdir, &names, only_dirs, name_cmp);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		char *dir = NULL;
		int64_t partno, start, size;
		struct blkalign_layer *l;

		if (asprintf(&dir, "%s/%s", diskdir, names[i]->d_name) < 0) {
			rc = -ENOMEM;
			break;
		}
		if (ba_sysfs_read_s64(dir, "partition", &partno) ||
		    ba_sysfs_read_s64(dir, "start", &start) ||
		    ba_sysfs_read_s64(dir, "size", &size) || start < 0 ||
		    size < 0) {
			free(dir);
			continue;
		}
		free(dir);
		l = ba_device_add_layer(d);
		if (!l) {
			rc = -ENOMEM;
			break;
		}
		l->kind = BLKALIGN_LAYER_PARTITION;
		l->number = (int)partno;
		l->name = ba_pool_strdup(&d->pool, names[i]->d_name);
		/* sysfs start and size are always in 512-byte sectors. */
		l->start = (uint64_t)start * 512;
		l->size = (uint64_t)size * 512;
		l->parent = 0;
		l->extended = ba_is_extended_node(d, (uint64_t)size * 512,
						  (int)partno);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}
