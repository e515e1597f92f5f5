/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lvm.c - what an LVM2 physical volume uses: its label and first
 * metadata area (everything below pe_start), a second metadata area at
 * its end, and the physical extents its volume group's segments put on
 * it.  Extents no segment names are free: nothing reads them.
 *
 * The label and PV header come from probe/lvm.c (ba_lvm_pv_read), the
 * committed metadata text of the first usable area from ba_lvm_mda_text
 * (checksum, wrap-around).  The text is read twice by lvm-text.c's
 * parser (bounded, without recursion):
 *   1. vg { extent_size }, and the physical_volumes/pvN section whose id
 *      is the label's (dashed as lvm prints it): its name, pe_start,
 *      pe_count;
 *   2. each logical_volumes/<lv>/segmentN: start_extent, extent_count,
 *      type; "striped" (linear is one stripe) and "mirror" (pvmove's)
 *      segments list their areas as "stripes"/"mirrors" = ["pvN", pe,
 *      ...]; the areas naming this PV are used.  Segments of LVs built
 *      on other LVs (thin, thin-pool, raid*, cache, snapshot, ...) hold
 *      no PV areas: their sub-LVs' striped segments do.
 *
 * -EBADMSG: an area past pe_count, extents past the PV, a pe_start the
 * text and the header disagree on, bad syntax, two VGs.  -ENOTSUP: an
 * unknown segment type, this PV named by a segment in any other way,
 * no metadata area on this PV (pvcreate --metadatacopies 0), a text
 * over 4 MiB.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "used/lvm-text.h"
#include "used/used.h"

struct seg {
	bool on;
	uint64_t extent_count, stripe_count;
	struct ba_lvm_tok type;
	int list;	 /* 0, 1 stripes, 2 mirrors */
	uint64_t nareas; /* pairs in the list */
	bool pend;	 /* the last area's name is this PV */
	bool foreign;	 /* this PV named outside the list */
	uint64_t *mine;	 /* this PV's areas: their first PE */
	size_t nmine, cap;
};

struct lvm {
	struct ba_lvm_text x;
	int pass;
	char id[40]; /* this PV's id, dashed */
	/* pass 1 */
	unsigned int vgs;
	uint64_t extent_sectors;
	struct ba_lvm_tok cur_name, name;
	bool cur_match, found;
	uint64_t cur_vals[2], vals[2]; /* pe_start, pe_count */
	unsigned int cur_have;
	/* pass 2 */
	struct seg seg;
	struct ba_used_map *m;
	uint64_t pe_start_bytes, extent_bytes, pe_count;
};

static bool in_pvs(const struct ba_lvm_tok *path, int depth)
{
	return depth == 3 && ba_lvm_tok_is(&path[1], "physical_volumes");
}

static bool in_seg(const struct ba_lvm_tok *path, int depth)
{
	return depth == 4 && ba_lvm_tok_is(&path[1], "logical_volumes") &&
	       path[3].len >= 7 && !memcmp(path[3].p, "segment", 7);
}

static int on_push(void *arg, const struct ba_lvm_tok *path, int depth)
{
	struct lvm *l = arg;

	if (depth == 1 && l->pass == 1 && ++l->vgs > 1)
		return ba_lvm_text_bad(&l->x, "two volume groups");
	if (l->pass == 1 && in_pvs(path, depth)) {
		l->cur_name = path[2];
		l->cur_match = false;
		l->cur_have = 0;
	}
	if (l->pass == 2 && in_seg(path, depth)) {
		l->seg.on = true;
		l->seg.extent_count = 0;
		l->seg.stripe_count = 0;
		l->seg.type = (struct ba_lvm_tok){BA_LVM_EOF, NULL, 0};
		l->seg.list = 0;
		l->seg.nareas = 0;
		l->seg.pend = false;
		l->seg.foreign = false;
		l->seg.nmine = 0;
	}
	return 0;
}

static bool lv_only(const struct ba_lvm_tok *type)
{
	static const char *const types[] = {
		"thin",	    "thin-pool",  "cache",     "cache-pool",
		"snapshot", "error",	  "zero",      "vdo",
		"vdo-pool", "writecache", "integrity", NULL,
	};

	for (size_t i = 0; types[i]; i++)
		if (ba_lvm_tok_is(type, types[i]))
			return true;
	return type->len >= 4 && !memcmp(type->p, "raid", 4);
}

/* A segment's areas on this PV into the map. */
static int end_seg(struct lvm *l, const struct ba_lvm_tok *path)
{
	struct seg *s = &l->seg;
	uint64_t area_len;
	int rc;

	s->on = false;
	if (s->type.kind != BA_LVM_STR)
		return ba_lvm_text_bad(&l->x, "a segment without a type");
	if (!s->extent_count)
		return ba_lvm_text_bad(&l->x, "a segment of no extents");
	if (ba_lvm_tok_is(&s->type, "striped") && s->list != 2) {
		if (!s->nareas ||
		    (s->stripe_count && s->stripe_count != s->nareas) ||
		    s->extent_count % s->nareas)
			return ba_lvm_text_bad(
				&l->x,
				"a striped segment's stripes do not add up");
		area_len = s->extent_count / s->nareas;
	} else if (ba_lvm_tok_is(&s->type, "mirror") && s->list != 1) {
		area_len = s->extent_count;
	} else if (lv_only(&s->type) && !s->list) {
		area_len = 0;
	} else {
		snprintf(l->x.why, l->x.wlen,
			 "LV \"%.*s\" has a segment of type \"%.*s\", not read",
			 (int)(path[2].len > 64 ? 64 : path[2].len), path[2].p,
			 (int)(s->type.len > 32 ? 32 : s->type.len), s->type.p);
		return -ENOTSUP;
	}
	if (s->foreign || (!area_len && s->nmine)) {
		snprintf(l->x.why, l->x.wlen,
			 "LV \"%.*s\" names this PV in a way not read",
			 (int)(path[2].len > 64 ? 64 : path[2].len), path[2].p);
		return -ENOTSUP;
	}
	for (size_t i = 0; i < s->nmine; i++) {
		uint64_t pe = s->mine[i];

		if (pe >= l->pe_count || area_len > l->pe_count - pe) {
			snprintf(l->x.why, l->x.wlen,
				 "LV \"%.*s\" uses extents %llu+%llu, past "
				 "this PV's %llu",
				 (int)(path[2].len > 64 ? 64 : path[2].len),
				 path[2].p, (unsigned long long)pe,
				 (unsigned long long)area_len,
				 (unsigned long long)l->pe_count);
			return -EBADMSG;
		}
		rc = ba_used_add(l->m, l->pe_start_bytes + pe * l->extent_bytes,
				 area_len * l->extent_bytes);
		if (rc)
			return rc;
	}
	return 0;
}

static int on_pop(void *arg, const struct ba_lvm_tok *path, int depth)
{
	struct lvm *l = arg;

	if (l->pass == 1 && in_pvs(path, depth) && l->cur_match) {
		if (l->found)
			return ba_lvm_text_bad(&l->x,
					       "two PVs with this PV's id");
		if (l->cur_have != 3)
			return ba_lvm_text_bad(
				&l->x, "a PV without pe_start or pe_count");
		l->found = true;
		l->name = l->cur_name;
		l->vals[0] = l->cur_vals[0];
		l->vals[1] = l->cur_vals[1];
	}
	if (l->pass == 2 && l->seg.on && in_seg(path, depth))
		return end_seg(l, path);
	return 0;
}

/* An area list item @idx (name, first PE, name, ...). */
static int area_item(struct lvm *l, const struct ba_lvm_tok *v, uint64_t idx)
{
	struct seg *s = &l->seg;
	uint64_t pe;
	int rc;

	if (!(idx & 1)) {
		if (v->kind != BA_LVM_STR)
			return ba_lvm_text_bad(&l->x, "an area without a name");
		s->pend = ba_lvm_tok_same(v, &l->name);
		return 0;
	}
	rc = ba_lvm_text_num(&l->x, v, &pe);
	if (rc)
		return rc;
	s->nareas++;
	if (!s->pend)
		return 0;
	if (s->nmine == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		uint64_t *p = realloc(s->mine, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->mine = p;
		s->cap = cap;
	}
	s->mine[s->nmine++] = pe;
	return 0;
}

/* key = @v (item @idx of a list, or -1 for a scalar). */
static int on_value(void *arg, const struct ba_lvm_tok *path, int depth,
		    const struct ba_lvm_tok *key, const struct ba_lvm_tok *v,
		    int64_t idx)
{
	struct lvm *l = arg;
	struct seg *s = &l->seg;
	int list;

	if (l->pass == 1) {
		if (depth == 1 && idx < 0 && ba_lvm_tok_is(key, "extent_size"))
			return ba_lvm_text_num(&l->x, v, &l->extent_sectors);
		if (!in_pvs(path, depth) || idx >= 0)
			return 0;
		if (ba_lvm_tok_is(key, "id"))
			l->cur_match = v->kind == BA_LVM_STR &&
				       ba_lvm_tok_is(v, l->id);
		else if (ba_lvm_tok_is(key, "pe_start") ||
			 ba_lvm_tok_is(key, "pe_count")) {
			int i = ba_lvm_tok_is(key, "pe_count");

			l->cur_have |= 1u << i;
			return ba_lvm_text_num(&l->x, v, &l->cur_vals[i]);
		}
		return 0;
	}
	if (!s->on || !in_seg(path, depth))
		return 0;
	list = ba_lvm_tok_is(key, "stripes")   ? 1
	       : ba_lvm_tok_is(key, "mirrors") ? 2
					       : 0;
	if (list) {
		if (idx < 0)
			return ba_lvm_text_bad(&l->x,
					       "an area list that is no list");
		if (idx == 0) {
			if (s->list)
				return ba_lvm_text_bad(
					&l->x, "two area lists in a segment");
			s->list = list;
		}
		return area_item(l, v, (uint64_t)idx);
	}
	if (idx < 0 && ba_lvm_tok_is(key, "extent_count"))
		return ba_lvm_text_num(&l->x, v, &s->extent_count);
	if (idx < 0 && ba_lvm_tok_is(key, "stripe_count"))
		return ba_lvm_text_num(&l->x, v, &s->stripe_count);
	if (idx < 0 && ba_lvm_tok_is(key, "type")) {
		if (v->kind != BA_LVM_STR)
			return ba_lvm_text_bad(&l->x,
					       "a type that is no string");
		s->type = *v;
		return 0;
	}
	if (v->kind == BA_LVM_STR && ba_lvm_tok_same(v, &l->name))
		s->foreign = true;
	return 0;
}

static const struct ba_lvm_text_ops ops = {on_push, on_pop, on_value};

/* The PV's id as lvm prints it: 6-4-4-4-4-4-6. */
static void dashed(const char *id, char *out)
{
	static const int groups[] = {6, 4, 4, 4, 4, 4, 6};
	size_t o = 0, i = 0;

	for (size_t g = 0; g < 7; g++) {
		if (g)
			out[o++] = '-';
		for (int j = 0; j < groups[g]; j++)
			out[o++] = id[i++];
	}
	out[o] = '\0';
}

/* The text of the first usable metadata area of @pv. */
static int mda_text(struct ba_io *io, uint64_t off, uint64_t size,
		    const struct ba_lvm_pv *pv, char **text, size_t *tlen,
		    char *why, size_t len)
{
	bool lies = false;
	int rc;

	for (size_t i = 0; i < pv->nmdas; i++) {
		rc = ba_lvm_mda_text(io, off, size, pv->mdas[i].offset,
				     pv->mdas[i].size, text, tlen);
		if (rc == 0)
			return 0;
		if (rc == -EFBIG) {
			snprintf(why, len, "its metadata text is over 4 MiB");
			return -ENOTSUP;
		}
		if (rc == -EINVAL)
			lies = true;
		else if (rc < 0)
			return rc;
	}
	if (lies) {
		snprintf(
			why, len,
			"its metadata area's header or text checksum is wrong");
		return -EBADMSG;
	}
	snprintf(why, len,
		 "it has no metadata area of its own (its VG's metadata is "
		 "on other PVs)");
	return -ENOTSUP;
}

int ba_used_lvm(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len)
{
	struct lvm l = {.x = {.why = why, .wlen = len}, .m = m};
	struct ba_lvm_pv pv;
	char *text = NULL;
	int rc;

	rc = ba_lvm_pv_read(io, off, size, &pv);
	if (rc == 1) {
		snprintf(why, len, "no LVM2 label");
		return -EINVAL;
	}
	if (rc == -EINVAL) {
		snprintf(why, len, "its LVM2 label or PV header is wrong");
		return -EBADMSG;
	}
	if (rc)
		return rc;
	rc = mda_text(io, off, size, &pv, &text, &l.x.len, why, len);
	if (rc)
		return rc;
	m->unit = 512;
	rc = ba_used_add(m, 0, pv.pe_start);
	/* a metadata area past pe_start: the second, at the end */
	for (size_t i = 0; !rc && i < pv.nmdas; i++) {
		if (pv.mdas[i].offset < pv.pe_start)
			continue;
		if (pv.mdas[i].offset > size ||
		    pv.mdas[i].size > size - pv.mdas[i].offset) {
			snprintf(why, len,
				 "its metadata area at byte %llu passes its "
				 "end",
				 (unsigned long long)pv.mdas[i].offset);
			rc = -EBADMSG;
			break;
		}
		rc = ba_used_add(m, pv.mdas[i].offset, pv.mdas[i].size);
	}
	if (rc || !text)
		goto out; /* no VG: no extent used */

	dashed(pv.pvid, l.id);
	l.x.t = text;
	l.pass = 1;
	rc = ba_lvm_text_parse(&l.x, &ops, &l);
	if (rc)
		goto out;
	if (!l.found || !l.extent_sectors) {
		snprintf(why, len,
			 "its metadata text has no extent size or no PV with "
			 "its id %s",
			 l.id);
		rc = -EBADMSG;
		goto out;
	}
	l.extent_bytes = l.extent_sectors * 512;
	l.pe_start_bytes = l.vals[0] * 512;
	l.pe_count = l.vals[1];
	if (l.vals[0] > UINT64_MAX / 512 || l.pe_start_bytes != pv.pe_start) {
		snprintf(why, len,
			 "its metadata text says pe_start %llu sectors, its "
			 "header %llu bytes",
			 (unsigned long long)l.vals[0],
			 (unsigned long long)pv.pe_start);
		rc = -EBADMSG;
		goto out;
	}
	if (l.extent_sectors > UINT64_MAX / 512 ||
	    (l.pe_count &&
	     l.extent_bytes > (size - pv.pe_start) / l.pe_count)) {
		snprintf(why, len,
			 "its %llu extents of %llu bytes pass its end (%llu "
			 "bytes)",
			 (unsigned long long)l.pe_count,
			 (unsigned long long)l.extent_bytes,
			 (unsigned long long)size);
		rc = -EBADMSG;
		goto out;
	}
	m->unit = l.extent_bytes > UINT32_MAX ? 0 : (uint32_t)l.extent_bytes;
	l.pass = 2;
	rc = ba_lvm_text_parse(&l.x, &ops, &l);
out:
	free(l.seg.mine);
	free(text);
	return rc;
}
