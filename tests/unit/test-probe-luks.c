/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-probe-luks.c - the LUKS prober (lib/scan/probe/luks.c) on headers
 * written here from the LUKS1 and LUKS2 on-disk specifications (binary
 * headers big-endian; LUKS2 JSON shaped like cryptsetup 2.6.1's), each
 * row changing one thing; and util-linux's luks2.img fragment when
 * ../shared is there.  Expected values are worked out by hand in the
 * rows; tests/ts/probe-raid/luks-dump compares the prober with
 * `cryptsetup luksDump` on containers made by luksFormat.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "table.h" /* system headers before banned.h */
#include "probe/probe.h"

#define PAD  (63 * 512) /* the region starts here in the buffer */
#define KIB_ 1024ULL
#define MIB_ (1024ULL * 1024)

static void put16be(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32be(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static void put64be(uint8_t *p, uint64_t v)
{
	put32be(p, (uint32_t)(v >> 32));
	put32be(p + 4, (uint32_t)v);
}

/* ---- LUKS1 ---- */

struct luks1_row {
	const char *name;
	uint64_t size;	  /* region bytes */
	uint32_t payload; /* sectors */
	int rc;
	uint64_t want_offset, want_size;
	/* key slot 0 active: its key material offset (sectors), stripes */
	uint32_t km, stripes;
	const char *note; /* -ERANGE: in the note (NULL: the payload's) */
};

static const struct luks1_row luks1_rows[] = {
	/* 4096 sectors = 2 MiB (cryptsetup's default); 4 MiB - 2 MiB left */
	{"luks1-default", 4 * MIB_, 4096, 0, 2 * MIB_, 2 * MIB_},
	/* --align-payload 2049 gave 4098 sectors = 2098176 bytes */
	/* 4194304 - 2098176 = 2096128 bytes of payload */
	{"luks1-odd-payload", 4 * MIB_, 4098, 0, 2098176, 2096128},
	{"luks1-detached-header", 4 * MIB_, 0, 0, 0, 4 * MIB_},
	{"luks1-payload-at-end", 4 * MIB_, 8192, 0, 4 * MIB_, 0},
	/* a header cut short (or a header backup): -ERANGE, with a note
	 * saying where the payload would start */
	{"luks1-payload-past-end", 4 * MIB_, 8193, -ERANGE, 0, 0},
	{"luks1-payload-2^32-1", 4 * MIB_, UINT32_MAX, -ERANGE, 0, 0},
	/* a header alone (detached), no key slot: all of it is there */
	{"luks1-region-under-4k", 4095, 0, 0, 0, 4095},
	/* cut after the phdr: cryptsetup 2.6's luksFormat --type luks1
	 * (key slot 0 at sector 8, 4000 stripes of the 64-byte key: 256000
	 * bytes, 500 sectors: bytes 4096..260096; payload at sector 4096) */
	{"luks1-cut-after-phdr", 1024, 4096, -ERANGE, 0, 0, 8, 4000,
	 "payload starts at byte 2097152, past its end (1024 bytes): cut "
	 "short; key slot 0's key material (bytes 4096..260096) is missing"},
	{"luks1-cut-phdr-only", 592, 4096, -ERANGE, 0, 0, 8, 4000,
	 "key slot 0's key material (bytes 4096..260096) is missing"},
	{"luks1-cut-in-key-material", 100000, 4096, -ERANGE, 0, 0, 8, 4000,
	 "key slot 0's key material (bytes 4096..260096) is cut"},
	/* a header backup (payload 0) cut inside its key material */
	{"luks1-detached-cut", 100000, 0, -ERANGE, 0, 0, 8, 4000,
	 "a LUKS1 header cut short (100000 bytes); key slot 0's key "
	 "material (bytes 4096..260096) is cut"},
	/* the key material whole, the payload not: as before */
	{"luks1-key-material-whole", 260096, 4096, -ERANGE, 0, 0, 8, 4000,
	 NULL},
	/* cut inside the phdr itself */
	{"luks1-cut-in-phdr", 300, 4096, -ERANGE, 0, 0, 8, 4000,
	 "only the first 300 bytes of a LUKS1 header (592 bytes) are there"},
	{"luks1-magic-and-version-cut", 7, 4096, 1, 0, 0},
};

static void test_luks1(void **state)
{
	const struct luks1_row *r = *state;
	uint8_t *img = calloc(1, PAD + (r->size > 4096 ? r->size : 4096));
	uint8_t *h = img + PAD;
	struct ba_content c;
	struct ba_io io;
	int rc;

	assert_non_null(img);
	memcpy(h, "LUKS\xba\xbe", 6);
	put16be(h + 6, 1);
	memcpy(h + 8, "aes", 3);
	memcpy(h + 40, "xts-plain64", 11);
	memcpy(h + 72, "sha256", 6);
	put32be(h + 104, r->payload);
	put32be(h + 108, 64);
	if (r->km) {
		put32be(h + 208, 0x00AC71F3); /* key slot 0: active */
		put32be(h + 208 + 40, r->km);
		put32be(h + 208 + 44, r->stripes);
	}
	ba_io_init_mem(&io, img, PAD + r->size);
	rc = ba_luks_prober.probe(&io, PAD, r->size, &c);
	EXPECT_S64(r, "rc", rc, r->rc);
	if (rc == 0) {
		assert_int_equal(c.kind, BA_CONTENT_LUKS);
		assert_string_equal(c.type, "crypto_LUKS");
		assert_string_equal(c.version, "1");
		EXPECT_U64(r, "data_offset", c.data_offset, r->want_offset);
		EXPECT_U64(r, "data_size", c.data_size, r->want_size);
		EXPECT_U64(r, "block_size", c.block_size, 512);
	}
	if (rc == -ERANGE) {
		char want[200];

		snprintf(want, sizeof(want), "%s", r->note ? r->note : "");
		if (!r->note)
			snprintf(want, sizeof(want),
				 "payload starts at byte %llu",
				 (unsigned long long)r->payload * 512);
		if (!strstr(c.note, want))
			fail_msg("%s: note '%s' lacks '%s'", r->name, c.note,
				 want);
	}
	free(img);
}

/* ---- LUKS2 ---- */

/* A JSON area like cryptsetup's with segment 0 = {offset, size,
 * sector_size} given as JSON text. */
#define JSON(off, sz, ss)                                              \
	"{\"keyslots\":{\"0\":{\"type\":\"luks2\",\"key_size\":64,"    \
	"\"area\":{\"type\":\"raw\",\"offset\":\"32768\","             \
	"\"size\":\"258048\"}}},\"tokens\":{},"                        \
	"\"segments\":{\"0\":{\"type\":\"crypt\",\"offset\":" off ","  \
	"\"size\":" sz ",\"iv_tweak\":\"0\","                          \
	"\"encryption\":\"aes-xts-plain64\",\"sector_size\":" ss "}}," \
	"\"digests\":{},\"config\":{\"json_size\":\"12288\","          \
	"\"keyslots_size\":\"16744448\"}}"

#define J64K_4K JSON("\"65536\"", "\"dynamic\"", "4096")

/* What cryptsetup 2.6.1 luksFormat --sector-size 4096 wrote. */
static const char real_json[] =
	"{\"keyslots\":{\"0\":{\"type\":\"luks2\",\"key_size\":64,\"af\":{"
	"\"type\":\"luks1\",\"stripes\":4000,\"hash\":\"sha256\"},\"area\":{"
	"\"type\":\"raw\",\"offset\":\"32768\",\"size\":\"258048\","
	"\"encryption\":\"aes-xts-plain64\",\"key_size\":64},\"kdf\":{"
	"\"type\":\"pbkdf2\",\"hash\":\"sha256\",\"iterations\":1000,"
	"\"salt\":\"M0WVc/u/Yy0uU20aEkLG2Py1IqYeyKXmgtZvdHMnnuE=\"}}},"
	"\"tokens\":{},\"segments\":{\"0\":{\"type\":\"crypt\","
	"\"offset\":\"16777216\",\"size\":\"dynamic\",\"iv_tweak\":\"0\","
	"\"encryption\":\"aes-xts-plain64\",\"sector_size\":4096}},"
	"\"digests\":{\"0\":{\"type\":\"pbkdf2\",\"keyslots\":[\"0\"],"
	"\"segments\":[\"0\"],\"hash\":\"sha256\",\"iterations\":1000,"
	"\"salt\":\"kHUestsqENbUU4NeYO/NoUtnfCQJXSDpY0krkxd28Vo=\","
	"\"digest\":\"iEfu4rVhHHRQEouIHmjdnR10J4UaKMwWewByTG07ncE=\"}},"
	"\"config\":{\"json_size\":\"12288\",\"keyslots_size\":\"16744448\"}}";

static const char linear_json[] =
	"{\"segments\":{\"0\":{\"type\":\"linear\",\"offset\":\"65536\","
	"\"size\":\"dynamic\"}}}";

struct luks2_row {
	const char *name;
	uint64_t size; /* region bytes */
	uint64_t hdr_size;
	const char *json1; /* primary JSON; NULL: no primary at all */
	const char *json2; /* secondary JSON; NULL: none */
	uint64_t seq1, seq2;
	void (*mutate)(uint8_t *img, uint64_t hdr_size);
	int rc;
	uint64_t want_offset, want_size;
	uint32_t want_sector;
};

static void put_hdr(uint8_t *h, bool secondary, uint64_t hdr_size,
		    uint64_t seqid, const char *json)
{
	memcpy(h, secondary ? "SKUL\xba\xbe" : "LUKS\xba\xbe", 6);
	put16be(h + 6, 2);
	put64be(h + 8, hdr_size);
	put64be(h + 16, seqid);
	memcpy(h + 72, "sha256", 6);
	memcpy(h + 168, "c2028e8f-8ece-4aab-b7a0-b1f72092b537", 36);
	put64be(h + 256, secondary ? hdr_size : 0);
	memcpy(h + 4096, json, strlen(json));
}

static void m_hdr_size_20k(uint8_t *img, uint64_t hs)
{
	(void)hs;
	put64be(img + 8, 20 * KIB_);
}

static void m_hdr_size_8k(uint8_t *img, uint64_t hs)
{
	(void)hs;
	put64be(img + 8, 8 * KIB_);
}

static void m_hdr_size_8m(uint8_t *img, uint64_t hs)
{
	(void)hs;
	put64be(img + 8, 8 * MIB_);
}

static void m_hdr_offset_4096(uint8_t *img, uint64_t hs)
{
	(void)hs;
	put64be(img + 256, 4096);
}

static void m_secondary_offset_0(uint8_t *img, uint64_t hs)
{
	put64be(img + hs + 256, 0);
}

static void m_version_3(uint8_t *img, uint64_t hs)
{
	(void)hs;
	put16be(img + 6, 3);
}

/* JSON padded with blanks to the last byte of the area: no NUL. */
static void m_json_fills_area(uint8_t *img, uint64_t hs)
{
	size_t n = strlen((const char *)img + 4096);

	memset(img + 4096 + n, ' ', hs - 4096 - n);
}

/* 40 nested arrays inside the object: deeper than json-c's limit. */
static void m_json_deep(uint8_t *img, uint64_t hs)
{
	char *j = (char *)img + 4096;
	int n = 0;

	(void)hs;
	n += snprintf(j + n, 200, "{\"segments\":{\"0\":");
	for (int i = 0; i < 40; i++)
		j[n++] = '[';
	for (int i = 0; i < 40; i++)
		j[n++] = ']';
	snprintf(j + n, 10, "}}");
}

#define R2(nm, sz, hs, j1, j2, s1, s2)                               \
	.name = (nm), .size = (sz), .hdr_size = (hs), .json1 = (j1), \
	.json2 = (j2), .seq1 = (s1), .seq2 = (s2)
#define FOUND2(off, dsz, ss) \
	.want_offset = (off), .want_size = (dsz), .want_sector = (ss)
#define BAD(mut) .mutate = (mut), .rc = -EINVAL

static const struct luks2_row luks2_rows[] = {
	/* 1 MiB region, data from 64 KiB: 1048576 - 65536 = 983040 */
	{R2("4k-sectors", MIB_, 16 * KIB_, J64K_4K, J64K_4K, 3, 3),
	 FOUND2(65536, 983040, 4096)},
	{R2("512-sectors", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"dynamic\"", "512"), NULL, 3, 0),
	 FOUND2(65536, 983040, 512)},
	{R2("fixed-size", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"524288\"", "4096"), NULL, 3, 0),
	 FOUND2(65536, 524288, 4096)},
	/* cryptsetup's default: 16 MiB; region 17 MiB leaves 1 MiB */
	{R2("cryptsetup-default", 17 * MIB_, 16 * KIB_, real_json, real_json, 3,
	    3),
	 FOUND2(16 * MIB_, MIB_, 4096)},
	{R2("hdr-64k", MIB_, 64 * KIB_,
	    JSON("\"131072\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 FOUND2(131072, 917504, 4096)},
	{R2("detached-header", MIB_, 16 * KIB_,
	    JSON("\"0\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 FOUND2(0, MIB_, 4096)},
	{R2("linear-segment", MIB_, 16 * KIB_, linear_json, NULL, 1, 0),
	 FOUND2(65536, 983040, 0)},
	{R2("json-fills-area", MIB_, 16 * KIB_, J64K_4K, NULL, 1, 0),
	 .mutate = m_json_fills_area, FOUND2(65536, 983040, 4096)},
	/* The primary is gone or broken: the secondary (at hdr_size). */
	{R2("secondary-only-16k", MIB_, 16 * KIB_, NULL, J64K_4K, 0, 5),
	 FOUND2(65536, 983040, 4096)},
	{R2("secondary-only-64k", MIB_, 64 * KIB_, NULL,
	    JSON("\"131072\"", "\"dynamic\"", "512"), 0, 5),
	 FOUND2(131072, 917504, 512)},
	{R2("primary-json-broken", MIB_, 16 * KIB_, "{\"segments\":", J64K_4K,
	    3, 3),
	 FOUND2(65536, 983040, 4096)},
	{R2("primary-version-3", MIB_, 16 * KIB_, J64K_4K,
	    JSON("\"131072\"", "\"dynamic\"", "512"), 3, 3),
	 .mutate = m_version_3, FOUND2(131072, 917504, 512)},
	/* Both good: the higher seqid wins. */
	{R2("secondary-newer", MIB_, 16 * KIB_, J64K_4K,
	    JSON("\"131072\"", "\"dynamic\"", "512"), 3, 4),
	 FOUND2(131072, 917504, 512)},
	{R2("secondary-older", MIB_, 16 * KIB_, J64K_4K,
	    JSON("\"131072\"", "\"dynamic\"", "512"), 4, 3),
	 FOUND2(65536, 983040, 4096)},

	/* Lies and truncation. */
	{R2("truncated-header", 8 * KIB_, 16 * KIB_, J64K_4K, NULL, 1, 0),
	 .rc = -ERANGE},
	{R2("secondary-only-broken", MIB_, 16 * KIB_, NULL, "{bad", 0, 1),
	 BAD(NULL)},
	{R2("hdr-size-20k", MIB_, 16 * KIB_, J64K_4K, NULL, 1, 0),
	 BAD(m_hdr_size_20k)},
	{R2("hdr-size-8k", MIB_, 16 * KIB_, J64K_4K, NULL, 1, 0),
	 BAD(m_hdr_size_8k)},
	{R2("hdr-size-8m", MIB_, 16 * KIB_, J64K_4K, NULL, 1, 0),
	 BAD(m_hdr_size_8m)},
	{R2("hdr-offset-lies", MIB_, 16 * KIB_, J64K_4K, NULL, 1, 0),
	 BAD(m_hdr_offset_4096)},
	{R2("secondary-hdr-offset-lies", MIB_, 16 * KIB_, NULL, J64K_4K, 0, 1),
	 BAD(m_secondary_offset_0)},
	{R2("offset-a-number", MIB_, 16 * KIB_,
	    JSON("65536", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("offset-64K", MIB_, 16 * KIB_,
	    JSON("\"64K\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("offset-negative", MIB_, 16 * KIB_,
	    JSON("\"-65536\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("offset-empty", MIB_, 16 * KIB_,
	    JSON("\"\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("offset-2^64", MIB_, 16 * KIB_,
	    JSON("\"18446744073709551616\"", "\"dynamic\"", "4096"), NULL, 1,
	    0),
	 BAD(NULL)},
	{R2("offset-not-sector-multiple", MIB_, 16 * KIB_,
	    JSON("\"65537\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("offset-inside-headers", MIB_, 16 * KIB_,
	    JSON("\"16384\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("offset-past-region", MIB_, 16 * KIB_,
	    JSON("\"2097152\"", "\"dynamic\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("size-garbage", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"all\"", "4096"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("sector-1000", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"dynamic\"", "1000"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("sector-8192", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"dynamic\"", "8192"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("sector-256", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"dynamic\"", "256"), NULL, 1, 0),
	 BAD(NULL)},
	{R2("sector-a-string", MIB_, 16 * KIB_,
	    JSON("\"65536\"", "\"dynamic\"", "\"4096\""), NULL, 1, 0),
	 BAD(NULL)},
	{R2("no-segments", MIB_, 16 * KIB_, "{\"keyslots\":{}}", NULL, 1, 0),
	 BAD(NULL)},
	{R2("no-segment-0", MIB_, 16 * KIB_,
	    "{\"segments\":{\"1\":{\"offset\":\"65536\","
	    "\"size\":\"dynamic\"}}}",
	    NULL, 1, 0),
	 BAD(NULL)},
	{R2("segment-0-not-object", MIB_, 16 * KIB_,
	    "{\"segments\":{\"0\":[]}}", NULL, 1, 0),
	 BAD(NULL)},
	{R2("no-size", MIB_, 16 * KIB_,
	    "{\"segments\":{\"0\":{\"offset\":\"65536\"}}}", NULL, 1, 0),
	 BAD(NULL)},
	{R2("root-array", MIB_, 16 * KIB_, "[1,2]", NULL, 1, 0), BAD(NULL)},
	{R2("json-empty", MIB_, 16 * KIB_, "", NULL, 1, 0), BAD(NULL)},
	{R2("json-too-deep", MIB_, 16 * KIB_, "", NULL, 1, 0),
	 BAD(m_json_deep)},
};

static void test_luks2(void **state)
{
	const struct luks2_row *r = *state;
	uint8_t *img = calloc(1, PAD + (r->size > MIB_ ? r->size : MIB_));
	uint8_t *h = img + PAD;
	struct ba_content c;
	struct ba_io io;
	int rc;

	assert_non_null(img);
	memset(img, 0xe5, PAD);
	if (r->json1)
		put_hdr(h, false, r->hdr_size, r->seq1, r->json1);
	if (r->json2)
		put_hdr(h + r->hdr_size, true, r->hdr_size, r->seq2, r->json2);
	if (r->mutate)
		r->mutate(h, r->hdr_size);
	ba_io_init_mem(&io, img, PAD + r->size);
	rc = ba_luks_prober.probe(&io, PAD, r->size, &c);
	EXPECT_S64(r, "rc", rc, r->rc);
	if (rc == 0) {
		assert_int_equal(c.kind, BA_CONTENT_LUKS);
		assert_string_equal(c.type, "crypto_LUKS");
		assert_string_equal(c.version, "2");
		EXPECT_U64(r, "data_offset", c.data_offset, r->want_offset);
		EXPECT_U64(r, "data_size", c.data_size, r->want_size);
		EXPECT_U64(r, "block_size", c.block_size, r->want_sector);
	} else {
		EXPECT_U64(r, "kind on failure", c.kind, BA_CONTENT_NONE);
	}
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

static void test_absent_and_errors(void **state)
{
	static const struct ba_io_ops eio_ops = {"eio", eio_pread};
	struct ba_io eio = {.ops = &eio_ops, .fd = -1, .size = MIB_};
	uint8_t *img = calloc(1, MIB_);
	struct ba_content c;
	struct ba_io io;

	(void)state;
	assert_non_null(img);
	ba_io_init_mem(&io, img, MIB_);
	assert_int_equal(ba_luks_prober.probe(&io, 0, MIB_, &c), 1);
	assert_int_equal(ba_luks_prober.probe(&io, 0, 100, &c), 1);
	assert_int_equal(ba_luks_prober.probe(&io, UINT64_MAX, 2, &c), -EINVAL);
	assert_int_equal(ba_luks_prober.probe(&eio, 0, MIB_, &c), -EIO);
	free(img);
}

/* ---- util-linux's luks2.img: the first 4 KiB of a LUKS2 header ---- */

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

/* hdr_size 0x4000 (peer-tools.md §2.1) but only 4096 bytes kept: the
 * JSON area is cut off, which is a truncation, not "no LUKS". */
static void test_corpus_fragment(void **state)
{
	const char *shared = getenv("TS_SHARED");
	struct ba_content c;
	struct ba_io io;
	char path[4096];
	uint8_t *img;
	size_t len = 0;

	(void)state;
	if (!shared || !*shared)
		NEED_SHARED("TS_SHARED (../shared)");
	snprintf(path, sizeof(path),
		 "%s/corpus/util-linux/images-fs/luks2.img.xz", shared);
	img = xz_load(path, &len);
	if (!img)
		NEED_SHARED(path);
	assert_int_equal(len, 4096);
	ba_io_init_mem(&io, img, len);
	assert_int_equal(ba_luks_prober.probe(&io, 0, len, &c), -ERANGE);
	free(img);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absent_and_errors),
		cmocka_unit_test(test_corpus_fragment),
	};
	int failed = 0;

	failed += RUN_TABLE(test_luks1, luks1_rows);
	failed += RUN_TABLE(test_luks2, luks2_rows);
	failed += cmocka_run_group_tests(tests, NULL, NULL);
	return failed ? 1 : 0;
}
