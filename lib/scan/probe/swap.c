/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swap.c - Linux swap area header: the page size it was made with (the
 * kernel refuses a swap area whose page size is not its own) and how
 * many pages it uses.  Layout: the kernel's include/linux/swap.h
 * (union swap_header): the magic fills the last 10 bytes of the first
 * page, the v1 header (version, last_page, nr_badpages, uuid, label)
 * starts at 1024.  Same page sizes as libblkid superblocks/swap.c.
 *
 * "SWAPSPACE2" is v1; "SWAP-SPACE" is the obsolete v0 (a bitmap page, no
 * header: only the page size is known).  A hibernation image written
 * over a v1 area replaces the magic and keeps the header (swsuspend).
 * The header is in the byte order of the machine that made it: a version
 * of 1 read big-endian means a big-endian mkswap.
 *
 * Data (page 1 on) starts one page in; used_size = (last_page + 1) pages.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define SWAP_MAGIC_LEN	     10
#define SWAP_HEADER_OFFSET   1024
#define SWAP_BADPAGES_OFFSET 1536 /* info.badpages[] in the page */

static const uint32_t page_sizes[] = {4096, 8192, 16384, 32768, 65536};

static const struct {
	const char *magic;
	size_t len;
	const char *type;
	const char *version;
} signatures[] = {
	{"SWAPSPACE2", 10, "swap", "1"},
	{"SWAP-SPACE", 10, "swap", "0"},
	{"S1SUSPEND", 9, "swsuspend", "1"},
	{"S2SUSPEND", 9, "swsuspend", "1"},
	{"ULSUSPEND", 9, "swsuspend", "1"},
	{"LINHIB0001", 10, "swsuspend", "1"},
	{"\xed\xc3\x02\xe9\x98\x56\xe5\x0c", 8, "swsuspend", "1"},
};

struct swap_header_disk {
	uint32_t version;     /* 0x400 either byte order */
	uint32_t last_page;   /* 0x404 */
	uint32_t nr_badpages; /* 0x408 */
	uint8_t uuid[16];     /* 0x40c */
	char label[16];	      /* 0x41c */
} __attribute__((packed));

_Static_assert(sizeof(struct swap_header_disk) == 0x2c,
	       "swap v1 header is 44 bytes");
_Static_assert(offsetof(struct swap_header_disk, last_page) == 0x404 - 0x400,
	       "last_page at 0x404");

/* Index of the signature in the last 10 bytes of a page, or -1. */
static int find_signature(const char *tail)
{
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++)
		if (memcmp(tail, signatures[i].magic, signatures[i].len) == 0)
			return (int)i;
	return -1;
}

static int swap_probe(struct ba_io *io, uint64_t off, uint64_t size,
		      struct ba_content *out)
{
	struct swap_header_disk h;
	char tail[SWAP_MAGIC_LEN];
	uint32_t page = 0, last_page, nr_bad;
	int sig = -1, rc;

	for (size_t i = 0; i < sizeof(page_sizes) / sizeof(page_sizes[0]);
	     i++) {
		rc = ba_io_read_region(io, off, size,
				       page_sizes[i] - SWAP_MAGIC_LEN,
				       SWAP_MAGIC_LEN, tail);
		if (rc < 0)
			return rc;
		if (rc)
			break; /* larger pages do not fit either */
		sig = find_signature(tail);
		if (sig >= 0) {
			page = page_sizes[i];
			break;
		}
	}
	if (sig < 0)
		return 1;

	last_page = 0;
	if (strcmp(signatures[sig].version, "1") == 0) {
		rc = ba_io_read_region(io, off, size, SWAP_HEADER_OFFSET,
				       sizeof(h), &h);
		if (rc)
			return rc;
		if (le32toh(h.version) == 1) {
			last_page = le32toh(h.last_page);
			nr_bad = le32toh(h.nr_badpages);
		} else if (be32toh(h.version) == 1) {
			last_page = be32toh(h.last_page);
			nr_bad = be32toh(h.nr_badpages);
		} else {
			return -EINVAL;
		}
		/* The bad-page list ends before the magic (MAX_SWAP_BADPAGES).
		 */
		if (last_page == 0 ||
		    nr_bad > (page - SWAP_MAGIC_LEN - SWAP_BADPAGES_OFFSET) / 4)
			return -EINVAL;
	}

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "%s", signatures[sig].type);
	snprintf(out->version, sizeof(out->version), "%s",
		 signatures[sig].version);
	out->block_size = page;
	out->data_offset = page;
	if (last_page)
		out->used_size = ((uint64_t)last_page + 1) * page;
	return 0;
}

const struct ba_prober ba_swap_prober = {
	.name = "swap swsuspend",
	.kind = BA_CONTENT_FS,
	.probe = swap_probe,
};
