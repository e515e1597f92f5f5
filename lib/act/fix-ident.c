/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-ident.c - who the disk of a fix is, beyond its size and table
 * (which clones share): an image by its file system and inode (through a
 * loop device too: its backing file), a block device by its WWN, serial
 * or device-mapper uuid from sysfs (below the context's sysroot).  The
 * journal records it; resume and
 * rollback refuse another disk, and the default journal's name is a hash
 * of it.  A block device with none of these is known by its contents
 * only (the marker's fix id, the head).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xxhash.h>

#include "fix.h"

/* A file system's id: statfs's f_fsid (from the file system's UUID on
 * ext4, XFS, btrfs: stable across mounts), else the device number. */
static uint64_t fs_key(const struct statfs *sf, dev_t dev)
{
	uint64_t k;

	memcpy(&k, &sf->f_fsid,
	       sizeof(k) < sizeof(sf->f_fsid) ? sizeof(k) : sizeof(sf->f_fsid));
	return k ? k : (uint64_t)dev;
}

static void file_ident(const struct stat *st, const struct statfs *sf,
		       struct ba_fix_ident *id)
{
	id->kind = BA_FIX_ID_FILE;
	id->ino = (uint64_t)st->st_ino;
	id->fsid = fs_key(sf, st->st_dev);
}

/* The first line of sysfs file @dir/@name, trimmed, into @out. */
static bool sysfs_line(const char *dir, const char *name, char *out, size_t len)
{
	char p[4200];
	FILE *f;
	bool ok = false;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "re");
	if (!f)
		return false;
	if (fgets(out, (int)len, f)) {
		size_t n = strcspn(out, "\n");

		while (n && out[n - 1] == ' ')
			n--;
		out[n] = '\0';
		ok = n > 0;
	}
	fclose(f);
	return ok;
}

/* A loop device's backing file, when the name sysfs gives is still it. */
static bool loop_ident(int fd, const char *dir, struct ba_fix_ident *id)
{
	struct loop_info64 li;
	struct stat st;
	struct statfs sf;
	char back[4096];

	if (ioctl(fd, LOOP_GET_STATUS64, &li))
		return false;
	if (sysfs_line(dir, "loop/backing_file", back, sizeof(back)) &&
	    !stat(back, &st) && st.st_ino == li.lo_inode &&
	    st.st_dev == li.lo_device && !statfs(back, &sf)) {
		file_ident(&st, &sf, id);
		return true;
	}
	id->kind = BA_FIX_ID_FILE; /* the file is gone or renamed */
	id->ino = li.lo_inode;
	id->fsid = li.lo_device;
	return true;
}

/**
 * ba_fix_ident_of: the identity of the open target @fd, its sysfs
 * attributes read below @ctx's sysroot (NULL: /sys).  Returns 0 or
 * -errno.
 */
int ba_fix_ident_of(const struct blkalign_ctx *ctx, int fd,
		    struct ba_fix_ident *id)
{
	static const char *const names[] = {"wwid", "device/wwid", "serial",
					    "device/serial", "dm/uuid"};
	struct stat st;
	struct statfs sf;
	unsigned int pss = 0;
	char *dir;

	memset(id, 0, sizeof(*id));
	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		if (fstatfs(fd, &sf))
			return -errno;
		file_ident(&st, &sf, id);
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -EINVAL;
	if (!ioctl(fd, BLKPBSZGET, &pss))
		id->pss = pss;
	dir = ba_sysfs_path(ctx, "/sys/dev/block/%u:%u", major(st.st_rdev),
			    minor(st.st_rdev));
	if (!dir)
		return -ENOMEM;
	id->kind = BA_FIX_ID_NONE;
	if (loop_ident(fd, dir, id))
		goto out;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (sysfs_line(dir, names[i], id->serial, sizeof(id->serial))) {
			id->kind = BA_FIX_ID_DISK;
			break;
		}
out:
	free(dir);
	return 0;
}

bool ba_fix_ident_same(const struct ba_fix_ident *a,
		       const struct ba_fix_ident *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case BA_FIX_ID_FILE:
		return a->fsid == b->fsid && a->ino == b->ino;
	case BA_FIX_ID_DISK:
		return !strncmp(a->serial, b->serial, sizeof(a->serial));
	default:
		return true;
	}
}

/* In words, for messages: "inode 12 on file system 0x..." */
void ba_fix_ident_text(const struct ba_fix_ident *id, char *buf, size_t len)
{
	switch (id->kind) {
	case BA_FIX_ID_FILE:
		snprintf(buf, len,
			 "the file of inode %llu on file system %#llx",
			 (unsigned long long)id->ino,
			 (unsigned long long)id->fsid);
		break;
	case BA_FIX_ID_DISK:
		snprintf(buf, len, "the disk '%.127s'", id->serial);
		break;
	default:
		snprintf(buf, len, "a disk with no serial");
		break;
	}
}

/* The hash that names the default journal: the identity, or the
 * canonical @path when there is none. */
uint64_t ba_fix_ident_hash(const struct ba_fix_ident *id, const char *path)
{
	char key[4200], real[4096];

	switch (id->kind) {
	case BA_FIX_ID_FILE:
		snprintf(key, sizeof(key), "file:%llx:%llu",
			 (unsigned long long)id->fsid,
			 (unsigned long long)id->ino);
		break;
	case BA_FIX_ID_DISK:
		snprintf(key, sizeof(key), "disk:%.127s", id->serial);
		break;
	default:
		snprintf(key, sizeof(key), "path:%s",
			 realpath(path, real) ? real : path);
		break;
	}
	return XXH3_64bits(key, strlen(key));
}
