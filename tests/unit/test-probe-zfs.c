/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-probe-zfs.c - the ZFS label prober (lib/scan/probe/zfs.c) on vdevs
 * built in memory: XDR nvlists written here pair by pair, sealed with the
 * label's SHA-256 as OpenZFS does (checksum words = the label's offset
 * while hashing), placed at L0/L1/L2/L3.  Then the nvlist walker alone on
 * hostile input: every truncation, lying sizes, deep nesting, huge
 * counts.
 *
 * The parser's static functions are reached by including the source; its
 * descriptor is renamed so the test never clashes with the library's.
 * Layout facts: docs/facts.md §4.8; the real image
 * (util-linux zfs.img) is checked by tests/ts/probe-fs/corpus.
 */
#define ba_zfs_prober test_zfs_prober
#include "probe/zfs.c"
#undef ba_zfs_prober

#include "table.h"

#define LABEL (256 * KIB)

/* ---- an XDR writer ---- */

struct xw {
	uint8_t *p;
	size_t cap, pos;
};

static void xw_u32(struct xw *w, uint32_t v)
{
	assert_true(w->pos + 4 <= w->cap);
	for (int i = 0; i < 4; i++)
		w->p[w->pos++] = (uint8_t)(v >> (24 - 8 * i));
}

static void xw_u64(struct xw *w, uint64_t v)
{
	xw_u32(w, (uint32_t)(v >> 32));
	xw_u32(w, (uint32_t)v);
}

