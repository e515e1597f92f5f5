/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-text.c - the text of `blkalign plan` (blkalign_plan_write_text):
 * a line about the disk, a libsmartcols table of its partitions (one row
 * each: the action, old and new start, end and size, what a move
 * copies), then per partition the prose the table has no room for (why,
 * contents, the copy, what to do instead, the findings).  -r and -P print
 * the table alone, for scripts.  The columns are named after the keys of
 * plan --json's partition objects (plan-out.c), upper-case.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "plan-text.h"
#include "out/out.h"
#include "plan.h"

#define NUM SCOLS_FL_RIGHT

#define RED    "\033[31m"
#define YELLOW "\033[33m"
#define BLUE   "\033[34m"
#define BOLD   "\033[1m"
#define RESET  "\033[0m"

/*
 * Positions (starts, ends, the shift, the limit) are logical sectors, as
 * fdisk prints them; sizes lsblk-like or with --bytes byte counts.  Only
 * REASON, MAP_PROBLEM and COMMANDS (prose) wrap; nothing else is cut.
 */
const struct ba_column ba_plan_columns[BA_PCOL_COUNT] = {
	{"NAME", "partition name (JSON name)", 0, 0, true},
	{"NUMBER", "partition number", 0, NUM, false},
	{"ACTION", "none, optional, resize, move or impossible", 0, 0, true},
	{"OLD_START", "first sector now (JSON old_start: bytes)", 0, NUM, true},
	{"OLD_END", "last sector now (text only)", 0, NUM, true},
	{"NEW_START", "first sector planned (JSON new_start: bytes)", 0, NUM,
	 true},
	{"NEW_END", "last sector planned (text only)", 0, NUM, true},
	{"OLD_SIZE", "size now, lsblk-like or in bytes", 0, NUM, true},
	{"NEW_SIZE", "size planned, lsblk-like or in bytes", 0, NUM, true},
	{"START_SHIFT", "sectors the start moves, signed (JSON: bytes)", 0, NUM,
	 false},
	{"SIZE_CHANGE", "size planned less size now, signed", 0, NUM, false},
	{"BYTES_TO_COPY", "what fix copies to move it", 0, NUM, true},
	{"ESTIMATED_SECONDS", "the copy's time at the throughput assumed", 0,
	 NUM, false},
	{"CONTENT", "what it holds: ext4, swap, md... (empty: not known)", 0, 0,
	 false},
	{"USED_SIZE", "what its contents use (empty: not known)", 0, NUM,
	 false},
	{"LIMIT", "the sector its end may not pass (JSON limit: bytes)", 0, NUM,
	 false},
	{"MAP_SOURCE", "the map of used blocks counted (libext2fs...)", 0, 0,
	 false},
	{"MAP_PROBLEM", "why fix would not trust the map", 0.3, SCOLS_FL_WRAP,
	 false},
	{"FINDINGS_BEFORE", "alignment findings on it now", 0, NUM, false},
	{"FINDINGS_AFTER", "alignment findings on the planned layout", 0, NUM,
	 false},
	{"UUID", "partition UUID (dos: the disk id and number)", 0, 0, false},
	{"PART_NAME", "GPT partition name", 0, 0, false},
	{"REASON", "why this action (the text's why: line)", 0.5, SCOLS_FL_WRAP,
	 false},
	{"COMMANDS", "what to do instead, '; ' between (text's instead:)", 0.5,
	 SCOLS_FL_WRAP, false},
};

/* What a cell is built from: the plan, the sector size, the options. */
struct plan_row {
	const struct blkalign_plan_part *pp;
	uint64_t lss;
	double tput;
	unsigned int flags;
};

/* @to - @from, signed: "+897", "-1048576", "0"; @div divides it. */
static void delta_cell(uint64_t from, uint64_t to, uint64_t div, char *buf,
		       size_t len)
{
	if (to > from)
		snprintf(buf, len, "+%" PRIu64, (to - from) / div);
	else if (to < from)
		snprintf(buf, len, "-%" PRIu64, (from - to) / div);
	else
		snprintf(buf, len, "0");
}

