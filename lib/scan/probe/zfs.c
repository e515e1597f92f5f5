/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zfs.c - ZFS vdev labels: the pool configuration nvlist of a vdev, for
 * vdev_tree's ashift (the vdev's smallest I/O is 2^ashift bytes) and the
 * start of the allocatable area.
 *
 * Sources (OpenZFS): include/sys/vdev_impl.h (vdev_label_t: 8 KiB pad,
 * 8 KiB boot environment, vdev_phys_t 112 KiB at 16 KiB, uberblock ring),
 * module/zfs/vdev_label.c (vdev_label_offset(): L0 at 0, L1 at 256 KiB,
 * L2/L3 in the last 512 KiB of the size rounded down to 256 KiB;
 * VDEV_LABEL_START_SIZE = 4 MiB before data), module/zfs/zio_checksum.c
 * (the label is sealed by a SHA-256 "embedded checksum": a zio_eck_t in
 * its last 40 bytes, computed with the checksum field set to the label's
 * own offset - so the check also proves self-location),
 * module/nvpair/nvpair.c (the XDR encoding, see nvl_walk() below).
 * docs/facts.md §4.8; checked against the
 * util-linux corpus image zfs.img (pool "tank", ashift 9).
 *
 * The best label is the valid one with the highest txg.  No label with a
 * zio_eck_t magic: absent.  Labels present but none valid: -EINVAL.
 * Spares and cache devices carry no vdev_tree: found, ashift 0.
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

#define ZFS_LABEL_SIZE	  (256 * KIB)
#define ZFS_PHYS_OFFSET	  (16 * KIB) /* vl_vdev_phys in a label */
#define ZFS_PHYS_SIZE	  (112 * KIB)
#define ZFS_DATA_START	  (4 * MIB) /* VDEV_LABEL_START_SIZE */
#define ZFS_ECK_MAGIC	  0x0210da7ab10c7a11ULL
#define ZFS_NV_ENCODE_XDR 1
#define ZFS_NV_MAX_DEPTH  8
#define ZFS_ASHIFT_MIN	  9
#define ZFS_ASHIFT_MAX	  16

/* nvpair data types (sys/nvpair.h) this parser reads. */
#define NV_UINT64	8
#define NV_STRING	9
#define NV_NVLIST	19
#define NV_NVLIST_ARRAY 20

/* zio_eck_t: the last 40 bytes of vdev_phys_t, in the writer's order. */
struct zfs_eck_disk {
	uint64_t magic;	   /* +0 ZFS_ECK_MAGIC */
	uint64_t cksum[4]; /* +8 SHA-256 as four 64-bit words */
} __attribute__((packed));

_Static_assert(sizeof(struct zfs_eck_disk) == 40, "zio_eck_t is 40 bytes");

/* What one label says. */
struct zfs_label {
	bool has_version, has_txg, has_ashift;
	uint64_t version, txg, ashift;
};

/* Which nvlist the walker is in: only two keys matter. */
enum nv_scope { NV_TOP, NV_VDEV_TREE, NV_OTHER };

/* ---- SHA-256 (FIPS 180-4), for the label checksum only ---- */

struct sha256 {
	uint32_t h[8];
	uint8_t block[64];
	size_t fill;
	uint64_t bytes;
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

#define SHA_S0(x) (ror32((x), 2) ^ ror32((x), 13) ^ ror32((x), 22))
#define SHA_S1(x) (ror32((x), 6) ^ ror32((x), 11) ^ ror32((x), 25))
#define SHA_G0(x) (ror32((x), 7) ^ ror32((x), 18) ^ ((x) >> 3))
#define SHA_G1(x) (ror32((x), 17) ^ ror32((x), 19) ^ ((x) >> 10))

static void sha256_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++)
		w[i] = SHA_G1(w[i - 2]) + w[i - 7] + SHA_G0(w[i - 15]) +
		       w[i - 16];
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int i = 0; i < 64; i++) {
		t1 = h + SHA_S1(e) + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = SHA_S0(a) + ((a & b) ^ (a & c) ^ (b & c));
		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->fill = 0;
	s->bytes = 0;
}

static void sha256_update(struct sha256 *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	s->bytes += len;
	while (len) {
		size_t n;

		if (s->fill == 0 && len >= 64) {
			sha256_block(s, p); /* whole blocks: no copy */
			p += 64;
			len -= 64;
			continue;
		}
		n = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->block + s->fill, p, n);
		s->fill += n;
		p += n;
		len -= n;
		if (s->fill == 64) {
			sha256_block(s, s->block);
			s->fill = 0;
		}
	}
}

