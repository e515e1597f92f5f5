/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-used.c - the bytes a move copies (docs/fix.md, "Used blocks").
 *
 * Before the first write, under the target's lock, the used-extent map
 * of what the partition holds is read (lib/scan/used/: the ext4's block
 * bitmaps, XFS's free-space trees, ...) through the target as fix opens
 * it (a file, a device, an NBD export), and made what the mover needs:
 * partition-relative, whole sectors, inside [0, len), the head (hidden
 * while the move is in flight) always in it, and gaps smaller than
 * BA_USED_GAP closed (ba_used_shape, which plan counts by too; the map
 * stays under BA_FIX_MAP_MAX extents).  The journal
 * keeps it: resume and rollback use that one, never a new read.
 *
 * The mover reads and writes only the map's extents; everything it hashes
 * is "the used bytes and zeros between" (fix-move.c read_used), so that
 * a crash's settling compares like with like.  Writing less than the
 * whole range never breaks the move's order (docs/fix.md): it writes a
 * part of what the whole move would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "fix.h"

/* A struct ba_io over fix's target, for the map readers: reads in whole
 * aligned blocks through a bounce buffer (the target may be O_DIRECT). */
struct fix_io {
	struct ba_io io;
	struct ba_file *f;
};

static ssize_t fix_pread(struct ba_io *io, void *buf, size_t len, uint64_t off)
{
	struct fix_io *x = (struct fix_io *)io;
	uint64_t a = off / 4096 * 4096, end = off + len, b;
	uint8_t *tmp;
	int rc;

	if (off > io->size)
		return 0;
	if (end > io->size)
		end = io->size;
	b = (end + 4095) / 4096 * 4096;
	if (b > io->size)
		b = io->size; /* whole sectors: the size is */
	tmp = ba_file_buffer((size_t)(b - a));
	if (!tmp)
		return -ENOMEM;
	rc = ba_file_read(x->f, tmp, (size_t)(b - a), a);
	if (!rc)
		memcpy(buf, tmp + (off - a), (size_t)(end - off));
	free(tmp);
	return rc ? rc : (ssize_t)(end - off);
}

static const struct ba_io_ops fix_io_ops = {.name = "fix", .pread = fix_pread};

/* The contents layer of partition layer @part, or NULL. */
static const struct blkalign_layer *contents_of(const struct blkalign_device *d,
						int part)
{
	for (size_t i = 0; i < d->nlayers; i++)
		if (d->layers[i].parent == part && d->layers[i].type &&
		    d->layers[i].kind != BLKALIGN_LAYER_PARTITION)
			return &d->layers[i];
	return NULL;
}

/**
 * ba_fix_map_read: the map of the bytes the move of @pp copies, read
 * from @dev into @j (j->map, g.map_*).  The whole range (no map) with
 * --copy-all, for contents without a reader, and when the map skips
 * nothing.  0; -EUCLEAN (not clean) or -EBADMSG (a map that lies) with
 * @why; or -errno.
 */
int ba_fix_map_read(struct ba_file *dev, const struct blkalign_device *d,
		    const struct blkalign_plan_part *pp,
		    const struct blkalign_fix_opts *o, struct ba_journal *j,
		    char *why, size_t len)
{
	const struct blkalign_layer *c = contents_of(d, pp->layer);
	struct ba_fix_geom *g = &j->g;
	struct fix_io x = {.f = dev};
	struct ba_used_map m;
	uint64_t coff, begin;
	int rc;

	why[0] = '\0';
	snprintf(g->map_source, sizeof(g->map_source), "whole");
	if (o->copy_all || !c || !pp->used_known)
		return 0;
	begin = c->start - (c->data_offset < c->start ? c->data_offset : 0);
	if (begin < pp->old_start || begin - pp->old_start >= g->len)
		return 0;
	coff = begin - pp->old_start;
	x.io.ops = &fix_io_ops;
	x.io.fd = -1;
	x.io.size = dev->size;
	rc = ba_used_read(&x.io, begin, pp->old_size - coff, c->type, &m, why,
			  len);
	if (rc)
		return rc;
	snprintf(g->map_source, sizeof(g->map_source), "%s", m.source);
	rc = ba_used_shape(&m, coff, g->lss, g->len, g->head_len,
			   BA_FIX_MAP_MAX, why, len);
	if (!rc && m.used < g->len) {
		g->map_nr = m.nr;
		g->map_used = m.used;
		g->map_hash = XXH3_64bits(m.ext, (size_t)m.nr * sizeof(*m.ext));
		j->map = m.ext; /* the journal owns it */
		m.ext = NULL;
	}
	ba_used_free(&m);
	return rc;
}

/* The first extent of the map that ends after @rel. */
uint64_t ba_fix_map_from(const struct ba_journal *j, uint64_t rel)
{
	uint64_t lo = 0, hi = j->g.map_nr;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (j->map[mid].off + j->map[mid].len <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Extent @i cut to [rel, rel + len): [*a, *b); false when it is past. */
bool ba_fix_map_piece(const struct ba_journal *j, uint64_t i, uint64_t rel,
		      uint64_t len, uint64_t *a, uint64_t *b)
{
	const struct ba_extent *e;

	if (i >= j->g.map_nr || j->map[i].off >= rel + len)
		return false;
	e = &j->map[i];
	*a = e->off > rel ? e->off : rel;
	*b = e->off + e->len < rel + len ? e->off + e->len : rel + len;
	return true;
}

/* The bytes of [rel, rel + len) the move copies. */
uint64_t ba_fix_used(const struct ba_journal *j, uint64_t rel, uint64_t len)
{
	uint64_t i, a, b, sum = 0;

	if (!j->map)
		return len;
	for (i = ba_fix_map_from(j, rel);
	     ba_fix_map_piece(j, i, rel, len, &a, &b); i++)
		sum += b - a;
	return sum;
}
