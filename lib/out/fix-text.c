/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-text.c - the text of a `blkalign fix` run or dry run
 * (blkalign_fix_run_write_text): a libsmartcols table of the outcomes,
 * one row a partition (what was or would be done, old and new place,
 * what was copied, how fast), then per partition the prose the table has
 * no room for (the map, the steps, a warning), and the run's last words
 * (a dry run's, nothing to do, the optional moves).  -r and -P print the
 * table alone, for scripts.  The columns are named after the keys of fix
 * --json's partition objects (fix-json.c), upper-case.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "fix-text.h"
#include "out/out.h"

#define NUM SCOLS_FL_RIGHT

#define RED    "\033[31m"
#define YELLOW "\033[33m"

/*
 * Positions (starts, ends) are logical sectors, as fdisk prints them;
 * sizes lsblk-like or with --bytes byte counts.  Only MESSAGE wraps.
 * BYTES_COPIED, SECONDS and RATE are not shown by default in a dry run,
 * which copies nothing.
 */
const struct ba_column ba_fix_columns[BA_FCOL_COUNT] = {
	{"NUMBER", "partition number", 0, NUM, true},
	{"ACTION", "moved, resized, would move, refused, failed...", 0, 0,
	 true},
	{"OLD_START", "first sector before (JSON old_start: bytes)", 0, NUM,
	 true},
	{"OLD_END", "last sector before (text only)", 0, NUM, true},
	{"NEW_START", "first sector after (JSON new_start: bytes)", 0, NUM,
	 true},
	{"NEW_END", "last sector after (text only)", 0, NUM, true},
	{"OLD_SIZE", "size before, lsblk-like or in bytes", 0, NUM, true},
	{"NEW_SIZE", "size after, lsblk-like or in bytes", 0, NUM, true},
	{"BYTES_TO_COPY", "what the move copies (its contents' used bytes)", 0,
	 NUM, true},
	{"BYTES_COPIED", "what it copied (not shown by default in a dry run)",
	 0, NUM, true},
	{"SECONDS", "time copying (not shown by default in a dry run)", 0, NUM,
	 true},
	{"RATE", "bytes copied per second, lsblk-like or in bytes", 0, NUM,
	 true},
	{"BYTES_SKIPPED", "bytes its contents do not use, not copied", 0, NUM,
	 false},
	{"MAP_SOURCE", "the map of used blocks (libext2fs..., whole)", 0, 0,
	 false},
	{"MODE", "step or batch (a small shift, via the journal)", 0, 0, false},
	{"STEPS", "copy steps", 0, NUM, false},
	{"FLUSHES", "flushes, disk and journal", 0, NUM, false},
	{"BYTES_READ_BACK", "bytes written and read back", 0, NUM, false},
	{"JOURNAL_KEPT",
	 "yes: the journal is left to resume or roll back the fix", 0, 0,
	 false},
	{"MESSAGE", "why it failed, or a warning", 0.5, SCOLS_FL_WRAP, false},
};

/* The text of column @id of outcome @o into @buf. */
static void cell(const struct blkalign_fix_outcome *o, int id,
		 unsigned int flags, char *buf, size_t len)
{
	const struct blkalign_fix_result *r = &o->res;
	uint64_t lss = r->sector_size ? r->sector_size : 512;

	buf[0] = '\0';
	switch (id) {
	case BA_FCOL_NUMBER:
		snprintf(buf, len, "%d", r->number);
		break;
	case BA_FCOL_ACTION:
		snprintf(buf, len, "%s", o->action ? o->action : "");
		break;
	case BA_FCOL_OLD_START:
		snprintf(buf, len, "%" PRIu64, r->old_start / lss);
		break;
	case BA_FCOL_OLD_END:
		snprintf(buf, len, "%" PRIu64,
			 ba_text_last_sector(r->old_start, r->old_size, lss));
		break;
	case BA_FCOL_NEW_START:
		snprintf(buf, len, "%" PRIu64, r->new_start / lss);
		break;
	case BA_FCOL_NEW_END:
		snprintf(buf, len, "%" PRIu64,
			 ba_text_last_sector(r->new_start, r->new_size, lss));
		break;
	case BA_FCOL_OLD_SIZE:
		ba_text_size(r->old_size, flags, buf, len);
		break;
	case BA_FCOL_NEW_SIZE:
		ba_text_size(r->new_size, flags, buf, len);
		break;
	case BA_FCOL_BYTES_TO_COPY:
		ba_text_size(r->bytes_to_copy, flags, buf, len);
		break;
	case BA_FCOL_BYTES_COPIED:
		ba_text_size(r->bytes_copied, flags, buf, len);
		break;
	case BA_FCOL_SECONDS:
		snprintf(buf, len, "%.2f", r->seconds);
		break;
	case BA_FCOL_RATE:
		ba_text_size(r->seconds > 0
				     ? (uint64_t)((double)r->bytes_copied /
						  r->seconds)
				     : 0,
			     flags, buf, len);
		break;
	case BA_FCOL_BYTES_SKIPPED:
		ba_text_size(r->bytes_skipped, flags, buf, len);
		break;
	case BA_FCOL_MAP_SOURCE:
		snprintf(buf, len, "%s", r->map_source ? r->map_source : "");
		break;
	case BA_FCOL_MODE:
		snprintf(buf, len, "%s", r->batch ? "batch" : "step");
		break;
	case BA_FCOL_STEPS:
		snprintf(buf, len, "%" PRIu64, r->steps);
		break;
	case BA_FCOL_FLUSHES:
		snprintf(buf, len, "%" PRIu64, r->flushes);
		break;
	case BA_FCOL_BYTES_READ_BACK:
		ba_text_size(r->bytes_read_back, flags, buf, len);
		break;
	case BA_FCOL_JOURNAL_KEPT:
		snprintf(buf, len, "%s", r->journal_kept ? "yes" : "no");
		break;
	}
}

/* An outcome in red when it failed, stopped or was refused; a dry run's
 * work in yellow. */
static const char *action_color(const char *action)
{
	if (!action)
		return NULL;
	if (!strcmp(action, "failed") || !strcmp(action, "stopped") ||
	    !strcmp(action, "refused"))
		return RED;
	if (!strncmp(action, "would ", 6))
		return YELLOW;
	return NULL;
}

/* Outcome @o as a row of @t; -ENOMEM or 0. */
static int add_row(struct ba_table *t, const struct blkalign_fix_outcome *o)
{
	struct libscols_line *ln = ba_table_line(t, NULL);
	char buf[64];
	int rc = 0;

	if (!ln)
		return -ENOMEM;
	for (size_t k = 0; k < t->sel.n && !rc; k++) {
		int id = t->sel.id[k];

		if (id == BA_FCOL_MESSAGE) {
			rc = ba_table_set(t, ln, id,
					  o->res.message ? o->res.message : "",
					  NULL);
			continue;
		}
		cell(o, id, t->flags, buf, sizeof(buf));
		rc = ba_table_set(t, ln, id, buf,
				  id == BA_FCOL_ACTION ? action_color(o->action)
						       : NULL);
	}
	return rc ? -ENOMEM : 0;
}

/* What a dry run copies nothing into. */
static bool copy_column(int id)
{
	return id == BA_FCOL_BYTES_COPIED || id == BA_FCOL_SECONDS ||
	       id == BA_FCOL_RATE;
}

/* The columns of @list into @sel, as ba_columns_select; in a dry run
 * the default ones without those of the copy. */
static int select_columns(const char *list, bool dry_run, struct ba_colsel *sel)
{
	struct ba_colsel more;
	int rc;

	if (!dry_run || (list && *list && *list != '+'))
		return ba_columns_select(ba_fix_columns, BA_FCOL_COUNT, list,
					 sel, NULL, NULL);
	sel->n = 0;
	for (int i = 0; i < BA_FCOL_COUNT; i++)
		if (ba_fix_columns[i].dflt && !copy_column(i))
			sel->id[sel->n++] = i;
	if (!list || !*list)
		return 0;
	rc = ba_columns_select(ba_fix_columns, BA_FCOL_COUNT, list + 1, &more,
			       NULL, NULL);
	if (rc)
		return rc;
	if (sel->n + more.n > BA_TABLE_MAXCOLS)
		return -E2BIG;
	for (size_t k = 0; k < more.n; k++)
		sel->id[sel->n++] = more.id[k];
	return 0;
}

/* @t made and filled with the outcomes of @run; @split: see
 * ba_table_split. */
static int fill(struct ba_table *t, const struct blkalign_fix_run *run,
		const struct ba_colsel *sel, const struct blkalign_text_opts *o,
		bool split)
{
	int rc = ba_table_init(t, ba_fix_columns, sel, o);

	if (rc)
		return rc;
	if (split)
		ba_table_split(t);
	/* number 0: a journal that could not be used, said on stderr */
	for (size_t i = 0; i < run->noutcomes && !rc; i++)
		if (run->outcomes[i].res.number)
			rc = add_row(t, &run->outcomes[i]);
	return rc;
}

/* The table of @run's outcomes. */
static int print_table(const struct blkalign_fix_run *run, bool dry_run,
		       FILE *out, const struct blkalign_text_opts *o)
{
	struct ba_colsel sel;
	struct ba_table t;
	int rc;

	if (select_columns(o->columns, dry_run, &sel))
		return -EINVAL;
	rc = fill(&t, run, &sel, o, false);
	/* too wide for the width: messages wrap after their commas */
	if (!rc && o->width &&
	    !(o->flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) &&
	    ba_table_natural_width(&t) > o->width) {
		ba_table_free(&t);
		rc = fill(&t, run, &sel, o, true);
	}
	if (!rc)
		rc = ba_table_print(&t, out, NULL);
	if (t.tb)
		ba_table_free(&t);
	return rc;
}

/* The prose of outcome @o below the table, if it has any. */
static void print_prose(FILE *out, const struct blkalign_fix_outcome *o)
{
	const struct blkalign_fix_result *r = &o->res;
	bool message = r->message && (!o->rc || o->rc == -EALREADY);

	if (!r->bytes_copied && !message)
		return;
	fprintf(out, "\npartition %d: %s\n", r->number, o->action);
	if (r->bytes_copied && r->bytes_skipped)
		fprintf(out,
			"  copied only the bytes its contents use (%s map): "
			"%" PRIu64 " of %" PRIu64 " bytes\n",
			r->map_source, r->bytes_copied,
			r->bytes_copied + r->bytes_skipped);
	if (r->bytes_copied)
		fprintf(out,
			"  copied %" PRIu64 " bytes in %" PRIu64
			" steps (%s mode), %.2f s, %.1f MiB/s\n",
			r->bytes_copied, r->steps, r->batch ? "batch" : "step",
			r->seconds,
			r->seconds > 0 ? (double)r->bytes_copied / r->seconds /
						 1048576.0
				       : 0.0);
	if (message)
		fprintf(out, "  %s\n", r->message);
}

/**
 * blkalign_fix_run_write_text: write @run (NULL: no outcome), a fix
 * (a dry run: @dry_run, whose table shows the planned layout) to @out as
 * fix's text: the table of its outcomes (BLKALIGN_TEXT_TABLE_FIX's
 * columns, @o), then per partition what was copied by which map, in how
 * many steps, how fast, and its warning.  What to do next (the command
 * that does what a dry run describes, the optional moves) is the
 * caller's to say.  With BLKALIGN_TEXT_RAW or _PAIRS, the table alone
 * (nothing when there is no outcome).
 * Returns: 0, -EINVAL (no @out or @o, or a bad column list), -ENOMEM or
 * -EIO.
 */
int blkalign_fix_run_write_text(const struct blkalign_fix_run *run,
				bool dry_run, FILE *out,
				const struct blkalign_text_opts *o)
{
	struct blkalign_text_opts opts;
	size_t n = 0;
	bool alone;
	int rc = 0;

	if (!out || ba_text_opts_get(BLKALIGN_TEXT_TABLE_FIX, o, &opts))
		return -EINVAL;
	opts.flags |= BLKALIGN_TEXT_LIST;
	alone = opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS);
	for (size_t i = 0; run && i < run->noutcomes; i++)
		n += run->outcomes[i].res.number != 0;
	if (n)
		rc = print_table(run, dry_run, out, &opts);
	if (rc || alone)
		return rc ? rc : ferror(out) ? -EIO : 0;
	for (size_t i = 0; n && i < run->noutcomes; i++)
		if (run->outcomes[i].res.number)
			print_prose(out, &run->outcomes[i]);
	return ferror(out) ? -EIO : 0;
}
