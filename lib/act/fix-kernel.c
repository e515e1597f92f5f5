/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-kernel.c - telling the kernel about the new table: BLKRRPART, then
 * every partition of the table compared with sysfs (below the context's
 * sysroot) and, where the kernel
 * has it elsewhere or not at all, BLKPG delete + add (what `partx -u`
 * does).  Kernels whose own scan finds nothing (or that are told about
 * partitions only through BLKPG, like loop devices set up by partx) end
 * up with the same partitions as the table.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fdisk-dl.h"
#include "fix.h"

struct kpart {
	uint64_t start, size; /* bytes */
	bool seen;
};

#define KPARTS 256

static bool read_u64(const char *dir, const char *name, uint64_t *v)
{
	char p[4300];
	unsigned long long x;
	FILE *f;
	bool ok;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	*v = x;
	return ok;
}

/* The kernel's partitions of the disk @rdev, by number (sysfs). */
static void kernel_parts(const struct blkalign_ctx *ctx, dev_t rdev,
			 struct kpart *k)
{
	char *dir, sub[4200];
	struct dirent *e;
	DIR *d;

	dir = ba_sysfs_path(ctx, "/sys/dev/block/%u:%u", major(rdev),
			    minor(rdev));
	d = dir ? opendir(dir) : NULL;
	if (!d) {
		free(dir);
		return;
	}
	while ((e = readdir(d))) {
		uint64_t n, s, z;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (!read_u64(sub, "partition", &n) || !n || n >= KPARTS ||
		    !read_u64(sub, "start", &s) || !read_u64(sub, "size", &z))
			continue;
		k[n] = (struct kpart){s * 512, z * 512, true};
	}
	closedir(d);
	free(dir);
}

static int blkpg(int fd, int op, int pno, uint64_t start, uint64_t len)
{
	struct blkpg_partition part = {0};
	struct blkpg_ioctl_arg arg = {0};

	part.pno = pno;
	part.start = (long long)start;
	part.length = (long long)len;
	arg.op = op;
	arg.data = &part;
	arg.datalen = sizeof(part);
	return ioctl(fd, BLKPG, &arg) ? -errno : 0;
}

/**
 * ba_fix_tell_kernel: make the kernel's partitions of the block device
 * open as @f (at @path, @lss-byte sectors) those of its table, sysfs read
 * below @ctx's sysroot (NULL: /sys).  Returns 0,
 * or -errno when the kernel could not be told (the table on disk is
 * right; `partprobe` or a reboot picks it up).
 */
int ba_fix_tell_kernel(const struct blkalign_ctx *ctx, struct ba_file *f,
		       const char *path, uint32_t lss)
{
	struct kpart *k = calloc(KPARTS, sizeof(*k));
	struct fdisk_context *cxt = NULL;
	struct fdisk_table *tb = NULL;
	struct stat st;
	int rc = 0;

	if (!k)
		return -ENOMEM;
	if (fstat(f->fd, &st) || !S_ISBLK(st.st_mode))
		goto out;
	(void)ioctl(f->fd, BLKRRPART);
	kernel_parts(ctx, st.st_rdev, k);
	if (!ba_fdisk_dl_load(NULL, 0))
		cxt = sym_fdisk_new_context();
	if (!cxt || sym_fdisk_save_user_sector_size(cxt, lss, lss) ||
	    sym_fdisk_assign_device(cxt, path, 1) ||
	    sym_fdisk_get_partitions(cxt, &tb)) {
		rc = -EIO;
		goto out;
	}
	for (size_t i = 0; i < sym_fdisk_table_get_nents(tb); i++) {
		struct fdisk_partition *pa =
			sym_fdisk_table_get_partition(tb, i);
		size_t no = sym_fdisk_partition_get_partno(pa) + 1;
		uint64_t s = (uint64_t)sym_fdisk_partition_get_start(pa) * lss;
		uint64_t z = (uint64_t)sym_fdisk_partition_get_size(pa) * lss;
		int r;

		if (no >= KPARTS)
			continue;
		if (sym_fdisk_partition_is_container(pa))
			z = lss == 512 ? 1024 : lss; /* as the kernel does */
		if (k[no].seen && k[no].start == s && k[no].size == z)
			continue;
		if (k[no].seen)
			(void)blkpg(f->fd, BLKPG_DEL_PARTITION, (int)no, 0, 0);
		r = blkpg(f->fd, BLKPG_ADD_PARTITION, (int)no, s, z);
		if (r && !rc)
			rc = r;
	}
out:
	if (cxt) { /* else libfdisk may not be loaded */
		sym_fdisk_unref_table(tb);
		sym_fdisk_unref_context(cxt);
	}
	free(k);
	return rc;
}
