/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan.c - read one resolved target into its device record: topology,
 * the partition table and its facts (GPT headers, the dos walk, usable
 * range), every layer below (stack.c), md and dm from sysfs.  The rules
 * judge the record later (analyze/); nothing here makes a finding.
 * Everything is opened read-only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "scan/scan.h"

/*
 * Bytes this process has read so far (all read syscalls), or 0.  The
 * read of /proc/self/io itself is counted by the next call, so it is
 * returned in @self to be taken off.
 */
static uint64_t proc_rchar(uint64_t *self)
{
	char buf[512];
	uint64_t v = 0;
	ssize_t n;
	char *p;
	int fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);

	*self = 0;
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	*self = (uint64_t)n;
	p = strstr(buf, "rchar:");
	if (p)
		v = strtoull(p + 6, NULL, 10);
	return v;
}

/* Bytes read since @start (a proc_rchar() value taken with @self). */
static uint64_t bytes_read_since(uint64_t start, uint64_t self)
{
	uint64_t now_self, now = proc_rchar(&now_self);

	(void)now_self;
	return now >= start + self ? now - start - self : 0;
}

/*
 * The dos walk (EBR chain, hybrid MBR entries) for the rules: on a dos
 * table, on no table (sector 0 may hold one libblkid could not read) and
 * on a GPT (its protective or hybrid MBR).
 */
static int dos_scan(struct ba_device *d, struct ba_io *io)
{
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;
	struct ba_dos_check *chk = d->dos;
	int rc = 0;

	/* ba_ptable_read walked it already, unless that walk failed */
	if (!chk) {
		chk = calloc(1, sizeof(*chk));
		if (!chk)
			return -ENOMEM;
		rc = ba_dos_check(io, lss, chk);
	}
	if (rc < 0) {
		free(chk);
		if (d->pub.scheme && !strcmp(d->pub.scheme, "gpt"))
			return 0;
		ba_device_problem(d, "cannot read the dos table: %s",
				  strerror(-rc));
		return 0;
	}
	if (!d->pub.scheme && chk->has_signature && chk->nprimary &&
	    !chk->protective)
		ba_device_problem(d,
				  "sector 0 holds a dos table with %u "
				  "partitions that could not be read",
				  chk->nprimary);
	d->dos = chk;
	/* where each logical partition's EBR is (the plan keeps clear of
	 * it): logical[k] is partition 5 + k, as the kernel numbers them */
	for (size_t i = 1; i < d->nlayers; i++) {
		struct blkalign_layer *l = &d->layers[i];

		if (l->logical && l->number >= 5 &&
		    (unsigned int)(l->number - 5) < chk->nlogical &&
		    chk->logical[l->number - 5].start * lss == l->start)
			l->ebr = chk->logical[l->number - 5].ebr * lss;
	}
	return 0;
}

/*
 * The table facts of a GPT for the snapshot: both headers' states and the
 * usable range of the intact one (the primary first, as libblkid reads
 * it), when it lies inside the device.
 */
static void gpt_table(struct ba_device *d, const struct ba_gpt_check *chk)
{
	struct blkalign_table *t = &d->pub.table;
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;
	const struct ba_gpt_header *h =
		chk->primary.state == BA_GPT_OK	 ? &chk->primary
		: chk->backup.state == BA_GPT_OK ? &chk->backup
						 : NULL;

	t->gpt_primary = ba_gpt_state_names[chk->primary.state];
	t->gpt_backup = ba_gpt_state_names[chk->backup.state];
	if (!h)
		return;
	/* a header for a larger disk (a truncated image): what it says
	 * that lies inside the device, the rest assumed */
	t->usable_start = h->first_usable_lba < d->pub.size / lss
				  ? h->first_usable_lba * lss
				  : lss;
	t->usable_end = h->last_usable_lba < d->pub.size / lss
				? (h->last_usable_lba + 1) * lss
				: d->pub.size;
	t->usable_from_table = true;
}

/* Both GPT headers, for the snapshot and the rules. */
static int gpt_scan(const struct blkalign_ctx *ctx, struct ba_device *d,
		    struct ba_io *io)
{
	static const char *const which[] = {"primary", "backup"};
	struct ba_gpt_check *chk = calloc(1, sizeof(*chk));
	const struct ba_gpt_header *h[2];

