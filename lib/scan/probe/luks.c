/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * luks.c - LUKS containers: where the encrypted payload starts and, for
 * LUKS2, the encryption sector size dm-crypt will expose as the logical
 * block size.
 *
 * Format: "LUKS On-Disk Format Specification" 1.2.3 (LUKS1) and "LUKS2
 * On-Disk Format Specification" 1.1.x (LUKS2), cryptsetup lib/luks1/
 * luks.h and lib/luks2/luks2_disk_metadata.c.  Binary headers are
 * big-endian.
 *
 *   LUKS1  "LUKS\xba\xbe", version 1 at 6, payload-offset (u32, 512-byte
 *          sectors) at 104, key-bytes at 108; 8 key slots of 48 bytes
 *          from 208 (active 0x00AC71F3, key-material-offset in sectors at
 *          40, stripes at 44: key-bytes x stripes bytes of key material),
 *          592 bytes in all.  Encryption sectors are always 512 bytes.
 *          An image cut inside the header or its key material is said
 *          (a note, -ERANGE): it is LUKS, and cannot be opened.
 *   LUKS2  4096-byte binary header: magic ("SKUL\xba\xbe" for the
 *          secondary copy), version 2, hdr_size at 8 (16 KiB .. 4 MiB, a
 *          power of two), seqid at 16, hdr_offset (its own offset) at
 *          256; then the JSON area up to hdr_size.  The secondary header
 *          sits at hdr_size.  segments."0".offset is a decimal string in
 *          bytes, segments."0".sector_size a number.
 *
 * Checked in cryptsetup's order: magic, version, hdr_size, self-location,
 * JSON; the header with the higher seqid wins when both copies are good,
 * and when the primary is bad the secondary is searched at every offset
 * the spec allows.  Not checked: the header checksum (a SHA-256 over the
 * whole area; no digest implementation in this library), so a damaged
 * JSON area is caught only when it no longer parses.
 */
#include <endian.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

#define LUKS_MAGIC	"LUKS\xba\xbe"
#define LUKS2_MAGIC_2ND "SKUL\xba\xbe"
#define LUKS_MAGIC_L	6
#define LUKS2_HDR_BIN	4096
#define LUKS2_HDR_MIN	(16 * KIB)
#define LUKS2_HDR_MAX	(4 * MIB)
#define LUKS1_ACTIVE	0x00AC71F3
#define LUKS1_SLOTS	8

struct luks1_phdr_disk {
	char magic[LUKS_MAGIC_L];   /* 0x00 */
	uint16_t be_version;	    /* 0x06 */
	char cipher_name[32];	    /* 0x08 */
	char cipher_mode[32];	    /* 0x28 */
	char hash_spec[32];	    /* 0x48 */
	uint32_t be_payload_offset; /* 0x68 sectors */
	uint32_t be_key_bytes;	    /* 0x6c */
	uint8_t mk_digest[20];	    /* 0x70 */
	uint8_t mk_digest_salt[32]; /* 0x84 */
	uint32_t be_mk_digest_iter; /* 0xa4 */
	char uuid[40];		    /* 0xa8 */
	uint8_t keyslots[8][48];    /* 0xd0 */
} __attribute__((packed));

struct luks2_hdr_disk {
	char magic[LUKS_MAGIC_L];  /* 0x000 */
	uint16_t be_version;	   /* 0x006 */
	uint64_t be_hdr_size;	   /* 0x008 binary + JSON */
	uint64_t be_seqid;	   /* 0x010 */
	char label[48];		   /* 0x018 */
	char checksum_alg[32];	   /* 0x048 */
	uint8_t salt[64];	   /* 0x068 */
	char uuid[40];		   /* 0x0a8 */
	char subsystem[48];	   /* 0x0d0 */
	uint64_t be_hdr_offset;	   /* 0x100 */
	char padding[184];	   /* 0x108 */
	uint8_t csum[64];	   /* 0x1c0 */
	char padding4096[7 * 512]; /* 0x200 */
} __attribute__((packed));

_Static_assert(offsetof(struct luks1_phdr_disk, be_payload_offset) == 104,
	       "LUKS1 payload offset at 104");
