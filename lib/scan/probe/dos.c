/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dos.c - validation of a DOS/MBR table's extended boot record chain
 * (the EBR links that hold logical partitions).  libblkid reads the
 * partitions; when the chain loops or points outside the extended
 * partition it stops quietly, and the partitions after the break are
 * simply missing.  This walk says so.
 *
 * MBR: 4 entries of 16 bytes at 0x1be, signature 55 aa at 0x1fe; entry:
 * boot 0, type 4, start LBA 8 (le32), sectors 12 (le32).  In an EBR the
 * first entry is the logical partition (relative to this EBR) and the
 * second the link to the next EBR (relative to the extended partition).
 */
#include <errno.h>
#include <string.h>

#include "probe.h"
#include "scan/scan.h"

#define MBR_ENTRIES_OFF 0x1be
#define MBR_SIG_OFF	0x1fe
#define EBR_MAX		1024 /* links read at most */

struct dos_entry_disk {
	uint8_t boot;	      /* 0x00 */
	uint8_t chs_first[3]; /* 0x01 */
	uint8_t type;	      /* 0x04 */
	uint8_t chs_last[3];  /* 0x05 */
	uint32_t le_start;    /* 0x08 */
	uint32_t le_sectors;  /* 0x0c */
} __attribute__((packed));

_Static_assert(sizeof(struct dos_entry_disk) == 16, "MBR entry is 16 bytes");

static bool is_extended(uint8_t type)
{
	return type == 0x05 || type == 0x0f || type == 0x85;
}

/* Reads the 4 entries of the table at @lba; 1 when there is no 55 aa. */
static int read_table(struct ba_io *io, uint32_t ss, uint64_t lba,
		      uint32_t start[4], uint32_t sectors[4], uint8_t type[4])
{
	uint8_t sector[512];
	struct ba_cur c;
	int rc;

	if (lba > UINT64_MAX / ss)
		return 1;
	rc = ba_io_read(io, lba * ss, sizeof(sector), sector);
	if (rc)
		return rc;
	if (sector[MBR_SIG_OFF] != 0x55 || sector[MBR_SIG_OFF + 1] != 0xaa)
		return 1;
	ba_cur_init(&c, sector, sizeof(sector));
	for (int i = 0; i < 4; i++) {
		uint8_t boot, chs[6];

		if (ba_cur_seek(&c, MBR_ENTRIES_OFF + 16 * (size_t)i) ||
		    ba_cur_u8(&c, &boot) || ba_cur_bytes(&c, chs, 3) ||
		    ba_cur_u8(&c, &type[i]) || ba_cur_bytes(&c, chs + 3, 3) ||
		    ba_cur_le32(&c, &start[i]) || ba_cur_le32(&c, &sectors[i]))
			return -ERANGE;
	}
	return 0;
}

/**
 * ba_dos_check: walk the EBR chain of a DOS table.
 * Returns: 0 with @out filled (out->state says what was found), or
 * -errno on an I/O error.
 */
int ba_dos_check(struct ba_io *io, uint32_t sector_size,
		 struct ba_dos_check *out)
{
	uint32_t start[4], sectors[4];
	uint8_t type[4];
	uint64_t ext_start = 0, ext_end = 0, ebr, visited[64];
	size_t seen = 0, empty = 0;
	int rc, ext = -1;

	memset(out, 0, sizeof(*out));
	rc = read_table(io, sector_size, 0, start, sectors, type);
	if (rc)
		return rc < 0 ? rc : 0;
	out->has_signature = true;
	for (int i = 0; i < 4; i++) {
		if (type[i] && sectors[i]) {
			out->nprimary++;
			out->primary[i] = (struct ba_dos_part){
				start[i], sectors[i], type[i], 0};
		}
		if (type[i] == 0xee)
			out->protective = true;
		if (is_extended(type[i]) && ext < 0)
			ext = i;
	}
	if (ext < 0)
		return 0;
	ext_start = start[ext];
	ext_end = ext_start + sectors[ext];
	ebr = ext_start;
	for (;;) {
		uint64_t next;

		/* A loop revisits an EBR: remember the recent ones, and
		 * bound the walk for longer cycles (as the kernel does:
		 * 100 links without a data partition). */
		for (size_t k = 0; k < seen && k < 64; k++)
			if (visited[k] == ebr) {
				out->state = BA_EBR_LOOP;
				out->bad_lba = ebr;
				return 0;
			}
		if (++empty > BA_DOS_EMPTY_LINKS || seen >= EBR_MAX) {
			out->state = BA_EBR_LOOP;
			out->bad_lba = ebr;
			return 0;
		}
		if (out->nlogical >= BA_DOS_LOGICAL_MAX) {
			/* the kernel stops at 256 partitions: so does the
			 * walk (libblkid would go on, for minutes) */
			out->truncated = true;
			out->bad_lba = ebr;
			return 0;
		}
		visited[seen++ % 64] = ebr;
		if (ebr < ext_start || ebr >= ext_end ||
		    ebr >= io->size / sector_size) {
			out->state = BA_EBR_OUTSIDE;
			out->bad_lba = ebr;
			return 0;
		}
		rc = read_table(io, sector_size, ebr, start, sectors, type);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			out->state = BA_EBR_BROKEN;
			out->bad_lba = ebr;
			return 0;
		}
		if (out->nebr < BA_DOS_EBR_MAX)
			out->ebr_lba[out->nebr++] = ebr;
		if (type[0] && sectors[0]) {
			out->logical[out->nlogical++] = (struct ba_dos_part){
				ebr + start[0], sectors[0], type[0], ebr};
			empty = 0;
		}
		if (!is_extended(type[1]))
			return 0;
		next = ext_start + start[1];
		ebr = next;
	}
}
