/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-inspect-out.c - what `blkalign fix --inspect` prints: the facts
 * act/fix-inspect.c gathered (the journal's header, state and the health
 * of every copy of every part, the disk's match, what --resume and
 * --rollback would do, or the marker when there is no journal), as text
 * or as JSON (keys in docs/json-schema.md).  It prints the journal's own
 * layout (where each copy of each part is, what was read of it), so it
 * sits with the journal's code rather than in out/, whose writers see
 * no act/ record; it writes through out/'s JSON writer.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "fix.h"

static const char *copy_name(uint8_t c)
{
	static const char *const n[] = {"unused", "ok", "damaged", "missing"};

	return c < 4 ? n[c] : "?";
}

static const char *phase_plan(uint32_t phase, bool rollback)
{
	if (!rollback || phase >= BA_PH_RB_TABLE) {
		switch (phase) {
		case BA_PH_PREPARED:
			return "move the data, then write the head and the "
			       "new table";
		case BA_PH_MOVING:
			return "move the rest of the data, then write the "
			       "head and the new table";
		case BA_PH_FINISH:
			return "write the head at the new start and the new "
			       "table";
		case BA_PH_RB_TABLE:
		case BA_PH_RB_MOVING:
			return "go on with the rollback: move the data back, "
			       "then the head and the old table";
		default:
			return "go on with the rollback: restore the head "
			       "and the old table";
		}
	}
	switch (phase) {
	case BA_PH_PREPARED:
		return "put the head back and keep the old table";
	case BA_PH_MOVING:
		return "move back what moved, then restore the head and the "
		       "old table";
	default:
		return "move all the data back, then restore the head and "
		       "the old table";
	}
}

static void text_parts(const struct ba_fix_inspect *in, FILE *out)
{
	const struct ba_journal_health *h = &in->j.h;
	const struct {
		const char *name;
		const uint8_t *c;
	} parts[] = {
		{"header", h->hdr},
		{"table sectors", h->blob},
		{"head", h->head},
		{"boundaries", h->bound},
		{"boundaries back", h->rbound},
		{"map of used blocks", h->map},
	};

	fprintf(out, "  copies:");
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].c[0] == BA_JC_UNUSED &&
		    parts[i].c[1] == BA_JC_UNUSED)
			continue;
		fprintf(out, " %s %s/%s;", parts[i].name,
			copy_name(parts[i].c[0]), copy_name(parts[i].c[1]));
	}
	fprintf(out, " records");
	for (int k = 0; k < BA_J_RECS; k++)
		fprintf(out, " %s",
			h->rec[k] == BA_JC_OK ? "ok" : copy_name(h->rec[k]));
	fprintf(out, "\n  size: %llu bytes%s\n", (unsigned long long)h->size,
		h->size < h->want ? " (cut short: the layout has more)" : "");
	if (h->data != BA_JC_UNUSED)
		fprintf(out, "  batch in flight: %s\n", copy_name(h->data));
}

static void text_journal(const struct ba_fix_inspect *in, FILE *out)
{
	const struct ba_fix_geom *g = &in->j.g;
	const struct ba_fix_state *st = &in->j.st;
	uint64_t lss = g->lss;
	char id[33], who[200], when[64], progress[160] = "";
	time_t t = (time_t)g->created;
	struct tm tm;

	if (st->phase == BA_PH_MOVING || st->phase == BA_PH_RB_MOVING) {
		if (g->batch)
			snprintf(progress, sizeof(progress),
				 ": %llu of %llu bytes done%s",
				 (unsigned long long)st->done,
				 (unsigned long long)(st->hi - st->lo),
				 st->inflight ? ", a batch in flight" : "");
		else
			snprintf(progress, sizeof(progress),
				 ": %llu levels done%s",
				 (unsigned long long)st->level,
				 st->nlev ? ", a window in flight" : "");
	}

	ba_fix_id_hex(g->id, id);
	ba_fix_ident_text(&g->ident, who, sizeof(who));
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC",
		 gmtime_r(&t, &tm));
	fprintf(out, "journal %s: fix %s by blkalign %.16s, %s\n", in->journal,
		id, g->version, when);
	fprintf(out, "  disk: '%s', %llu bytes, %llu-byte sectors, %s\n",
		g->path, (unsigned long long)g->disk_size,
		(unsigned long long)lss, who);
	fprintf(out,
		"  partition %u: start %llu -> %llu, size %llu -> %llu "
		"sectors; %llu bytes to move in %s mode (%u region%s, steps "
		"of %llu bytes)\n",
		g->number, (unsigned long long)(g->old_start / lss),
		(unsigned long long)(g->new_start / lss),
		(unsigned long long)(g->old_size / lss),
		(unsigned long long)(g->new_size / lss),
		(unsigned long long)g->len, g->batch ? "batch" : "step",
		g->chains, g->chains == 1 ? "" : "s",
		(unsigned long long)g->step);
	if (in->j.have_state)
		fprintf(out, "  state: %s (record %llu, %u cop%s)%s\n",
			ba_fix_phase_name(st->phase),
			(unsigned long long)st->seq, in->j.h.copies,
			in->j.h.copies == 1 ? "y" : "ies", progress);
	else
		fprintf(out, "  state: unknown: no record slot is valid\n");
	text_parts(in, out);
}

