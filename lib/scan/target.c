/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target.c - what `check` is pointed at: an image file, a whole disk, a
 * partition, a name in a --sysroot tree, or every block device; each
 * becomes a device record in the report, scanned (scan.c) or marked as
 * failed with why.  Everything is opened read-only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "scan/scan.h"
#include "image-refs.h"

static int device_size(int fd, const struct stat *st, uint64_t *size)
{
	if (S_ISBLK(st->st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st->st_size;
	return 0;
}

const char *ba_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static struct ba_device *new_device(struct blkalign_report *r, const char *path)
{
	struct ba_device *d = ba_report_add_device(r);

	if (!d)
		return NULL;
	d->pub.path = ba_pool_strdup(&d->pool, path);
	d->pub.name = ba_pool_strdup(&d->pool, ba_base_name(path));
	return d;
}

static int skip_entry(const struct dirent *e);

/* Named like a VMDK file: one a descriptor may name as an extent. */
static bool vmdk_name(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcasecmp(path + n - 5, ".vmdk");
}
static int check_file(struct blkalign_report *r, const char *path,
		      struct ba_nbd *through);
static int check_uri(struct blkalign_report *r, const char *uri,
		     struct ba_nbd *through);

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

/* The device @path, known to sysfs as @name (its kernel name). */
static int check_sysfs_name(struct blkalign_report *r, const char *path,
			    const char *name)
{
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
		rc = ba_scan_sysfs(r->ctx, d, real);
	} else {
		d->pub.is_block_device = true;
		if (ba_sysfs_read_s64(real, "size", &size) || size < 0)
			size = 0;
		d->pub.size = (uint64_t)size * 512;
		rc = ba_scan_partition(r->ctx, d, -1, diskdir, real);
	}
out:
	free(real);
	free(diskdir);
	return rc;
}

static int check_sysroot_name(struct blkalign_report *r, const char *path)
{
	return check_sysfs_name(r, path, ba_base_name(path));
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
	return rc;
}

/*
 * A block device that cannot be opened (no permission, no node) is still
 * described by sysfs: the kernel's partitions, queue limits, md and
 * holders.  Scan that view and say why it is all there is (the status is
 * then incomplete).  Returns: 0, or -errno of the view.
 */
static int sysfs_view(struct blkalign_report *r, const char *path, int why)
{
	char *link = NULL, *real = NULL;
	struct stat st;
	int rc;

	/* a node's kernel name from its number: /dev/mapper/x is dm-N */
	if (!r->ctx->sysroot && stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
	    asprintf(&link, "/sys/dev/block/%u:%u", major(st.st_rdev),
		     minor(st.st_rdev)) >= 0)
		real = realpath(link, NULL);
	free(link);
	rc = check_sysfs_name(r, path,
			      real ? ba_base_name(real) : ba_base_name(path));
	free(real);

	if (!rc)
		ba_device_problem(r->devices[r->ndevices - 1],
				  "cannot open '%s': %s; sysfs view only "
				  "(the table and the layers inside it are "
				  "not read)",
				  path, strerror(-why));
	return rc;
}

/**
 * ba_scan_path: scan one image file or block device (or, with a sysroot,
 * the named device of the saved tree) into a new device record of @r.
 * Returns: 0, or -errno when the target cannot be opened at all (the
 * record then says why and is marked failed).
 */
int ba_scan_path(struct blkalign_report *r, const char *path)
{
	int rc;

	if (!r || !path)
		return -EINVAL;
	if (ba_nbd_is_uri(path))
		return check_uri(r, path, NULL);
	if (r->ctx->sysroot &&
	    (path[0] != '/' || strncmp(path, "/dev/", 5) == 0))
		rc = check_sysroot_name(r, path);
	else {
		struct stat st;

		rc = check_file(r, path, NULL);
		if ((rc == -EACCES || rc == -EPERM) && stat(path, &st) == 0 &&
		    S_ISBLK(st.st_mode) && sysfs_view(r, path, rc) == 0)
			rc = 0;
	}
	return rc && rc != -ENOMEM ? failed_target(r, path, rc) : rc;
}

/**
 * ba_scan_image_nbd: scan the image file @path in a qemu format, or the
 * NBD URI @path, through @n, an open connection to it (fix's: it holds
 * an image's write lock, so a second qemu-nbd could not open it), into a
 * new device record of @r.
 * Returns: as ba_scan_path.
 */
int ba_scan_image_nbd(struct blkalign_report *r, const char *path,
		      struct ba_nbd *n)
{
	int rc;

	if (!r || !path || !n)
		return -EINVAL;
	if (ba_nbd_is_uri(path))
		return check_uri(r, path, n);
	rc = check_file(r, path, n);
	return rc && rc != -ENOMEM ? failed_target(r, path, rc) : rc;
}

/*
 * Scan the image of @d through @n.  When the image failed under the scan
 * (ba_nbd_broken: what the scan saw is not the disk), the record is made
 * anew, as check_image() had made it before the scan, and the failure
 * returned (> 0, why in @why); else 0 or -ENOMEM.
 */
static int scan_image(struct blkalign_report *r, struct ba_device *d,
		      struct ba_nbd *n, char *why, size_t len)
{
	struct blkalign_value lss = d->pub.topology.logical_sector_size;
	struct blkalign_value pss = d->pub.topology.physical_sector_size;
	const char *format = d->pub.image_format;
	uint32_t cluster = d->pub.cluster_size;
	uint64_t file_size = d->pub.size;
	char *path;
	int rc, broken;

	d->pub.size = d->pub.virtual_size = ba_nbd_size(n);
	d->pub.image_reader = ba_nbd_reader(n);
	rc = ba_scan_nbd(r->ctx, d, n);
	broken = rc ? 0 : ba_nbd_broken(n, why, len);
	if (!broken)
		return rc;
	path = strdup(d->pub.path);
	ba_device_release(d);
	if (path) {
		d->pub.path = ba_pool_strdup(&d->pool, path);
		d->pub.name = ba_pool_strdup(&d->pool, ba_base_name(path));
	}
	free(path);
	if (!d->pub.path || !d->pub.name)
		return -ENOMEM;
	d->pub.size = file_size;
	d->pub.image_format = format;
	d->pub.cluster_size = cluster;
	d->pub.topology.logical_sector_size = lss;
	d->pub.topology.physical_sector_size = pss;
	return broken;
}

/*
 * A target read through NBD that could not be: in the report, with why
 * (@why, one line), as failed_target() records it.
 */
static int failed_nbd(struct blkalign_report *r, struct ba_device *d,
		      const char *path, const char *what, const char *why)
{
	if (!d)
		d = new_device(r, path);
	if (!d)
		return -ENOMEM;
	ba_device_problem(d, "cannot read '%s' as %s: %s", path, what, why);
	d->pub.failed = true;
	return 0;
}

/*
 * A file audited alone that is one extent of a VMDK disk (image-refs.c):
 * a sparse extent with no descriptor of its own (@raw false; qemu would
 * say "Invalid argument"), or a flat one that a descriptor file beside it
 * names (@raw; its bytes are a part of the disk, read as a disk they
 * would show the disk's partitions past its end).  @d fails with why and
 * which file to audit.  Returns 0 (@d failed or not) or -ENOMEM.
 */
static int vmdk_extent(struct ba_device *d, const char *path, int fd, bool raw)
{
	const char *what = raw ? "a disk" : "a vmdk image";
	char *owner = NULL;
	int rc;

	if (!raw && !ba_vmdk_bare_extent(fd, d->pub.size))
		return 0;
	rc = ba_vmdk_owner(fd, path, &owner);
	if (rc || (raw && !owner))
		return rc;
	if (owner)
		ba_device_problem(d,
				  "cannot read '%s' as %s: an extent of '%s', "
				  "%s: the disk is '%s'",
				  path, what, owner,
				  raw ? "raw bytes of a part of its disk"
				      : "with no descriptor of its own",
				  owner);
	else
		ba_device_problem(
			d,
			"cannot read '%s' as %s: an extent of a "
			"split VMDK, with no descriptor of its own: "
			"the disk is the descriptor file that names it "
			"(none in its directory does)",
			path, what);
	d->pub.failed = true;
	free(owner);
	return 0;
}

/*
 * The grid of a VMDK descriptor file's disk: the grain of its extents,
 * when they are sparse ones of one grain (as a monolithicSparse's header
 * gives it), or why there is none.  Returns 0 or -ENOMEM.
 */
static int vmdk_grain(struct ba_device *d, const char *path, int fd)
{
	struct ba_io io;
	uint32_t grain;
	char why[512];
	int rc;

	ba_io_init_fd(&io, fd, d->pub.size);
	rc = ba_vmdk_split_grain(&io, path, &grain, why, sizeof(why));
	if (rc == -ENOMEM)
		return rc;
	d->pub.cluster_size = grain;
	if (!rc && why[0])
		ba_device_problem(d, "%s", why);
	return 0;
}

/*
 * The image file @path (@d, of @size bytes) in a qemu format: served by
 * a private qemu-nbd (nbd.c) and scanned through it, or through
 * @through, a connection to it the caller holds (fix's).  Returns 0 (a
 * failure is recorded in @d) or -ENOMEM.
 */
static int check_image(struct blkalign_report *r, struct ba_device *d,
		       const char *path, int fd,
		       const struct ba_image_info *info, struct ba_nbd *through)
{
	struct ba_nbd *n = through;
	char why[512], what[64];
	int rc;

	d->pub.image_format = info->format;
	d->pub.cluster_size = info->cluster_size;
	if (!strcmp(info->format, "vmdk")) {
		rc = vmdk_extent(d, path, fd, false);
		if (!rc && !d->pub.failed && !info->cluster_size)
			rc = vmdk_grain(d, path, fd);
		if (rc || d->pub.failed)
			return rc;
	}
	/* what the format records; options win (ba_topology_image) */
	d->pub.topology.logical_sector_size = (struct blkalign_value){
		info->logical_sector_size, info->logical_source};
	d->pub.topology.physical_sector_size = (struct blkalign_value){
		info->physical_sector_size, info->physical_source};
	snprintf(what, sizeof(what), "a %s image", info->format);
	if (info->damage)
		return failed_nbd(r, d, path, what, info->damage);
	if (n) {
		/* fix's connection: scanned as it reads */
		d->pub.size = d->pub.virtual_size = ba_nbd_size(n);
		d->pub.image_reader = ba_nbd_reader(n);
		return ba_scan_nbd(r->ctx, d, n);
	}
	/*
	 * Our own reader (vdisk.h, in its sandbox) when it knows the
	 * image; else, or when it finds the image damaged or written by a
	 * qemu, or gives up on a table entry under the scan, qemu-nbd,
	 * which reads it or says why not in qemu's words.  A reader that
	 * dies, or an image qemu-nbd fails to read, is a failed target.
	 */
	rc = ba_nbd_open_local(fd, d->pub.size, info->format, &n, why,
			       sizeof(why));
	if (!rc) {
		rc = scan_image(r, d, n, why, sizeof(why));
		ba_nbd_close(n);
		n = NULL;
		if (rc == BA_NBD_FAILED)
			rc = -ECHILD;
	}
	if (rc == -ECHILD)
		return failed_nbd(r, d, path, what, why);
	if (rc == 0 || rc == -ENOMEM)
		return rc;
	rc = ba_nbd_open_image(path, info->format, false, &n, why, sizeof(why));
	if (rc && rc != -ENOMEM)
		ba_image_open_hint(info, why, sizeof(why));
	if (!rc)
		rc = scan_image(r, d, n, why, sizeof(why));
	ba_nbd_close(n);
	if (rc == -ENOMEM || rc == 0)
		return rc;
	return failed_nbd(r, d, path, what, why);
}

/* An NBD URI: its export, scanned as an image. */
static int check_uri(struct blkalign_report *r, const char *uri,
		     struct ba_nbd *through)
{
	struct ba_nbd *n = through;
	struct ba_device *d;
	char why[512];
	int rc;

	rc = n ? 0 : ba_nbd_open_uri(uri, &n, why, sizeof(why));
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		return failed_nbd(r, NULL, uri, "an NBD export", why);
	d = ba_report_add_device(r);
	if (!d) {
		if (n != through)
			ba_nbd_close(n);
		return -ENOMEM;
	}
	d->pub.path = ba_pool_strdup(&d->pool, uri);
	/* the URI's last part is no name to number partitions after */
	d->pub.name = "nbd";
	d->pub.image_format = "nbd";
	d->pub.image_reader = ba_nbd_reader(n);
	d->pub.size = d->pub.virtual_size = ba_nbd_size(n);
	rc = ba_scan_nbd(r->ctx, d, n);
	if (n != through)
		ba_nbd_close(n);
	return rc;
}

/*
 * Open and audit one image or device.  Returns -errno without recording
 * anything when it cannot be opened (the caller decides what that means).
 */
static int check_file(struct blkalign_report *r, const char *path,
		      struct ba_nbd *through)
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
		rc = 0;
		goto out;
	}
	if (!d->pub.is_block_device) {
		struct ba_image_info info;

		/* a raw image is read through @fd, as it always was */
		rc = ba_image_sniff(fd, d->pub.size, &info);
		if (rc > 0) {
			rc = check_image(r, d, path, fd, &info, through);
			goto out;
		}
		if (through) {
			ba_device_problem(d,
					  "'%s' changed: no longer an image "
					  "in a qemu format",
					  path);
			d->pub.failed = true;
			rc = 0;
			goto out;
		}
		if (!rc && vmdk_name(path)) {
			rc = vmdk_extent(d, path, fd, true);
			if (rc || d->pub.failed)
				goto out;
		}
		d->pub.image_format = "raw";
		d->pub.virtual_size = d->pub.size;
	}
	if (d->pub.is_block_device) {
		int64_t partno;

		devdir = ba_sysfs_devdir(r->ctx, major(st.st_rdev),
					 minor(st.st_rdev));
		if (devdir &&
		    ba_sysfs_read_s64(devdir, "partition", &partno) == 0) {
			diskdir = ba_sysfs_parent_disk(devdir);
			rc = ba_scan_partition(r->ctx, d, fd, diskdir, devdir);
			goto out;
		}
		diskdir = devdir ? strdup(devdir) : NULL;
		if (!devdir)
			ba_device_problem(d,
					  "no sysfs entry for '%s'; topology "
					  "from ioctls only",
					  path);
	}
	rc = ba_scan_fd(r->ctx, d, fd, diskdir, devdir);
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

