/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fat.c - what a FAT12/16/32 or an exFAT filesystem uses.
 *
 * FAT (libblkid "vfat", source "fat"): the reserved area, the FATs and
 * (FAT12/16) the root directory, everything before the first cluster,
 * then each data cluster whose entry in the (active) FAT is not 0.  Bad
 * clusters (0xff7, 0xfff7, 0x0ffffff7) are not copied: the FAT that
 * marks them is, and what they hold is no file's.  Sectors past the last
 * whole cluster and past the sector count are not used.  The FAT type
 * as the kernel decides it (fs/fat/inode.c): FAT32 when the 16-bit FAT
 * size is 0, else FAT12 up to 4084 clusters, FAT16 above.
 *
 * Refused, -EUCLEAN (fsck.fat makes it clean): the dirty bit, either the
 * one the kernel sets while mounted (bit 0 of the boot sector's state
 * byte, 37 or 65 for FAT32, as fsck.fat reads it) or the one Windows
 * clears (bit 15 of FAT16's entry 1, bit 27 of FAT32's), or the hard
 * error bit next to it clear.  Not checked: FSInfo's free count.  The
 * FAT specification calls it a hint that may be wrong, the kernel only
 * trusts it when it is in range, and fsck.fat corrects it as a
 * "summary" without counting it an error: the FAT itself is the truth.
 *
 * exFAT (libblkid "exfat", source "exfat-bitmap"): everything before the
 * cluster heap (main and backup boot regions, the FAT or FATs, the
 * alignment), then each cluster the allocation bitmap marks used (the
 * bitmap, up-case table and root directory are among them).  The bitmap
 * is found through the root directory's 0x81 entry, the one of the
 * active FAT; the root directory's clusters are followed through the
 * FAT, at most ClusterCount of them.  Refused, -EUCLEAN (fsck.exfat):
 * VolumeDirty (VolumeFlags bit 1) or MediaFailure (bit 2).
 *
 * -EBADMSG: a geometry that does not fit the region or itself, a FAT or
 * bitmap too short for its clusters, a root directory chain that leaves
 * the heap or has no bitmap entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "used/used.h"

