/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-table.c - the new partition table, computed before anything is
 * written: the sectors libfdisk reads (dos: the MBR and every EBR; GPT:
 * everything before the first and after the last usable LBA) are copied
 * into a sparse temporary file as large as the disk, libfdisk changes the
 * partition there, and the sectors that differ become patches (old and
 * new bytes) that go into the journal.  Writing the new table, or the old
 * one back, is then replaying patches: idempotent, so a crash in the
 * middle is finished by doing it again.  Also the file system fields that
 * record the partition's own start (FAT and NTFS "hidden sectors").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdisk-dl.h"
#include "fix.h"
#include "bytes.h"

struct region {
	uint64_t off, len;
};

#define MAX_REGIONS (BA_DOS_EBR_MAX + 2)

static int regions_of(const struct blkalign_device *d, struct ba_io *io,
		      uint32_t lss, struct region *r, size_t *n, char *err,
		      size_t errlen)
{
	*n = 0;
	if (!strcmp(d->scheme, "dos")) {
		struct ba_dos_check *dc = calloc(1, sizeof(*dc));
		int rc;

		if (!dc)
			return -ENOMEM;
		rc = ba_dos_check(io, lss, dc);
		if (rc || dc->state != BA_EBR_OK || dc->truncated ||
		    dc->nebr >= BA_DOS_EBR_MAX) {
			snprintf(err, errlen,
				 "the EBR chain cannot be walked "
				 "safely (see 'blkalign check')");
			free(dc);
			return rc ? rc : -EINVAL;
		}
		r[(*n)++] = (struct region){0, lss};
		for (unsigned int i = 0; i < dc->nebr; i++)
			r[(*n)++] = (struct region){dc->ebr_lba[i] * lss, lss};
		free(dc);
		return 0;
	}
	if (!strcmp(d->scheme, "gpt")) {
		struct ba_gpt_check gc;
		const struct ba_gpt_header *h;
		int rc = ba_gpt_check(io, lss, &gc);

		if (rc || gc.primary.state != BA_GPT_OK ||
		    gc.backup.state != BA_GPT_OK) {
			snprintf(err, errlen,
				 "both GPT headers must be valid "
				 "(see 'blkalign check')");
			return rc ? rc : -EINVAL;
		}
		h = &gc.primary;
		if (h->first_usable_lba * lss > d->size ||
		    (h->last_usable_lba + 1) * lss > d->size) {
			snprintf(err, errlen,
				 "the GPT's usable range is "
				 "outside the disk");
			return -EINVAL;
		}
		r[(*n)++] = (struct region){0, h->first_usable_lba * lss};
		r[(*n)++] = (struct region){(h->last_usable_lba + 1) * lss,
					    d->size - (h->last_usable_lba + 1) *
							      lss};
		return 0;
	}
	snprintf(err, errlen, "fix writes dos and GPT tables only");
	return -EINVAL;
}

static int copy_region(int from, int to, uint64_t off, uint64_t len)
{
	uint8_t buf[65536];

	while (len) {
		size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);

		ssize_t got = pread(from, buf, n, (off_t)off);

		if (got != (ssize_t)n)
			return got < 0 ? -errno : -EIO;
		got = pwrite(to, buf, n, (off_t)off);
		if (got != (ssize_t)n) /* short: the file system is full */
			return got < 0 ? -errno : -ENOSPC;
		off += n;
		len -= n;
	}
	return 0;
}

static int set_range(struct fdisk_context *cxt, size_t partno, uint64_t start,
		     uint64_t size)
{
	struct fdisk_partition *pa = sym_fdisk_new_partition();
	int rc;

	if (!pa)
		return -ENOMEM;
	sym_fdisk_partition_set_start(pa, start);
	sym_fdisk_partition_set_size(pa, size);
	rc = sym_fdisk_set_partition(cxt, partno, pa);
	sym_fdisk_unref_partition(pa);
	return rc;
}

