/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * used.c - the used-extent map of a partition's contents (used.h): the
 * readers by libblkid TYPE, and the map's bookkeeping: extents added in
 * any order, then sorted, merged and checked against the contents' size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "used/used.h"

static const struct {
	const char *type; /* libblkid's TYPE */
	const char *source;
	ba_used_reader read;
} readers[] = {
	/* one row per reader, added with it */
	{"ext2", "libext2fs", ba_used_ext},
	{"ext3", "libext2fs", ba_used_ext},
	{"ext4", "libext2fs", ba_used_ext},
	{"swap", "swap-header", ba_used_swap},
	{"swsuspend", "swap-header", ba_used_swap},
	{"xfs", "xfs-bnobt", ba_used_xfs},
	{"vfat", "fat", ba_used_fat},
	{"exfat", "exfat-bitmap", ba_used_exfat},
	{"ntfs", "libntfs-3g", ba_used_ntfs},
	{"LVM2_member", "lvm-segments", ba_used_lvm},
	{"btrfs", "btrfs-chunks", ba_used_btrfs},
	{NULL, NULL, NULL},
};

static size_t find(const char *type)
{
	size_t i;

	for (i = 0; type && readers[i].type; i++)
		if (!strcmp(readers[i].type, type))
			return i;
	return i;
}

const char *ba_used_source_of(const char *type)
{
	size_t i = find(type);

	return readers[i].type ? readers[i].source : "whole";
}

int ba_used_read_at(struct ba_io *io, uint64_t off, uint64_t size, uint64_t at,
		    size_t len, void *buf, char *why, size_t wlen)
{
	int rc = ba_io_read_region(io, off, size, at, len, buf);

	if (rc == 1) {
		snprintf(why, wlen,
			 "its structures point past its end (byte %llu)",
			 (unsigned long long)at);
		return -EBADMSG;
	}
	return rc;
}