_Static_assert(sizeof(struct luks1_phdr_disk) == 592, "LUKS1 phdr is 592");
_Static_assert(offsetof(struct luks1_phdr_disk, keyslots) == 208,
	       "LUKS1 key slots at 208");
_Static_assert(sizeof(struct luks2_hdr_disk) == LUKS2_HDR_BIN,
	       "LUKS2 binary header is 4096");
_Static_assert(offsetof(struct luks2_hdr_disk, be_hdr_size) == 8,
	       "hdr_size at 8");
_Static_assert(offsetof(struct luks2_hdr_disk, be_hdr_offset) == 256,
	       "hdr_offset at 256");

/* What one good LUKS2 header says. */
struct luks2_seg {
	uint64_t seqid;
	uint64_t hdr_size;
	uint64_t offset;      /* bytes */
	uint64_t size;	      /* bytes, 0 = "dynamic" */
	uint32_t sector_size; /* 0 for a segment without encryption */
};

/* Key slot @k's key material: [*start, *end) in bytes; false when the
 * slot is not active. */
static bool luks1_slot(const struct luks1_phdr_disk *h, int k, uint64_t *start,
		       uint64_t *end)
{
	const uint8_t *s = h->keyslots[k];
	uint32_t active, km, stripes;
	uint64_t bytes;

	memcpy(&active, s, 4);
	memcpy(&km, s + 40, 4);
	memcpy(&stripes, s + 44, 4);
	if (be32toh(active) != LUKS1_ACTIVE)
		return false;
	/* AF-split key: key-bytes x stripes, in whole sectors */
	bytes = (uint64_t)be32toh(h->be_key_bytes) * be32toh(stripes);
	*start = (uint64_t)be32toh(km) * BA_SECTOR;
	*end = *start + (bytes + BA_SECTOR - 1) / BA_SECTOR * BA_SECTOR;
	return true;
}

/* The active key slots whose key material runs past @size: how many,
 * and the first of them in @first (its bytes in @start, @end). */
static int luks1_cut_slots(const struct luks1_phdr_disk *h, uint64_t size,
			   int *first, uint64_t *start, uint64_t *end)
{
	int n = 0;

	for (int k = LUKS1_SLOTS - 1; k >= 0; k--) {
		uint64_t s, e;

		if (!luks1_slot(h, k, &s, &e) || e <= size)
			continue;
		n++;
		*first = k;
		*start = s;
		*end = e;
	}
	return n;
}

static int luks1(const uint8_t *buf, uint64_t size, struct ba_content *c)
{
	struct luks1_phdr_disk h;
	uint64_t payload, ks = 0, ke = 0;
	char slots[96] = "";
	int cut, k = 0;

	memcpy(&h, buf, sizeof(h));
	payload = (uint64_t)be32toh(h.be_payload_offset) * BA_SECTOR;
	cut = luks1_cut_slots(&h, size, &k, &ks, &ke);
	if (cut)
		snprintf(slots, sizeof(slots),
			 "; key slot %d's key material (bytes %llu..%llu) "
			 "%s%s",
			 k, (unsigned long long)ks, (unsigned long long)ke,
			 ks >= size ? "is missing" : "is cut",
			 cut > 1 ? ", and more" : "");
	/* 0 is a detached header: the data is on another device. */
	if (payload > size) {
		snprintf(c->note, sizeof(c->note),
			 "its LUKS1 header says the payload starts at byte "
			 "%llu, past its end (%llu bytes): cut short%s",
			 (unsigned long long)payload, (unsigned long long)size,
			 slots);
		return -ERANGE;
	}
	if (cut) {
		snprintf(c->note, sizeof(c->note),
			 "a LUKS1 header cut short (%llu bytes)%s",
			 (unsigned long long)size, slots);
		return -ERANGE;
	}
	snprintf(c->version, sizeof(c->version), "1");
	c->data_offset = payload;
	c->data_size = size - payload;
	c->block_size = BA_SECTOR;
	return 0;
}

