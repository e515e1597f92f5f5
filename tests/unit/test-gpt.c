/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-gpt.c - ba_gpt_check() on GPT images built in memory (UEFI 2.10
 * §5.3: header at LBA 1, 128 entries of 128 bytes from LBA 2, the backup
 * entries just before the backup header at the last LBA), each row
 * breaking one thing; and ba_crc32() against published CRC-32 values.
 */
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

#define NENTRIES    128
#define ENTRY_SIZE  128
#define ARRAY_BYTES (NENTRIES * ENTRY_SIZE)

struct img {
	uint8_t *buf;
	uint64_t size; /* what the reader sees (may be truncated) */
	uint32_t ss;
	uint64_t last; /* last LBA of the full image */
	uint64_t es;   /* sectors of one entry array */
};

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint8_t *sector(struct img *im, uint64_t lba)
{
	return im->buf + lba * im->ss;
}

/* Recompute the entries CRC (over nentries * entry_size, when sane) and
 * then the header CRC of the header at @lba. */
static void seal(struct img *im, uint64_t lba)
{
	uint8_t *h = sector(im, lba);
	uint64_t entries = get64(h + 0x48);
	uint64_t bytes = (uint64_t)get32(h + 0x50) * get32(h + 0x54);
	uint32_t hsize = get32(h + 0x0c);

	if (bytes && bytes <= 1 << 20 &&
	    entries * im->ss + bytes <= (im->last + 1) * im->ss)
		put32(h + 0x58, ba_crc32(0, sector(im, entries), bytes));
	put32(h + 0x10, 0);
	if (hsize > im->ss)
		hsize = im->ss;
	put32(h + 0x10, ba_crc32(0, h, hsize));
}

/* Recompute only the header CRC (after breaking an entries field). */
static void seal_header(struct img *im, uint64_t lba)
{
	uint8_t *h = sector(im, lba);
	uint32_t hsize = get32(h + 0x0c);

	put32(h + 0x10, 0);
	if (hsize > im->ss)
		hsize = im->ss;
	put32(h + 0x10, ba_crc32(0, h, hsize));
}

static void header(struct img *im, uint64_t lba, uint64_t alt, uint64_t entries)
{
	uint8_t *h = sector(im, lba);

	memcpy(h, "EFI PART", 8);
	put32(h + 0x08, 0x00010000);
	put32(h + 0x0c, 92);
	put64(h + 0x18, lba);
	put64(h + 0x20, alt);
	put64(h + 0x28, 2 + im->es);		/* first usable */
	put64(h + 0x30, im->last - 1 - im->es); /* last usable */
	memset(h + 0x38, 0xab, 16);		/* disk GUID */
	put64(h + 0x48, entries);
	put32(h + 0x50, NENTRIES);
	put32(h + 0x54, ENTRY_SIZE);
	seal(im, lba);
}

/* A valid GPT on @nsectors sectors of @ss bytes, one partition. */
static void make_gpt(struct img *im, uint32_t ss, uint64_t nsectors)
{
	uint8_t *e;

	im->ss = ss;
	im->size = nsectors * ss;
	im->last = nsectors - 1;
	im->es = (ARRAY_BYTES + ss - 1) / ss;
	im->buf = calloc(1, im->size);
	assert_non_null(im->buf);
	/* Protective MBR. */
	im->buf[446 + 4] = 0xee;
	put32(im->buf + 446 + 8, 1);
	put32(im->buf + 446 + 12, (uint32_t)(nsectors - 1));
	im->buf[510] = 0x55;
	im->buf[511] = 0xaa;
	/* Entry 0: Linux filesystem data, LBAs first usable .. + 8. */
	e = sector(im, 2);
	memcpy(e,
	       "\xaf\x3d\xc6\x0f\x83\x84\x72\x47\x8e\x79\x3d\x69\xd8\x47"
	       "\x7d\xe4",
	       16);
	memset(e + 16, 0x11, 16);
	put64(e + 32, 2 + im->es);
	put64(e + 40, 2 + im->es + 8);
	memcpy(e + 56, "r\0o\0o\0t\0", 8);
	memcpy(sector(im, im->last - im->es), e, ARRAY_BYTES);
	header(im, 1, im->last, 2);
	header(im, im->last, 1, im->last - im->es);
}