int ba_used_add(struct ba_used_map *m, uint64_t off, uint64_t len)
{
	if (!len)
		return 0;
	if (m->nr && m->ext[m->nr - 1].off + m->ext[m->nr - 1].len == off) {
		m->ext[m->nr - 1].len += len; /* the common case: in order */
		return 0;
	}
	if (m->nr == m->cap) {
		uint64_t cap = m->cap ? m->cap * 2 : 256;
		struct ba_extent *e;

		if (m->nr >= BA_USED_MAX_EXTENTS)
			return -E2BIG;
		if (cap > BA_USED_MAX_EXTENTS)
			cap = BA_USED_MAX_EXTENTS;
		e = realloc(m->ext, (size_t)cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->ext = e;
		m->cap = cap;
	}
	m->ext[m->nr++] = (struct ba_extent){off, len};
	return 0;
}

static int by_off(const void *a, const void *b)
{
	const struct ba_extent *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int ba_used_normalise(struct ba_used_map *m, char *why, size_t len)
{
	uint64_t n = 0;

	if (m->nr)
		qsort(m->ext, (size_t)m->nr, sizeof(*m->ext), by_off);
	m->used = 0;
	for (uint64_t i = 0; i < m->nr; i++) {
		struct ba_extent e = m->ext[i];

		if (e.off > m->size || e.len > m->size - e.off) {
			snprintf(why, len,
				 "its map says bytes %llu..%llu are used, past "
				 "its end (%llu bytes)",
				 (unsigned long long)e.off,
				 (unsigned long long)(e.off + e.len - 1),
				 (unsigned long long)m->size);
			return -EBADMSG;
		}
		if (n && m->ext[n - 1].off + m->ext[n - 1].len >= e.off) {
			struct ba_extent *p = &m->ext[n - 1];
			uint64_t end = e.off + e.len;

			if (end > p->off + p->len)
				p->len = end - p->off;
			continue;
		}
		m->ext[n++] = e;
	}
	m->nr = n;
	for (uint64_t i = 0; i < n; i++)
		m->used += m->ext[i].len;
	return 0;
}

int ba_used_whole(struct ba_used_map *m, uint64_t size)
{
	m->size = size;
	m->source = "whole";
	m->nr = 0;
	m->used = 0;
	if (ba_used_add(m, 0, size))
		return -ENOMEM;
	m->used = size;
	return 0;
}

uint64_t ba_used_hash(const struct ba_used_map *m)
{
	return XXH3_64bits(m->ext, (size_t)m->nr * sizeof(*m->ext));
}

uint64_t ba_used_in(const struct ba_used_map *m, uint64_t off, uint64_t len)
{
	uint64_t lo = 0, hi = m->nr, sum = 0;

	/* the first extent that ends after off */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (m->ext[mid].off + m->ext[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint64_t i = lo; i < m->nr && m->ext[i].off < off + len; i++) {
		uint64_t a = m->ext[i].off > off ? m->ext[i].off : off;
		uint64_t b = m->ext[i].off + m->ext[i].len;

		if (b > off + len)
			b = off + len;
		sum += b - a;
	}
	return sum;
}

/* Close the gaps of @m below @gap. */
static void close_gaps(struct ba_used_map *m, uint64_t gap)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < m->nr; i++) {
		struct ba_extent *p = n ? &m->ext[n - 1] : NULL;

		if (p && m->ext[i].off - (p->off + p->len) < gap)
			p->len = m->ext[i].off + m->ext[i].len - p->off;
		else
			m->ext[n++] = m->ext[i];
	}
	m->nr = n;
}

/**
 * ba_used_shape: @m (relative to contents that begin @coff bytes into
 * their partition) made what a move copies of the partition's first
 * @len bytes: partition-relative, whole @lss sectors, inside [0, len),
 * [0, head) added, gaps below BA_USED_GAP closed (wider ones too while
 * it has more than @max_nr extents).  fix copies by it; plan counts it.
 * Returns: 0 or -errno (-EBADMSG with @why).
 */
int ba_used_shape(struct ba_used_map *m, uint64_t coff, uint32_t lss,
		  uint64_t len, uint64_t head, uint64_t max_nr, char *why,
		  size_t wlen)
{
	struct ba_used_map o = {.size = len, .source = m->source};
	uint64_t gap = BA_USED_GAP;
	int rc = ba_used_add(&o, 0, head);

	for (uint64_t i = 0; !rc && i < m->nr; i++) {
		uint64_t a = (coff + m->ext[i].off) / lss * lss;
		uint64_t b = coff + m->ext[i].off + m->ext[i].len;

		b = (b + lss - 1) / lss * lss;
		if (a >= len)
			break;
		rc = ba_used_add(&o, a, (b < len ? b : len) - a);
	}
	if (!rc)
		rc = ba_used_normalise(&o, why, wlen);
	while (!rc && o.nr) {
		close_gaps(&o, gap);
		if (o.nr <= max_nr)
			break;
		gap *= 2;
	}
	if (!rc)
		rc = ba_used_normalise(&o, why, wlen);
	ba_used_free(m);
	*m = o;
	return rc;
}

void ba_used_free(struct ba_used_map *m)
{
	free(m->ext);
	memset(m, 0, sizeof(*m));
}

int ba_used_read(struct ba_io *io, uint64_t off, uint64_t size,
		 const char *type, struct ba_used_map *m, char *why, size_t len)
{
	size_t i = find(type);
	int rc;

	memset(m, 0, sizeof(*m));
	if (len)
		why[0] = '\0';
	if (!readers[i].type)
		return ba_used_whole(m, size);
	m->size = size;
	m->source = readers[i].source;
	rc = readers[i].read(io, off, size, m, why, len);
	if (!rc)
		rc = ba_used_normalise(m, why, len);
	if (rc)
		ba_used_free(m);
	if (rc == -ENOTSUP) /* @why says which variant: copied whole */
		return ba_used_whole(m, size);
	return rc;
}
