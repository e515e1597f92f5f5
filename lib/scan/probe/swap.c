/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swap.c - Linux swap area header: the page size it was made with (the
 * kernel refuses a swap area whose page size is not its own) and how
 * many pages it uses.  Layout: the kernel's include/linux/swap.h
 * (union swap_header), read by swap-header.c: the magic fills the last
 * 10 bytes of the first page, the v1 header (version, last_page,
 * nr_badpages, uuid, label) starts at 1024.  Same page sizes as
 * libblkid superblocks/swap.c.
 *
 * "SWAPSPACE2" is v1; "SWAP-SPACE" is the obsolete v0 (a bitmap page, no
 * header: only the page size is known).  A hibernation image written
 * over a v1 area replaces the magic and keeps the header (swsuspend;
 * TuxOnIce's keeps the magic too and marks byte 0, swap-header.c).
 * The header is in the byte order of the machine that made it: a version
 * of 1 read big-endian means a big-endian mkswap.
 *
 * Data (page 1 on) starts one page in; used_size = (last_page + 1) pages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"
#include "swap-header.h"

static int swap_probe(struct ba_io *io, uint64_t off, uint64_t size,
		      struct ba_content *out)
{
	struct ba_swap_page first;
	struct ba_swap_v1 h = {0};
	int rc;

	rc = ba_swap_find(io, off, size, &first);
	if (rc)
		return rc;
	if (strcmp(first.sig->version, "1") == 0) {
		rc = ba_swap_read_v1(io, off, size, &h);
		if (rc)
			return rc;
		/* The bad-page list ends before the magic (MAX_SWAP_BADPAGES).
		 */
		if (h.version != 1 || h.last_page == 0 ||
		    h.nr_badpages > ba_swap_max_badpages(first.page))
			return -EINVAL;
	}

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "%s", first.sig->type);
	snprintf(out->version, sizeof(out->version), "%s", first.sig->version);
	out->block_size = first.page;
	out->data_offset = first.page;
	if (h.last_page)
		out->used_size = ((uint64_t)h.last_page + 1) * first.page;
	return 0;
}

const struct ba_prober ba_swap_prober = {
	.name = "swap swsuspend",
	.kind = BA_CONTENT_FS,
	.probe = swap_probe,
};