/* A JSON string of decimal digits (cryptsetup's "uint64" strings). */
static int json_u64(struct json_object *o, uint64_t *v)
{
	const char *s;

	if (!json_object_is_type(o, json_type_string))
		return -EINVAL;
	s = json_object_get_string(o);
	if (!s || !*s)
		return -EINVAL;
	for (*v = 0; *s; s++) {
		if (*s < '0' || *s > '9' || *v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return 0;
}

static int parse_segment(struct json_object *root, struct luks2_seg *seg)
{
	struct json_object *segs, *s0, *o;
	int64_t ss;

	if (!json_object_object_get_ex(root, "segments", &segs) ||
	    !json_object_is_type(segs, json_type_object) ||
	    !json_object_object_get_ex(segs, "0", &s0) ||
	    !json_object_is_type(s0, json_type_object))
		return -EINVAL;
	if (!json_object_object_get_ex(s0, "offset", &o) ||
	    json_u64(o, &seg->offset))
		return -EINVAL;
	if (!json_object_object_get_ex(s0, "size", &o))
		return -EINVAL;
	if (json_object_is_type(o, json_type_string) &&
	    !strcmp(json_object_get_string(o), "dynamic"))
		seg->size = 0;
	else if (json_u64(o, &seg->size))
		return -EINVAL;
	/* Only "crypt" segments have a sector size (512 .. 4096). */
	seg->sector_size = 0;
	if (json_object_object_get_ex(s0, "sector_size", &o)) {
		if (!json_object_is_type(o, json_type_int))
			return -EINVAL;
		ss = json_object_get_int64(o);
		if (ss < BA_SECTOR || ss > 4096 || (ss & (ss - 1)))
			return -EINVAL;
		seg->sector_size = (uint32_t)ss;
	}
	if (seg->offset % BA_SECTOR)
		return -EINVAL;
	return 0;
}

static int parse_json(const char *area, size_t area_len, struct luks2_seg *seg)
{
	struct json_tokener *tok;
	struct json_object *root;
	size_t len = strnlen(area, area_len);
	int rc = -EINVAL;

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, area, (int)len);
	if (root && json_tokener_get_error(tok) == json_tokener_success &&
	    json_object_is_type(root, json_type_object))
		rc = parse_segment(root, seg);
	json_object_put(root);
	json_tokener_free(tok);
	return rc;
}

/*
 * Read and check the LUKS2 header at @at (0 for the primary, else a
 * secondary).  Returns 0, 1 (no such magic there), -EINVAL (it lies),
 * -ERANGE (its areas run past the region: a truncated image), -errno.
 */
static int luks2_at(struct ba_io *io, uint64_t off, uint64_t size, uint64_t at,
		    struct luks2_seg *seg)
{
	uint8_t bin[LUKS2_HDR_BIN];
	struct luks2_hdr_disk h;
	uint64_t hdr_size;
	char *json;
	int rc;

	if (at > size || size - at < sizeof(bin))
		return 1;
	rc = ba_io_read(io, off + at, sizeof(bin), bin);
	if (rc)
		return rc;
	memcpy(&h, bin, sizeof(h));
	if (memcmp(h.magic, at ? LUKS2_MAGIC_2ND : LUKS_MAGIC, LUKS_MAGIC_L))
		return 1;
	hdr_size = be64toh(h.be_hdr_size);
	if (be16toh(h.be_version) != 2 || hdr_size < LUKS2_HDR_MIN ||
	    hdr_size > LUKS2_HDR_MAX || (hdr_size & (hdr_size - 1)))
		return -EINVAL;
	/* Self-location; the secondary copy sits right after the primary. */
	if (be64toh(h.be_hdr_offset) != at || (at && at != hdr_size))
		return -EINVAL;
	if (hdr_size > size - at)
		return -ERANGE;

	json = malloc(hdr_size - LUKS2_HDR_BIN);
	if (!json)
		return -ENOMEM;
	rc = ba_io_read(io, off + at + LUKS2_HDR_BIN, hdr_size - LUKS2_HDR_BIN,
			json);
	if (rc == 0)
		rc = parse_json(json, hdr_size - LUKS2_HDR_BIN, seg);
	else if (rc == 1)
		rc = -ERANGE;
	free(json);
	if (rc)
		return rc;
	seg->seqid = be64toh(h.be_seqid);
	seg->hdr_size = hdr_size;
	return 0;
}

static int luks2(struct ba_io *io, uint64_t off, uint64_t size,
		 bool primary_magic, struct ba_content *c)
{
	struct luks2_seg seg, alt;
	int rc = primary_magic ? luks2_at(io, off, size, 0, &seg) : 1;
	int err = rc;

	if (rc == 0) {
		/* Both good: the higher seqid is the current one. */
		if (luks2_at(io, off, size, seg.hdr_size, &alt) == 0 &&
		    alt.seqid > seg.seqid)
			seg = alt;
	} else {
		if (rc < 0 && rc != -EINVAL && rc != -ERANGE)
			return rc; /* I/O error, no memory */
		for (uint64_t at = LUKS2_HDR_MIN; at <= LUKS2_HDR_MAX;
		     at *= 2) {
			rc = luks2_at(io, off, size, at, &seg);
			if (rc == 0)
				break;
			if (rc < 0 && err == 1)
				err = rc;
		}
		if (rc) {
			if (err == -ERANGE)
				snprintf(c->note, sizeof(c->note),
					 "its LUKS2 header area runs past its "
					 "end (%llu bytes): a header cut short "
					 "(a header backup or a truncated "
					 "image); the payload offset is in the "
					 "part that is missing",
					 (unsigned long long)size);
			return err;
		}
	}

	/* The data cannot overlap the two headers (0 = detached header). */
	if (seg.offset > size || (seg.offset && seg.offset < 2 * seg.hdr_size))
		return -EINVAL;
	snprintf(c->version, sizeof(c->version), "2");
	c->data_offset = seg.offset;
	c->data_size = seg.size ? seg.size : size - seg.offset;
	c->block_size = seg.sector_size;
	return 0;
}

static int luks_probe(struct ba_io *io, uint64_t off, uint64_t size,
		      struct ba_content *out)
{
	uint8_t buf[LUKS2_HDR_BIN];
	struct ba_content c;
	uint16_t version;
	bool magic;
	int rc;

	memset(out, 0, sizeof(*out));
	if (off > UINT64_MAX - size)
		return -EINVAL;
	if (size < LUKS_MAGIC_L + sizeof(version))
		return 1;
	/* a region under 4 KiB: what there is of it, for a header cut short */
	memset(buf, 0, sizeof(buf));
	rc = ba_io_read(io, off, size < sizeof(buf) ? size : sizeof(buf), buf);
	if (rc)
		return rc;

	memset(&c, 0, sizeof(c));
	c.kind = BA_CONTENT_LUKS;
	snprintf(c.type, sizeof(c.type), "crypto_LUKS");
	magic = !memcmp(buf, LUKS_MAGIC, LUKS_MAGIC_L);
	memcpy(&version, buf + offsetof(struct luks1_phdr_disk, be_version),
	       sizeof(version));
	if (size < sizeof(buf)) {
		uint64_t whole = be16toh(version) == 1
					 ? sizeof(struct luks1_phdr_disk)
					 : LUKS2_HDR_BIN;

		if (!magic || (be16toh(version) != 1 && be16toh(version) != 2))
			return 1;
		if (size < whole) {
			snprintf(out->note, sizeof(out->note),
				 "only the first %llu bytes of a LUKS%u "
				 "header (%llu bytes) are there: cut short",
				 (unsigned long long)size, be16toh(version),
				 (unsigned long long)whole);
			return -ERANGE;
		}
	}
	if (magic && be16toh(version) == 1)
		rc = luks1(buf, size, &c);
	else
		rc = luks2(io, off, size, magic, &c);
	if (rc == 0)
		*out = c;
	else
		memcpy(out->note, c.note, sizeof(out->note));
	return rc;
}

const struct ba_prober ba_luks_prober = {
	.name = "crypto_LUKS",
	.kind = BA_CONTENT_LUKS,
	.probe = luks_probe,
};