/*
 * How far the partition first shrinks on each side it grows on: the free
 * space next to it is then at least 3 sectors.  libfdisk 2.38 sees no
 * free space of a single sector (new_freespace() takes start == end for
 * an empty area, its ends being inclusive), none of fewer than 3 at the
 * end of the disk, and refuses to grow a partition into what it does
 * not see: a partition one sector before the next one could never move
 * right by that sector, nor one sector after the one before it left.
 */
#define SHRINK_SECTORS 2

/*
 * Let libfdisk move partition @g->number in the table image @tmp, in
 * three steps, each inside the partition or into free space libfdisk
 * recognises (it moves a start nowhere else): shrink the partition on
 * the sides it will grow on, stretch it over the old and the new place,
 * cut it to the new one.
 */
static int move_steps(struct fdisk_context *cxt, const struct ba_fix_geom *g,
		      uint32_t lss)
{
	size_t partno = g->number - 1;
	uint64_t os = g->old_start / lss, oe = os + g->old_size / lss;
	uint64_t ns = g->new_start / lss, ne = ns + g->new_size / lss;
	uint64_t s = os, e = oe;
	int rc = 0;

	if (ns < os)
		s += SHRINK_SECTORS;
	if (ne > oe)
		e -= SHRINK_SECTORS;
	if ((s != os || e != oe) && e > s)
		rc = set_range(cxt, partno, s, e - s);
	s = ns < os ? ns : os;
	e = ne > oe ? ne : oe;
	if (!rc)
		rc = set_range(cxt, partno, s, e - s);
	if (!rc)
		rc = set_range(cxt, partno, ns, ne - ns);
	return rc;
}

/*
 * Let libfdisk move partition @g->number in the table image @tmp: fix's
 * first call into libfdisk, before anything is written, so the one that
 * loads it (fdisk-dl.c) and says so when it cannot.
 */
static int fdisk_change(const char *tmp, uint32_t lss,
			const struct ba_fix_geom *g, char *err, size_t errlen)
{
	struct fdisk_context *cxt;
	int rc = ba_fdisk_dl_load(err, errlen);

	if (rc)
		return rc;
	cxt = sym_fdisk_new_context();
	if (!cxt)
		return -ENOMEM;
	/* A grain of one sector: libfdisk then sees the free space right
	 * after the partition, and lets it grow into it (its own 1 MiB
	 * grain starts the free space later, and refuses). */
	rc = sym_fdisk_save_user_sector_size(cxt, lss, lss);
	if (!rc)
		rc = sym_fdisk_save_user_grain(cxt, lss);
	if (!rc)
		rc = sym_fdisk_assign_device(cxt, tmp, 0);
	if (rc || !sym_fdisk_has_label(cxt)) {
		snprintf(err, errlen, "libfdisk cannot read the table");
		rc = rc ? rc : -EINVAL;
		goto out;
	}
	/* dos: free space from the sector after the MBR (libfdisk's first
	 * LBA is 1 MiB, and nothing before it is free to it; a GPT's is its
	 * first usable LBA, as it should be); between logical partitions,
	 * from the sector after the one before (not 1 MiB after it). */
	if (sym_fdisk_is_labeltype(cxt, FDISK_DISKLABEL_DOS))
		sym_fdisk_set_first_lba(cxt, 1);
	rc = move_steps(cxt, g, lss);
	if (!rc)
		rc = sym_fdisk_write_disklabel(cxt);
	if (rc)
		snprintf(err, errlen, "libfdisk refused the new layout (%s)",
			 strerror(-rc));
out:
	if (sym_fdisk_get_devfd(cxt) >= 0 &&
	    sym_fdisk_deassign_device(cxt, 0) && !rc)
		rc = -EIO;
	sym_fdisk_unref_context(cxt);
	return rc;
}