/* Mutations, one per row. */
static void m_none(struct img *im)
{
	(void)im;
}

static void m_primary_crc(struct img *im)
{
	sector(im, 1)[0x38] ^= 1; /* disk GUID, CRC kept */
}

static void m_primary_crc_field(struct img *im)
{
	sector(im, 1)[0x10] ^= 0x80;
}

static void m_backup_crc(struct img *im)
{
	sector(im, im->last)[0x38] ^= 1;
}

static void m_both_crc(struct img *im)
{
	m_primary_crc(im);
	m_backup_crc(im);
}

static void m_backup_missing(struct img *im)
{
	memset(sector(im, im->last), 0, im->ss);
}

/* The primary points at a backup 10 LBAs before the end: nothing there. */
static void m_alt_elsewhere(struct img *im)
{
	put64(sector(im, 1) + 0x20, im->last - 10);
	seal(im, 1);
}

static void m_alt_lba_1(struct img *im)
{
	put64(sector(im, 1) + 0x20, 1);
	seal(im, 1);
}

static void m_primary_entries(struct img *im)
{
	sector(im, 2)[56] ^= 0x20; /* name: "Root" */
}

static void m_backup_entries(struct img *im)
{
	sector(im, im->last - im->es)[56] ^= 0x20;
}

#define SET32(fn, field_off, v)                          \
	static void fn(struct img *im)                   \
	{                                                \
		put32(sector(im, 1) + (field_off), (v)); \
		seal_header(im, 1);                      \
	}
#define SET64(fn, field_off, v)                          \
	static void fn(struct img *im)                   \
	{                                                \
		put64(sector(im, 1) + (field_off), (v)); \
		seal_header(im, 1);                      \
	}

SET32(m_nentries_max, 0x50, 0xffffffffU)
SET32(m_nentries_16385, 0x50, 16385)
SET32(m_nentries_0, 0x50, 0)
SET32(m_entry_size_0, 0x54, 0)
SET32(m_entry_size_129, 0x54, 129)
SET32(m_entry_size_8192, 0x54, 8192)
SET32(m_header_size_91, 0x0c, 91)
SET64(m_my_lba_2, 0x18, 2)
SET64(m_entries_lba_huge, 0x48, (uint64_t)1 << 60)
SET64(m_first_after_last, 0x28, 1000000)
/* Entries at LBA 1 (over the header) or at 3 (running into the usable
 * range at 34: 128 entries need 32 sectors, 3..34): refused by position,
 * before the entry CRC is looked at. */
SET64(m_entries_lba_1, 0x48, 1)
SET64(m_entries_lba_3, 0x48, 3)

/* 16384 entries of 4096 bytes pass the field checks but make 64 MiB. */
static void m_entries_64mib(struct img *im)
{
	put32(sector(im, 1) + 0x50, 16384);
	put32(sector(im, 1) + 0x54, 4096);
	seal_header(im, 1);
}

static void m_header_size_over_sector(struct img *im)
{
	put32(sector(im, 1) + 0x0c, im->ss + 1);
	seal_header(im, 1);
}

/* The CRC then covers the whole sector (zeros after byte 92). */
static void m_header_size_sector(struct img *im)
{
	put32(sector(im, 1) + 0x0c, im->ss);
	seal_header(im, 1);
}

static void m_last_usable_past_end(struct img *im)
{
	put64(sector(im, 1) + 0x30, im->last + 1);
	seal_header(im, 1);
}

static void m_entries_at_last(struct img *im)
{
	put64(sector(im, 1) + 0x48, im->last);
	seal_header(im, 1);
}

static void m_wipe(struct img *im)
{
	memset(im->buf, 0, im->size);
}

static void m_truncate_half(struct img *im)
{
	im->size /= 2;
}

static void m_truncate_2_sectors(struct img *im)
{
	im->size = 2 * (uint64_t)im->ss;
}

/* A partial last sector: the reader sees one LBA less. */
static void m_truncate_100_bytes(struct img *im)
{
	im->size -= 100;
}

struct gpt_row {
	const char *name;
	uint32_t ss; /* sector size the image is built with */
	uint64_t nsectors;
	uint32_t check_ss; /* 0: same as ss */
	void (*mutate)(struct img *im);
	enum ba_gpt_state primary, backup;
	const char *primary_why, *backup_why; /* substrings, or NULL */
};