	if (!chk)
		return -ENOMEM;
	if (ba_gpt_check(io,
			 (uint32_t)d->pub.topology.logical_sector_size.value,
			 chk)) {
		free(chk);
		return 0;
	}
	h[0] = &chk->primary;
	h[1] = &chk->backup;
	if (h[0]->state == BA_GPT_ABSENT && h[1]->state == BA_GPT_ABSENT) {
		char sig[8];

		free(chk);
		/* A 4Kn GPT read with 512-byte sectors has its header at 4096.
		 */
		if (!d->pub.scheme &&
		    d->pub.topology.logical_sector_size.value == 512 &&
		    ba_io_read(io, 4096, sizeof(sig), sig) == 0 &&
		    !memcmp(sig, "EFI PART", 8))
			ba_device_problem(
				d,
				"a GPT for 4096-byte sectors is here: use %s "
				"4096",
				ba_word(ctx, BLKALIGN_WORD_SECTOR_SIZE));
		return 0;
	}
	for (int i = 0; i < 2; i++)
		if (h[i]->state == BA_GPT_UNREADABLE)
			ba_device_problem(d, "cannot read the %s GPT header",
					  which[i]);
	if (h[0]->state != BA_GPT_OK && h[1]->state != BA_GPT_OK &&
	    !d->pub.scheme)
		ba_device_problem(d, "no partitions listed: neither GPT "
				     "header is intact");
	gpt_table(d, chk);
	d->gpt = chk;
	return 0;
}

/* A table with no usable range of its own: from sector 1 to the end. */
static void assume_usable(struct ba_device *d)
{
	struct blkalign_table *t = &d->pub.table;

	if (t->usable_end)
		return;
	t->usable_start = (uint64_t)d->pub.topology.logical_sector_size.value;
	t->usable_end = d->pub.size;
}

/*
 * sysfs does not record the table type: the usable range is what both a
 * dos table and a GPT of 128 entries (every tool's default) leave free,
 * after the primary GPT and before the backup.
 */
static void sysfs_usable(struct ba_device *d)
{
	struct blkalign_table *t = &d->pub.table;
	uint64_t lss = (uint64_t)d->pub.topology.logical_sector_size.value;
	uint64_t entries = (128 * 128 + lss - 1) / lss * lss;

	if (d->pub.size < 2 * (lss + entries) + lss)
		return;
	t->usable_start = 2 * lss + entries;
	t->usable_end = d->pub.size - lss - entries;
}

/*
 * Scan an open image or device, read through @fd or, when @nbd is set,
 * from that NBD export (libblkid reads the memfd @fd is then).
 * @diskdir/@devdir are the sysfs directories of the whole disk and of the
 * target (NULL for images).
 */
static int scan_disk(const struct blkalign_ctx *ctx, struct ba_device *d,
		     int fd, struct ba_nbd *nbd, const char *diskdir,
		     const char *devdir)
{
	struct blkalign_layer *disk;
	struct ba_io io;
	uint64_t rchar_self, rchar0 = proc_rchar(&rchar_self);
	uint32_t lss;
	int rc;

	if (d->pub.is_block_device) {
		if (diskdir)
			ba_topology_sysfs(ctx, diskdir, devdir,
					  &d->pub.topology);
		ba_topology_ioctl(fd, &d->pub.topology);
	} else {
		ba_topology_image(ctx, &d->pub.topology);
	}
	ba_topology_finish(ctx, &d->pub.topology);

	disk = ba_device_add_layer(d);
	if (!disk)
		return -ENOMEM;
	disk->name = d->pub.name;
	disk->kind = BLKALIGN_LAYER_DISK;
	disk->size = d->pub.size;

	lss = (uint32_t)d->pub.topology.logical_sector_size.value;
	if (nbd) {
		ba_io_init_nbd(&io, nbd);
		rc = ba_nbd_prepare(&io, lss);
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			ba_device_problem(d, "cannot read '%s': %s",
					  d->pub.path, strerror(-rc));
	} else {
		ba_io_init_fd(&io, fd, d->pub.size);
	}
	rc = ba_ptable_read(d, fd, &io, lss);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		ba_device_problem(d, "cannot read the partition table: %s",
				  strerror(-rc));
	rc = gpt_scan(ctx, d, &io);
	assume_usable(d);
	if (!rc && (!d->pub.scheme || !strcmp(d->pub.scheme, "dos") ||
		    !strcmp(d->pub.scheme, "gpt"))) {
		rc = dos_scan(d, &io);
	} else {
		/* another table: its sector 0 is no MBR to judge */
		free(d->dos);
		d->dos = NULL;
	}
	if (!rc)
		rc = ba_stack_probe(d, fd, &io, 0, ctx->used_maps);
	if (rc)
		return rc;
	/* for an export, what was fetched from it, not the memfd reads */
	d->pub.bytes_read = nbd ? ba_nbd_bytes_read(nbd)
				: bytes_read_since(rchar0, rchar_self);
	d->pub.bytes_skipped = nbd ? ba_nbd_bytes_skipped(nbd) : 0;
	if (d->pub.is_block_device && diskdir) {
		rc = ba_sysfs_stack(d, diskdir);
		if (!rc)
			rc = ba_dm_stack(ctx, d, diskdir);
		if (rc)
			return rc;
	}
	d->scanned = true;
	return 0;
}

int ba_scan_fd(const struct blkalign_ctx *ctx, struct ba_device *d, int fd,
	       const char *diskdir, const char *devdir)
{
	return scan_disk(ctx, d, fd, NULL, diskdir, devdir);
}

