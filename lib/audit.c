/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audit.c - `check` for one target: resolve it (image, whole disk,
 * partition, or a name in --sysroot), gather topology and layers, run the
 * rules.  Everything is opened read-only.
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

#include "blkalignP.h"

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

static void dos_findings(struct ba_device *d, struct ba_io *io)
{
	static const char *const why[] = {
		[BA_EBR_LOOP] = "loops back on itself",
		[BA_EBR_OUTSIDE] = "points outside the extended partition",
		[BA_EBR_BROKEN] = "reaches a record without its signature",
	};
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;
	struct ba_dos_check chk;
	struct blkalign_finding *f;
	int rc;

	rc = ba_dos_check(io, lss, &chk);
	if (rc < 0) {
		ba_device_problem(d, "cannot read the dos table: %s",
				  strerror(-rc));
		return;
	}
	if (!d->pub.scheme && chk.has_signature && chk.nprimary &&
	    !chk.protective)
		ba_device_problem(d,
				  "sector 0 holds a dos table with %u "
				  "partitions that could not be read",
				  chk.nprimary);
	if (chk.state == BA_EBR_OK && chk.truncated) {
		f = ba_device_add_finding(d, "dos-ebr-chain", BLKALIGN_ERROR,
					  0);
		if (!f)
			return;
		f->value = chk.bad_lba * lss;
		f->message = ba_pool_printf(
			&d->pool,
			"the chain of logical partitions on '%s' goes on past "
			"the %u the kernel shows (it stops at %u partitions "
			"in all), at sector %" PRIu64,
			d->pub.name, chk.nlogical, BA_DOS_KERNEL_PARTS,
			chk.bad_lba);
		f->explanation = "the partitions after it exist for no kernel "
				 "and are not checked; partitioning tools may "
				 "still list them";
		f->fix = "inspect with 'sfdisk -d' and rewrite the logical "
			 "partitions with sfdisk or fdisk";
		return;
	}
	if (chk.state == BA_EBR_OK)
		return;
	f = ba_device_add_finding(d, "dos-ebr-chain", BLKALIGN_ERROR, 0);
	if (!f)
		return;
	f->value = chk.bad_lba * lss;
	f->message = ba_pool_printf(
		&d->pool,
		"the chain of logical partitions on '%s' %s at sector %" PRIu64
		", after %u logical partitions",
		d->pub.name, why[chk.state], chk.bad_lba, chk.nlogical);
	f->explanation = "logical partitions after the break are not listed "
			 "and their alignment is not checked; the kernel and "
			 "partitioning tools may disagree about them";
	f->fix = "inspect with 'sfdisk -d' and rewrite the logical partitions "
		 "with sfdisk or fdisk";
}

/* Used entries outside the usable range of the header @h libblkid read. */
static void gpt_outside(struct ba_device *d, const struct ba_gpt_header *h)
{
	if (h->state != BA_GPT_OK)
		return;
	for (uint32_t k = 0; k < h->noutside && k < 8; k++) {
		const struct ba_gpt_entry *e = &h->outside[k];
		struct blkalign_finding *f = ba_device_add_finding(
			d, "gpt-entry-outside", BLKALIGN_ERROR, 0);

		if (!f)
			return;
		f->value = e->first_lba;
		f->message = ba_pool_printf(
			&d->pool,
			"GPT entry %u of '%s' (sectors %" PRIu64 " to %" PRIu64
			") lies outside the usable range (%" PRIu64
			" to %" PRIu64 ")%s",
			e->index, d->pub.name, e->first_lba, e->last_lba,
			h->first_usable_lba, h->last_usable_lba,
			h->noutside > 8 && k == 7
				? ba_pool_printf(&d->pool, " (and %u more)",
						 h->noutside - 8)
				: "");
		f->explanation = "libblkid (and lsblk, blkid, this audit) "
				 "skips it, the kernel still makes a partition "
				 "of it: it may overlap the table or the "
				 "backup, and nothing here checks it";
		f->fix = "fix the entry with gdisk or sfdisk, inside the "
			 "usable range (sgdisk -v lists it)";
	}
}

/*
 * A hybrid MBR (an 0xee entry and others beside it): every other entry
 * should be one of the GPT's partitions, as gdisk makes them; sgdisk -v
 * warns about those that are not.
 */
