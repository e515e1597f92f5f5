/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-used-swap.c - the swap reader (lib/scan/used/swap.c) on swap
 * headers built in memory, through ba_used_read: a v1 header in either
 * byte order and every page size gives its first page; v0 too; each
 * hibernation signature copies the whole area; headers the kernel
 * refuses (version, last_page, bad-page count) are -EBADMSG; no
 * signature, or a region smaller than a page, is -EINVAL.  Expected
 * values by hand from the kernel's union swap_header.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "used/used.h"

struct swap_row {
	const char *name;
	uint32_t size;	   /* the region's bytes */
	uint32_t page;	   /* where the signature ends */
	const char *magic; /* at page - 10, 10 bytes (NUL padded) */
	bool be;	   /* the header big-endian */
	uint32_t version, last_page, nr_bad;
	int rc;
	const char *source;
	uint64_t used;
	const char *why;  /* in @why, or NULL: empty */
	const char *head; /* at byte 0 (TuxOnIce's magic), or NULL */
};

#define TUXONICE "\xed\xc3\x02\xe9\x98\x56\xe5\x0c"

static const struct swap_row rows[] = {
	{"v1 4 KiB", 64 * KIB, 4096, "SWAPSPACE2", false, 1, 15, 0, 0,
	 "swap-header", 4096},
	{"v1 4 KiB, the last page exactly at the end", 64 * KIB, 4096,
	 "SWAPSPACE2", false, 1, 15, 3, 0, "swap-header", 4096},
	{"v1 big-endian", 64 * KIB, 4096, "SWAPSPACE2", true, 1, 15, 0, 0,
	 "swap-header", 4096},
	{"v1 16 KiB pages", 256 * KIB, 16384, "SWAPSPACE2", false, 1, 15, 0, 0,
	 "swap-header", 16384},
	{"v1 64 KiB pages", 1024 * KIB, 65536, "SWAPSPACE2", false, 1, 15, 0, 0,
	 "swap-header", 65536},
	{"v0: its bitmap page", 64 * KIB, 4096, "SWAP-SPACE", false, 0, 0, 0, 0,
	 "swap-header", 4096},
	{"S1SUSPEND", 64 * KIB, 4096, "S1SUSPEND", false, 1, 15, 0, 0, "whole",
	 64 * KIB, "hibernation image"},
	{"S2SUSPEND", 64 * KIB, 4096, "S2SUSPEND", false, 1, 15, 0, 0, "whole",
	 64 * KIB, "hibernation image"},
	{"ULSUSPEND", 64 * KIB, 4096, "ULSUSPEND", false, 1, 15, 0, 0, "whole",
	 64 * KIB, "hibernation image"},
	{"LINHIB0001", 64 * KIB, 4096, "LINHIB0001", false, 1, 15, 0, 0,
	 "whole", 64 * KIB, "hibernation image"},
	/* TuxOnIce keeps SWAPSPACE2 and writes its magic at byte 0 (as
	 * libblkid's swsuspend finds it) */
	{"TuxOnIce", 64 * KIB, 8192, "SWAPSPACE2", false, 1, 7, 0, 0, "whole",
	 64 * KIB, "hibernation image", TUXONICE},
	{"TuxOnIce's magic where the signature is", 64 * KIB, 8192, TUXONICE,
	 false, 1, 7, 0, -EINVAL, NULL, 0, "no swap signature"},
	{"TuxOnIce's magic, no signature", 64 * KIB, 4096, "", false, 1, 15, 0,
	 -EINVAL, NULL, 0, "no swap signature", TUXONICE},
	{"version 2", 64 * KIB, 4096, "SWAPSPACE2", false, 2, 15, 0, -EBADMSG,
	 NULL, 0, "version 2"},
	{"last_page 0", 64 * KIB, 4096, "SWAPSPACE2", false, 1, 0, 0, -EBADMSG,
	 NULL, 0, "1 pages of 4096 bytes, 16 fit"},
	{"last_page one past the end", 64 * KIB, 4096, "SWAPSPACE2", false, 1,
	 16, 0, -EBADMSG, NULL, 0, "17 pages of 4096 bytes, 16 fit"},
	{"last_page 2^32-1", 64 * KIB, 4096, "SWAPSPACE2", false, 1, UINT32_MAX,
	 0, -EBADMSG, NULL, 0, "4294967296 pages"},
	/* (4096 - 10 - 1536) / 4 = 637 bad pages fit before the magic */
	{"637 bad pages", 64 * KIB, 4096, "SWAPSPACE2", false, 1, 15, 637, 0,
	 "swap-header", 4096},
	{"638 bad pages", 64 * KIB, 4096, "SWAPSPACE2", false, 1, 15, 638,
	 -EBADMSG, NULL, 0, "638 bad pages"},
	{"no signature", 64 * KIB, 4096, "", false, 1, 15, 0, -EINVAL, NULL, 0,
	 "no swap signature"},
	{"region smaller than a page", 2 * KIB, 4096, "", false, 1, 15, 0,
	 -EINVAL, NULL, 0, "no swap signature"},
};

static void test_swap(void **state)
{
	const struct swap_row *r = *state;
	uint8_t *buf = calloc(1, r->size > r->page ? r->size : r->page);
	uint32_t v[3] = {r->version, r->last_page, r->nr_bad};
	struct ba_used_map m;
	struct ba_io io;
	char why[256];

	assert_non_null(buf);
	memcpy(buf + r->page - 10, r->magic, strlen(r->magic));
	if (r->head)
		memcpy(buf, r->head, strlen(r->head));
	for (int i = 0; i < 3; i++) {
		uint32_t x = r->be ? htobe32(v[i]) : htole32(v[i]);

		memcpy(buf + 1024 + 4 * i, &x, 4);
	}
	ba_io_init_mem(&io, buf, r->size);
	assert_int_equal(
		ba_used_read(&io, 0, r->size, "swap", &m, why, sizeof(why)),
		r->rc);
	if (r->why)
		assert_non_null(strstr(why, r->why));
	else
		assert_string_equal(why, "");
	if (!r->rc) {
		assert_string_equal(m.source, r->source);
		assert_int_equal(m.used, r->used);
		assert_int_equal(m.nr, 1);
		assert_int_equal(m.ext[0].off, 0);
		assert_int_equal(m.ext[0].len, r->used);
		if (!strcmp(r->source, "swap-header"))
			assert_int_equal(m.unit, r->page);
		ba_used_free(&m);
	}
	free(buf);
}

int main(void)
{
	return RUN_TABLE(test_swap, rows);
}
