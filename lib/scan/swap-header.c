/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swap-header.c - the first page of a Linux swap area (swap-header.h):
 * its signature and page size, and its v1 header in either byte order.
 *
 * TuxOnIce is the one hibernation that keeps "SWAPSPACE2": its magic
 * is at byte 0 instead (libblkid's swsuspend magic without an offset;
 * its swap prober leaves such an area to swsuspend).
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "swap-header.h"

#define HEADER_OFFSET 1024

static const uint32_t page_sizes[] = {4096, 8192, 16384, 32768, 65536};

static const struct ba_swap_signature signatures[] = {
	{"SWAPSPACE2", 10, "swap", "1", false},
	{"SWAP-SPACE", 10, "swap", "0", false},	  /* v0: no header */
	{"S1SUSPEND", 9, "swsuspend", "1", true}, /* the kernel's */
	{"S2SUSPEND", 9, "swsuspend", "1", true},
	{"ULSUSPEND", 9, "swsuspend", "1", true}, /* uswsusp */
	{"LINHIB0001", 10, "swsuspend", "1", true},
};

static const struct ba_swap_signature tuxonice = {
	"\xed\xc3\x02\xe9\x98\x56\xe5\x0c", 8, "swsuspend", "1", true};

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

static const struct ba_swap_signature *match(const char *tail)
{
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++)
		if (!memcmp(tail, signatures[i].magic, signatures[i].len))
			return &signatures[i];
	return NULL;
}

/* The signature at the end of the first page: 0, 1 (none) or -errno. */
static int find_tail(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_swap_page *out)
{
	char tail[BA_SWAP_MAGIC_LEN];
	int rc;

	for (size_t i = 0; i < sizeof(page_sizes) / sizeof(page_sizes[0]);
	     i++) {
		rc = ba_io_read_region(io, off, size,
				       page_sizes[i] - BA_SWAP_MAGIC_LEN,
				       BA_SWAP_MAGIC_LEN, tail);
		if (rc < 0)
			return rc;
		if (rc)
			return 1; /* larger pages do not fit either */
		out->sig = match(tail);
		if (out->sig) {
			out->page = page_sizes[i];
			return 0;
		}
	}
	return 1;
}

int ba_swap_find(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_swap_page *out)
{
	char head[8];
	int rc = find_tail(io, off, size, out);

	if (rc)
		return rc;
	/* inside the page the tail ends: there */
	rc = ba_io_read_region(io, off, size, 0, sizeof(head), head);
	if (rc)
		return rc < 0 ? rc : -EIO;
	if (!memcmp(head, tuxonice.magic, tuxonice.len))
		out->sig = &tuxonice;
	return 0;
}

int ba_swap_read_v1(struct ba_io *io, uint64_t off, uint64_t size,
		    struct ba_swap_v1 *out)
{
	struct swap_header_disk h;
	int rc;

	rc = ba_io_read_region(io, off, size, HEADER_OFFSET, sizeof(h), &h);
	if (rc)
		return rc;
	out->version = le32toh(h.version);
	out->last_page = le32toh(h.last_page);
	out->nr_badpages = le32toh(h.nr_badpages);
	if (out->version != 1 && be32toh(h.version) == 1) {
		out->version = 1;
		out->last_page = be32toh(h.last_page);
		out->nr_badpages = be32toh(h.nr_badpages);
	}
	return 0;
}