/* A signed size change, lsblk-like ("+720.0K") or in bytes. */
static void size_change_cell(const struct blkalign_plan_part *pp,
			     unsigned int flags, char *buf, size_t len)
{
	uint64_t d;

	if (flags & BLKALIGN_TEXT_BYTES) {
		delta_cell(pp->old_size, pp->new_size, 1, buf, len);
		return;
	}
	if (pp->new_size == pp->old_size) {
		snprintf(buf, len, "0");
		return;
	}
	d = pp->new_size > pp->old_size ? pp->new_size - pp->old_size
					: pp->old_size - pp->new_size;
	buf[0] = pp->new_size > pp->old_size ? '+' : '-';
	ba_text_size(d, flags, buf + 1, len - 1);
}

/* The commands, "; " between them, in a buffer to free; NULL: no memory. */
static char *commands_text(const struct blkalign_plan_part *pp)
{
	size_t n = 1, used = 0;
	char *s;

	for (size_t c = 0; c < pp->ncommands; c++)
		n += strlen(pp->commands[c]) + 2;
	s = malloc(n);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t c = 0; c < pp->ncommands; c++)
		used += (size_t)snprintf(s + used, n - used, "%s%s",
					 c ? "; " : "", pp->commands[c]);
	return s;
}

/* The text of column @id (not REASON, MAP_PROBLEM, COMMANDS) into @buf. */
static void cell(const struct plan_row *r, int id, char *buf, size_t len)
{
	const struct blkalign_plan_part *pp = r->pp;

	buf[0] = '\0';
	switch (id) {
	case BA_PCOL_NAME:
		snprintf(buf, len, "%s", pp->name ? pp->name : "");
		break;
	case BA_PCOL_NUMBER:
		snprintf(buf, len, "%d", pp->number);
		break;
	case BA_PCOL_ACTION:
		snprintf(buf, len, "%s", blkalign_plan_action_name(pp->action));
		break;
	case BA_PCOL_OLD_START:
		snprintf(buf, len, "%" PRIu64, pp->old_start / r->lss);
		break;
	case BA_PCOL_OLD_END:
		snprintf(buf, len, "%" PRIu64,
			 ba_text_last_sector(pp->old_start, pp->old_size,
					     r->lss));
		break;
	case BA_PCOL_NEW_START:
		snprintf(buf, len, "%" PRIu64, pp->new_start / r->lss);
		break;
	case BA_PCOL_NEW_END:
		snprintf(buf, len, "%" PRIu64,
			 ba_text_last_sector(pp->new_start, pp->new_size,
					     r->lss));
		break;
	case BA_PCOL_OLD_SIZE:
		ba_text_size(pp->old_size, r->flags, buf, len);
		break;
	case BA_PCOL_NEW_SIZE:
		ba_text_size(pp->new_size, r->flags, buf, len);
		break;
	case BA_PCOL_START_SHIFT:
		delta_cell(pp->old_start, pp->new_start, r->lss, buf, len);
		break;
	case BA_PCOL_SIZE_CHANGE:
		size_change_cell(pp, r->flags, buf, len);
		break;
	case BA_PCOL_BYTES_TO_COPY:
		ba_text_size(pp->bytes_to_copy, r->flags, buf, len);
		break;
	case BA_PCOL_ESTIMATED_SECONDS:
		snprintf(buf, len, "%.1f",
			 r->tput > 0 ? (double)pp->bytes_to_copy / r->tput : 0);
		break;
	case BA_PCOL_CONTENT:
		snprintf(buf, len, "%s", pp->content ? pp->content : "");
		break;
	case BA_PCOL_USED_SIZE:
		if (pp->used_known)
			ba_text_size(pp->used_size, r->flags, buf, len);
		break;
	case BA_PCOL_LIMIT:
		snprintf(buf, len, "%" PRIu64, pp->limit / r->lss);
		break;
	case BA_PCOL_MAP_SOURCE:
		snprintf(buf, len, "%s", pp->map_source ? pp->map_source : "");
		break;
	case BA_PCOL_FINDINGS_BEFORE:
		snprintf(buf, len, "%zu", pp->findings_before);
		break;
	case BA_PCOL_FINDINGS_AFTER:
		snprintf(buf, len, "%zu", pp->findings_after);
		break;
	case BA_PCOL_UUID:
		snprintf(buf, len, "%s", pp->uuid ? pp->uuid : "");
		break;
	case BA_PCOL_PART_NAME:
		snprintf(buf, len, "%s", pp->part_name ? pp->part_name : "");
		break;
	}
}

