/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swap-header.h - the first page of a Linux swap area, as the prober
 * (probe/swap.c) and the used-extent reader (used/swap.c) both read it.
 * Layout: the kernel's include/linux/swap.h (union swap_header): the
 * signature fills the last 10 bytes of the first page, whose size is
 * the one the area was made with (libblkid's page sizes); the v1 header
 * (version, last_page, nr_badpages, uuid, label) starts at 1024, the
 * bad-page list at 1536.  A hibernation image (the kernel's, uswsusp's)
 * replaces the signature and keeps the header; TuxOnIce's keeps both
 * and writes its magic at byte 0.  The header is in the byte order of
 * the machine that made it.
 */
#ifndef BLKALIGN_SWAP_HEADER_H
#define BLKALIGN_SWAP_HEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "scan/scan.h"

#define BA_SWAP_MAGIC_LEN   10
#define BA_SWAP_BADPAGES_AT 1536 /* info.badpages[] in the page */

struct ba_swap_signature {
	const char *magic;
	size_t len;
	const char *type;    /* libblkid's TYPE: swap or swsuspend */
	const char *version; /* "1" when the v1 header is there */
	bool hibernated;     /* a memory image to resume from */
};

/* What the first page says. */
struct ba_swap_page {
	const struct ba_swap_signature *sig;
	uint32_t page; /* the page size the signature ends */
};

/*
 * The signature at the end of the first page of the area at @off of
 * @io (@size bytes), trying each page size from the smallest, or
 * TuxOnIce's at byte 0 of an area that has one.
 * Returns: 0 with @out set, 1 when there is none, or -errno.
 */
int ba_swap_find(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_swap_page *out);

/* The v1 header's fields, in the byte order they were written in. */
struct ba_swap_v1 {
	uint32_t version; /* 1, or what the little-endian read says */
	uint32_t last_page;
	uint32_t nr_badpages;
};

/*
 * The v1 header of the area at @off of @io (@size bytes).  Returns 0,
 * or what ba_io_read_region returned (> 0: past the region).
 */
int ba_swap_read_v1(struct ba_io *io, uint64_t off, uint64_t size,
		    struct ba_swap_v1 *out);

/* The most bad pages a first page of @page bytes holds before its
 * signature (the kernel's MAX_SWAP_BADPAGES). */
static inline uint32_t ba_swap_max_badpages(uint32_t page)
{
	return (page - BA_SWAP_MAGIC_LEN - BA_SWAP_BADPAGES_AT) / 4;
}

#endif /* BLKALIGN_SWAP_HEADER_H */
