/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-probe-exfat.c - the exFAT prober (lib/scan/probe/exfat.c) on boot
 * regions built in memory.  Each row starts from a valid main boot
 * region, patches a few fields of its boot sector, seals it again with
 * the boot checksum (unless the row tests the checksum) and says what
 * the prober must answer: the decoded values, "absent" (1) or a lie
 * (-EINVAL/-ERANGE, with a word of its note).  The valid region is the
 * one mkfs.exfat (exfatprogs 1.2.0) makes on a 64 MiB file, as
 * dump.exfat prints it; the expected values are worked out by hand in
 * the comments from Microsoft's exFAT specification, section 3.1, and
 * the checksum is computed here as its section 3.4 says.
 */
#include <errno.h>
#include <string.h>

#include "table.h" /* system headers before banned.h */
#include "probe/probe.h"

#define KiB   1024ULL
#define MiB   (1024ULL * 1024)
#define SEC63 (63ULL * 512) /* an old DOS partition start */

/* The device: the region's first 64 KiB (12 sectors of at most 4 KiB,
 * all the prober reads), at row->off; the region may be larger. */
#define DEV_BYTES (64 * KiB)

struct patch {
	uint32_t at;
	int width;
	uint64_t val;
};

#define P(at, w, v)                      \
	{                                \
		(at), (w), (uint64_t)(v) \
	}

struct exfat_row {
	const char *name;
	unsigned int shift; /* BytesPerSectorShift the boot region is in */
	uint64_t size;	    /* the region's bytes */
	uint64_t off;	    /* where it starts on the device */
	struct patch patch[6];
	int stale_sum; /* patched after the checksum: it no longer matches */
	int want_rc;
	const char *note; /* a word of the note when want_rc < 0 */
	const char *version;
	uint32_t block_size, sector_size;
	uint64_t data_offset, used_size;
};

static void put_le(uint8_t *p, int width, uint64_t v)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * mkfs.exfat on a 64 MiB file (dump.exfat): 131072 sectors of 512
 * bytes, FAT at sector 2048, 128 sectors long, cluster heap at sector
 * 4096, 15872 clusters of 8 sectors (4 KiB), root directory at cluster
 * 5.  In sectors of 4 KiB (@shift 12) the same volume: 16384 sectors,
 * FAT at 256, 16 long (16 * 4096 / 4 = 16384 entries), heap at 512,
 * 15872 clusters of one sector.
 */
static void build(uint8_t *r, unsigned int shift)
{
	int big = shift == 12;

	memcpy(r,
	       "\xeb\x76\x90"
	       "EXFAT   ",
	       11);
	put_le(r + 0x48, 8, big ? 16384 : 131072); /* VolumeLength */
	put_le(r + 0x50, 4, big ? 256 : 2048);	   /* FatOffset */
	put_le(r + 0x54, 4, big ? 16 : 128);	   /* FatLength */
	put_le(r + 0x58, 4, big ? 512 : 4096);	   /* ClusterHeapOffset */
	put_le(r + 0x5c, 4, 15872);		   /* ClusterCount */
	put_le(r + 0x60, 4, 5);			   /* FirstClusterOfRoot */
	put_le(r + 0x64, 4, 0xef97f997);	   /* VolumeSerialNumber */
	put_le(r + 0x68, 2, 0x0100);		   /* FileSystemRevision 1.0 */
	r[0x6c] = (uint8_t)shift;		   /* BytesPerSectorShift */
	r[0x6d] = big ? 0 : 3;			   /* SectorsPerClusterShift */
	r[0x6e] = 1;				   /* NumberOfFats */
	r[0x6f] = 0x80;				   /* DriveSelect */
	r[510] = 0x55;
	r[511] = 0xaa;
	/* the extended boot sectors 1..8 end in their signature too */
	for (unsigned int s = 1; s <= 8; s++)
		put_le(r + (s << shift) + (1u << shift) - 4, 4, 0xaa550000);
}

/* Spec 3.4: sectors 0..10 less bytes 106, 107 and 112, each word of
 * sector 11 the sum. */
static void seal(uint8_t *r, unsigned int shift)
{
	uint32_t sum = 0, n = 11u << shift;

	for (uint32_t i = 0; i < n; i++) {
		if (i == 106 || i == 107 || i == 112)
			continue;
		sum = ((sum & 1) ? 0x80000000u : 0) + (sum >> 1) + r[i];
	}
	for (uint32_t i = 0; i < 1u << shift; i += 4)
		put_le(r + n + i, 4, sum);
}

