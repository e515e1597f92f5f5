/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-probe-md.c - the md superblock prober (lib/scan/probe/md.c).
 *
 * 1. Superblocks written here, from md_p.h's layout (0.90 in both byte
 *    orders, 1.0, 1.1, 1.2), each row changing one thing; the expected
 *    numbers are worked out by hand in the row comments.
 * 2. Real members, when ../shared is there: util-linux's mdraid-1.img and
 *    the kernel-lab disks made by a 6.1 kernel, against the values
 *    `mdadm --examine` printed for them (corpus expected/ files).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "table.h" /* system headers before banned.h */
#include "probe/probe.h"

#define PAD_SECTORS 63 /* the region starts here in the buffer */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32e(uint8_t *p, uint32_t v, bool big)
{
	for (int i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
	put32e(p, v, false);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32e(const uint8_t *p, bool big)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v |= (uint32_t)p[big ? 3 - i : i] << (8 * i);
	return v;
}

enum fmt { F090LE, F090BE, F10, F11, F12 };

/* One superblock to write. */
struct md_spec {
	enum fmt fmt;
	uint64_t sectors; /* region size */
	int32_t level;
	uint32_t layout;
	uint32_t raid_disks;
	uint32_t chunk;	      /* 1.x: sectors; 0.90: bytes */
	uint64_t data_offset; /* 1.x: sectors */
	uint64_t data_size;   /* 1.x: sectors; 0.90: KiB ("size") */
	uint32_t max_dev;     /* 1.x: 0 = raid_disks */
};

/* Where each version lives, in sectors from the region start. */
static uint64_t sb_sector(const struct md_spec *s)
{
	switch (s->fmt) {
	case F090LE:
	case F090BE:
		return s->sectors / 128 * 128 - 128;
	case F10:
		return (s->sectors - 16) / 8 * 8;
	case F11:
		return 0;
	case F12:
	default:
		return 8;
	}
}

static bool is_090(const struct md_spec *s)
{
	return s->fmt == F090LE || s->fmt == F090BE;
}

static void write_sb(uint8_t *sb, const struct md_spec *s)
{
	bool big = s->fmt == F090BE;
	uint32_t max_dev = s->max_dev ? s->max_dev : s->raid_disks;

	if (is_090(s)) {
		put32e(sb + 0, 0xa92b4efc, big);
		put32e(sb + 4, 0, big);
		put32e(sb + 8, 90, big);
		put32e(sb + 28, (uint32_t)s->level, big);
		put32e(sb + 32, (uint32_t)s->data_size, big);
		put32e(sb + 36, s->raid_disks, big);
		put32e(sb + 40, s->raid_disks, big);
		put32e(sb + 256, s->layout, big);
		put32e(sb + 260, s->chunk, big);
		return;
	}
	put32(sb + 0, 0xa92b4efc);
	put32(sb + 4, 1);
	memcpy(sb + 32, "test:0", 6);
	put32(sb + 72, (uint32_t)s->level);
	put32(sb + 76, s->layout);
	put64(sb + 80, s->data_size);
	put32(sb + 88, s->chunk);
	put32(sb + 92, s->raid_disks);
	put64(sb + 128, s->data_offset);
	put64(sb + 136, s->data_size);
	put64(sb + 144, sb_sector(s));
	put32(sb + 220, max_dev);
	for (uint32_t i = 0; i < max_dev && i < 1920; i++)
		put16(sb + 256 + 2 * i,
		      i < s->raid_disks ? (uint16_t)i : 0xffff);
}

/* mdadm calc_sb0_csum() / calc_sb_1_csum(), written out again here. */
static void seal(uint8_t *sb, const struct md_spec *s)
{
	bool big = s->fmt == F090BE;
	uint64_t sum = 0;
	uint32_t n;

	if (is_090(s)) {
		put32e(sb + 152, 0, big);
		for (int i = 0; i < 4096; i += 4)
			sum += get32e(sb + i, big);
		put32e(sb + 152, (uint32_t)sum + (uint32_t)(sum >> 32), big);
		return;
	}
	put32(sb + 216, 0);
	n = 256 + 2 * get32e(sb + 220, false);
	if (n > 4096)
		n = 4096;
	for (uint32_t i = 0; i + 4 <= n; i += 4)
		sum += get32e(sb + i, false);
	if (n % 4)
		sum += (uint32_t)sb[n - 2] | (uint32_t)sb[n - 1] << 8;
	put32(sb + 216, (uint32_t)sum + (uint32_t)(sum >> 32));
}

struct md_row {
	const char *name;
	struct md_spec sb;
	void (*mutate)(uint8_t *sb); /* before sealing */
	void (*damage)(uint8_t *sb); /* after sealing */
	int rc;
	const char *version;
	uint64_t data_offset, data_size, super_offset, chunk; /* bytes */
	uint32_t data_disks;
};

static void m_super_offset_0(uint8_t *sb)
{
	put64(sb + 144, 0);
}

static void m_major_2(uint8_t *sb)
{
	put32(sb + 4, 2);
}

static void m_minor_92(uint8_t *sb)
{
	put32(sb + 8, 92);
}

static void m_nr_disks_28(uint8_t *sb)
{
	put32(sb + 36, 28);
}

static void d_flip_uuid(uint8_t *sb)
{
	sb[20] ^= 1; /* 1.x set_uuid / 0.90 set_uuid0 */
}

static void d_flip_role(uint8_t *sb)
{
	sb[256] ^= 1; /* covered by the 1.x checksum */
}

static void d_flip_past_roles(uint8_t *sb)
{
	sb[4000] ^= 0xff;
}

#define KIB_ 1024ULL

/* A superblock to write: format, region sectors, level, layout, disks,
 * chunk, data offset, data size (units as in struct md_spec). */
#define S(f, n, lvl, lay, disks, ch, doff, dsz)                              \
	{                                                                    \
		.fmt = (f), .sectors = (n), .level = (lvl), .layout = (lay), \
		.raid_disks = (disks), .chunk = (ch), .data_offset = (doff), \
		.data_size = (dsz)                                           \
	}
#define SM(f, n, lvl, lay, disks, ch, doff, dsz, maxdev)                     \
	{                                                                    \
		.fmt = (f), .sectors = (n), .level = (lvl), .layout = (lay), \
		.raid_disks = (disks), .chunk = (ch), .data_offset = (doff), \
		.data_size = (dsz), .max_dev = (maxdev)                      \
	}
/* Found, with version, data offset, data size, super offset, chunk (all
 * bytes) and data disks. */
#define FOUND(nm, spec, dmg, ver, doff, dsz, soff, ch, dd)                   \
	{                                                                    \
		.name = (nm), .sb = spec, .damage = (dmg), .version = (ver), \
		.data_offset = (doff), .data_size = (dsz),                   \
		.super_offset = (soff), .chunk = (ch), .data_disks = (dd)    \
	}
#define LIES(nm, spec, mut, dmg)                                            \
	{                                                                   \
		.name = (nm), .sb = spec, .mutate = (mut), .damage = (dmg), \
		.rc = -EINVAL                                               \
	}

static const struct md_row md_rows[] = {
	/* 8192 sectors: 1.2 at 8; 2048 + 6144 = 8192 fills the region. */
	FOUND("1.2-raid5-4disks-512k", S(F12, 8192, 5, 2, 4, 1024, 2048, 6144),
	      NULL, "1.2", 2048 * 512, 6144 * 512, 4096, 512 * KIB_, 3),
	FOUND("1.1-raid6-6disks-256k", S(F11, 8192, 6, 2, 6, 512, 2048, 6144),
	      NULL, "1.1", 1048576, 3145728, 0, 256 * KIB_, 4),
	/* (8195 - 16) = 8179, down to a multiple of 8: 8176. */
	FOUND("1.0-raid1-odd-size", S(F10, 8195, 1, 0, 2, 0, 0, 8160), NULL,
	      "1.0", 0, 8160 * 512, 8176 * 512, 0, 1),
	/* raid10: the kernel's stripe is disks / near copies. */
	FOUND("1.0-raid10-far2-4disks",
	      S(F10, 8192, 10, 0x201, 4, 128, 0, 8160), NULL, "1.0", 0,
	      8160 * 512, 8176 * 512, 64 * KIB_, 4),
	FOUND("1.2-raid10-near2-4disks",
	      S(F12, 8192, 10, 0x102, 4, 128, 2048, 6144), NULL, "1.2", 1048576,
	      3145728, 4096, 65536, 2),
	FOUND("1.2-raid10-near2-3disks",
	      S(F12, 8192, 10, 0x102, 3, 128, 2048, 6144), NULL, "1.2", 1048576,
	      3145728, 4096, 65536, 3),
	FOUND("1.2-raid10-offset2-4disks",
	      S(F12, 8192, 10, 0x10201, 4, 128, 2048, 6144), NULL, "1.2",
	      1048576, 3145728, 4096, 65536, 4),
	FOUND("1.2-raid0-12k-chunk", S(F12, 8192, 0, 0, 1, 24, 2048, 6144),
	      NULL, "1.2", 1048576, 3145728, 4096, 12288, 1),
	/* linear: the chunk is only a rounding unit, not a stripe. */
	FOUND("1.2-linear-3disks", S(F12, 8192, -1, 0, 3, 128, 2048, 6144),
	      NULL, "1.2", 1048576, 3145728, 4096, 0, 3),
	/* 256 + 2 * 3 bytes: the checksum ends with a 16-bit word. */
	FOUND("1.2-raid1-max_dev-odd", SM(F12, 8192, 1, 0, 2, 0, 16, 8176, 3),
	      NULL, "1.2", 8192, 8176 * 512, 4096, 0, 1),
	FOUND("1.2-max_dev-1920", SM(F12, 8192, 1, 0, 2, 0, 16, 8176, 1920),
	      NULL, "1.2", 8192, 8176 * 512, 4096, 0, 1),
	/* Past dev_roles[max_dev]: not covered by the checksum, ignored. */
	FOUND("1.2-bytes-past-roles-ignored",
	      S(F12, 8192, 1, 0, 2, 0, 16, 8176), d_flip_past_roles, "1.2",
	      8192, 8176 * 512, 4096, 0, 1),

	/* 0.90: 8192 sectors -> (8192 & ~127) - 128 = 8064; size <= 4032 KiB */
	FOUND("0.90-le-raid5-4disks-64k",
	      S(F090LE, 8192, 5, 2, 4, 65536, 0, 4032), NULL, "0.90", 0,
	      4032 * KIB_, 8064 * 512, 65536, 3),
	FOUND("0.90-be-raid5-4disks-64k",
	      S(F090BE, 8192, 5, 2, 4, 65536, 0, 4032), NULL, "0.90", 0,
	      4032 * KIB_, 8064 * 512, 65536, 3),
	/* 8300 sectors -> 8300 & ~127 = 8192 -> 8064 */
	FOUND("0.90-le-odd-size", S(F090LE, 8300, 0, 0, 27, 4096, 0, 4000),
	      NULL, "0.90", 0, 4000 * KIB_, 8064 * 512, 4096, 27),
	FOUND("0.90-be-raid6-128k", S(F090BE, 8300, 6, 2, 8, 131072, 0, 100),
	      NULL, "0.90", 0, 100 * KIB_, 8064 * 512, 131072, 6),
	FOUND("0.90-raid1", S(F090LE, 8192, 1, 0, 2, 0, 0, 4032), NULL, "0.90",
	      0, 4032 * KIB_, 8064 * 512, 0, 1),

	/* Lies. */
	LIES("1.2-raid10-6-copies-on-4",
	     S(F12, 8192, 10, 0x203, 4, 128, 2048, 6144), NULL, NULL),
	LIES("1.2-raid10-layout-bit-19",
	     S(F12, 8192, 10, 0x80102, 4, 128, 2048, 6144), NULL, NULL),
	LIES("1.2-raid10-near-0", S(F12, 8192, 10, 0x100, 4, 128, 2048, 6144),
	     NULL, NULL),
	LIES("1.2-raid5-12k-chunk", S(F12, 8192, 5, 2, 4, 24, 2048, 6144), NULL,
	     NULL),
	LIES("1.2-raid5-2k-chunk", S(F12, 8192, 5, 2, 4, 4, 2048, 6144), NULL,
	     NULL),
	LIES("1.2-raid0-chunk-0", S(F12, 8192, 0, 0, 2, 0, 2048, 6144), NULL,
	     NULL),
	LIES("1.2-raid6-3disks", S(F12, 8192, 6, 2, 3, 128, 2048, 6144), NULL,
	     NULL),
	LIES("1.2-raid5-1disk", S(F12, 8192, 5, 2, 1, 128, 2048, 6144), NULL,
	     NULL),
	LIES("1.2-0-disks", SM(F12, 8192, 0, 0, 0, 128, 2048, 6144, 4), NULL,
	     NULL),
	LIES("1.2-1921-disks", SM(F12, 8192, 0, 0, 1921, 128, 2048, 6144, 384),
	     NULL, NULL),
	LIES("1.2-max_dev-1921", SM(F12, 8192, 1, 0, 2, 0, 2048, 6144, 1921),
	     NULL, NULL),
	LIES("1.2-level-7", S(F12, 8192, 7, 0, 4, 128, 2048, 6144), NULL, NULL),
	LIES("1.2-level-minus-2", S(F12, 8192, -2, 0, 4, 128, 2048, 6144), NULL,
	     NULL),
	LIES("1.2-checksum", S(F12, 8192, 5, 2, 4, 128, 2048, 6144), NULL,
	     d_flip_uuid),
	LIES("1.2-checksum-role", S(F12, 8192, 5, 2, 4, 128, 2048, 6144), NULL,
	     d_flip_role),
	LIES("1.2-super_offset-lies", S(F12, 8192, 5, 2, 4, 128, 2048, 6144),
	     m_super_offset_0, NULL),
	LIES("1.1-major-2", S(F11, 8192, 5, 2, 4, 128, 2048, 6144), m_major_2,
	     NULL),
	LIES("1.2-data-offset-at-end", S(F12, 8192, 1, 0, 2, 0, 8192, 0), NULL,
	     NULL),
	LIES("1.2-data-offset-2^63", S(F12, 8192, 1, 0, 2, 0, 1ULL << 63, 0),
	     NULL, NULL),
	LIES("1.2-data-size-one-too-many", S(F12, 8192, 1, 0, 2, 0, 2048, 6145),
	     NULL, NULL),
	LIES("1.2-data-size-2^64-1", S(F12, 8192, 1, 0, 2, 0, 2048, UINT64_MAX),
	     NULL, NULL),
	LIES("1.2-data-inside-superblock", S(F12, 8192, 1, 0, 2, 0, 8, 100),
	     NULL, NULL),
	LIES("1.0-data-over-superblock", S(F10, 8192, 1, 0, 2, 0, 0, 8177),
	     NULL, NULL),
	LIES("0.90-28-disks", S(F090LE, 8192, 0, 0, 28, 4096, 0, 4000), NULL,
	     NULL),
	LIES("0.90-nr_disks-28", S(F090LE, 8192, 0, 0, 4, 4096, 0, 4000),
	     m_nr_disks_28, NULL),
	LIES("0.90-size-past-superblock", S(F090LE, 8192, 1, 0, 2, 0, 0, 4033),
	     NULL, NULL),
	LIES("0.90-checksum", S(F090LE, 8192, 5, 2, 4, 65536, 0, 4032), NULL,
	     d_flip_uuid),
	LIES("0.90-be-checksum", S(F090BE, 8192, 5, 2, 4, 65536, 0, 4032), NULL,
	     d_flip_uuid),
	LIES("0.90-minor-92", S(F090LE, 8192, 5, 2, 4, 65536, 0, 4032),
	     m_minor_92, NULL),
	LIES("0.90-raid5-chunk-3000", S(F090LE, 8192, 5, 2, 4, 3000, 0, 4032),
	     NULL, NULL),
};

static void test_md(void **state)
{
	const struct md_row *r = *state;
	uint64_t pad = PAD_SECTORS * 512, size = r->sb.sectors * 512;
	uint8_t *img = calloc(1, pad + size);
	uint8_t *sb = img + pad + sb_sector(&r->sb) * 512;
	struct ba_content c;
	struct ba_io io;
	int rc;

	assert_non_null(img);
	memset(img, 0xe5, pad); /* garbage before the region */
	write_sb(sb, &r->sb);
	if (r->mutate)
		r->mutate(sb);
	seal(sb, &r->sb);
	if (r->damage)
		r->damage(sb);
	ba_io_init_mem(&io, img, pad + size);
	rc = ba_md_prober.probe(&io, pad, size, &c);
	EXPECT_S64(r, "rc", rc, r->rc);
	if (rc == 0) {
		assert_int_equal(c.kind, BA_CONTENT_MD);
		assert_string_equal(c.type, "linux_raid_member");
		assert_string_equal(c.version, r->version);
		EXPECT_S64(r, "md_level", c.md_level, r->sb.level);
		EXPECT_U64(r, "md_layout", c.md_layout, r->sb.layout);
		EXPECT_U64(r, "md_raid_disks", c.md_raid_disks,
			   r->sb.raid_disks);
		EXPECT_U64(r, "md_data_disks", c.md_data_disks, r->data_disks);
		EXPECT_U64(r, "md_chunk", c.md_chunk, r->chunk);
		EXPECT_U64(r, "data_offset", c.data_offset, r->data_offset);
		EXPECT_U64(r, "data_size", c.data_size, r->data_size);
		EXPECT_U64(r, "md_super_offset", c.md_super_offset,
			   r->super_offset);
	} else {
		EXPECT_U64(r, "kind on failure", c.kind, BA_CONTENT_NONE);
	}
	free(img);
}

/* A stale 0.90 superblock with a bad checksum does not hide a good 1.2
 * one, and a good 0.90 one is preferred to a 1.2 one (libblkid order). */
static void test_stale_and_order(void **state)
{
	struct md_spec s0 = {F090LE, 8192, 5, 2, 4, 65536, 0, 4032, 0};
	struct md_spec s12 = {F12, 8192, 1, 0, 2, 0, 2048, 6144, 0};
	uint8_t *img = calloc(1, 8192 * 512);
	struct ba_content c;
	struct ba_io io;

	(void)state;
	assert_non_null(img);
	write_sb(img + 8064 * 512, &s0);
	seal(img + 8064 * 512, &s0);
	write_sb(img + 8 * 512, &s12);
	seal(img + 8 * 512, &s12);
	ba_io_init_mem(&io, img, 8192 * 512);
	assert_int_equal(ba_md_prober.probe(&io, 0, 8192 * 512, &c), 0);
	assert_string_equal(c.version, "0.90");

	img[8064 * 512 + 100] ^= 1; /* 0.90 checksum now wrong */
	assert_int_equal(ba_md_prober.probe(&io, 0, 8192 * 512, &c), 0);
	assert_string_equal(c.version, "1.2");
	assert_int_equal(c.data_offset, 2048 * 512);

	img[8 * 512 + 33] ^= 1; /* and the 1.2 one */
	assert_int_equal(ba_md_prober.probe(&io, 0, 8192 * 512, &c), -EINVAL);
	free(img);
}

/* Nothing there, tiny regions, a region running past the device. */
static void test_absent(void **state)
{
	struct md_spec s10 = {F10, 8192, 1, 0, 2, 0, 0, 8160, 0};
	uint8_t *img = calloc(1, 8192 * 512);
	struct ba_content c;
	struct ba_io io;

	(void)state;
	assert_non_null(img);
	ba_io_init_mem(&io, img, 8192 * 512);
	assert_int_equal(ba_md_prober.probe(&io, 0, 8192 * 512, &c), 1);
	assert_int_equal(ba_md_prober.probe(&io, 0, 0, &c), 1);
	assert_int_equal(ba_md_prober.probe(&io, 0, 4095, &c), 1);
	assert_int_equal(ba_md_prober.probe(&io, 8192 * 512, 0, &c), 1);
	assert_int_equal(ba_md_prober.probe(&io, UINT64_MAX, 2, &c), -EINVAL);
	assert_int_equal(ba_md_prober.probe(&io, 4096, UINT64_MAX, &c),
			 -EINVAL);

	/* A 1.0 member whose end is cut off the image: absent. */
	write_sb(img + 8176 * 512, &s10);
	seal(img + 8176 * 512, &s10);
	assert_int_equal(ba_md_prober.probe(&io, 0, 8192 * 512, &c), 0);
	ba_io_init_mem(&io, img, 8000 * 512);
	assert_int_equal(ba_md_prober.probe(&io, 0, 8192 * 512, &c), 1);
	/* ... and a region longer than the device moves the 1.0 location. */
	ba_io_init_mem(&io, img, 8192 * 512);
	assert_int_equal(ba_md_prober.probe(&io, 0, 8200 * 512, &c), 1);
	free(img);
}

static ssize_t eio_pread(struct ba_io *io, void *buf, size_t len, uint64_t off)
{
	(void)io;
	(void)buf;
	(void)len;
	(void)off;
	return -EIO;
}

static void test_io_error(void **state)
{
	static const struct ba_io_ops eio_ops = {"eio", eio_pread};
	struct ba_content c;
	struct ba_io io = {.ops = &eio_ops, .fd = -1, .size = 1 << 20};

	(void)state;
	assert_int_equal(ba_md_prober.probe(&io, 0, 1 << 20, &c), -EIO);
}

/* ---- real members from ../shared ---- */

/* The whole output of `xz -dc PATH`, or NULL (reason printed). */
static uint8_t *xz_load(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf;
	int fds[2], status;
	pid_t pid;

	if (access(path, R_OK)) {
		print_message("skipped: no %s\n", path);
		return NULL;
	}
	if (pipe(fds))
		return NULL;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execlp("xz", "xz", "-dc", path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	buf = malloc(cap);
	while (buf && pid > 0) {
		ssize_t k;

		if (n == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		k = read(fds[0], buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		print_message("skipped: cannot run xz -dc %s\n", path);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

struct corpus_row {
	const char *name;
	const char *file; /* under $TS_SHARED/corpus */
	int part;	  /* 0 whole image, 1 first dos partition */
	const char *version;
	int32_t level;
	uint32_t raid_disks, data_disks;
	uint64_t chunk; /* bytes ("Chunk Size") */
	uint64_t data_offset_s, super_offset_s, data_size_s; /* sectors */
};

/* From util-linux's tests (peer-tools.md §2.1) and kernel-lab
 * expected/mdadm-examine.txt ("Avail Dev Size" is data_size). */
#define MEMBER(nm, f, pt, ver, lvl, disks, dd, ch, doff, soff, dsz)        \
	{                                                                  \
		.name = (nm), .file = (f), .part = (pt), .version = (ver), \
		.level = (lvl), .raid_disks = (disks), .data_disks = (dd), \
		.chunk = (ch), .data_offset_s = (doff),                    \
		.super_offset_s = (soff), .data_size_s = (dsz)             \
	}

static const struct corpus_row corpus_rows[] = {
	MEMBER("mdraid-1", "util-linux/images-fs/mdraid-1.img.xz", 0, "1.2", 0,
	       1, 1, 512 * KIB_, 4096, 8, 16384),
	MEMBER("vda1", "kernel-lab/vda.img.xz", 1, "1.2", 5, 3, 2, 128 * KIB_,
	       2048, 8, 117952),
	MEMBER("vdb1", "kernel-lab/vdb.img.xz", 1, "1.2", 5, 3, 2, 128 * KIB_,
	       2048, 8, 117952),
	MEMBER("vdc1", "kernel-lab/vdc.img.xz", 1, "1.2", 5, 3, 2, 128 * KIB_,
	       2048, 8, 117952),
	MEMBER("vdd1", "kernel-lab/vdd.img.xz", 1, "1.0", 1, 2, 1, 0, 0, 99984,
	       99968),
	MEMBER("vde1", "kernel-lab/vde.img.xz", 1, "1.0", 1, 2, 1, 0, 0, 99984,
	       99968),
	MEMBER("vdf", "kernel-lab/vdf.img.xz", 0, "1.2", 10, 4, 2, 64 * KIB_,
	       2048, 8, 129024),
	MEMBER("vdg", "kernel-lab/vdg.img.xz", 0, "1.2", 10, 4, 2, 64 * KIB_,
	       2048, 8, 129024),
	MEMBER("vdh", "kernel-lab/vdh.img.xz", 0, "1.2", 10, 4, 2, 64 * KIB_,
	       2048, 8, 129024),
	MEMBER("vdi", "kernel-lab/vdi.img.xz", 0, "1.2", 10, 4, 2, 64 * KIB_,
	       2048, 8, 129024),
};

static void test_corpus(void **state)
{
	const struct corpus_row *r = *state;
	const char *shared = getenv("TS_SHARED");
	uint64_t off = 0, size;
	struct ba_content c;
	struct ba_io io;
	char path[4096];
	uint8_t *img;
	size_t len = 0;

	if (!shared || !*shared)
		NEED_SHARED("TS_SHARED (../shared)");
	snprintf(path, sizeof(path), "%s/corpus/%s", shared, r->file);
	img = xz_load(path, &len);
	if (!img)
		NEED_SHARED(path);
	size = len;
	if (r->part) {
		/* dos partition entry 1: start and size at 446 + 8 / + 12 */
		assert_true(len >= 512 && img[510] == 0x55 && img[511] == 0xaa);
		off = (uint64_t)get32e(img + 446 + 8, false) * 512;
		size = (uint64_t)get32e(img + 446 + 12, false) * 512;
	}
	ba_io_init_mem(&io, img, len);
	EXPECT_S64(r, "rc", ba_md_prober.probe(&io, off, size, &c), 0);
	assert_string_equal(c.version, r->version);
	EXPECT_S64(r, "md_level", c.md_level, r->level);
	EXPECT_U64(r, "md_raid_disks", c.md_raid_disks, r->raid_disks);
	EXPECT_U64(r, "md_data_disks", c.md_data_disks, r->data_disks);
	EXPECT_U64(r, "md_chunk", c.md_chunk, r->chunk);
	EXPECT_U64(r, "data_offset", c.data_offset, r->data_offset_s * 512);
	EXPECT_U64(r, "md_super_offset", c.md_super_offset,
		   r->super_offset_s * 512);
	EXPECT_U64(r, "data_size", c.data_size, r->data_size_s * 512);
	free(img);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_and_order),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_io_error),
	};
	int failed = 0;

	failed += RUN_TABLE(test_md, md_rows);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	failed += RUN_TABLE(test_corpus, corpus_rows);
	return failed ? 1 : 0;
}