static void hybrid_mbr(struct ba_device *d, const struct ba_dos_check *chk)
{
	uint32_t lss = (uint32_t)d->pub.topology.logical_sector_size.value;

	for (int i = 0; i < 4; i++) {
		const struct ba_dos_part *e = &chk->primary[i];
		bool found = false;
		struct blkalign_finding *f;

		if (!e->type || e->type == 0xee)
			continue;
		for (size_t k = 1; k < d->nlayers && !found; k++)
			found = d->layers[k].kind == BLKALIGN_LAYER_PARTITION &&
				d->layers[k].start == e->start * lss &&
				d->layers[k].size == e->sectors * lss;
		if (found)
			continue;
		f = ba_device_add_finding(d, "gpt-hybrid-mbr", BLKALIGN_WARNING,
					  0);
		if (!f)
			return;
		f->value = e->start * lss;
		f->message = ba_pool_printf(
			&d->pool,
			"entry %d of the hybrid MBR of '%s' (type 0x%02x, sectors "
			"%" PRIu64 "+%" PRIu64
			") is none of its GPT partitions",
			i + 1, d->pub.name, e->type, e->start, e->sectors);
		f->explanation = "what reads the MBR (BIOS boot loaders, older "
				 "systems) sees a partition that the GPT, and "
				 "every tool that reads it, does not";
		f->fix = "rebuild the hybrid MBR to match the GPT (gdisk: "
			 "'r', then 'h'), or replace it with a protective one "
			 "(gdisk: 'x', then 'n', then 'w')";
	}
}

static void gpt_hybrid(struct ba_device *d, struct ba_io *io)
{
	struct ba_dos_check *chk = calloc(1, sizeof(*chk));

	if (chk &&
	    !ba_dos_check(io,
			  (uint32_t)d->pub.topology.logical_sector_size.value,
			  chk) &&
	    chk->protective)
		hybrid_mbr(d, chk);
	free(chk);
}

static void gpt_findings(struct ba_device *d, struct ba_io *io)
{
	static const char *const which[] = {"primary", "backup"};
	struct ba_gpt_check chk;
	const struct ba_gpt_header *h[2];
	bool other_ok;

	if (ba_gpt_check(io,
			 (uint32_t)d->pub.topology.logical_sector_size.value,
			 &chk))
		return;
	h[0] = &chk.primary;
	h[1] = &chk.backup;
	if (h[0]->state == BA_GPT_ABSENT && h[1]->state == BA_GPT_ABSENT) {
		char sig[8];

		/* A 4Kn GPT read with 512-byte sectors has its header at 4096.
		 */
		if (!d->pub.scheme &&
		    d->pub.topology.logical_sector_size.value == 512 &&
		    ba_io_read(io, 4096, sizeof(sig), sig) == 0 &&
		    !memcmp(sig, "EFI PART", 8))
			ba_device_problem(d, "a GPT for 4096-byte sectors is "
					     "here: use --logical-sector-size "
					     "4096");
		return;
	}
	for (int i = 0; i < 2; i++) {
		struct blkalign_finding *f;

		if (h[i]->state == BA_GPT_UNREADABLE) {
			ba_device_problem(d, "cannot read the %s GPT header",
					  which[i]);
			continue;
		}
		if (h[i]->state == BA_GPT_OK)
			continue;
		/* A backup can only be judged when a GPT is there at all. */
		if (h[i]->state == BA_GPT_ABSENT && h[!i]->state != BA_GPT_OK)
			continue;
		other_ok = h[!i]->state == BA_GPT_OK;
		f = ba_device_add_finding(
			d, i == 0 ? "gpt-primary-bad" : "gpt-backup-bad",
			BLKALIGN_ERROR, 0);
		if (!f)
			return;
		f->message = ba_pool_printf(
			&d->pool, "%s GPT header on '%s' is %s%s%s", which[i],
			d->pub.name,
			h[i]->state == BA_GPT_ABSENT ? "missing" : "corrupt",
			h[i]->why ? ": " : "", h[i]->why ? h[i]->why : "");
		f->explanation =
			other_ok
				? ba_pool_printf(&d->pool,
						 "the %s header is intact "
						 "and was used",
						 which[!i])
				: "neither header is intact: the partitions listed may "
				  "be wrong";
		f->fix =
			other_ok
				? "rewrite both headers from the good copy (gdisk: "
				  "'r' then 'b' or 'c', then 'w'; or sgdisk -e)"
				: "restore the table from a backup (sgdisk --load-backup)";
		if (h[i]->short_by) {
			/* not damage: the device is shorter than the disk
			 * the table was written for */
			f->value = d->pub.size + h[i]->short_by;
			f->remainder = h[i]->short_by;
			f->message = ba_pool_printf(
				&d->pool,
				"the %s GPT header on '%s' describes a disk of "
				"%" PRIu64 " bytes, but '%s' has %" PRIu64
				": it is %" PRIu64 " bytes shorter than its "
				"table",
				which[i], d->pub.name,
				d->pub.size + h[i]->short_by, d->pub.name,
				d->pub.size, h[i]->short_by);
			f->explanation = "a truncated image, or a table copied "
					 "from a larger disk: its partitions "
					 "may run past the end";
			f->fix = ba_pool_printf(
				&d->pool,
				"a truncated image: grow it back (truncate -s "
				"%" PRIu64 "); a table from a larger disk: "
				"rewrite it for this one (sgdisk -e moves the "
				"backup to the end) and check that every "
				"partition ends inside it",
				d->pub.size + h[i]->short_by);
		}
	}
	gpt_outside(d, h[0]->state == BA_GPT_OK ? h[0] : h[1]);
	if (h[0]->state != BA_GPT_OK && h[1]->state != BA_GPT_OK &&
	    !d->pub.scheme)
		ba_device_problem(d, "no partitions listed: neither GPT "
				     "header is intact");
}

