/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ntfs.c - the clusters an NTFS uses, read through libntfs-3g (ntfs-3g's
 * own library, what ntfsclone and ntfsresize use): its $Bitmap, one bit
 * per cluster (bit i of byte j: cluster 8j + i), walked run by run.
 * Every allocated cluster is in it: $Boot, $MFT and its mirror,
 * $LogFile, the bitmap itself, directories and file data.  Past the
 * last cluster the volume keeps its backup boot sector (mkntfs and
 * Windows: at "total sectors" x bytes per sector, the partition's last
 * sector; ntfs-3g reads it in the last sector of the device): all the
 * bytes from the end of the last cluster to the end of the region are
 * counted used, a sector or a few when the partition is the volume's.
 *
 * libntfs-3g reads through a struct ntfs_device of ours over struct
 * ba_io (ntfs-dev.c), mounted read-only: its writes fail with EROFS,
 * nothing is replayed or reset (no NTFS_MNT_RECOVER), nothing printed.
 * A map is read by mounts of its own, unmounted before the reader
 * returns: nothing is kept open.
 *
 * Trusted only when clean: the volume's dirty flag ($Volume's
 * $VOLUME_INFORMATION, VOLUME_IS_DIRTY: set by Windows until chkdsk ran,
 * and by ntfsfix), Windows hibernated or fast-started (hiberfil.sys
 * with a "hibr" header, a $LogFile restart page of version 2.0) and a
 * $LogFile that is not clean are refused (-EUCLEAN), as ntfs-3g refuses
 * to mount such a volume read-write; a read-only mount does not check,
 * so this reader does it, with libntfs-3g's own checks.  Refused as
 * contradicting itself (-EBADMSG): a volume larger than its region, a
 * $Bitmap shorter than the cluster count or marking a cluster used past
 * it (mkntfs sets the padding bits of the bitmap's last 8-byte word: in
 * that word they are ignored), $Boot, $MFT or $MFTMirr marked free, and
 * what libntfs-3g finds corrupt while mounting.  What libntfs-3g says
 * it does not support, and a $Bitmap longer than its clusters' 8-byte
 * words in whole clusters (what mkntfs allocates; a sparse one could
 * claim any length): -ENOTSUP (copied whole).
 *
 * Layout: ntfs-3g include/ntfs-3g/layout.h (NTFS_BOOT_SECTOR,
 * VOLUME_INFORMATION), volume.c (ntfs_device_mount, what its
 * read-write mount checks), mkntfs.c (the bitmap's padding, the backup
 * boot sector).
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> /* before ntfstime.h, or it declares timespec */

#include <ntfs-3g/types.h>
#include <ntfs-3g/attrib.h>
#include <ntfs-3g/bootsect.h>
#include <ntfs-3g/inode.h>
#include <ntfs-3g/logfile.h>
#include <ntfs-3g/volume.h>

#include "used/ntfs-dev.h"

#define BOOT_SIZE   512
#define CHUNK	    (1024 * 1024) /* bytes of $Bitmap read at once */
#define ATTRDEF_MAX 0xffffff	  /* ntfs_device_mount's limit */

/*
 * Before libntfs-3g allocates anything by what the boot sector says: a
 * boot sector ntfs-3g takes for NTFS, and a volume inside the region.
 */
static int precheck(struct ba_io *io, uint64_t off, uint64_t size, char *why,
		    size_t len)
{
	uint8_t b[BOOT_SIZE];
	NTFS_BOOT_SECTOR *bs = (NTFS_BOOT_SECTOR *)b;
	uint64_t sectors;
	uint32_t bps;
	int rc;

	_Static_assert(sizeof(NTFS_BOOT_SECTOR) == BOOT_SIZE,
		       "NTFS boot sector is 512 bytes");
	rc = ba_io_read_region(io, off, size, 0, sizeof(b), b);
	if (rc) {
		snprintf(why, len, "no room for an NTFS boot sector");
		return rc < 0 ? rc : -EINVAL;
	}
	if (!ntfs_boot_sector_is_ntfs(bs)) {
		snprintf(why, len,
			 "no NTFS boot sector (as ntfs-3g checks it)");
		return -EINVAL;
	}
	bps = le16_to_cpu(bs->bpb.bytes_per_sector);
	sectors = (uint64_t)sle64_to_cpu(bs->number_of_sectors);
	if (!bps || sectors > size / bps) {
		snprintf(why, len,
			 "its boot sector says %" PRIu64 " sectors of %u "
			 "bytes, more than its %" PRIu64 " bytes hold",
			 sectors, bps, size);
		return -EBADMSG;
	}
	return 0;
}