static void xw_str(struct xw *w, const char *s)
{
	size_t n = strlen(s);

	xw_u32(w, (uint32_t)n);
	assert_true(w->pos + n + 3 <= w->cap);
	memcpy(w->p + w->pos, s, n);
	w->pos += n;
	while (w->pos % 4)
		w->p[w->pos++] = 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* A pair's sizes are patched in by pair_end(). */
static size_t pair_begin(struct xw *w, const char *name, uint32_t type,
			 uint32_t nelem)
{
	size_t at = w->pos;

	xw_u32(w, 0);
	xw_u32(w, 0);
	xw_str(w, name);
	xw_u32(w, type);
	xw_u32(w, nelem);
	return at;
}

static void pair_end(struct xw *w, size_t at)
{
	size_t end = w->pos;
	uint32_t size = (uint32_t)(end - at);

	w->pos = at;
	xw_u32(w, size);     /* encoded size: the whole pair */
	xw_u32(w, size + 8); /* decoded size: anything non-zero */
	w->pos = end;
}

static void list_begin(struct xw *w)
{
	xw_u32(w, 0); /* nvl_version */
	xw_u32(w, 1); /* nvl_nvflag: NV_UNIQUE_NAME */
}

static void list_end(struct xw *w)
{
	xw_u32(w, 0);
	xw_u32(w, 0);
}

static void pair_u64(struct xw *w, const char *name, uint64_t v)
{
	size_t at = pair_begin(w, name, NV_UINT64, 1);

	xw_u64(w, v);
	pair_end(w, at);
}

static void pair_str(struct xw *w, const char *name, const char *v)
{
	size_t at = pair_begin(w, name, NV_STRING, 1);

	xw_str(w, v);
	pair_end(w, at);
}

/* ---- a pool configuration like zpool writes it ---- */

struct cfg {
	uint64_t txg;
	int ashift;	      /* -1: no ashift in vdev_tree */
	bool vdev_tree;	      /* false: a spare's label */
	bool ashift_in_child; /* put ashift 13 into the children only */
	uint8_t encoding;     /* nvs_header_t: 1 XDR */
};

static size_t write_config(uint8_t *buf, size_t cap, const struct cfg *c)
{
	struct xw w = {buf, cap, 0};
	size_t tree, kids;

	buf[0] = c->encoding, buf[1] = 1, buf[2] = 0, buf[3] = 0;
	w.pos = 4;
	list_begin(&w);
	pair_u64(&w, "version", 5000);
	pair_str(&w, "name", "tank");
	pair_u64(&w, "state", 0);
	pair_u64(&w, "txg", c->txg);
	pair_u64(&w, "pool_guid", 0x18bb10cc17a62774ULL);
	pair_str(&w, "hostname", "seed003");
	if (c->vdev_tree) {
		tree = pair_begin(&w, "vdev_tree", NV_NVLIST, 1);
		list_begin(&w);
		pair_str(&w, "type", "raidz");
		pair_u64(&w, "id", 0);
		pair_u64(&w, "nparity", 2);
		/* a uint64 named ashift outside vdev_tree is not it */
		kids = pair_begin(&w, "children", NV_NVLIST_ARRAY, 2);
		for (int i = 0; i < 2; i++) {
			list_begin(&w);
			pair_str(&w, "type", "disk");
			pair_str(&w, "path", i ? "/dev/sdb1" : "/dev/sda1");
			if (c->ashift_in_child)
				pair_u64(&w, "ashift", 13);
			list_end(&w);
		}
		pair_end(&w, kids);
		if (c->ashift >= 0)
			pair_u64(&w, "ashift", (uint64_t)c->ashift);
		pair_u64(&w, "asize", 1ULL << 36);
		list_end(&w);
		pair_end(&w, tree);
	}
	list_end(&w);
	return w.pos;
}

/*
 * Write label @n of a vdev of @size bytes at @dev + its offset, sealed
 * as if it lived at @sealed_as (normally its own offset).
 */
static void put_label(uint8_t *dev, uint64_t size, int n, int sealed_as,
		      const struct cfg *c, bool swap)
{
	uint64_t psize = size & ~(LABEL - 1);
	uint64_t off = (uint64_t)n * LABEL + (n >= 2 ? psize - 4 * LABEL : 0);
	uint64_t seal = (uint64_t)sealed_as * LABEL +
			(sealed_as >= 2 ? psize - 4 * LABEL : 0);
	uint8_t *phys = dev + off + ZFS_PHYS_OFFSET;
	size_t body = ZFS_PHYS_SIZE - sizeof(struct zfs_eck_disk);
	uint64_t magic = ZFS_ECK_MAGIC, ver[4] = {seal + ZFS_PHYS_OFFSET};
	uint64_t sum[4];
	struct sha256 s;

	write_config(phys, body, c);
	if (swap) {
		magic = __builtin_bswap64(magic);
		ver[0] = __builtin_bswap64(ver[0]);
	}
	memcpy(phys + body, &magic, 8);
	memcpy(phys + body + 8, ver, sizeof(ver));
	sha256_init(&s);
	sha256_update(&s, phys, ZFS_PHYS_SIZE);
	sha256_final(&s, sum);
	for (int i = 0; i < 4; i++)
		if (swap)
			sum[i] = __builtin_bswap64(sum[i]);
	memcpy(phys + body + 8, sum, sizeof(sum));
}

/* ---- the prober, table-driven ---- */

#define CFG(txg, ashift)                        \
	{                                       \
		(txg), (ashift), true, false, 1 \
	}
#define NONE                          \
	{                             \
		0, 0, false, false, 0 \
	}

struct zfs_row {
	const char *name;
	uint64_t size;	     /* vdev (region) size */
	uint64_t off;	     /* region start in the device */
	struct cfg label[4]; /* encoding 0 and !vdev_tree and txg 0: none */
	bool present[4];
	int sealed_as[4]; /* -1: its own offset */
	int corrupt;	  /* bit n: flip a byte in label n's nvlist */
	bool swap;
	int want_rc;
	uint32_t want_ashift;
	const char *want_version;
};

#define ALL4                           \
	{                              \
		true, true, true, true \
	}
#define OWN                    \
	{                      \
		-1, -1, -1, -1 \
	}
#define SZ (64 * MIB + 100 * KIB) /* not a multiple of 256 KiB */

static const struct zfs_row rows[] = {
	{"four-labels-ashift-12",
	 SZ,
	 0,
	 {CFG(100, 12), CFG(100, 12), CFG(100, 12), CFG(100, 12)},
	 ALL4,
	 OWN,
	 0,
	 false,
	 0,
	 12,
	 "5000"},
	/* seed 003: a raidz2 vdev on a GPT partition at sector 34 */
	{"partition-at-sector-34",
	 SZ,
	 34 * 512,
	 {CFG(7, 9), CFG(7, 9), CFG(7, 9), CFG(7, 9)},
	 ALL4,
	 OWN,
	 0,
	 false,
	 0,
	 9,
	 "5000"},
	{"only-l0",
	 SZ,
	 0,
	 {CFG(5, 12), NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 0,
	 12,
	 "5000"},
	/* L2 at psize - 512 KiB, L3 at psize - 256 KiB, psize = size
	 * rounded down to 256 KiB (64 MiB here) */
	{"only-end-labels",
	 SZ,
	 0,
	 {NONE, NONE, CFG(5, 12), CFG(5, 12)},
	 {false, false, true, true},
	 OWN,
	 0,
	 false,
	 0,
	 12,
	 "5000"},
	{"highest-txg-wins",
	 SZ,
	 0,
	 {CFG(10, 9), CFG(20, 12), CFG(15, 13), NONE},
	 {true, true, true, false},
	 OWN,
	 0,
	 false,
	 0,
	 12,
	 "5000"},
	{"l0-corrupt-l1-answers",
	 SZ,
	 0,
	 {CFG(30, 9), CFG(20, 12), NONE, NONE},
	 {true, true, false, false},
	 OWN,
	 1,
	 false,
	 0,
	 12,
	 "5000"},
	{"all-corrupt",
	 SZ,
	 0,
	 {CFG(1, 12), CFG(1, 12), CFG(1, 12), CFG(1, 12)},
	 ALL4,
	 OWN,
	 15,
	 false,
	 -EINVAL,
	 0,
	 NULL},
	{"no-labels",
	 SZ,
	 0,
	 {NONE, NONE, NONE, NONE},
	 {false, false, false, false},
	 OWN,
	 0,
	 false,
	 1,
	 0,
	 NULL},
	/* L0 sealed for L1's offset and copied to L0: it fails its
	 * self-location; the genuine L1 answers */
	{"label-in-wrong-place",
	 SZ,
	 0,
	 {CFG(9, 9), CFG(3, 12), NONE, NONE},
	 {true, true, false, false},
	 {1, -1, -1, -1},
	 0,
	 false,
	 0,
	 12,
	 "5000"},
	{"only-misplaced-label",
	 SZ,
	 0,
	 {CFG(9, 9), NONE, NONE, NONE},
	 {true, false, false, false},
	 {1, -1, -1, -1},
	 0,
	 false,
	 -EINVAL,
	 0,
	 NULL},
	/* made on a big-endian host: eck magic and checksum byte-swapped */
	{"big-endian-writer",
	 SZ,
	 0,
	 {CFG(4, 12), CFG(4, 12), NONE, NONE},
	 {true, true, false, false},
	 OWN,
	 0,
	 true,
	 0,
	 12,
	 "5000"},
	{"ashift-17",
	 SZ,
	 0,
	 {CFG(4, 17), NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 -EINVAL,
	 0,
	 NULL},
	{"ashift-8",
	 SZ,
	 0,
	 {CFG(4, 8), NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 -EINVAL,
	 0,
	 NULL},
	{"ashift-16",
	 SZ,
	 0,
	 {CFG(4, 16), NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 0,
	 16,
	 "5000"},
	/* a hot spare's label: no vdev_tree, found, ashift unknown */
	{"spare-without-vdev-tree",
	 SZ,
	 0,
	 {{4, -1, false, false, 1}, NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 0,
	 0,
	 "5000"},
	/* ashift only in the leaf children: not the top-level vdev's */
	{"ashift-only-in-children",
	 SZ,
	 0,
	 {{4, -1, true, true, 1}, NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 0,
	 0,
	 "5000"},
	/* the native nvlist encoding (0) is never used on disk */
	{"native-encoding",
	 SZ,
	 0,
	 {{4, 12, true, false, 0}, NONE, NONE, NONE},
	 {true, false, false, false},
	 OWN,
	 0,
	 false,
	 -EINVAL,
	 0,
	 NULL},
	/* smaller than the four labels: nothing to read */
	{"vdev-under-1m",
	 1 * MIB - 512,
	 0,
	 {NONE, NONE, NONE, NONE},
	 {false, false, false, false},
	 OWN,
	 0,
	 false,
	 1,
	 0,
	 NULL},
};

static void test_zfs_row(void **state)
{
	const struct zfs_row *r = *state;
	uint64_t dev = r->off + r->size;
	struct ba_content c;
	struct ba_io io;
	uint8_t *img = calloc(1, dev);
	int rc;

	assert_non_null(img);
	for (int n = 0; n < 4; n++) {
		if (!r->present[n])
			continue;
		put_label(img + r->off, r->size, n,
			  r->sealed_as[n] < 0 ? n : r->sealed_as[n],
			  &r->label[n], r->swap);
		if (r->corrupt & (1 << n)) {
			uint64_t psize = r->size & ~(LABEL - 1);
			uint64_t lo = (uint64_t)n * LABEL +
				      (n >= 2 ? psize - 4 * LABEL : 0);

			/* "tank" -> "tanK": still parses, no longer
			 * matches its checksum */
			img[r->off + lo + ZFS_PHYS_OFFSET + 79] ^= 0x20;
		}
	}
	ba_io_init_mem(&io, img, dev);
	memset(&c, 0xa5, sizeof(c));
	rc = test_zfs_prober.probe(&io, r->off, r->size, &c);
	EXPECT_S64(r, "return code", rc, r->want_rc);
	if (rc == 0 && r->want_rc == 0) {
		EXPECT_U64(r, "kind", c.kind, BA_CONTENT_ZFS);
		EXPECT_U64(r, "zfs_ashift", c.zfs_ashift, r->want_ashift);
		EXPECT_U64(r, "data_offset", c.data_offset, 4 * MIB);
		EXPECT_U64(r, "block_size", c.block_size, 0);
		EXPECT_U64(r, "used_size", c.used_size, 0);
		if (strcmp(c.type, "zfs_member") ||
		    strcmp(c.version, r->want_version))
			fail_msg("%s: type '%s' version '%s'", r->name, c.type,
				 c.version);
	}
	free(img);
}

/* ---- SHA-256 against FIPS 180-2 appendix B ---- */

static void test_sha256_vectors(void **state)
{
	static const struct {
		const char *msg;
		uint64_t want[4];
	} v[] = {
		{"abc",
		 {0xba7816bf8f01cfeaULL, 0x414140de5dae2223ULL,
		  0xb00361a396177a9cULL, 0xb410ff61f20015adULL}},
		{"",
		 {0xe3b0c44298fc1c14ULL, 0x9afbf4c8996fb924ULL,
		  0x27ae41e4649b934cULL, 0xa495991b7852b855ULL}},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		 {0x248d6a61d20638b8ULL, 0xe5c026930c3e6039ULL,
		  0xa33ce45964ff2167ULL, 0xf6ecedd419db06c1ULL}},
	};
	uint64_t got[4];
	struct sha256 s;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		sha256_init(&s);
		sha256_update(&s, v[i].msg, strlen(v[i].msg));
		sha256_final(&s, got);
		for (int j = 0; j < 4; j++)
			assert_int_equal(got[j], v[i].want[j]);
	}
	/* a million 'a', fed in odd pieces */
	sha256_init(&s);
	for (int i = 0; i < 1000; i++) {
		char a[1000];

		memset(a, 'a', sizeof(a));
		sha256_update(&s, a, 7);
		sha256_update(&s, a, sizeof(a) - 7);
	}
	sha256_final(&s, got);
	assert_int_equal(got[0], 0xcdc76e5c9914fb92ULL);
	assert_int_equal(got[3], 0x046d39ccc7112cd0ULL);
}

/* ---- the walker on hostile nvlists ---- */

static size_t good_config(uint8_t *buf, size_t cap)
{
	const struct cfg c = CFG(42, 12);

	return write_config(buf, cap, &c);
}

/* Every prefix of a valid nvlist lacks its end: each must fail cleanly. */
static void test_every_truncation(void **state)
{
	uint8_t buf[4096];
	struct zfs_label l;
	size_t len = good_config(buf, sizeof(buf));

	(void)state;
	assert_int_equal(parse_config(buf, len, &l), 0);
	assert_true(l.has_ashift && l.ashift == 12 && l.txg == 42);
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		assert_non_null(copy);
		memcpy(copy, buf, n);
		if (parse_config(copy, n, &l) == 0)
			fail_msg("prefix of %zu bytes parsed", n);
		free(copy);
	}
}

struct lie_row {
	const char *name;
	uint32_t at;  /* byte offset in the nvlist buffer */
	uint32_t val; /* big-endian u32 written there */
	int want;
};

/*
 * good_config() layout: 0 header, 4 nvl_version, 8 nvl_nvflag, 12 first
 * pair ("version": esize 36 at 12, dsize 16, name length 20, "version\0"
 * 24, type 32, nelem 36, value 40), second pair at 48 ("name").
 */
static const struct lie_row lies[] = {
	{"esize-past-the-end", 12, 0x7ffffff0, -ERANGE},
	{"esize-below-header", 12, 16, -ERANGE},
	{"esize-unaligned", 12, 37, -ERANGE},
	{"esize-zero-dsize-not", 12, 0, -ERANGE},
	{"name-length-huge", 20, 0xfffffffd, -ERANGE},
	{"name-past-pair", 20, 17, -ERANGE},
	/* "version" (wanted) claims two uint64 elements */
	{"wanted-uint64-nelem-2", 36, 2, -ERANGE},
	/* a type we skip: the pair is jumped over by its size */
	{"unknown-type", 32, 0x7777, 0},
};

static void test_lies(void **state)
{
	const struct lie_row *r = *state;
	uint8_t buf[4096];
	struct zfs_label l;
	size_t len = good_config(buf, sizeof(buf));

	put_be32(buf + r->at, r->val);
	EXPECT_S64(r, "parse", parse_config(buf, len, &l), r->want);
}

/* Nesting: 8 levels below the top are fine, 9 are refused. */
static size_t nested(uint8_t *buf, size_t cap, int depth)
{
	struct xw w = {buf, cap, 4};
	size_t at[16];

	buf[0] = 1, buf[1] = 1, buf[2] = 0, buf[3] = 0;
	list_begin(&w);
	for (int i = 0; i < depth; i++) {
		at[i] = pair_begin(&w, "n", NV_NVLIST, 1);
		list_begin(&w);
	}
	pair_u64(&w, "leaf", 1);
	for (int i = depth - 1; i >= 0; i--) {
		list_end(&w);
		pair_end(&w, at[i]);
	}
	list_end(&w);
	return w.pos;
}

static void test_depth(void **state)
{
	uint8_t buf[2048];
	struct zfs_label l;
	size_t len;

	(void)state;
	len = nested(buf, sizeof(buf), ZFS_NV_MAX_DEPTH);
	assert_int_equal(parse_config(buf, len, &l), 0);
	len = nested(buf, sizeof(buf), ZFS_NV_MAX_DEPTH + 1);
	assert_int_equal(parse_config(buf, len, &l), -ERANGE);
}

/* An nvlist array claiming 2^32 - 1 elements in a few bytes. */
static void test_huge_array(void **state)
{
	uint8_t buf[512];
	struct xw w = {buf, sizeof(buf), 4};
	struct zfs_label l;
	size_t at;

	(void)state;
	buf[0] = 1;
	list_begin(&w);
	at = pair_begin(&w, "children", NV_NVLIST_ARRAY, 0xffffffff);
	list_begin(&w);
	list_end(&w);
	pair_end(&w, at);
	list_end(&w);
	assert_int_equal(parse_config(buf, w.pos, &l), -ERANGE);
}

/* An embedded list longer than its pair's encoded size. */
static void test_embedded_overrun(void **state)
{
	uint8_t buf[512];
	struct xw w = {buf, sizeof(buf), 4};
	struct zfs_label l;
	size_t at;

	(void)state;
	buf[0] = 1;
	list_begin(&w);
	at = pair_begin(&w, "vdev_tree", NV_NVLIST, 1);
	list_begin(&w);
	pair_u64(&w, "ashift", 12);
	list_end(&w);
	pair_end(&w, at);
	list_end(&w);
	assert_int_equal(parse_config(buf, w.pos, &l), 0);
	assert_true(l.has_ashift && l.ashift == 12);
	/* shrink the vdev_tree pair by 8: its list end falls outside */
	put_be32(buf + at, (uint32_t)(w.pos - 8 - at - 8));
	assert_int_equal(parse_config(buf, w.pos, &l), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest misc[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_huge_array),
		cmocka_unit_test(test_embedded_overrun),
	};
	int failed = RUN_TABLE(test_zfs_row, rows);

	failed += RUN_TABLE(test_lies, lies);
	failed += cmocka_run_group_tests(misc, NULL, NULL);
	return failed ? 1 : 0;
}