#define FAT_CHUNK (1u << 20)

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int ba_used_fat(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len)
{
	uint8_t bs[512], *fat = NULL;
	uint32_t bps, spc, rsvd, nfats, rootents, fatsz, totsec, rootsecs;
	uint32_t clusters, bits, active = 0, first;
	uint64_t data, clus, fatbytes, need, at;
	int rc;

	rc = ba_used_read_at(io, off, size, 0, sizeof(bs), bs, why, len);
	if (rc)
		return rc;
	bps = le16(bs + 11);
	spc = bs[13];
	rsvd = le16(bs + 14);
	nfats = bs[16];
	rootents = le16(bs + 17);
	totsec = le16(bs + 19) ? le16(bs + 19) : le32(bs + 32);
	fatsz = le16(bs + 22) ? le16(bs + 22) : le32(bs + 36);
	if (bs[510] != 0x55 || bs[511] != 0xaa || bps < 512 || bps > 4096 ||
	    !pow2(bps) || !pow2(spc) || !rsvd || !nfats || !fatsz || !totsec) {
		snprintf(why, len, "no FAT boot sector");
		return -EINVAL;
	}
	rootsecs = (uint32_t)(((uint64_t)rootents * 32 + bps - 1) / bps);
	first = rsvd;
	if ((uint64_t)rsvd + (uint64_t)nfats * fatsz + rootsecs >= totsec) {
		snprintf(why, len,
			 "its FATs and root directory fill its %u sectors",
			 totsec);
		return -EBADMSG;
	}
	data = (uint64_t)rsvd + (uint64_t)nfats * fatsz + rootsecs;
	clusters = (uint32_t)((totsec - data) / spc);
	clus = (uint64_t)spc * bps;
	if ((uint64_t)totsec * bps > size) {
		snprintf(why, len,
			 "it says %u sectors of %u bytes, longer than its "
			 "%llu bytes",
			 totsec, bps, (unsigned long long)size);
		return -EBADMSG;
	}
	if (!le16(bs + 22)) {
		uint16_t ext = le16(bs + 40);

		bits = 32;
		if (ext & 0x80)
			active = ext & 0xf; /* mirroring off: this one */
		if (active >= nfats) {
			snprintf(why, len, "its active FAT %u is not one of %u",
				 active, nfats);
			return -EBADMSG;
		}
		if (bs[66] == 0x29 && (bs[65] & 1))
			goto dirty;
		if (clusters > 0x0ffffff5 - 1)
			clusters = 0x0ffffff5 - 1;
	} else {
		bits = clusters > 4084 ? 16 : 12;
		if (bs[38] == 0x29 && (bs[37] & 1))
			goto dirty;
		if (clusters > 0xfff5 - 1)
			clusters = 0xfff5 - 1;
	}
	fatbytes = (uint64_t)fatsz * bps;
	need = ((uint64_t)clusters + 2) * bits / 8 + (bits == 12);
	if (need > fatbytes) {
		snprintf(why, len,
			 "its FAT (%llu bytes) is too short for %u clusters",
			 (unsigned long long)fatbytes, clusters);
		return -EBADMSG;
	}
	m->unit = (uint32_t)clus;
	rc = ba_used_add(m, 0, data * bps);
	if (rc)
		return rc;
	fat = malloc(FAT_CHUNK + 4);
	if (!fat)
		return -ENOMEM;
	at = (uint64_t)(first + (uint64_t)active * fatsz) * bps;
	if (bits == 12) {
		rc = ba_used_read_at(io, off, size, at, (size_t)need, fat, why,
				     len);
		if (rc)
			goto out;
		for (uint32_t c = 2; c < clusters + 2; c++) {
			const uint8_t *p = fat + c * 3 / 2;
			uint32_t v = (uint32_t)le16(p);

			v = c & 1 ? v >> 4 : v & 0xfff;
			if (!v || v == 0xff7)
				continue;
			rc = ba_used_add(m, (data * bps) + (c - 2) * clus,
					 clus);
			if (rc)
				goto out;
		}
		goto out;
	}
	{
		uint32_t per = FAT_CHUNK / (bits / 8), c = 0;
		uint32_t bad = bits == 16 ? 0xfff7 : 0x0ffffff7;
		uint32_t mask = bits == 16 ? 0xffff : 0x0fffffff;

		while (c < clusters + 2) {
			uint32_t n = clusters + 2 - c;

			if (n > per)
				n = per;
			rc = ba_used_read_at(
				io, off, size, at + (uint64_t)c * (bits / 8),
				(size_t)n * (bits / 8), fat, why, len);
			if (rc)
				goto out;
			for (uint32_t i = 0; i < n; i++, c++) {
				uint32_t v = bits == 16 ? le16(fat + i * 2)
							: le32(fat + i * 4);

				v &= mask;
				if (c == 1) {
					/* clean and no-error bits */
					uint32_t b = bits == 16 ? 0xc000
								: 0x0c000000;

					if ((v & b) != b) {
						rc = 1;
						goto out;
					}
				}
				if (c < 2 || !v || v == bad)
					continue;
				rc = ba_used_add(
					m,
					data * bps + (uint64_t)(c - 2) * clus,
					clus);
				if (rc)
					goto out;
			}
		}
	}
out:
	free(fat);
	if (rc != 1)
		return rc;
dirty:
	snprintf(why, len, "it is marked dirty: fsck.fat makes it clean");
	return -EUCLEAN;
}

/* The root directory of an exFAT: its allocation bitmap's first cluster
 * and length for FAT @active. */
static int exfat_bitmap(struct ba_io *io, uint64_t off, uint64_t size,
			uint64_t fatat, uint64_t heap, uint64_t clus,
			uint32_t count, uint32_t root, unsigned active,
			uint32_t *bm, uint64_t *bmlen, char *why, size_t len)
{
	uint8_t *buf = malloc(clus);
	uint32_t c = root;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	for (uint32_t n = 0; n <= count; n++) {
		uint8_t e[4];

		if (c < 2 || c - 2 >= count)
			break;
		rc = ba_used_read_at(io, off, size,
				     heap + (uint64_t)(c - 2) * clus,
				     (size_t)clus, buf, why, len);
		if (rc)
			goto out;
		for (uint64_t i = 0; i + 32 <= clus; i += 32) {
			const uint8_t *d = buf + i;

			if (!d[0])
				goto none; /* the end of the directory */
			if (d[0] == 0x81 && (d[1] & 1) == active) {
				*bm = le32(d + 20);
				*bmlen = le64(d + 24);
				goto out;
			}
		}
		rc = ba_used_read_at(io, off, size, fatat + (uint64_t)c * 4, 4,
				     e, why, len);
		if (rc)
			goto out;
		c = le32(e);
	}
none:
	snprintf(why, len, "its root directory has no allocation bitmap");
	rc = -EBADMSG;
out:
	free(buf);
	return rc;
}