#define VALID(v, bs, ss, data, used) 0, NULL, (v), (bs), (ss), (data), (used)
#define ABSENT			     1
#define LIES(rc, word)		     (rc), (word)

static const struct exfat_row rows[] = {
	/* clusters of 2^3 sectors: 4096 bytes; the heap at 4096 * 512 =
	 * 2 MiB; the volume 131072 * 512 = 64 MiB */
	{"exfat",
	 9,
	 64 * MiB,
	 0,
	 {{0}},
	 0,
	 VALID("1.0", 4096, 512, 2 * MiB, 64 * MiB)},
	{"exfat-at-sector-63",
	 9,
	 64 * MiB,
	 SEC63,
	 {{0}},
	 0,
	 VALID("1.0", 4096, 512, 2 * MiB, 64 * MiB)},
	/* a partition larger than the volume: the volume's size */
	{"exfat-in-larger-region",
	 9,
	 1024 * MiB,
	 0,
	 {{0}},
	 0,
	 VALID("1.0", 4096, 512, 2 * MiB, 64 * MiB)},
	/* 4 KiB sectors, one per cluster; heap at 512 * 4096 = 2 MiB */
	{"exfat-4k-sectors",
	 12,
	 64 * MiB,
	 0,
	 {{0}},
	 0,
	 VALID("1.0", 4096, 4096, 2 * MiB, 64 * MiB)},
	/* 2 FATs of 128 end at 2048 + 256 <= 4096; 32 KiB clusters (shift
	 * 6) need 4096 + 15872 * 64 = 1019904 sectors: VolumeLength too */
	{"exfat-2-fats-32k-clusters",
	 9,
	 1019904 * 512ULL,
	 0,
	 {P(0x6e, 1, 2), P(0x6d, 1, 6), P(0x48, 8, 1019904)},
	 0,
	 VALID("1.0", 32768, 512, 2 * MiB, 1019904 * 512ULL)},
	/* the largest cluster, 2^25 = 32 MiB (shift 16 of 512-byte sectors):
	 * 4096 + 1 * 65536 sectors */
	{"exfat-32m-cluster",
	 9,
	 69632 * 512ULL,
	 0,
	 {P(0x6d, 1, 16), P(0x5c, 4, 1), P(0x60, 4, 2), P(0x48, 8, 69632)},
	 0,
	 VALID("1.0", 32 * MiB, 512, 2 * MiB, 69632 * 512ULL)},
	/* the root directory may be the last cluster, 15872 + 1 */
	{"exfat-root-last-cluster",
	 9,
	 64 * MiB,
	 0,
	 {P(0x60, 4, 15873)},
	 0,
	 VALID("1.0", 4096, 512, 2 * MiB, 64 * MiB)},
	{"exfat-revision-1.1",
	 9,
	 64 * MiB,
	 0,
	 {P(0x68, 2, 0x0101)},
	 0,
	 VALID("1.1", 4096, 512, 2 * MiB, 64 * MiB)},
	/* VolumeFlags (106, 107) and PercentInUse (112) are not summed: a
	 * driver changes them without writing sector 11 again */
	{"exfat-flags-not-summed",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6a, 2, 0x0002), P(0x70, 1, 37)},
	 1,
	 VALID("1.0", 4096, 512, 2 * MiB, 64 * MiB)},

	/* ---- absent ---- */
	{"exfat-no-name", 9, 64 * MiB, 0, {P(0x03, 1, 'F')}, 0, ABSENT},
	{"exfat-region-below-a-sector", 9, 511, 0, {{0}}, 0, ABSENT},

	/* ---- the boot checksum ---- */
	{"exfat-sum-sector-5",
	 9,
	 64 * MiB,
	 0,
	 {P(5 * 512 + 100, 1, 1)},
	 1,
	 LIES(-EINVAL, "checksum")},
	{"exfat-sum-drive-select",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6f, 1, 0x00)},
	 1,
	 LIES(-EINVAL, "checksum")},
	/* the last word of sector 11 alone differs */
	{"exfat-sum-last-word",
	 9,
	 64 * MiB,
	 0,
	 {P(11 * 512 + 508, 4, 0)},
	 1,
	 LIES(-EINVAL, "checksum")},
	{"exfat-4k-sum-sector-10",
	 12,
	 64 * MiB,
	 0,
	 {P(10 * 4096 + 4000, 1, 1)},
	 1,
	 LIES(-EINVAL, "checksum")},

	/* ---- fields the specification fixes ---- */
	{"exfat-bad-jump",
	 9,
	 64 * MiB,
	 0,
	 {P(0x00, 1, 0xe9)},
	 0,
	 LIES(-EINVAL, "jump")},
	{"exfat-bpb-not-zero",
	 9,
	 64 * MiB,
	 0,
	 {P(0x0b, 2, 512)},
	 0,
	 LIES(-EINVAL, "not zero")},
	{"exfat-bpb-last-not-zero",
	 9,
	 64 * MiB,
	 0,
	 {P(0x3f, 1, 1)},
	 0,
	 LIES(-EINVAL, "not zero")},
	{"exfat-no-0xaa55",
	 9,
	 64 * MiB,
	 0,
	 {P(510, 2, 0)},
	 0,
	 LIES(-EINVAL, "0xaa55")},

	/* ---- shifts and counts out of range ---- */
	{"exfat-sector-shift-8",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6c, 1, 8)},
	 0,
	 LIES(-EINVAL, "2^8 bytes")},
	{"exfat-sector-shift-13",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6c, 1, 13)},
	 0,
	 LIES(-EINVAL, "2^13 bytes")},
	{"exfat-sector-shift-255",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6c, 1, 255)},
	 0,
	 LIES(-EINVAL, "2^255 bytes")},
	/* 2^17 sectors of 512: 64 MiB clusters, above the 2^25 limit */
	{"exfat-cluster-64m",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6d, 1, 17)},
	 0,
	 LIES(-EINVAL, "above 32 MiB")},
	/* 4 KiB sectors leave 2^13 sectors per cluster at most */
	{"exfat-4k-cluster-shift-14",
	 12,
	 64 * MiB,
	 0,
	 {P(0x6d, 1, 14)},
	 0,
	 LIES(-EINVAL, "above 32 MiB")},
	{"exfat-cluster-shift-255",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6d, 1, 255)},
	 0,
	 LIES(-EINVAL, "above 32 MiB")},
	{"exfat-no-fats",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6e, 1, 0)},
	 0,
	 LIES(-EINVAL, "0 FATs")},
	{"exfat-3-fats",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6e, 1, 3)},
	 0,
	 LIES(-EINVAL, "3 FATs")},
	{"exfat-revision-2.0",
	 9,
	 64 * MiB,
	 0,
	 {P(0x68, 2, 0x0200)},
	 0,
	 LIES(-EINVAL, "revision is 2.0")},

	/* ---- geometry that does not add up ---- */
	{"exfat-fat-in-boot-regions",
	 9,
	 64 * MiB,
	 0,
	 {P(0x50, 4, 23)},
	 0,
	 LIES(-EINVAL, "boot regions")},
	{"exfat-fat-length-0",
	 9,
	 64 * MiB,
	 0,
	 {P(0x54, 4, 0)},
	 0,
	 LIES(-EINVAL, "into the cluster heap")},
	/* 2048 + 2049 = 4097 > 4096 */
	{"exfat-fat-into-heap",
	 9,
	 64 * MiB,
	 0,
	 {P(0x54, 4, 2049)},
	 0,
	 LIES(-EINVAL, "into the cluster heap")},
	/* two FATs of 128 fit; of 1025 they end at 4098 */
	{"exfat-2-fats-into-heap",
	 9,
	 64 * MiB,
	 0,
	 {P(0x6e, 1, 2), P(0x54, 4, 1025)},
	 0,
	 LIES(-EINVAL, "into the cluster heap")},
	/* FatOffset + FatLength must not wrap in 32 bits */
	{"exfat-fat-wraps",
	 9,
	 64 * MiB,
	 0,
	 {P(0x50, 4, 0xffffff00), P(0x54, 4, 0x200)},
	 0,
	 LIES(-EINVAL, "into the cluster heap")},
	{"exfat-no-clusters",
	 9,
	 64 * MiB,
	 0,
	 {P(0x5c, 4, 0)},
	 0,
	 LIES(-EINVAL, "cluster count")},
	{"exfat-clusters-2^32-10",
	 9,
	 64 * MiB,
	 0,
	 {P(0x5c, 4, 0xfffffff6)},
	 0,
	 LIES(-EINVAL, "cluster count")},
	/* 4096 + 15873 * 8 = 131080 > 131072 */
	{"exfat-clusters-past-volume",
	 9,
	 64 * MiB,
	 0,
	 {P(0x5c, 4, 15873), P(0x54, 4, 200)},
	 0,
	 LIES(-EINVAL, "end of the volume")},
	/* 124 * 512 / 4 = 15872 entries, 15874 needed; 125 hold 16000 */
	{"exfat-fat-too-short",
	 9,
	 64 * MiB,
	 0,
	 {P(0x54, 4, 124)},
	 0,
	 LIES(-EINVAL, "too short")},
	{"exfat-fat-just-long-enough",
	 9,
	 64 * MiB,
	 0,
	 {P(0x54, 4, 125)},
	 0,
	 VALID("1.0", 4096, 512, 2 * MiB, 64 * MiB)},
	{"exfat-root-cluster-1",
	 9,
	 64 * MiB,
	 0,
	 {P(0x60, 4, 1)},
	 0,
	 LIES(-EINVAL, "root directory")},
	{"exfat-root-past-clusters",
	 9,
	 64 * MiB,
	 0,
	 {P(0x60, 4, 15874)},
	 0,
	 LIES(-EINVAL, "root directory")},

	/* ---- a volume longer than its region: cut short ---- */
	{"exfat-region-short-by-a-sector",
	 9,
	 64 * MiB - 512,
	 0,
	 {{0}},
	 0,
	 LIES(-ERANGE, "cut short")},
	/* 2^64 - 1 sectors: the size must not overflow */
	{"exfat-volume-2^64",
	 9,
	 64 * MiB,
	 0,
	 {P(0x48, 8, UINT64_MAX)},
	 0,
	 LIES(-ERANGE, "cut short")},
	{"exfat-4k-volume-2^61",
	 12,
	 64 * MiB,
	 0,
	 {P(0x48, 8, 1ULL << 61)},
	 0,
	 LIES(-ERANGE, "cut short")},
};

