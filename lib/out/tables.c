/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tables.c - every command's table and its columns, by enum
 * blkalign_table: check's layer table (columns.c), plan's, fix's,
 * model's, trace's and bench's (each defined beside its printer, in
 * lib/out/<command>-text.c).  -o, -H and the column checks of every
 * command go through here, so one list says which names each takes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "columns.h"
#include "model-text.h"
#include "plan-text.h"
#include "fix-text.h"
#include "bench-text.h"
#include "trace-text.h"
#include "out/out.h"

/**
 * ba_table_columns: the columns of table @t and their count in @n, or
 * NULL when @t is no table (or has none yet).
 */
const struct ba_column *ba_table_columns(enum blkalign_text_table t, size_t *n)
{
	static const struct {
		const struct ba_column *cols;
		size_t n;
	} tables[] = {
		[BLKALIGN_TEXT_TABLE_LAYERS] = {ba_layer_columns,
						BA_LCOL_COUNT},
		[BLKALIGN_TEXT_TABLE_MODEL] = {ba_model_columns, BA_MCOL_COUNT},
		[BLKALIGN_TEXT_TABLE_PLAN] = {ba_plan_columns, BA_PCOL_COUNT},
		[BLKALIGN_TEXT_TABLE_FIX] = {ba_fix_columns, BA_FCOL_COUNT},
		[BLKALIGN_TEXT_TABLE_TRACE] = {ba_trace_columns, BA_RCOL_COUNT},
		[BLKALIGN_TEXT_TABLE_BENCH] = {ba_bench_columns, BA_BCOL_COUNT},
		[BLKALIGN_TEXT_TABLE_BENCH_SIDES] = {ba_bench_side_columns,
						     BA_SCOL_COUNT},
	};

	if ((size_t)t >= sizeof(tables) / sizeof(tables[0]) ||
	    !tables[t].cols) {
		*n = 0;
		return NULL;
	}
	*n = tables[t].n;
	return tables[t].cols;
}

/**
 * blkalign_text_table_column: the @i-th column of table @t: its name (a JSON
 * key, upper-case), one line of help and whether it is shown by default.
 * Returns: 0, -ENOENT after the last one, -EINVAL for no such table.
 */
int blkalign_text_table_column(enum blkalign_text_table t, size_t i,
			       const char **name, const char **help, bool *dflt)
{
	size_t n;
	const struct ba_column *c = ba_table_columns(t, &n);

	if (!c)
		return -EINVAL;
	if (i >= n)
		return -ENOENT;
	if (name)
		*name = c[i].name;
	if (help)
		*help = c[i].help;
	if (dflt)
		*dflt = c[i].dflt;
	return 0;
}

/**
 * blkalign_text_table_columns_check: whether table @t takes the column list
 * @list ("NAME,START", "+UUID"; NULL: the default ones).
 * Returns: 0, -EINVAL (@bad, @badlen: the unknown name; or no such
 * table, @bad NULL) or -E2BIG (too many).
 */
int blkalign_text_table_columns_check(enum blkalign_text_table t,
				      const char *list, const char **bad,
				      size_t *badlen)
{
	struct ba_colsel sel;
	size_t n;
	const struct ba_column *c = ba_table_columns(t, &n);

	if (bad)
		*bad = NULL;
	if (!c)
		return -EINVAL;
	return ba_columns_select(c, n, list, &sel, bad, badlen);
}

/**
 * ba_text_opts_get: a caller's @o into @opts, zero past a caller's
 * smaller struct (fields are only ever added).
 * Returns: 0, or -EINVAL: no @o, one smaller than the first version, or
 * a column list table @t does not take.
 */
int ba_text_opts_get(enum blkalign_text_table t,
		     const struct blkalign_text_opts *o,
		     struct blkalign_text_opts *opts)
{
	*opts = (struct blkalign_text_opts){0};
	if (!o || o->size < BA_TEXT_OPTS_SIZE0 ||
	    blkalign_text_table_columns_check(t, o->columns, NULL, NULL))
		return -EINVAL;
	memcpy(opts, o, o->size < sizeof(*opts) ? o->size : sizeof(*opts));
	opts->size = sizeof(*opts);
	return 0;
}

/* A size cell: lsblk's "1.5G", or with BLKALIGN_TEXT_BYTES the count. */
void ba_text_size(uint64_t bytes, unsigned int flags, char *buf, size_t len)
{
	if (flags & BLKALIGN_TEXT_BYTES)
		snprintf(buf, len, "%" PRIu64, bytes);
	else
		blkalign_size_format(bytes, BLKALIGN_SIZE_LSBLK, buf, len);
}

/* The last sector of @size bytes at @start (the start when empty), as
 * fdisk's End: in @lss-byte sectors. */
uint64_t ba_text_last_sector(uint64_t start, uint64_t size, uint64_t lss)
{
	return size >= lss ? (start + size) / lss - 1 : start / lss;
}