/* An action in color when it is work (yellow) or cannot be done (red). */
static const char *action_color(enum blkalign_plan_action a)
{
	switch (a) {
	case BLKALIGN_PLAN_IMPOSSIBLE:
		return RED;
	case BLKALIGN_PLAN_MOVE:
	case BLKALIGN_PLAN_RESIZE:
		return YELLOW;
	case BLKALIGN_PLAN_OPTIONAL:
		return BLUE;
	case BLKALIGN_PLAN_NONE:
		break;
	}
	return NULL;
}

/* The row of one partition; -ENOMEM or 0. */
static int add_row(struct ba_table *t, const struct plan_row *r)
{
	const struct blkalign_plan_part *pp = r->pp;
	struct libscols_line *ln = ba_table_line(t, NULL);
	char buf[128], *cmds;
	int rc = 0;

	if (!ln)
		return -ENOMEM;
	for (size_t k = 0; k < t->sel.n && !rc; k++) {
		int id = t->sel.id[k];

		switch (id) {
		case BA_PCOL_ACTION:
			cell(r, id, buf, sizeof(buf));
			rc = ba_table_set(t, ln, id, buf,
					  action_color(pp->action));
			break;
		case BA_PCOL_REASON:
			rc = ba_table_set(t, ln, id,
					  pp->reason ? pp->reason : "", NULL);
			break;
		case BA_PCOL_MAP_PROBLEM:
			rc = ba_table_set(
				t, ln, id,
				pp->map_problem ? pp->map_problem : "", NULL);
			break;
		case BA_PCOL_COMMANDS:
			cmds = commands_text(pp);
			rc = cmds ? ba_table_set(t, ln, id, cmds, NULL)
				  : -ENOMEM;
			free(cmds);
			break;
		default:
			cell(r, id, buf, sizeof(buf));
			rc = ba_table_set(t, ln, id, buf, NULL);
		}
	}
	return rc ? -ENOMEM : 0;
}

/* What the move copies, and why that much. */
static void print_copy(FILE *out, const char *copy_all,
		       const struct blkalign_plan_part *pp, double tput)
{
	const char *what = pp->content ? pp->content : "contents";

	fprintf(out, "  copy: %" PRIu64 " bytes", pp->bytes_to_copy);
	if (pp->map_source && !pp->map_problem &&
	    strcmp(pp->map_source, "whole"))
		fprintf(out, " of %" PRIu64 " (the %s's used blocks, %s map)",
			pp->used_size, what, pp->map_source);
	fprintf(out,
		", about %.1f s at %" PRIu64 " MiB/s (assumed throughput)\n",
		(double)pp->bytes_to_copy / tput,
		(uint64_t)tput / (1024 * 1024));
	if (pp->map_problem)
		fprintf(out,
			"  fix refuses to move it: %s; or move it whole "
			"with %s\n",
			pp->map_problem, copy_all);
}

/* The prose of one partition below the table, if it has any. */
static void print_prose(FILE *out, const char *copy_all,
			const struct blkalign_plan_part *pp, double tput)
{
	if (!pp->reason && !pp->content && !pp->used_known &&
	    !pp->bytes_to_copy && !pp->ncommands && !pp->findings_before &&
	    !pp->findings_after)
		return;
	fprintf(out, "\n%s: %s\n", pp->name,
		blkalign_plan_action_name(pp->action));
	if (pp->reason)
		fprintf(out, "  why: %s\n", pp->reason);
	if (pp->content || pp->used_known)
		fprintf(out, "  contents: %s, %s %" PRIu64 " bytes\n",
			pp->content ? pp->content : "unknown",
			pp->used_known ? "uses" : "not sized: keeping all",
			pp->used_size);
	if (pp->bytes_to_copy)
		print_copy(out, copy_all, pp, tput);
	for (size_t c = 0; c < pp->ncommands; c++)
		fprintf(out, "  instead: %s\n", pp->commands[c]);
	if (pp->findings_before || pp->findings_after)
		fprintf(out, "  alignment findings: %zu now, %zu after\n",
			pp->findings_before, pp->findings_after);
}

