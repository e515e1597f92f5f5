/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swap.c - what a Linux swap area uses: its header page only.  Swapped
 * out pages do not outlive the system that wrote them, so a plain swap
 * area needs page 0 alone: the signature in its last 10 bytes, the v1
 * header (version, last_page, nr_badpages, uuid, label) at 1024 and the
 * bad-page list after it (the obsolete v0 keeps its page bitmap there).
 * A hibernation image is another matter: the kernel (or uswsusp,
 * TuxOnIce) replaced the signature to say the area holds a memory image
 * to resume from, which the whole area carries: -ENOTSUP, copied whole.
 *
 * Layout: the kernel's include/linux/swap.h (union swap_header) and
 * kernel/power/swap.c (struct swsusp_header: the "S1SUSPEND" signature
 * in the last 10 bytes of page 0); signatures and page sizes as
 * lib/scan/probe/swap.c and libblkid superblocks/swap.c.  The header is
 * in the byte order of the machine that made it.
 *
 * Refused (-EBADMSG): a v1 header that is not version 1, or whose
 * last_page says the area is longer than its region or has no page, or
 * a bad-page count the page cannot hold (swapon refuses these too).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "used/used.h"

#define MAGIC_LEN      10
#define HEADER_OFFSET  1024
#define BADPAGES_AT    1536 /* info.badpages[] */
#define SIG_PLAIN      0    /* index in signatures[] */
#define SIG_HIBERNATED 2    /* this one and the ones after it */

static const uint32_t page_sizes[] = {4096, 8192, 16384, 32768, 65536};

static const struct {
	const char *magic;
	size_t len;
} signatures[] = {
	{"SWAPSPACE2", 10}, /* v1 */
	{"SWAP-SPACE", 10}, /* v0 */
	{"S1SUSPEND", 9},   /* the kernel's hibernation */
	{"S2SUSPEND", 9},
	{"ULSUSPEND", 9}, /* uswsusp */
	{"LINHIB0001", 10},
	{"\xed\xc3\x02\xe9\x98\x56\xe5\x0c", 8}, /* TuxOnIce */
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
_Static_assert(offsetof(struct swap_header_disk, nr_badpages) == 0x408 - 0x400,
	       "nr_badpages at 0x408");

/* The signature at the end of a first page of some size: 0 with its
 * index in signatures[] and the page size, 1 when there is none, or
 * -errno. */
static int find_signature(struct ba_io *io, uint64_t off, uint64_t size,
			  size_t *sig, uint32_t *page)
{
	char tail[MAGIC_LEN];
	int rc;

	for (size_t i = 0; i < sizeof(page_sizes) / sizeof(page_sizes[0]);
	     i++) {
		rc = ba_io_read_region(io, off, size, page_sizes[i] - MAGIC_LEN,
				       MAGIC_LEN, tail);
		if (rc < 0)
			return rc;
		if (rc)
			return 1; /* larger pages do not fit either */
		for (size_t k = 0; k < sizeof(signatures) / sizeof(*signatures);
		     k++) {
			if (!memcmp(tail, signatures[k].magic,
				    signatures[k].len)) {
				*sig = k;
				*page = page_sizes[i];
				return 0;
			}
		}
	}
	return 1;
}

/* A v1 header the kernel would take: 0, or -EBADMSG with @why. */
static int check_v1(struct ba_io *io, uint64_t off, uint64_t size,
		    uint32_t page, char *why, size_t len)
{
	struct swap_header_disk h;
	uint32_t version, last_page, nr_bad;
	int rc;

	rc = ba_io_read_region(io, off, size, HEADER_OFFSET, sizeof(h), &h);
	if (rc)
		return rc < 0 ? rc : -EIO; /* inside the page: cannot be */
	version = le32toh(h.version);
	last_page = le32toh(h.last_page);
	nr_bad = le32toh(h.nr_badpages);
	if (version != 1 && be32toh(h.version) == 1) {
		version = 1;
		last_page = be32toh(h.last_page);
		nr_bad = be32toh(h.nr_badpages);
	}
	if (version != 1) {
		snprintf(why, len, "its swap header says version %u, not 1",
			 version);
		return -EBADMSG;
	}
	if (!last_page || (uint64_t)last_page + 1 > size / page) {
		snprintf(why, len,
			 "its swap header says %llu pages of %u bytes, "
			 "%llu fit",
			 (unsigned long long)last_page + 1, page,
			 (unsigned long long)(size / page));
		return -EBADMSG;
	}
	if (nr_bad > (page - MAGIC_LEN - BADPAGES_AT) / 4) {
		snprintf(why, len,
			 "its swap header lists %u bad pages, more than its "
			 "page holds",
			 nr_bad);
		return -EBADMSG;
	}
	return 0;
}

int ba_used_swap(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_used_map *m, char *why, size_t len)
{
	uint32_t page = 0;
	size_t sig = 0;
	int rc;

	rc = find_signature(io, off, size, &sig, &page);
	if (rc == 1) {
		snprintf(why, len,
			 "no swap signature at the end of its "
			 "first page");
		return -EINVAL;
	}
	if (rc)
		return rc;
	if (sig >= SIG_HIBERNATED) {
		snprintf(why, len,
			 "it holds a hibernation image: copied "
			 "whole");
		return -ENOTSUP;
	}
	if (sig == SIG_PLAIN) {
		rc = check_v1(io, off, size, page, why, len);
		if (rc)
			return rc;
	}
	m->unit = page;
	return ba_used_add(m, 0, page);
}