/* Every partition as @d has it, partition @g->number as planned. */
static int verify_image(const char *tmp, const struct blkalign_device *d,
			uint32_t lss, const struct ba_fix_geom *g, char *err,
			size_t errlen)
{
	struct fdisk_context *cxt;
	struct fdisk_table *tb = NULL;
	size_t want = 0, seen = 0;
	int rc = ba_fdisk_dl_load(err, errlen);

	if (rc)
		return rc;
	rc = -EINVAL;
	cxt = sym_fdisk_new_context();
	if (!cxt)
		return -ENOMEM;
	if (sym_fdisk_save_user_sector_size(cxt, lss, lss) ||
	    sym_fdisk_assign_device(cxt, tmp, 1) ||
	    sym_fdisk_get_partitions(cxt, &tb))
		goto out;
	for (size_t i = 1; i < d->nlayers; i++)
		if (d->layers[i].kind == BLKALIGN_LAYER_PARTITION)
			want++;
	for (size_t k = 0; k < sym_fdisk_table_get_nents(tb); k++) {
		struct fdisk_partition *pa =
			sym_fdisk_table_get_partition(tb, k);
		uint64_t s = (uint64_t)sym_fdisk_partition_get_start(pa) * lss;
		uint64_t z = (uint64_t)sym_fdisk_partition_get_size(pa) * lss;
		int num = (int)sym_fdisk_partition_get_partno(pa) + 1;
		bool found = false;

		seen++;
		for (size_t i = 1; i < d->nlayers; i++) {
			const struct blkalign_layer *l = &d->layers[i];

			if (l->kind != BLKALIGN_LAYER_PARTITION ||
			    l->number != num)
				continue;
			found = (uint32_t)num == g->number
					? s == g->new_start && z == g->new_size
					: s == l->start && z == l->size;
		}
		if (!found) {
			snprintf(err, errlen,
				 "the new table's partition %d "
				 "is not as planned",
				 num);
			goto out;
		}
	}
	rc = seen == want ? 0 : -EINVAL;
	if (rc)
		snprintf(err, errlen,
			 "the new table has %zu partitions, "
			 "%zu expected",
			 seen, want);
out:
	sym_fdisk_unref_table(tb);
	sym_fdisk_unref_context(cxt);
	return rc;
}

/* Changed sectors of the regions, merged into runs, with both versions. */
static int diff(struct ba_journal *j, int dev, int tmp, const struct region *r,
		size_t n, uint32_t lss)
{
	uint8_t *a = malloc(lss), *b = malloc(lss);
	struct {
		uint64_t off;
		uint32_t len;
	} run[BA_FIX_MAX_PATCHES];
	uint32_t np = 0;
	uint64_t total = 0, pos;
	int rc = 0;

	if (!a || !b) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n && !rc; i++)
		for (uint64_t s = 0; s < r[i].len; s += lss) {
			uint64_t off = r[i].off + s;

			if (pread(dev, a, lss, (off_t)off) != (ssize_t)lss ||
			    pread(tmp, b, lss, (off_t)off) != (ssize_t)lss) {
				rc = -EIO;
				break;
			}
			if (!memcmp(a, b, lss))
				continue;
			if (np && run[np - 1].off + run[np - 1].len == off &&
			    run[np - 1].len < 1024 * 1024) {
				run[np - 1].len += lss;
			} else if (np < BA_FIX_MAX_PATCHES) {
				run[np].off = off;
				run[np++].len = lss;
			} else {
				rc = -E2BIG;
				break;
			}
			total += lss;
		}
	if (rc)
		goto out;
	j->blob = malloc(2 * total + 1);
	if (!j->blob) {
		rc = -ENOMEM;
		goto out;
	}
	pos = 0;
	for (uint32_t i = 0; i < np && !rc; i++) {
		struct ba_fix_patch *p = &j->patches[i];

		p->off = run[i].off;
		p->len = run[i].len;
		p->old = j->blob + pos;
		p->new = j->blob + pos + p->len;
		pos += 2ULL * p->len;
		if (pread(dev, p->old, p->len, (off_t)p->off) !=
			    (ssize_t)p->len ||
		    pread(tmp, p->new, p->len, (off_t)p->off) !=
			    (ssize_t)p->len)
			rc = -EIO;
	}
	j->g.npatches = np;