static void text_lost(const struct ba_fix_inspect *in, FILE *out)
{
	char id[33];

	if (in->marker != 1) {
		fprintf(out,
			"'%s': no partition starts with the marker of an "
			"interrupted fix\n",
			in->target);
		return;
	}
	ba_fix_id_hex(in->m.id, id);
	fprintf(out,
		"'%s': the partition at byte %llu starts with the marker of "
		"fix %s (%s)\n",
		in->target, (unsigned long long)in->marker_off,
		in->m.has_id ? id : "of blkalign 0.1.0", in->m.what);
	if (in->m.cut[0])
		fprintf(out, "  the move: %s\n", in->m.cut);
	fprintf(out,
		"  its journal is not here.  Without it blkalign can neither "
		"finish nor undo the fix:\n"
		"  - the partition's head (its first MiB, where file systems "
		"keep their superblock) is only in the journal;\n"
		"  - every region of the move is partly at the old place and "
		"partly at the new one, and where each stands is only in the "
		"journal;\n"
		"  - in step mode the first bytes of every region but one (the "
		"boundaries, as long as the shift) are in the journal and may "
		"be overwritten on the disk.\n"
		"  What is on the disk past the head is intact but split.  Find "
		"the journal ('%s %s FILE %s' says whether a file is it), and "
		"copy the whole disk before trying anything else.\n",
		ba_word(in->ctx, BLKALIGN_WORD_FIX_INSPECT),
		ba_word(in->ctx, BLKALIGN_WORD_JOURNAL), in->target);
}

/* ba_fix_inspect_text: @in in words, on @out. */
void ba_fix_inspect_text(const struct ba_fix_inspect *in, FILE *out)
{
	const char *const way[] = {ba_word(in->ctx, BLKALIGN_WORD_RESUME),
				   ba_word(in->ctx, BLKALIGN_WORD_ROLLBACK)};

	if (!in->journal) {
		text_lost(in, out);
		return;
	}
	if (in->open_rc == -ENOENT) {
		fprintf(out, "no journal '%s'\n", in->journal);
		if (in->target)
			text_lost(in, out);
		return;
	}
	if (in->open_rc) {
		fprintf(out, "journal %s: %s\n", in->journal,
			in->open_rc == -EBADMSG ? "not a journal, or both "
						  "copies of its header are "
						  "damaged"
			: in->open_rc == -EPROTO
				? "written by blkalign 0.1.0 (format 1), "
				  "not read by this version"
			: in->open_rc == -EBUSY ? "in use by a running fix"
						: strerror(-in->open_rc));
		return;
	}
	text_journal(in, out);
	if (in->have_dev)
		fprintf(out, "device '%s': %s\n", in->target,
			in->match_rc ? in->why : "the journal's disk");
	for (int k = 0; k < 2; k++)
		if (in->have_dev && in->match_rc)
			fprintf(out, "  %s: refused (another disk)\n", way[k]);
		else if (in->lacks[k])
			fprintf(out,
				"  %s: refused: the journal has no good %s\n",
				way[k], in->lacks[k]);
		else
			fprintf(out, "  %s: would %s\n", way[k],
				phase_plan(in->j.st.phase, k == 1));
}

static struct json_object *copies_json(const uint8_t c[2])
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; a && i < 2; i++)
		json_object_array_add(a,
				      json_object_new_string(copy_name(c[i])));
	return a;
}

/* Where each part of the journal is: name, offsets of its copies, length
 * (for people and tests that look at the bytes). */
static struct json_object *layout_json(const struct ba_journal *j)
{
	const struct {
		const char *name;
		uint64_t off[2], len;
	} parts[] = {
		{"header", {j->hdr_off[0], j->hdr_off[1]}, J_HDR_SIZE},
		{"records", {j->rec_off, j->rec_off}, BA_J_RECS * REC_SLOT},
		{"patches",
		 {j->blob_p.off[0], j->blob_p.off[1]},
		 j->blob_p.len},
		{"head", {j->head_p.off[0], j->head_p.off[1]}, j->head_p.len},
		{"boundaries",
		 {j->bound_p.off[0], j->bound_p.off[1]},
		 j->bound_p.len},
		{"boundaries_back",
		 {j->rbound_p.off[0], j->rbound_p.off[1]},
		 j->rbound_p.len},
		{"used_map", {j->map_p.off[0], j->map_p.off[1]}, j->map_p.len},
		{"batch_data",
		 {j->data_off[0], j->data_off[1]},
		 j->g.batch ? j->data_off[1] - j->data_off[0] : 0},
	};
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct json_object *o = json_object_new_object();
		struct json_object *offs = json_object_new_array();