int ba_used_exfat(struct ba_io *io, uint64_t off, uint64_t size,
		  struct ba_used_map *m, char *why, size_t len)
{
	uint8_t bs[512], *bmp = NULL;
	uint64_t vlen, heap, clus, fatat, bmlen = 0;
	uint32_t fatoff, fatlen, heapoff, count, root, bm = 0, bps;
	uint16_t flags;
	unsigned active;
	int rc;

	rc = ba_used_read_at(io, off, size, 0, sizeof(bs), bs, why, len);
	if (rc)
		return rc;
	if (memcmp(bs + 3, "EXFAT   ", 8) || bs[510] != 0x55 ||
	    bs[511] != 0xaa) {
		snprintf(why, len, "no exFAT boot sector");
		return -EINVAL;
	}
	vlen = le64(bs + 72);
	fatoff = le32(bs + 80);
	fatlen = le32(bs + 84);
	heapoff = le32(bs + 88);
	count = le32(bs + 92);
	root = le32(bs + 96);
	flags = le16(bs + 106);
	if (bs[108] < 9 || bs[108] > 12 || bs[109] > 25 - bs[108] || !bs[110] ||
	    bs[110] > 2) {
		snprintf(why, len, "its exFAT geometry is impossible");
		return -EBADMSG;
	}
	bps = 1u << bs[108];
	clus = (uint64_t)bps << bs[109];
	if (flags & 6) {
		snprintf(why, len, "it is marked %s: fsck.exfat makes it clean",
			 flags & 2 ? "dirty" : "as having had media failures");
		return -EUCLEAN;
	}
	active = bs[110] == 2 ? flags & 1 : 0;
	if (vlen > size / bps || fatoff < 24 || !fatlen ||
	    (uint64_t)fatoff + (uint64_t)bs[110] * fatlen > heapoff || !count ||
	    count > 0xfffffff5 ||
	    heapoff + (uint64_t)count * (clus / bps) > vlen ||
	    (uint64_t)fatlen * bps < ((uint64_t)count + 2) * 4) {
		snprintf(why, len,
			 "its exFAT geometry does not fit (%llu sectors of "
			 "%u bytes, %u clusters)",
			 (unsigned long long)vlen, bps, count);
		return -EBADMSG;
	}
	heap = (uint64_t)heapoff * bps;
	fatat = ((uint64_t)fatoff + (uint64_t)active * fatlen) * bps;
	rc = exfat_bitmap(io, off, size, fatat, heap, clus, count, root, active,
			  &bm, &bmlen, why, len);
	if (rc)
		return rc;
	if (bm < 2 || bm - 2 >= count || bmlen < ((uint64_t)count + 7) / 8 ||
	    heap + (uint64_t)(bm - 2) * clus + (count + 7) / 8 > vlen * bps) {
		snprintf(why, len,
			 "its allocation bitmap (cluster %u, %llu bytes) "
			 "does not hold its %u clusters",
			 bm, (unsigned long long)bmlen, count);
		return -EBADMSG;
	}
	m->unit = (uint32_t)clus;
	rc = ba_used_add(m, 0, heap);
	if (rc)
		return rc;
	bmp = malloc(FAT_CHUNK);
	if (!bmp)
		return -ENOMEM;
	/* the bitmap is contiguous (NoFatChain or not, mkfs and the
	 * drivers write it so; fsck.exfat reads it so) */
	for (uint32_t c = 0; c < count;) {
		uint32_t n = count - c;
		uint64_t at = heap + (uint64_t)(bm - 2) * clus + c / 8;

		if (n > FAT_CHUNK * 8)
			n = FAT_CHUNK * 8;
		rc = ba_used_read_at(io, off, size, at, (n + 7) / 8, bmp, why,
				     len);
		if (rc)
			break;
		for (uint32_t i = 0; i < n; i++, c++) {
			if (!(bmp[i / 8] >> (i % 8) & 1))
				continue;
			rc = ba_used_add(m, heap + (uint64_t)c * clus, clus);
			if (rc)
				goto out;
		}
	}
out:
	free(bmp);
	return rc;
}