/* Refused (-EUCLEAN) when not clean, as a read-write mount refuses. */
static int check_clean(const struct ntfs_src *s, ntfs_volume *vol, char *why,
		       size_t len)
{
	RESTART_PAGE_HEADER *rp = NULL;
	ntfs_attr *na = NULL;
	ntfs_inode *ni;
	int rc = 0;

	if (vol->flags & VOLUME_IS_DIRTY) {
		snprintf(why, len,
			 "it is marked dirty (a check is due): run Windows' "
			 "chkdsk /f on it, then ntfsfix -d");
		return -EUCLEAN;
	}
	errno = 0;
	if (ntfs_volume_check_hiberfile(vol, 0) < 0) {
		if (errno == EPERM) {
			snprintf(why, len,
				 "Windows is hibernated or fast-started on "
				 "it (hiberfil.sys): shut it down fully");
			return -EUCLEAN;
		}
		return ba_ntfs_error(s, errno, "looking for hiberfil.sys", why,
				     len);
	}
	ni = ntfs_inode_open(vol, FILE_LogFile);
	if (ni)
		na = ntfs_attr_open(ni, AT_DATA, AT_UNNAMED, 0);
	if (!na) {
		rc = ba_ntfs_error(s, errno, "opening its $LogFile", why, len);
		goto out;
	}
	if (!ntfs_check_logfile(na, &rp) || !ntfs_is_logfile_clean(na, rp)) {
		if (s->err)
			rc = ba_ntfs_error(s, EIO, "reading its $LogFile", why,
					   len);
		else if (rp && rp->major_ver == const_cpu_to_sle16(2) &&
			 rp->minor_ver == const_cpu_to_sle16(0))
			snprintf(why, len,
				 "Windows is hibernated or fast-started on "
				 "it ($LogFile 2.0): shut it down fully");
		else
			snprintf(why, len,
				 "its $LogFile is not clean (Windows did not "
				 "unmount it): let Windows mount and shut "
				 "down, or run its chkdsk /f");
		if (!rc)
			rc = -EUCLEAN;
	}
out:
	free(rp);
	if (na)
		ntfs_attr_close(na);
	if (ni)
		ntfs_inode_close(ni);
	return rc;
}

struct walk {
	struct ba_used_map *m;
	uint64_t cs;	/* cluster size */
	uint64_t nbits; /* clusters */
	bool open;	/* a run of used clusters is open */
	uint64_t start; /* its first cluster */
};

static int run_end(struct walk *w, uint64_t end)
{
	w->open = false;
	return ba_used_add(w->m, w->start * w->cs, (end - w->start) * w->cs);
}

/* The bits of one 64-bit word of $Bitmap, clusters @base..@base + 63
 * (only those below w->nbits). */
static int word(struct walk *w, uint64_t base, uint64_t bits)
{
	unsigned int b = 0, k;
	uint64_t rest;
	int rc;

	if (base + 64 > w->nbits)
		bits &= (1ULL << (w->nbits - base)) - 1; /* the padding */
	while (b < 64) {
		rest = bits >> b;
		if (w->open) {
			rest = ~rest & (~0ULL >> b); /* free ones of b..63 */
			if (!rest)
				return 0; /* the run goes on */
			k = (unsigned int)__builtin_ctzll(rest);
			rc = run_end(w, base + b + k);
			if (rc)
				return rc;
		} else {
			if (!rest)
				return 0;
			k = (unsigned int)__builtin_ctzll(rest);
			w->open = true;
			w->start = base + b + k;
		}
		b += k;
	}
	return 0;
}

/* Whether cluster @lcn is in @m, the runs so far (sorted, disjoint). */
static bool is_used(const struct walk *w, uint64_t lcn)
{
	return ba_used_in(w->m, lcn * w->cs, w->cs) == w->cs;
}

/*
 * Add $Bitmap's runs of used clusters: read @CHUNK bytes at a time,
 * looked at a 64-bit word at a time (runs of free or used clusters
 * skipped a word at once).
 */
static int walk(const struct ntfs_src *s, ntfs_volume *vol,
		struct ba_used_map *m, char *why, size_t len)
{
	struct walk w = {.m = m,
			 .cs = vol->cluster_size,
			 .nbits = (uint64_t)vol->nr_clusters};
	ntfs_attr *na = vol->lcnbmp_na;
	uint64_t need = (w.nbits + 7) / 8, size, pos, n, i, bits, most;
	uint8_t *buf;
	int rc = 0;