		if (!o || !offs) {
			json_object_put(o);
			json_object_put(offs);
			continue;
		}
		ba_json_str(o, "name", parts[i].name);
		for (int c = 0; c < 2; c++)
			json_object_array_add(
				offs, json_object_new_uint64(parts[i].off[c]));
		json_object_object_add(o, "offsets", offs);
		ba_json_u64(o, "length", parts[i].len);
		json_object_array_add(a, o);
	}
	return a;
}

/* No journal: what the marker on the disk says. */
static void json_marker(struct json_object *root,
			const struct ba_fix_inspect *in)
{
	char id[33];

	ba_json_bool(root, "marker", in->marker == 1);
	if (in->marker != 1)
		return;
	ba_fix_id_hex(in->m.id, id);
	ba_json_str(root, "fix_id", in->m.has_id ? id : NULL);
	ba_json_u64(root, "marker_offset", in->marker_off);
	ba_json_str(root, "marker_text", in->m.what);
	ba_json_str(root, "marker_move", in->m.cut[0] ? in->m.cut : NULL);
}

/* The journal's header and state. */
static void json_header(struct json_object *root, const struct ba_journal *j)
{
	const struct ba_fix_geom *g = &j->g;
	char id[33];

	ba_fix_id_hex(g->id, id);
	ba_json_str(root, "fix_id", id);
	ba_json_str(root, "blkalign_version", g->version);
	ba_json_u64(root, "created", g->created);
	ba_json_str(root, "disk", g->path);
	ba_json_u64(root, "disk_size", g->disk_size);
	ba_json_u64(root, "sector_size", g->lss);
	ba_json_u64(root, "number", g->number);
	ba_json_u64(root, "old_start", g->old_start);
	ba_json_u64(root, "old_size", g->old_size);
	ba_json_u64(root, "new_start", g->new_start);
	ba_json_u64(root, "new_size", g->new_size);
	ba_json_u64(root, "bytes", g->len);
	ba_json_str(root, "mode", g->batch ? "batch" : "step");
	ba_json_u64(root, "regions", g->chains);
	ba_json_u64(root, "step", g->step);
	ba_json_str(root, "phase",
		    j->have_state ? ba_fix_phase_name(j->st.phase) : NULL);
	ba_json_u64(root, "record", j->st.seq);
	ba_json_u64(root, "record_copies", j->h.copies);
	ba_json_u64(root, "levels_done", j->st.level);
	ba_json_u64(root, "bytes_done", j->st.done);
	ba_json_u64(root, "size", j->h.size);
	ba_json_u64(root, "expected_size", j->h.want);
}

/* The health of each part's copies. */
static struct json_object *copies_obj(const struct ba_journal_health *h)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "header", copies_json(h->hdr));
	json_object_object_add(o, "patches", copies_json(h->blob));
	json_object_object_add(o, "head", copies_json(h->head));
	json_object_object_add(o, "boundaries", copies_json(h->bound));
	json_object_object_add(o, "boundaries_back", copies_json(h->rbound));
	json_object_object_add(o, "used_map", copies_json(h->map));
	return o;
}

/* The disk's match, and what --resume and --rollback would do. */
static void json_ways(struct json_object *root, const struct ba_fix_inspect *in)
{
	static const char *const way[] = {"resume", "rollback"};

	if (in->have_dev) {
		ba_json_bool(root, "matches", !in->match_rc);
		ba_json_str(root, "mismatch", in->match_rc ? in->why : NULL);
	}
	for (int k = 0; k < 2; k++) {
		bool can = !in->lacks[k] && !(in->have_dev && in->match_rc);
		struct json_object *o = json_object_new_object();

		if (!o)
			continue;
		ba_json_bool(o, "possible", can);
		ba_json_str(o, "lacks", in->lacks[k]);
		ba_json_str(o, "would",
			    can ? phase_plan(in->j.st.phase, k == 1) : NULL);
		json_object_object_add(root, way[k], o);
	}
}

/* ba_fix_inspect_json: @in as one JSON document on @out; 0 or -errno. */
int ba_fix_inspect_json(const struct ba_fix_inspect *in, FILE *out)
{
	struct json_object *root = ba_json_root("fix"), *o;

	if (!root)
		return -ENOMEM;
	ba_json_str(root, "journal", in->journal);
	ba_json_str(root, "path", in->target);
	ba_json_str(root, "device", in->target); /* schema_version 1's path */
	if (!in->journal) {
		json_marker(root, in);
		return ba_json_write(root, out);
	}
	ba_json_s64(root, "error", in->open_rc);
	if (!in->open_rc) {
		json_header(root, &in->j);
		json_object_object_add(root, "layout", layout_json(&in->j));
		o = copies_obj(&in->j.h);
		if (o)
			json_object_object_add(root, "copies", o);
		json_ways(root, in);
	}
	return ba_json_write(root, out);
}