/* Scan the NBD export @n (an image served by qemu-nbd, an NBD URI). */
int ba_scan_nbd(const struct blkalign_ctx *ctx, struct ba_device *d,
		struct ba_nbd *n)
{
	return scan_disk(ctx, d, ba_nbd_fd(n), n, NULL, NULL);
}

/*
 * A partition target: report its parent disk's topology with the
 * partition's own alignment offset, the partition as the only partition
 * below the disk, at its absolute start, and what it holds as the audit
 * of its disk finds it: the layers read from the partition node (@fd,
 * whose byte 0 is the partition's start on the disk) and the md arrays
 * sysfs says hold it (@devdir).  @fd is -1 for a saved tree: sysfs only.
 */
int ba_scan_partition(const struct blkalign_ctx *ctx, struct ba_device *d,
		      int fd, const char *diskdir, const char *devdir)
{
	struct blkalign_layer *disk, *part;
	int64_t start = 0, partno = 0, dsize = 0;
	uint64_t rchar_self, rchar0 = proc_rchar(&rchar_self);
	struct ba_io io;
	int rc;

	/*
	 * The rules work on absolute starts, so they need the disk's own
	 * alignment offset, not the partition's (which is relative to the
	 * partition start and is what the layer reports).
	 */
	ba_topology_sysfs(ctx, diskdir, diskdir, &d->pub.topology);
	if (!d->pub.topology.alignment_offset.source) {
		d->pub.topology.alignment_offset.source = BLKALIGN_SRC_ASSUMED;
		ba_device_problem(d,
				  "cannot read the alignment offset of the "
				  "disk holding '%s'",
				  d->pub.name);
	}
	if (fd >= 0)
		ba_topology_ioctl(fd, &d->pub.topology);
	ba_topology_finish(ctx, &d->pub.topology);
	if (ba_sysfs_read_s64(devdir, "start", &start) ||
	    ba_sysfs_read_s64(devdir, "partition", &partno) ||
	    ba_sysfs_read_s64(diskdir, "size", &dsize) || start < 0 ||
	    dsize < 0) {
		ba_device_problem(d, "cannot read the partition's start from "
				     "sysfs");
		return 0;
	}
	disk = ba_device_add_layer(d);
	if (!disk)
		return -ENOMEM;
	disk->kind = BLKALIGN_LAYER_DISK;
	disk->name = ba_pool_strdup(&d->pool, ba_base_name(diskdir));
	disk->size = (uint64_t)dsize * 512;
	ba_md_array(d, diskdir);
	part = ba_device_add_layer(d);
	if (!part)
		return -ENOMEM;
	part->kind = BLKALIGN_LAYER_PARTITION;
	part->number = (int)partno;
	part->name = d->pub.name;
	part->start = (uint64_t)start * 512;
	part->size = d->pub.size;
	part->parent = 0;
	part->extended = ba_is_extended_node(d, part->size, (int)partno);
	d->pub.whole_disk = disk->name;
	d->pub.partition_number = (int)partno;
	if (fd >= 0) {
		ba_io_init_fd(&io, fd, part->size);
		rc = ba_stack_probe(d, fd, &io, part->start, ctx->used_maps);
		if (rc)
			return rc;
	}
	/* by index: the layers above may have moved @disk and @part */
	rc = ba_md_holders(d, 1, devdir);
	if (rc)
		return rc;
	/* The rules judge absolute positions against the whole disk. */
	d->pub.size = d->layers[0].size;
	d->pub.bytes_read = bytes_read_since(rchar0, rchar_self);
	d->scanned = true;
	return 0;
}

/* Scan from sysfs alone (--sysroot): nothing is opened. */
int ba_scan_sysfs(const struct blkalign_ctx *ctx, struct ba_device *d,
		  const char *diskdir)
{
	struct blkalign_layer *disk;
	int64_t size;
	int rc;

	d->pub.is_block_device = true;
	rc = ba_topology_sysfs(ctx, diskdir, diskdir, &d->pub.topology);
	if (rc)
		ba_device_problem(d, "no queue limits in sysfs for '%s'",
				  d->pub.name);
	ba_topology_finish(ctx, &d->pub.topology);
	if (ba_sysfs_read_s64(diskdir, "size", &size) || size < 0) {
		ba_device_problem(d, "cannot read the size of '%s' from sysfs",
				  d->pub.name);
		size = 0;
	}
	d->pub.size = (uint64_t)size * 512;
	disk = ba_device_add_layer(d);
	if (!disk)
		return -ENOMEM;
	disk->kind = BLKALIGN_LAYER_DISK;
	disk->name = d->pub.name;
	disk->size = d->pub.size;
	rc = ba_ptable_sysfs(ctx, d, diskdir);
	if (rc == -ENOMEM)
		return rc;
	sysfs_usable(d);
	rc = ba_sysfs_stack(d, diskdir);
	if (!rc)
		rc = ba_dm_stack(ctx, d, diskdir);
	if (rc)
		return rc;
	d->scanned = true;
	return 0;
}