/* @t made and filled with the rows of @p; @split: see ba_table_split. */
static int fill(struct ba_table *t, const struct blkalign_plan *p, int only,
		double tput, const struct ba_colsel *sel,
		const struct blkalign_text_opts *o, bool split)
{
	struct plan_row r = {.tput = tput, .flags = o->flags};
	int rc = ba_table_init(t, ba_plan_columns, sel, o);

	if (rc)
		return rc;
	if (split)
		ba_table_split(t);
	r.lss = (uint64_t)p->device->topology.logical_sector_size.value;
	if (!r.lss)
		r.lss = BA_SECTOR;
	for (size_t k = 0; k < p->nparts && !rc; k++) {
		r.pp = &p->parts[k];
		if (!only || r.pp->number == only)
			rc = add_row(t, &r);
	}
	return rc;
}

/* The table of the partitions of @p (@only: that number, 0: all). */
static int print_table(const struct blkalign_plan *p, int only, double tput,
		       FILE *out, const struct blkalign_text_opts *o)
{
	struct ba_colsel sel;
	struct ba_table t;
	int rc;

	if (ba_columns_select(ba_plan_columns, BA_PCOL_COUNT, o->columns, &sel,
			      NULL, NULL))
		return -EINVAL;
	rc = fill(&t, p, only, tput, &sel, o, false);
	/* too wide for the width: the prose wraps after its commas, not
	 * inside a word */
	if (!rc && o->width &&
	    !(o->flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) &&
	    ba_table_natural_width(&t) > o->width) {
		ba_table_free(&t);
		rc = fill(&t, p, only, tput, &sel, o, true);
	}
	if (!rc)
		rc = ba_table_print(&t, out, NULL);
	if (t.tb)
		ba_table_free(&t);
	return rc;
}

/**
 * blkalign_plan_write_text: write plan @p to @out as plan's text: a line
 * about the disk (its table, grain, size granularity, sector size), the
 * table of its partitions (@only: that partition alone; 0: all), then
 * per partition why, its contents, what the move copies in about how
 * long at @throughput_bytes_s (an assumption, said so), what to do
 * instead and its findings now and after.  @o: the flags
 * (BLKALIGN_TEXT_*), the columns (BLKALIGN_TEXT_TABLE_PLAN's) and the
 * width; with BLKALIGN_TEXT_RAW or _PAIRS, the table alone.
 * Returns: 0, -EINVAL (no @p, @out or @o, a throughput not above 0, or a
 * bad column list), -ENOMEM or -EIO.
 */
int blkalign_plan_write_text(const struct blkalign_plan *p, int only,
			     double throughput_bytes_s, FILE *out,
			     const struct blkalign_text_opts *o)
{
	const struct blkalign_report *r;
	struct blkalign_text_opts opts;
	const struct blkalign_device *d;
	const char *copy_all;
	bool alone, color;
	int rc;

	if (!p || !out || !(throughput_bytes_s > 0) ||
	    ba_text_opts_get(BLKALIGN_TEXT_TABLE_PLAN, o, &opts))
		return -EINVAL;
	/* a plan a report made names fix's option in its program's words */
	r = ((const struct ba_plan *)p)->report;
	copy_all = ba_word(r ? r->ctx : NULL, BLKALIGN_WORD_COPY_ALL);
	/* a list: the table has no tree */
	opts.flags |= BLKALIGN_TEXT_LIST;
	alone = opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS);
	color = opts.flags & BLKALIGN_TEXT_COLOR;
	d = p->device;
	/* the disk's path in bold, as check's */
	if (!alone)
		fprintf(out,
			"%s%s%s: %s, grain %" PRIu64 " bytes, sizes in "
			"multiples of %" PRIu64 " bytes, %" PRId64
			"-byte sectors\n",
			color ? BOLD : "", d->path, color ? RESET : "",
			d->scheme ? d->scheme
				  : "table type not recorded (sysfs)",
			p->grain, p->size_granularity,
			d->topology.logical_sector_size.value);
	if (!p->nparts) {
		if (!alone)
			fputs("no partitions to plan\n", out);
		return ferror(out) ? -EIO : 0;
	}
	rc = print_table(p, only, throughput_bytes_s, out, &opts);
	if (rc)
		return rc;
	for (size_t k = 0; k < p->nparts && !alone; k++)
		if (!only || p->parts[k].number == only)
			print_prose(out, copy_all, &p->parts[k],
				    throughput_bytes_s);
	return ferror(out) ? -EIO : 0;
}