#define P BA_GPT_OK
#define A BA_GPT_ABSENT
#define B BA_GPT_BAD

/* 256 sectors of 512: entries 2..33, backup entries 223..254, header
 * 255.  64 sectors of 4096: entries 2..5, backup 59..62, header 63. */
static const struct gpt_row gpt_rows[] = {
	{"valid-512", 512, 256, 0, m_none, P, P},
	{"valid-4096", 4096, 64, 0, m_none, P, P},
	{"512-image-read-as-4096", 512, 256, 4096, m_none, A, A},
	{"4096-image-read-as-512", 4096, 64, 512, m_none, A, A},
	{"no-gpt", 512, 256, 0, m_wipe, A, A},
	{"primary-crc-broken", 512, 256, 0, m_primary_crc, B, P,
	 "header checksum"},
	{"primary-crc-field-broken", 512, 256, 0, m_primary_crc_field, B, P,
	 "header checksum"},
	{"primary-crc-broken-4096", 4096, 64, 0, m_primary_crc, B, P,
	 "header checksum"},
	{"backup-crc-broken", 512, 256, 0, m_backup_crc, P, B, NULL,
	 "header checksum"},
	{"both-crc-broken", 512, 256, 0, m_both_crc, B, B, "header checksum",
	 "header checksum"},
	{"backup-missing", 512, 256, 0, m_backup_missing, P, B, NULL,
	 "last LBA"},
	{"backup-missing-4096", 4096, 64, 0, m_backup_missing, P, B, NULL,
	 "last LBA"},
	{"backup-not-where-primary-says", 512, 256, 0, m_alt_elsewhere, P, B,
	 NULL, "where the primary says"},
	{"alternate-lba-1-falls-back-to-last", 512, 256, 0, m_alt_lba_1, P, P},
	{"primary-entries-crc-broken", 512, 256, 0, m_primary_entries, B, P,
	 "entry array checksum"},
	{"backup-entries-crc-broken", 512, 256, 0, m_backup_entries, P, B, NULL,
	 "entry array checksum"},
	{"nentries-0xffffffff", 512, 256, 0, m_nentries_max, B, P,
	 "number of entries"},
	{"nentries-16385", 512, 256, 0, m_nentries_16385, B, P,
	 "number of entries"},
	{"nentries-0", 512, 256, 0, m_nentries_0, B, P, "number of entries"},
	{"entries-64mib", 512, 256, 0, m_entries_64mib, B, P, "too large"},
	{"entry-size-0", 512, 256, 0, m_entry_size_0, B, P, "entry size"},
	{"entry-size-129", 512, 256, 0, m_entry_size_129, B, P, "entry size"},
	{"entry-size-8192", 512, 256, 0, m_entry_size_8192, B, P, "entry size"},
	{"header-size-91", 512, 256, 0, m_header_size_91, B, P, "header size"},
	{"header-size-513", 512, 256, 0, m_header_size_over_sector, B, P,
	 "header size"},
	{"header-size-4097-4096", 4096, 64, 0, m_header_size_over_sector, B, P,
	 "header size"},
	{"header-size-512-whole-sector", 512, 256, 0, m_header_size_sector, P,
	 P},
	{"my-lba-wrong", 512, 256, 0, m_my_lba_2, B, P, "own location"},
	{"first-usable-after-last", 512, 256, 0, m_first_after_last, B, P,
	 "first usable"},
	{"last-usable-past-end", 512, 256, 0, m_last_usable_past_end, B, P,
	 "past the end"},
	{"entries-lba-2^60", 512, 256, 0, m_entries_lba_huge, B, P,
	 "beyond the end"},
	{"entries-at-last-lba", 512, 256, 0, m_entries_at_last, B, P,
	 "beyond the end"},
	{"entries-over-header", 512, 256, 0, m_entries_lba_1, B, P, "overlaps"},
	{"entries-into-usable-range", 512, 256, 0, m_entries_lba_3, B, P,
	 "overlaps"},
	/* 128 sectors left: usable range 34..222 runs past LBA 127; the
	 * backup is looked for at LBA 127 (inside nothing): absent, and
	 * only reported when the primary is intact. */
	{"truncated-to-half", 512, 256, 0, m_truncate_half, B, A,
	 "past the end"},
	{"truncated-to-half-4096", 4096, 64, 0, m_truncate_half, B, A,
	 "past the end"},
	{"truncated-to-2-sectors", 512, 256, 0, m_truncate_2_sectors, A, A},
	/* 255 whole sectors: alternate 255 is past LBA 254, look at 254 */
	{"truncated-by-100-bytes", 512, 256, 0, m_truncate_100_bytes, P, B,
	 NULL, "last LBA"},
};