	if (na->data_size < 0 || (uint64_t)na->data_size < need) {
		snprintf(why, len,
			 "its $Bitmap has %lld bytes, its %" PRIu64
			 " clusters need %" PRIu64 ": run chkdsk /f on it",
			 (long long)na->data_size, w.nbits, need);
		return -EBADMSG;
	}
	/* mkntfs's: 8-byte words, in whole clusters; a longer one (a
	 * sparse claim of any length) is not walked: copied whole */
	most = ((need + 7) / 8 * 8 + w.cs - 1) / w.cs * w.cs;
	size = (uint64_t)na->data_size;
	if (size > most) {
		snprintf(why, len,
			 "its $Bitmap has %" PRIu64 " bytes for %" PRIu64
			 " clusters, more than the %" PRIu64 " it would take",
			 size, w.nbits, most);
		return -ENOTSUP;
	}
	buf = malloc(CHUNK + 8);
	if (!buf)
		return -ENOMEM;
	for (pos = 0; !rc && pos < size; pos += n) {
		n = size - pos > CHUNK ? CHUNK : size - pos;
		if (ntfs_attr_pread(na, (s64)pos, (s64)n, buf) != (s64)n) {
			rc = ba_ntfs_error(s, errno ? errno : EIO,
					   "reading its $Bitmap", why, len);
			break;
		}
		memset(buf + n, 0, 8); /* a last partial word */
		for (i = 0; !rc && i < n; i += 8) {
			uint64_t base = (pos + i) * 8;

			memcpy(&bits, buf + i, sizeof(bits));
			bits = le64toh(bits);
			if (base < w.nbits) {
				rc = word(&w, base, bits);
			} else if (bits) {
				snprintf(why, len,
					 "its $Bitmap marks cluster %" PRIu64
					 " used, past its %" PRIu64
					 " clusters: run chkdsk /f on it",
					 base + (uint64_t)__builtin_ctzll(bits),
					 w.nbits);
				rc = -EBADMSG;
			}
		}
	}
	free(buf);
	if (!rc && w.open)
		rc = run_end(&w, w.nbits);
	if (rc == -E2BIG)
		snprintf(why, len, "its free space is in more than %u pieces",
			 BA_USED_MAX_EXTENTS);
	if (rc)
		return rc;
	if (!is_used(&w, 0) || !is_used(&w, (uint64_t)vol->mft_lcn) ||
	    !is_used(&w, (uint64_t)vol->mftmirr_lcn)) {
		snprintf(why, len,
			 "its $Bitmap marks $Boot, $MFT (cluster %lld) or "
			 "$MFTMirr (cluster %lld) free: run chkdsk /f on it",
			 (long long)vol->mft_lcn, (long long)vol->mftmirr_lcn);
		return -EBADMSG;
	}
	return 0;
}
/*
 * ntfs_device_mount leaks $AttrDef's inode and attribute when it fails
 * on them (libntfs-3g's volume.c: no attribute, longer than 2^24 bytes,
 * a short read): what it reads of $AttrDef is read first on a volume
 * only started up, so that a mount that would fail there never runs.
 * 0, or -errno with @why.
 */
static int check_attrdef(struct ntfs_src *s, char *why, size_t len)
{
	ntfs_volume *vol = ba_ntfs_open(s, false);
	ntfs_attr *na = NULL;
	ntfs_inode *ni;
	void *buf = NULL;
	int rc = 0;

	if (!vol)
		return ba_ntfs_error(s, errno, "mounting it with libntfs-3g",
				     why, len);
	errno = 0;
	ni = ntfs_inode_open(vol, FILE_AttrDef);
	if (ni)
		na = ntfs_attr_open(ni, AT_DATA, AT_UNNAMED, 0);
	if (!na) {
		rc = ba_ntfs_error(s, errno, "opening its $AttrDef", why, len);
		goto out;
	}
	if (na->data_size < 0 || na->data_size > ATTRDEF_MAX) {
		snprintf(why, len,
			 "its $AttrDef has %lld bytes, more than %d: run "
			 "chkdsk /f on it",
			 (long long)na->data_size, ATTRDEF_MAX);
		rc = -EBADMSG;
		goto out;
	}
	buf = malloc(na->data_size ? (size_t)na->data_size : 1);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	errno = 0;
	if (ntfs_attr_pread(na, 0, na->data_size, buf) != na->data_size)
		rc = ba_ntfs_error(s, errno, "reading its $AttrDef", why, len);
out:
	free(buf);
	if (na)
		ntfs_attr_close(na);
	if (ni)
		ntfs_inode_close(ni);
	ntfs_umount(vol, FALSE);
	return rc;
}

int ba_used_ntfs(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_used_map *m, char *why, size_t len)
{
	struct ntfs_src src = {.io = io, .off = off, .size = size};
	ntfs_volume *vol;
	uint64_t end;
	int rc;

	rc = precheck(io, off, size, why, len);
	if (!rc)
		rc = check_attrdef(&src, why, len);
	if (rc)
		return rc;
	vol = ba_ntfs_open(&src, true);
	if (!vol)
		return ba_ntfs_error(&src, errno, "mounting it with libntfs-3g",
				     why, len);
	rc = check_clean(&src, vol, why, len);
	if (rc)
		goto out;
	end = (uint64_t)vol->nr_clusters * vol->cluster_size;
	if (vol->nr_clusters <= 0 || end > size) {
		snprintf(why, len,
			 "its %lld clusters of %u bytes are more than its "
			 "%" PRIu64 " bytes",
			 (long long)vol->nr_clusters, vol->cluster_size, size);
		rc = -EBADMSG;
		goto out;
	}
	m->unit = vol->cluster_size;
	rc = walk(&src, vol, m, why, len);
	/* the boot sector, and the backup boot sector past the clusters */
	if (!rc)
		rc = ba_used_add(m, 0, vol->cluster_size);
	if (!rc)
		rc = ba_used_add(m, end, size - end);
out:
	ntfs_umount(vol, FALSE); /* and its device */
	return rc;
}
