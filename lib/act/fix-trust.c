/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-trust.c - before --resume or --rollback writes a byte (docs/fix.md,
 * "Which journal, which disk"): is the disk the journal's, and does the
 * journal hold what going on from its state needs?
 *
 * The disk: the same size and identity (fix-ident.c), every table sector
 * the fix changes holding its old or its new bytes, and either this fix's
 * marker (its id) at the old or the new start, or, where the phase has
 * none, the head the phase puts there: the real one at the old start
 * before anything moved (a fix that may have written its marker by then
 * needs a disk with an identity for that), the patched one at the new
 * start once finishing wrote it.  Anything else is another disk, or this
 * one changed since.
 *
 * The journal: a record, the patches and the head (a good copy of each),
 * and for the way it goes the boundaries and the batch in flight; a batch
 * whose journal copy is damaged is taken from the disk when its source
 * or its destination there is whole (by the record's hash).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

/* The sector at @off of @dev as a marker: 1 this fix's, 2 another's (or
 * one without an id), 0 none, -errno. */
static int marker_kind(struct ba_file *dev, const struct ba_journal *j,
		       uint64_t off, struct ba_fix_marker *m)
{
	uint32_t n = j->g.lss < 512 ? 512 : j->g.lss;
	uint8_t *sec = ba_file_alloc(n);
	int rc;

	if (!sec)
		return -ENOMEM;
	rc = ba_file_read(dev, sec, n, off);
	if (!rc)
		rc = !ba_fix_marker_parse(sec, n, m)			   ? 0
		     : m->has_id && !memcmp(m->id, j->g.id, sizeof(m->id)) ? 1
									   : 2;
	free(sec);
	return rc;
}

/* Does @dev hold the journal's head at @start (patched for @start)? */
static bool head_at(struct ba_file *dev, const struct ba_journal *j,
		    uint64_t start, bool patched)
{
	uint8_t *want = ba_file_alloc(j->g.head_len);
	uint8_t *got = ba_file_buffer(j->g.head_len);
	bool same = false;

	if (want && got && !ba_file_read(dev, got, j->g.head_len, start)) {
		memcpy(want, j->head, j->g.head_len);
		if (patched)
			ba_fix_patch_head(j, want, start);
		same = !memcmp(want, got, j->g.head_len);
	}
	free(want);
	free(got);
	return same;
}

static int say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -ESTALE;
}

/**
 * ba_fix_match: is @dev (identity @id) the disk of @j?  0, or -ESTALE
 * with @why naming what differs (or -errno).
 */
int ba_fix_match(struct ba_file *dev, const struct ba_fix_ident *id,
		 const struct ba_journal *j, char *why, size_t len)
{
	const struct ba_fix_geom *g = &j->g;
	struct ba_fix_marker m;
	char a[200], b[200];
	int k[2];
	bool strong;

	if (dev->size != g->disk_size)
		return say(why, len,
			   "the journal is for a disk of %llu bytes, '%s' "
			   "has %llu",
			   (unsigned long long)g->disk_size, dev->path,
			   (unsigned long long)dev->size);
	if (!ba_fix_ident_same(&g->ident, id)) {
		ba_fix_ident_text(&g->ident, a, sizeof(a));
		ba_fix_ident_text(id, b, sizeof(b));
		return say(why, len, "the journal is for %s; '%s' is %s", a,
			   dev->path, b);
	}
	for (uint32_t i = 0; j->blob && i < g->npatches; i++) {
		const struct ba_fix_patch *p = &j->patches[i];
		uint8_t *buf = ba_file_alloc(p->len);
		bool ok;

		if (!buf)
			return -ENOMEM;
		ok = !ba_file_read(dev, buf, p->len, p->off) &&
		     (!memcmp(buf, p->old, p->len) ||
		      !memcmp(buf, p->new, p->len));
		free(buf);
		if (!ok)
			return say(why, len,
				   "the partition table of '%s' is neither the "
				   "old nor the new one of the journal: wrong "
				   "disk or journal",
				   dev->path);
	}
	for (int i = 0; i < 2; i++) {
		k[i] = marker_kind(dev, j, i ? g->new_start : g->old_start, &m);
		if (k[i] < 0)
			return k[i];
		if (k[i] == 1)
			return 0;
	}
	if (k[0] == 2 || k[1] == 2)
		return say(why, len,
			   "'%s' carries the marker of another fix (%s), not "
			   "this journal's",
			   dev->path, m.what);
	if (!j->head || !j->have_state)
		return 0; /* refused anyway: the journal lacks them */
	strong = g->ident.kind != BA_FIX_ID_NONE;
	switch (j->st.phase) {
	case BA_PH_PREPARED:
		if ((!j->st.touched || strong) &&
		    head_at(dev, j, g->old_start, false))
			return 0;
		break;
	case BA_PH_FINISH:
	case BA_PH_RB_TABLE:
		if (head_at(dev, j, g->new_start, true))
			return 0;
		break;
	case BA_PH_RB_FINISH:
		if (head_at(dev, j, g->old_start, false))
			return 0;
		break;
	default:
		break;
	}
	return say(why, len,
		   "'%s' carries neither this fix's marker nor the data its "
		   "journal expects there (%s): it is not the journal's disk, "
		   "or it changed since",
		   dev->path, ba_fix_phase_name(j->st.phase));
}