/* The digest as ZFS keeps it: four big-endian 64-bit words. */
static void sha256_final(struct sha256 *s, uint64_t out[4])
{
	uint64_t bits = s->bytes * 8;
	uint8_t pad = 0x80, zero = 0, len[8];

	sha256_update(s, &pad, 1);
	while (s->fill != 56)
		sha256_update(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(s, len, 8);
	for (int i = 0; i < 4; i++)
		out[i] = (uint64_t)s->h[2 * i] << 32 | s->h[2 * i + 1];
}

/*
 * The label checksum: SHA-256 of vdev_phys_t with the checksum words
 * replaced by the verifier {offset, 0, 0, 0}, all in the writer's byte
 * order (@swap: the eck magic reads byte-swapped).
 */
static bool label_checksum_ok(const uint8_t *phys, uint64_t phys_off, bool swap)
{
	const size_t body = ZFS_PHYS_SIZE - sizeof(struct zfs_eck_disk);
	struct zfs_eck_disk eck;
	uint64_t verifier[4] = {phys_off, 0, 0, 0}, got[4];
	struct sha256 s;

	memcpy(&eck, phys + body, sizeof(eck));
	for (int i = 0; i < 4; i++)
		if (swap)
			verifier[i] = __builtin_bswap64(verifier[i]);
	sha256_init(&s);
	sha256_update(&s, phys, body);
	sha256_update(&s, &eck.magic, sizeof(eck.magic));
	sha256_update(&s, verifier, sizeof(verifier));
	sha256_final(&s, got);
	for (int i = 0; i < 4; i++) {
		uint64_t want =
			swap ? __builtin_bswap64(eck.cksum[i]) : eck.cksum[i];
		if (got[i] != want)
			return false;
	}
	return true;
}

/* ---- XDR nvlist ---- */

static int nvl_walk(struct ba_cur *c, enum nv_scope scope, int depth,
		    struct zfs_label *l);

/* An XDR string: u32 length, bytes, zero padding to 4. */
static int xdr_string(struct ba_cur *c, const uint8_t **s, uint32_t *len)
{
	uint32_t n;
	uint64_t padded;

	if (ba_cur_be32(c, &n))
		return -ERANGE;
	padded = ((uint64_t)n + 3) & ~(uint64_t)3;
	if (padded > c->len - c->pos)
		return -ERANGE;
	*s = c->p + c->pos;
	*len = n;
	return ba_cur_skip(c, (size_t)padded);
}

static bool name_is(const uint8_t *name, uint32_t len, const char *want)
{
	return len == strlen(want) && memcmp(name, want, len) == 0;
}

/* One value of a uint64 pair that matters in @scope, else NULL. */
static uint64_t *wanted_u64(struct zfs_label *l, enum nv_scope scope,
			    const uint8_t *name, uint32_t len, bool **seen)
{
	if (scope == NV_TOP && name_is(name, len, "version")) {
		*seen = &l->has_version;
		return &l->version;
	}
	if (scope == NV_TOP && name_is(name, len, "txg")) {
		*seen = &l->has_txg;
		return &l->txg;
	}
	if (scope == NV_VDEV_TREE && name_is(name, len, "ashift")) {
		*seen = &l->has_ashift;
		return &l->ashift;
	}
	return NULL;
}

/*
 * One pair: encoded size (the whole pair, embedded lists included),
 * decoded size, name, type, nelem, value.  The value is read inside a
 * cursor limited to the encoded size; the outer cursor then jumps over
 * the pair, so an unknown type is skipped by its size.
 */
static int nvp_walk(struct ba_cur *c, enum nv_scope scope, int depth,
		    struct zfs_label *l, bool *end)
{
	size_t start = c->pos;
	uint32_t esize, dsize, name_len, type, nelem;
	const uint8_t *name;
	struct ba_cur v;
	uint64_t *u64;
	bool *seen;
	int rc;

	if (ba_cur_be32(c, &esize) || ba_cur_be32(c, &dsize))
		return -ERANGE;
	if (esize == 0 && dsize == 0) {
		*end = true;
		return 0;
	}
	if (esize < 5 * 4 || esize % 4 || esize > c->len - start)
		return -ERANGE;
	ba_cur_init(&v, c->p + start, esize);
	if (ba_cur_seek(&v, 8) || xdr_string(&v, &name, &name_len) ||
	    ba_cur_be32(&v, &type) || ba_cur_be32(&v, &nelem))
		return -ERANGE;

	switch (type) {
	case NV_UINT64:
		u64 = wanted_u64(l, scope, name, name_len, &seen);
		if (u64) {
			if (nelem != 1 || ba_cur_be64(&v, u64))
				return -ERANGE;
			*seen = true;
		}
		break;
	case NV_NVLIST:
		if (nelem != 1)
			return -ERANGE;
		rc = nvl_walk(
			&v,
			scope == NV_TOP && name_is(name, name_len, "vdev_tree")
				? NV_VDEV_TREE
				: NV_OTHER,
			depth + 1, l);
		if (rc)
			return rc;
		break;
	case NV_NVLIST_ARRAY:
		/* Each element is at least its 8-byte header and end mark. */
		if (nelem > (v.len - v.pos) / 16)
			return -ERANGE;
		for (uint32_t i = 0; i < nelem; i++) {
			rc = nvl_walk(&v, NV_OTHER, depth + 1, l);
			if (rc)
				return rc;
		}
		break;
	default:
		break; /* STRING and the rest: skipped by size */
	}
	return ba_cur_seek(c, start + esize);
}

/* An nvlist: nvl_version, nvl_nvflag, pairs, then two zero words. */
static int nvl_walk(struct ba_cur *c, enum nv_scope scope, int depth,
		    struct zfs_label *l)
{
	uint32_t version, flag;
	bool end = false;
	int rc;

	if (depth > ZFS_NV_MAX_DEPTH)
		return -ERANGE;
	if (ba_cur_be32(c, &version) || ba_cur_be32(c, &flag))
		return -ERANGE;
	while (!end) {
		rc = nvp_walk(c, scope, depth, l, &end);
		if (rc)
			return rc;
	}
	return 0;
}

/* The packed nvlist of vdev_phys_t: nvs_header_t then XDR. */
static int parse_config(const uint8_t *buf, size_t len, struct zfs_label *l)
{
	struct ba_cur c;
	uint8_t encoding;

	memset(l, 0, sizeof(*l));
	ba_cur_init(&c, buf, len);
	if (ba_cur_u8(&c, &encoding) || ba_cur_skip(&c, 3))
		return -ERANGE;
	if (encoding != ZFS_NV_ENCODE_XDR)
		return -EINVAL;
	return nvl_walk(&c, NV_TOP, 0, l);
}

/* ---- the prober ---- */

/*
 * Read and check label @n.  Returns 0 (valid, @l filled), 1 (no label
 * there), 2 (a label that fails its checksum or does not parse), or
 * -errno on an I/O error.
 */
static int read_label(struct ba_io *io, uint64_t off, uint64_t size, int n,
		      uint8_t *phys, struct zfs_label *l)
{
	uint64_t psize = size & ~(ZFS_LABEL_SIZE - 1), label_off, magic;
	size_t body = ZFS_PHYS_SIZE - sizeof(struct zfs_eck_disk);
	bool swap;
	int rc;

	if (psize < 4 * ZFS_LABEL_SIZE)
		return 1;
	label_off = (uint64_t)n * ZFS_LABEL_SIZE;
	if (n >= 2)
		label_off += psize - 4 * ZFS_LABEL_SIZE;
	/* The checksum tail's magic first: 8 bytes, not 112 KiB, when no
	 * label is there (most partitions probed). */
	rc = ba_io_read_region(io, off, size,
			       label_off + ZFS_PHYS_OFFSET + body,
			       sizeof(magic), &magic);
	if (rc)
		return rc;
	if (magic == ZFS_ECK_MAGIC)
		swap = false;
	else if (magic == __builtin_bswap64(ZFS_ECK_MAGIC))
		swap = true;
	else
		return 1;
	rc = ba_io_read_region(io, off, size, label_off + ZFS_PHYS_OFFSET,
			       ZFS_PHYS_SIZE, phys);
	if (rc)
		return rc;
	if (!label_checksum_ok(phys, label_off + ZFS_PHYS_OFFSET, swap))
		return 2;
	if (parse_config(phys, body, l))
		return 2;
	if (l->has_ashift &&
	    (l->ashift < ZFS_ASHIFT_MIN || l->ashift > ZFS_ASHIFT_MAX))
		return 2;
	return 0;
}

static int zfs_probe(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_content *out)
{
	struct zfs_label best = {0}, l;
	bool found = false, seen = false;
	uint8_t *phys;
	int rc = 0;

	phys = malloc(ZFS_PHYS_SIZE);
	if (!phys)
		return -ENOMEM;
	for (int n = 0; n < 4; n++) {
		rc = read_label(io, off, size, n, phys, &l);
		if (rc < 0)
			goto out;
		if (rc == 2)
			seen = true;
		if (rc == 0 && (!found || l.txg > best.txg)) {
			best = l;
			found = true;
		}
	}
	rc = found ? 0 : seen ? -EINVAL : 1;
	if (rc)
		goto out;

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_ZFS;
	snprintf(out->type, sizeof(out->type), "zfs_member");
	if (best.has_version)
		snprintf(out->version, sizeof(out->version), "%llu",
			 (unsigned long long)best.version);
	out->data_offset = ZFS_DATA_START;
	/* Data ends where the trailing labels L2/L3 start. */
	if (size / ZFS_LABEL_SIZE * ZFS_LABEL_SIZE >
	    ZFS_DATA_START + 2 * ZFS_LABEL_SIZE)
		out->data_size = size / ZFS_LABEL_SIZE * ZFS_LABEL_SIZE -
				 2 * ZFS_LABEL_SIZE - ZFS_DATA_START;
	out->zfs_ashift = best.has_ashift ? (uint32_t)best.ashift : 0;
out:
	free(phys);
	return rc;
}

const struct ba_prober ba_zfs_prober = {
	.name = "zfs_member",
	.kind = BA_CONTENT_ZFS,
	.probe = zfs_probe,
};