/*
 * Audit an open image or device.  @diskdir/@devdir are the sysfs
 * directories of the whole disk and of the target (NULL for images).
 */
int ba_audit_fd(const struct blkalign_ctx *ctx, struct ba_device *d, int fd,
		const char *diskdir, const char *devdir)
{
	struct blkalign_layer *disk;
	struct ba_io io;
	uint64_t rchar_self, rchar0 = proc_rchar(&rchar_self);
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

	rc = ba_ptable_read(
		d, fd, (uint32_t)d->pub.topology.logical_sector_size.value);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		ba_device_problem(d, "cannot read the partition table: %s",
				  strerror(-rc));
	ba_io_init_fd(&io, fd, d->pub.size);
	gpt_findings(d, &io);
	if (!d->pub.scheme || !strcmp(d->pub.scheme, "dos"))
		dos_findings(d, &io);
	else if (!strcmp(d->pub.scheme, "gpt"))
		gpt_hybrid(d, &io);
	rc = ba_stack_probe(d, fd, &io);
	if (rc)
		return rc;
	d->pub.bytes_read = bytes_read_since(rchar0, rchar_self);
	if (d->pub.is_block_device && diskdir) {
		rc = ba_sysfs_stack(d, diskdir);
		if (!rc)
			rc = ba_dm_stack(ctx, d, diskdir);
		if (rc)
			return rc;
	}
	ba_rules_run(d);
	return 0;
}