/*
 * What @r's journal lacks to go on from its state, forward or (@rollback,
 * or a rollback in flight) back: NULL when nothing.  Loads the
 * boundaries it needs; with @repair, puts a batch in flight that the
 * disk still holds back into the journal.
 */
const char *ba_fix_lacks(struct ba_fix_run *r, bool rollback, bool repair)
{
	struct ba_journal *j = r->j;
	const struct ba_fix_state *st = &j->st;
	bool back = rollback || st->phase >= BA_PH_RB_TABLE;
	bool bounds = ba_fix_bound_len(&j->g) > 0;

	if (!j->have_state)
		return "record of where the fix stands (every slot is damaged "
		       "or cut off)";
	if (!j->blob)
		return "copy of the table sectors it changes";
	if (!j->head)
		return "copy of the partition's head (its first MiB)";
	if (j->g.map_nr && !j->map)
		return "copy of the map of the blocks the move copies";
	if (st->inflight && j->h.data != BA_JC_OK &&
	    ba_fix_batch_recover(r, repair) != 1)
		return "copy of the batch in flight, and the disk holds "
		       "neither its source nor its destination whole";
	if (bounds && !back && st->phase <= BA_PH_MOVING &&
	    ba_journal_load_bounds(j, false))
		return "copy of the boundaries of the move";
	if (bounds && back && st->moved && ba_journal_load_bounds(j, false))
		return "copy of the boundaries of the move";
	if (bounds && back &&
	    (st->phase == BA_PH_MOVING || st->phase == BA_PH_FINISH ||
	     st->phase == BA_PH_RB_TABLE) &&
	    !ba_journal_can_write_rbounds(j))
		return "room for the boundaries of the move back (the journal "
		       "is cut short)";
	if (bounds && st->phase == BA_PH_RB_MOVING &&
	    ba_journal_load_bounds(j, true))
		return "copy of the boundaries of the move back";
	return NULL;
}

/**
 * ba_fix_trust: may --resume (or @rollback) go on with @r on @t?  0, or
 * -ESTALE (another disk) or -EBADMSG (the journal lacks what it needs),
 * @msg saying why and what the other way can still do.
 */
int ba_fix_trust(struct ba_fix_run *r, struct blkalign_fix_target *t,
		 bool rollback, char *msg, size_t len)
{
	const char *what, *other;
	const char *way = rollback ? "roll back" : "resume";
	int rc = ba_fix_match(r->dev, &t->ident, r->j, msg, len);

	if (rc)
		return rc;
	what = ba_fix_lacks(r, rollback, true);
	if (!what)
		return 0;
	other = ba_fix_lacks(r, !rollback, false);
	if (other)
		snprintf(msg, len,
			 "cannot %s: the journal '%s' has no good %s; "
			 "'%s' cannot go on either: nothing was written, "
			 "'%s' says what is where",
			 way, r->j->file.path, what,
			 ba_word(r->ctx, rollback ? BLKALIGN_WORD_RESUME
						  : BLKALIGN_WORD_ROLLBACK),
			 ba_word(r->ctx, BLKALIGN_WORD_FIX_INSPECT));
	else
		snprintf(msg, len,
			 "cannot %s: the journal '%s' has no good %s; "
			 "nothing was written: '%s' can still %s",
			 way, r->j->file.path, what,
			 ba_word(r->ctx, rollback ? BLKALIGN_WORD_RESUME
						  : BLKALIGN_WORD_ROLLBACK),
			 rollback ? "finish the fix" : "undo the fix");
	return -EBADMSG;
}
