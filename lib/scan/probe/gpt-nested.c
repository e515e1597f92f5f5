/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpt-nested.c - a GPT inside a partition: a whole disk's table where a
 * filesystem would be, as when a partition is handed to a virtual
 * machine as its disk.  Its backup header sits in the partition's last
 * LBA (UEFI 2.10, 5.3.2), so the partition must keep its size: a new
 * size leaves the backup in the middle (sgdisk -v: "The secondary
 * header's self-pointer indicates that it doesn't reside at the end of
 * the disk").
 *
 * The primary header at LBA 1, for 512- and 4096-byte sectors: the
 * signature, the header size, its CRC-32 (the CRC field zeroed) and its
 * self-location.  The entries are the guest's business.  libblkid does not look
 * for a partition table inside a partition (only for BSD, Solaris, Minix and
 * UnixWare labels nested in dos).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define GPT_HEADER_MIN 92

static int header_at(struct ba_io *io, uint64_t off, uint64_t size, uint32_t ss,
		     struct ba_content *out)
{
	uint8_t sec[4096];
	struct ba_cur c;
	uint32_t hsize, crc;
	uint64_t my_lba;
	int rc;

	rc = ba_io_read_region(io, off, size, ss, ss, sec);
	if (rc)
		return rc;
	if (memcmp(sec, "EFI PART", 8))
		return 1;
	ba_cur_init(&c, sec, ss);
	if (ba_cur_seek(&c, 0x0c) || ba_cur_le32(&c, &hsize) ||
	    ba_cur_le32(&c, &crc) || ba_cur_seek(&c, 0x18) ||
	    ba_cur_le64(&c, &my_lba))
		return -ERANGE;
	if (hsize < GPT_HEADER_MIN || hsize > ss || my_lba != 1)
		return 1;
	memset(sec + 0x10, 0, 4);
	if (ba_crc32(0, sec, hsize) != crc)
		return 1;
	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_TABLE;
	snprintf(out->type, sizeof(out->type), "gpt");
	out->sector_size = ss;
	/* all of it: the backup header is the last LBA */
	out->used_size = size;
	return 0;
}

static int gpt_nested_probe(struct ba_io *io, uint64_t off, uint64_t size,
			    struct ba_content *out)
{
	int rc = header_at(io, off, size, 512, out);

	if (rc == 1)
		rc = header_at(io, off, size, 4096, out);
	return rc;
}

const struct ba_prober ba_gpt_nested_prober = {
	.name = "gpt",
	.kind = BA_CONTENT_TABLE,
	.probe = gpt_nested_probe,
};
