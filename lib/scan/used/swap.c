/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swap.c - what a Linux swap area uses: its header page only.  Swapped
 * out pages do not outlive the system that wrote them, so a plain swap
 * area needs page 0 alone: the signature in its last 10 bytes, the v1
 * header (version, last_page, nr_badpages, uuid, label) at 1024 and the
 * bad-page list after it (the obsolete v0 keeps its page bitmap there).
 * A hibernation image is another matter: the kernel (or uswsusp)
 * replaced the signature, or TuxOnIce wrote its magic at byte 0, to say
 * the area holds a memory image to resume from, which the whole area
 * carries: -ENOTSUP, copied whole.
 *
 * Layout: the kernel's include/linux/swap.h (union swap_header) and
 * kernel/power/swap.c (struct swsusp_header: the "S1SUSPEND" signature
 * in the last 10 bytes of page 0); the page read by swap-header.c, as
 * lib/scan/probe/swap.c reads it (libblkid's signatures and page sizes).
 *
 * Refused (-EBADMSG): a v1 header that is not version 1, or whose
 * last_page says the area is longer than its region or has no page, or
 * a bad-page count the page cannot hold (swapon refuses these too).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "swap-header.h"
#include "used/used.h"

/* A v1 header the kernel would take: 0, or -EBADMSG with @why. */
static int check_v1(struct ba_io *io, uint64_t off, uint64_t size,
		    uint32_t page, char *why, size_t len)
{
	struct ba_swap_v1 h;
	int rc;

	rc = ba_swap_read_v1(io, off, size, &h);
	if (rc)
		return rc < 0 ? rc : -EIO; /* inside the page: cannot be */
	if (h.version != 1) {
		snprintf(why, len, "its swap header says version %u, not 1",
			 h.version);
		return -EBADMSG;
	}
	if (!h.last_page || (uint64_t)h.last_page + 1 > size / page) {
		snprintf(why, len,
			 "its swap header says %llu pages of %u bytes, "
			 "%llu fit",
			 (unsigned long long)h.last_page + 1, page,
			 (unsigned long long)(size / page));
		return -EBADMSG;
	}
	if (h.nr_badpages > ba_swap_max_badpages(page)) {
		snprintf(why, len,
			 "its swap header lists %u bad pages, more than its "
			 "page holds",
			 h.nr_badpages);
		return -EBADMSG;
	}
	return 0;
}

int ba_used_swap(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_used_map *m, char *why, size_t len)
{
	struct ba_swap_page first;
	int rc;

	rc = ba_swap_find(io, off, size, &first);
	if (rc == 1) {
		snprintf(why, len,
			 "no swap signature at the end of its "
			 "first page");
		return -EINVAL;
	}
	if (rc)
		return rc;
	if (first.sig->hibernated) {
		snprintf(why, len,
			 "it holds a hibernation image: copied "
			 "whole");
		return -ENOTSUP;
	}
	/* v1 ("SWAPSPACE2"); v0 has no header, only its page bitmap */
	if (strcmp(first.sig->version, "1") == 0) {
		rc = check_v1(io, off, size, first.page, why, len);
		if (rc)
			return rc;
	}
	m->unit = first.page;
	return ba_used_add(m, 0, first.page);
}