/*
 * The node to open for /sys/block/@name: /dev/mapper/<dm name> for a dm
 * device when that node is the same device (so the report names an LV or
 * a LUKS mapping as the user knows it), else /dev/@name.
 */
static char *node_path(const char *block, const char *name)
{
	char *sub = NULL, *path = NULL, dmname[128], dev[32];
	unsigned int ma, mi;
	struct stat st;

	if (asprintf(&sub, "%s/%s", block, name) < 0)
		return NULL;
	if (ba_sysfs_read_str(sub, "dm/name", dmname, sizeof(dmname)) == 0 &&
	    dmname[0] && !strchr(dmname, '/') &&
	    ba_sysfs_read_str(sub, "dev", dev, sizeof(dev)) == 0 &&
	    sscanf(dev, "%u:%u", &ma, &mi) == 2 &&
	    asprintf(&path, "/dev/mapper/%s", dmname) >= 0 &&
	    (stat(path, &st) < 0 || !S_ISBLK(st.st_mode) ||
	     major(st.st_rdev) != ma || minor(st.st_rdev) != mi)) {
		free(path);
		path = NULL;
	}
	free(sub);
	if (!path && asprintf(&path, "/dev/%s", name) < 0)
		return NULL;
	return path;
}

/**
 * ba_scan_all: scan every block device of the machine (or of the sysroot)
 * that has a size, like lsblk.  Devices that cannot be opened are scanned
 * from sysfs and say so.
 * Returns: 0 or -errno when the device list cannot be read.
 */
int ba_scan_all(struct blkalign_report *r)
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
		path = node_path(dir, name);
		if (!path)
			break;
		rc = check_file(r, path, NULL);
		if (rc && rc != -ENOMEM) /* no node or no permission */
			rc = sysfs_view(r, path, rc);
		free(path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return rc == -ENOMEM ? rc : 0;
}