static void check_state(const struct gpt_row *r, const char *which,
			const struct ba_gpt_header *h, enum ba_gpt_state want,
			const char *why)
{
	if (h->state != want)
		fail_msg("%s: %s state %d (%s), expected %d", r->name, which,
			 h->state, h->why ? h->why : "", want);
	if (want == BA_GPT_BAD && !h->why)
		fail_msg("%s: %s is bad without a reason", r->name, which);
	if (why && (!h->why || !strstr(h->why, why)))
		fail_msg("%s: %s reason \"%s\" does not mention \"%s\"",
			 r->name, which, h->why ? h->why : "", why);
}

static void test_gpt(void **state)
{
	const struct gpt_row *r = *state;
	struct ba_gpt_check chk;
	struct ba_io io;
	struct img im;
	uint32_t ss;

	make_gpt(&im, r->ss, r->nsectors);
	r->mutate(&im);
	ss = r->check_ss ? r->check_ss : r->ss;
	ba_io_init_mem(&io, im.buf, im.size);
	assert_int_equal(ba_gpt_check(&io, ss, &chk), 0);
	check_state(r, "primary", &chk.primary, r->primary, r->primary_why);
	check_state(r, "backup", &chk.backup, r->backup, r->backup_why);

	/* An untouched header is decoded field by field. */
	if (r->mutate == m_none && r->primary == BA_GPT_OK) {
		EXPECT_U64(r, "primary my_lba", chk.primary.my_lba, 1);
		EXPECT_U64(r, "primary alternate_lba",
			   chk.primary.alternate_lba, im.last);
		EXPECT_U64(r, "primary first_usable_lba",
			   chk.primary.first_usable_lba, 2 + im.es);
		EXPECT_U64(r, "primary last_usable_lba",
			   chk.primary.last_usable_lba, im.last - 1 - im.es);
		EXPECT_U64(r, "primary entries_lba", chk.primary.entries_lba,
			   2);
		EXPECT_U64(r, "primary nentries", chk.primary.nentries, 128);
		EXPECT_U64(r, "primary entry_size", chk.primary.entry_size,
			   128);
		EXPECT_U64(r, "backup my_lba", chk.backup.my_lba, im.last);
		EXPECT_U64(r, "backup alternate_lba", chk.backup.alternate_lba,
			   1);
		EXPECT_U64(r, "backup entries_lba", chk.backup.entries_lba,
			   im.last - im.es);
	}
	free(im.buf);
}

struct crc_row {
	const char *name;
	const char *data;
	uint32_t want;
};

/* The CRC-32 check values of ISO 3309 / ITU-T V.42 / zlib. */
static const struct crc_row crc_rows[] = {
	{"check-123456789", "123456789", 0xCBF43926},
	{"empty", "", 0},
	{"a", "a", 0xE8B7BE43},
	{"quick-brown-fox", "The quick brown fox jumps over the lazy dog",
	 0x414FA339},
};

static void test_crc(void **state)
{
	const struct crc_row *r = *state;
	size_t len = strlen(r->data);

	EXPECT_U64(r, "crc32", ba_crc32(0, r->data, len), r->want);
	/* Continuing a CRC over a split buffer gives the same value. */
	EXPECT_U64(r, "crc32 in two parts",
		   ba_crc32(ba_crc32(0, r->data, len / 2), r->data + len / 2,
			    len - len / 2),
		   r->want);
}

int main(void)
{
	int failed = 0;

	failed += RUN_TABLE(test_gpt, gpt_rows);
	failed += RUN_TABLE(test_crc, crc_rows);
	return failed ? 1 : 0;
}