out:
	free(a);
	free(b);
	return rc;
}

/*
 * A plain descriptor to read the table of @d from, read-only, and @io
 * over it: the disk itself, or for an image in a qemu format the memory
 * file of its NBD connection, whose every read @io fetches first (the
 * regions the table spans are fetched whole before they are copied).
 * Returns the descriptor or -errno.
 */
static int table_source(struct ba_file *dev, const struct blkalign_device *d,
			struct ba_io *io)
{
	int fd;

	if (dev->nbd) {
		fd = fcntl(ba_nbd_fd(dev->nbd), F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		ba_io_init_nbd(io, dev->nbd);
		return fd;
	}
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ba_io_init_fd(io, fd, d->size);
	return fd;
}

/**
 * ba_fix_table_source: the path libfdisk reads the table of @dev (at
 * @path) from, into @buf: @path, or for an image in a qemu format the
 * memory file that holds its table (ba_fix_table_patches fetched it).
 */
const char *ba_fix_table_source(const struct ba_file *dev, const char *path,
				char *buf, size_t len)
{
	if (!dev->nbd)
		return path;
	snprintf(buf, len, "/proc/self/fd/%d", ba_nbd_fd(dev->nbd));
	return buf;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * A table sector (the MBR, an EBR, a GPT's headers and entries) where
 * the move writes: its data at the new place, its hidden head at the
 * old one.  The plan keeps clear of them (an EBR stays where it was
 * when libfdisk moves a logical partition); a plan that does not is
 * refused here rather than lose the partitions after it.
 */
static int clear_of_moves(const struct ba_fix_geom *g, const struct region *r,
			  char *err, size_t errlen)
{
	if (!overlaps(r->off, r->len, g->new_start, g->len) &&
	    !overlaps(r->off, r->len, g->old_start, g->head_len))
		return 0;
	snprintf(err, errlen,
		 "the move would write over the partition table at sector "
		 "%llu (an EBR or a GPT's own sectors): refused, nothing "
		 "written",
		 (unsigned long long)(r->off / g->lss));
	return -EFAULT;
}

/**
 * ba_fix_table_patches: compute the table change of @j->g into
 * @j->patches, from the table of @d read through @dev.
 * Returns 0 or -errno with @err set.
 */
int ba_fix_table_patches(struct ba_file *dev, const struct blkalign_device *d,
			 struct ba_journal *j, const char *tmpdir, char *err,
			 size_t errlen)
{
	struct region r[MAX_REGIONS];
	struct ba_io io;
	char tmp[4096];
	size_t n = 0;
	int rfd, tfd, rc;

	rfd = table_source(dev, d, &io);
	if (rfd < 0)
		return rfd;
	rc = regions_of(d, &io, j->g.lss, r, &n, err, errlen);
	for (size_t i = 0; i < n && !rc; i++)
		rc = clear_of_moves(&j->g, &r[i], err, errlen);
	for (size_t i = 0; i < n && !rc && dev->nbd; i++)
		rc = ba_nbd_fill(dev->nbd, r[i].off, r[i].len);
	if (rc)
		goto out_r;
	snprintf(tmp, sizeof(tmp), "%s/blkalign-table.XXXXXX", tmpdir);
	tfd = mkstemp(tmp);
	if (tfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create a table image in %s: %s",
			 tmpdir, strerror(-rc));
		goto out_r;
	}
	if (ftruncate(tfd, (off_t)d->size)) {
		rc = -errno;
		snprintf(err, errlen, "cannot size a table image in %s: %s",
			 tmpdir, strerror(-rc));
		goto out_t;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = copy_region(rfd, tfd, r[i].off, r[i].len);
	if (rc) {
		snprintf(err, errlen,
			 "cannot copy the table into a table image in '%s': %s",
			 tmpdir, strerror(-rc));
		goto out_t;
	}
	rc = fdisk_change(tmp, j->g.lss, &j->g, err, errlen);
	if (!rc)
		rc = verify_image(tmp, d, j->g.lss, &j->g, err, errlen);
	if (!rc) {
		rc = diff(j, rfd, tfd, r, n, j->g.lss);
		if (rc)
			snprintf(err, errlen, "cannot compare the tables: %s",
				 strerror(-rc));
	}
out_t:
	close(tfd);
	unlink(tmp);
out_r:
	close(rfd);
	return rc;
}

/**
 * ba_fix_save_old_table: the table of @path as an sfdisk script in
 * @out (for people: `sfdisk DEVICE < FILE` puts the layout back; the
 * journal's own copy of the sectors is what --rollback uses).
 */
int ba_fix_save_old_table(const char *path, uint32_t lss, const char *out)
{
	struct fdisk_context *cxt;
	struct fdisk_script *dp = NULL;
	FILE *f = NULL;
	char why[256];
	int rc = ba_fdisk_dl_load(why, sizeof(why));

	if (rc)
		return rc;
	cxt = sym_fdisk_new_context();
	if (!cxt)
		return -ENOMEM;
	rc = sym_fdisk_save_user_sector_size(cxt, lss, lss);
	if (!rc)
		rc = sym_fdisk_assign_device(cxt, path, 1);
	if (!rc) {
		dp = sym_fdisk_new_script(cxt);
		rc = dp ? sym_fdisk_script_read_context(dp, NULL) : -ENOMEM;
	}
	if (!rc) {
		f = fopen(out, "we");
		rc = f ? sym_fdisk_script_write_file(dp, f) : -errno;
	}
	if (f && (fflush(f) || fsync(fileno(f))) && !rc)
		rc = -errno;
	if (f && fclose(f) && !rc)
		rc = -errno;
	if (rc && f)
		unlink(out); /* not a half script */
	sym_fdisk_unref_script(dp);
	sym_fdisk_unref_context(cxt);
	return rc;
}

/**
 * ba_fix_apply_patches: write the new (or the old) table, and flush.
 */
int ba_fix_apply_patches(struct ba_file *dev, const struct ba_journal *j,
			 bool new_table)
{
	int rc = 0;

	for (uint32_t i = 0; i < j->g.npatches && !rc; i++) {
		const struct ba_fix_patch *p = &j->patches[i];
		uint8_t *buf = ba_file_alloc(p->len);

		if (!buf)
			return -ENOMEM;
		memcpy(buf, new_table ? p->new : p->old, p->len);
		rc = ba_file_write(dev, buf, p->len, p->off);
		free(buf);
	}
	if (!rc)
		rc = ba_file_flush(dev);
	/* the table's bytes came from the journal: read them back */
	for (uint32_t i = 0; i < j->g.npatches && !rc; i++) {
		const struct ba_fix_patch *p = &j->patches[i];

		rc = ba_file_verify(dev, new_table ? p->new : p->old, p->len,
				    p->off);
	}
	return rc;
}

/**
 * ba_fix_fs_patch_kind: which "hidden sectors" field (exFAT's
 * PartitionOffset: fix-exfat.c) @head (the first
 * bytes of a partition holding @content, starting at byte @start) has,
 * when it holds exactly the partition's start; BA_FIX_FS_NONE otherwise.
 */
uint32_t ba_fix_fs_patch_kind(const char *content, const uint8_t *head,
			      uint64_t head_len, uint64_t start)
{
	uint16_t bps;

	if (!content || head_len < 512)
		return BA_FIX_FS_NONE;
	if (!strcmp(content, "exfat")) /* PartitionOffset, not a BPB's */
		return ba_fix_exfat_holds(head, head_len, start)
			       ? BA_FIX_FS_EXFAT
			       : BA_FIX_FS_NONE;
	bps = ba_le16(head + 0x0b);
	if (bps < 512 || bps > 4096 || (bps & (bps - 1)) || start % bps ||
	    ba_le32(head + 0x1c) != start / bps)
		return BA_FIX_FS_NONE;
	if (!strcmp(content, "ntfs"))
		return BA_FIX_FS_NTFS;
	if (!strcmp(content, "vfat"))
		return ba_le16(head + 0x11) == 0 && ba_le16(head + 0x16) == 0
			       ? BA_FIX_FS_FAT32
			       : BA_FIX_FS_FAT;
	return BA_FIX_FS_NONE;
}

/* Where NTFS's backup boot sector is in the moved bytes, by the boot
 * sector @head, or 0. */
static uint64_t ntfs_backup_rel(const struct ba_journal *j, const uint8_t *head)
{
	uint64_t bps, total, bk;

	if (j->g.fs_patch != BA_FIX_FS_NTFS || j->g.head_len < 512)
		return 0;
	bps = ba_le16(head + 0x0b);
	total = ba_le64(head +
			0x28); /* the backup is the volume's last sector */
	bk = total * bps;
	if (!bps || bk / bps != total || bk + bps > j->g.len)
		return 0;
	return bk;
}

/**
 * ba_fix_patch_head: set the hidden-sectors fields of the head @head for a
 * partition starting at byte @start (primary boot sector, and FAT32's
 * backup boot sector when it is inside the head).
 */
void ba_fix_patch_head(const struct ba_journal *j, uint8_t *head,
		       uint64_t start)
{
	uint16_t bps;

	if (j->g.fs_patch == BA_FIX_FS_NONE || j->g.head_len < 512)
		return;
	if (j->g.fs_patch == BA_FIX_FS_EXFAT) {
		ba_fix_exfat_patch(head, j->g.head_len, start);
		return;
	}
	bps = ba_le16(head + 0x0b);
	if (!bps)
		return;
	ba_put_le32(head + 0x1c, (uint32_t)(start / bps));
	if (j->g.fs_patch == BA_FIX_FS_FAT32) {
		uint64_t bk = (uint64_t)ba_le16(head + 0x32) * bps;

		if (bk && bk + 512 <= j->g.head_len &&
		    ba_le16(head + bk + 0x0b) == bps)
			ba_put_le32(head + bk + 0x1c, (uint32_t)(start / bps));
	}
	if (j->g.fs_patch == BA_FIX_FS_NTFS) {
		uint64_t bk = ntfs_backup_rel(j, head);

		if (bk && bk + bps <= j->g.head_len)
			ba_put_le32(head + bk + 0x1c, (uint32_t)(start / bps));
	}
}

/**
 * ba_fix_patch_ntfs_backup: NTFS keeps a copy of its boot sector in the
 * volume's last sector (at "total sectors" x bytes per sector; ntfsfix
 * checks that it matches): its hidden-sectors field set for a partition
 * starting at byte @start, on the disk at @start.  Anything there that is
 * not that copy is left alone; so is a copy inside the head
 * (ba_fix_patch_head).  Returns 0 or -errno.
 */
int ba_fix_patch_ntfs_backup(struct ba_file *dev, const struct ba_journal *j,
			     uint64_t start)
{
	uint64_t bk = ntfs_backup_rel(j, j->head), bps, lss = j->g.lss, a, len;
	uint8_t *buf, *sec;
	int rc;

	if (!bk || bk < j->g.head_len)
		return 0;
	bps = ba_le16(j->head + 0x0b);
	a = (start + bk) / lss * lss;
	len = (start + bk + bps + lss - 1) / lss * lss - a;
	buf = ba_file_alloc(len);
	if (!buf)
		return -ENOMEM;
	sec = buf + (start + bk - a);
	rc = ba_file_read(dev, buf, len, a);
	if (!rc && !memcmp(sec + 3, "NTFS    ", 8) &&
	    ba_le16(sec + 0x0b) == bps && ba_le32(sec + 0x1c) != start / bps) {
		ba_put_le32(sec + 0x1c, (uint32_t)(start / bps));
		rc = ba_file_write(dev, buf, len, a);
		if (!rc)
			rc = ba_file_flush(dev);
	}
	free(buf);
	return rc;
}