static void test_exfat_row(void **state)
{
	const struct exfat_row *r = *state;
	uint8_t *dev = calloc(1, r->off + DEV_BYTES), *region;
	struct ba_content c;
	struct ba_io io;
	int rc;

	assert_non_null(dev);
	region = dev + r->off;
	build(region, r->shift);
	if (r->stale_sum)
		seal(region, r->shift);
	for (const struct patch *p = r->patch; p->width; p++)
		put_le(region + p->at, p->width, p->val);
	if (!r->stale_sum)
		seal(region, r->shift);

	ba_io_init_mem(&io, dev, r->off + DEV_BYTES);
	memset(&c, 0, sizeof(c));
	rc = ba_exfat_prober.probe(&io, r->off, r->size, &c);
	EXPECT_S64(r, "return code", rc, r->want_rc);
	if (rc < 0 && r->note && !strstr(c.note, r->note))
		fail_msg("%s: note '%s' does not say '%s'", r->name, c.note,
			 r->note);
	if (rc == 0 && r->want_rc == 0) {
		EXPECT_U64(r, "kind", c.kind, BA_CONTENT_FS);
		if (strcmp(c.type, "exfat") || strcmp(c.version, r->version))
			fail_msg("%s: type '%s' version '%s', expected 'exfat' "
				 "'%s'",
				 r->name, c.type, c.version, r->version);
		EXPECT_U64(r, "block_size", c.block_size, r->block_size);
		EXPECT_U64(r, "sector_size", c.sector_size, r->sector_size);
		EXPECT_U64(r, "data_offset", c.data_offset, r->data_offset);
		EXPECT_U64(r, "used_size", c.used_size, r->used_size);
		EXPECT_U64(r, "data_size", c.data_size, 0);
	}
	free(dev);
}

/* Zeros, a region off the device or at its end: absent, as for every
 * other prober (test-probe-fs.c). */
static void test_absent(void **state)
{
	uint8_t *zero = calloc(1, 256 * KiB);
	struct ba_content c;
	struct ba_io io;

	(void)state;
	assert_non_null(zero);
	ba_io_init_mem(&io, zero, 256 * KiB);
	assert_int_equal(ba_exfat_prober.kind, BA_CONTENT_FS);
	assert_int_equal(ba_exfat_prober.probe(&io, 0, 256 * KiB, &c), 1);
	assert_int_equal(ba_exfat_prober.probe(&io, 256 * KiB, 0, &c), 1);
	assert_int_equal(
		ba_exfat_prober.probe(&io, UINT64_MAX - 100, 1 * MiB, &c), 1);
	free(zero);
}

int main(void)
{
	const struct CMUnitTest misc[] = {
		cmocka_unit_test(test_absent),
	};
	int failed = RUN_TABLE(test_exfat_row, rows);

	failed += cmocka_run_group_tests(misc, NULL, NULL);
	return failed ? 1 : 0;
}