static int device_size(int fd, const struct stat *st, uint64_t *size)
{
	if (S_ISBLK(st->st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st->st_size;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * A partition target: report its parent disk's topology with the
 * partition's own alignment offset, and the partition as the only layer
 * below the disk, at its absolute start.
 */
static int audit_partition(const struct blkalign_ctx *ctx, struct ba_device *d,
			   int fd, const char *diskdir, const char *devdir)
{
	struct blkalign_layer *disk, *part;
	int64_t start = 0, partno = 0, dsize = 0;
	uint64_t rchar_self, rchar0 = proc_rchar(&rchar_self);

	(void)devdir;
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
	disk->name = ba_pool_strdup(&d->pool, base_name(diskdir));
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
	/* The rules judge absolute positions against the whole disk. */
	d->pub.size = disk->size;
	d->pub.bytes_read = bytes_read_since(rchar0, rchar_self);
	ba_rules_run(d);
	return 0;
}

/* Audit from sysfs alone (--sysroot): nothing is opened. */
static int audit_sysfs(const struct blkalign_ctx *ctx, struct ba_device *d,
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
	rc = ba_sysfs_stack(d, diskdir);
	if (!rc)
		rc = ba_dm_stack(ctx, d, diskdir);
	if (rc)
		return rc;
	ba_rules_run(d);
	return 0;
}

static struct ba_device *new_device(struct blkalign_report *r, const char *path)
{
	struct ba_device *d = calloc(1, sizeof(*d)), **v;

	if (!d)
		return NULL;
	if (r->ndevices == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 8;

		v = realloc(r->devices, ncap * sizeof(*v));
		if (!v) {
			free(d);
			return NULL;
		}
		r->devices = v;
		r->cap = ncap;
	}
	r->devices[r->ndevices++] = d;
	d->pub.path = ba_pool_strdup(&d->pool, path);
	d->pub.name = ba_pool_strdup(&d->pool, base_name(path));
	return d;
}

static void finish_device(struct blkalign_report *r, struct ba_device *d)
{
	ba_device_publish(d);
	for (size_t i = 0; i < d->nfindings; i++)
		if (d->findings[i].severity != BLKALIGN_INFO)
			r->status |= BLKALIGN_STATUS_FINDINGS;
	if (d->nproblems)
		r->status |= BLKALIGN_STATUS_INCOMPLETE;
}

static int skip_entry(const struct dirent *e);
static int check_file(struct blkalign_report *r, const char *path);

/* sys/block/<disk>/<name>, resolved: a partition of a saved tree. */
static char *find_partition_dir(const struct blkalign_ctx *ctx,
				const char *name)
{
	struct dirent **disks = NULL;
	char *block, *found = NULL;
	int n;

	block = ba_sysfs_path(ctx, "/sys/block");
	if (!block)
		return NULL;
	n = scandir(block, &disks, skip_entry, alphasort);
	for (int i = 0; i < n; i++) {
		char *dir = NULL;
		int64_t partno;

		if (!found && asprintf(&dir, "%s/%s/%s", block,
				       disks[i]->d_name, name) >= 0) {
			if (ba_sysfs_read_s64(dir, "partition", &partno) == 0)
				found = realpath(dir, NULL);
			free(dir);
		}
		free(disks[i]);
	}
	free(disks);
	free(block);
	return found;
}

static int check_sysroot_name(struct blkalign_report *r, const char *path)
{
	const char *name = base_name(path);
	char *dir, *real, *diskdir = NULL;
	struct ba_device *d;
	int64_t size;
	int rc;

	dir = ba_sysfs_path(r->ctx, "/sys/block/%s", name);
	if (!dir)
		return -ENOMEM;
	real = realpath(dir, NULL);
	free(dir);
	if (!real) {
		real = find_partition_dir(r->ctx, name);
		if (!real)
			return -ENOENT;
		diskdir = ba_sysfs_parent_disk(real);
	}
	d = new_device(r, path);
	if (!d) {
		rc = -ENOMEM;
		goto out;
	}
	if (!diskdir) {
		rc = audit_sysfs(r->ctx, d, real);
	} else {
		d->pub.is_block_device = true;
		if (ba_sysfs_read_s64(real, "size", &size) || size < 0)
			size = 0;
		d->pub.size = (uint64_t)size * 512;
		rc = audit_partition(r->ctx, d, -1, diskdir, real);
	}
	finish_device(r, d);
out:
	free(real);
	free(diskdir);
	return rc;
}

/*
 * A target that cannot be audited at all still appears in the report,
 * with why, and sets the operational-error bit: the JSON then says what
 * the exit status says.
 */
static int failed_target(struct blkalign_report *r, const char *path, int rc)
{
	struct ba_device *d = new_device(r, path);

	if (!d)
		return -ENOMEM;
	if (rc == -ENOTBLK)
		ba_device_problem(d,
				  "'%s' is neither an image file nor a "
				  "block device",
				  path);
	else
		ba_device_problem(d, "cannot open '%s': %s", path,
				  strerror(-rc));
	d->pub.failed = true;
	ba_device_publish(d);
	r->status |= BLKALIGN_STATUS_FAILED;
	return rc;
}

/**
 * blkalign_check_path: audit one image file or block device (or, with a
 * sysroot, the named device of the saved tree) and add it to @r.
 * Returns: 0 (findings and unreadable parts are in the report), or
 * -errno when the target cannot be opened at all.
 */
int blkalign_check_path(struct blkalign_report *r, const char *path)
{
	int rc;

	if (!r || !path)
		return -EINVAL;
	if (r->ctx->sysroot &&
	    (path[0] != '/' || strncmp(path, "/dev/", 5) == 0))
		rc = check_sysroot_name(r, path);
	else
		rc = check_file(r, path);
	return rc && rc != -ENOMEM ? failed_target(r, path, rc) : rc;
}

/*
 * Open and audit one image or device.  Returns -errno without recording
 * anything when it cannot be opened (the caller decides what that means).
 */
static int check_file(struct blkalign_report *r, const char *path)
{
	char *devdir = NULL, *diskdir = NULL;
	struct ba_device *d;
	struct stat st;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		rc = -ENOTBLK;
		goto out;
	}
	d = new_device(r, path);
	if (!d) {
		rc = -ENOMEM;
		goto out;
	}
	d->pub.is_block_device = S_ISBLK(st.st_mode);
	rc = device_size(fd, &st, &d->pub.size);
	if (rc) {
		ba_device_problem(d, "cannot get the size of '%s': %s", path,
				  strerror(-rc));
		finish_device(r, d);
		rc = 0;
		goto out;
	}
	if (d->pub.is_block_device) {
		int64_t partno;

		devdir = ba_sysfs_devdir(r->ctx, major(st.st_rdev),
					 minor(st.st_rdev));
		if (devdir &&
		    ba_sysfs_read_s64(devdir, "partition", &partno) == 0) {
			diskdir = ba_sysfs_parent_disk(devdir);
			rc = audit_partition(r->ctx, d, fd, diskdir, devdir);
			finish_device(r, d);
			goto out;
		}
		diskdir = devdir ? strdup(devdir) : NULL;
		if (!devdir)
			ba_device_problem(d,
					  "no sysfs entry for '%s'; topology "
					  "from ioctls only",
					  path);
	}
	rc = ba_audit_fd(r->ctx, d, fd, diskdir, devdir);
	finish_device(r, d);
out:
	free(devdir);
	free(diskdir);
	close(fd);
	return rc;
}

static int skip_entry(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/**
 * blkalign_check_all: audit every block device of the machine (or of the
 * sysroot) that has a size, like lsblk.  Devices that cannot be opened
 * are audited from sysfs and marked incomplete.
 * Returns: 0 or -errno when the device list cannot be read.
 */
int blkalign_check_all(struct blkalign_report *r)
{
	struct dirent **names = NULL;
	char *dir;
	int n, rc = 0;

	if (!r)
		return -EINVAL;
	dir = ba_sysfs_path(r->ctx, "/sys/block");
	if (!dir)
		return -ENOMEM;
	n = scandir(dir, &names, skip_entry, alphasort);
	if (n < 0) {
		rc = -errno;
		free(dir);
		return rc;
	}
	for (int i = 0; i < n && rc != -ENOMEM; i++) {
		const char *name = names[i]->d_name;
		char *sub = NULL, *path = NULL;
		int64_t size = 0;

		if (asprintf(&sub, "%s/%s", dir, name) < 0)
			break;
		if (ba_sysfs_read_s64(sub, "size", &size) || size <= 0) {
			free(sub);
			continue;
		}
		free(sub);
		if (r->ctx->sysroot) {
			rc = check_sysroot_name(r, name);
			continue;
		}
		if (asprintf(&path, "/dev/%s", name) < 0)
			break;
		rc = check_file(r, path);
		if (rc && rc != -ENOMEM) {
			/* No node or no permission: the kernel's view only. */
			rc = check_sysroot_name(r, path);
			if (!rc) {
				struct ba_device *d =
					r->devices[r->ndevices - 1];

				ba_device_problem(d,
						  "cannot open '%s'; sysfs "
						  "view only",
						  path);
				finish_device(r, d);
			}
		}
		free(path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return rc == -ENOMEM ? rc : 0;
}
