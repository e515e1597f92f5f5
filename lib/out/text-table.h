/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text-table.h - the text tables of the library's reports, over
 * libsmartcols as lsblk and findmnt use it: a table of columns (id,
 * name, help, width hint, flags) per kind of row, a column list chosen
 * by the caller ("NAME,START", "+UUID"), and one table object that lays
 * the rows out, raw, as pairs, without headings, within a width.  check's
 * layers and topology use it (columns.c); plan, model, trace and bench tables
 * can describe their own columns the same way.
 */
#ifndef BLKALIGN_TEXT_TABLE_H
#define BLKALIGN_TEXT_TABLE_H

#include <libsmartcols/libsmartcols.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "blkalign.h"

/* One column a table can show; its index in its array is its id. */
struct ba_column {
	const char *name; /* "START": the JSON key that holds it, upper-case */
	const char *help; /* one line, for --list-columns */
	double whint;	  /* libsmartcols' width hint */
	int flags;	  /* SCOLS_FL_* */
	bool dflt;	  /* shown when no list is given */
};

#define BA_TABLE_MAXCOLS 32

/* The columns a table shows, as ids into its struct ba_column array. */
struct ba_colsel {
	int id[BA_TABLE_MAXCOLS];
	size_t n;
};

int ba_columns_select(const struct ba_column *cols, size_t ncols,
		      const char *list, struct ba_colsel *sel, const char **bad,
		      size_t *badlen);

/* A table being filled: its libsmartcols table and its columns. */
struct ba_table {
	struct libscols_table *tb;
	const struct ba_column *cols;
	struct ba_colsel sel;
	unsigned int flags; /* BLKALIGN_TEXT_* */
	unsigned int width; /* 0: no limit */
	bool split;	    /* wrapping columns wrap after commas */
};

int ba_text_opts_get(enum blkalign_text_table t,
		     const struct blkalign_text_opts *o,
		     struct blkalign_text_opts *opts);
void ba_text_size(uint64_t bytes, unsigned int flags, char *buf, size_t len);
uint64_t ba_text_last_sector(uint64_t start, uint64_t size, uint64_t lss);

const struct ba_column *ba_table_columns(enum blkalign_text_table t, size_t *n);

int ba_table_init(struct ba_table *t, const struct ba_column *cols,
		  const struct ba_colsel *sel,
		  const struct blkalign_text_opts *o);
struct libscols_line *ba_table_line(struct ba_table *t,
				    struct libscols_line *parent);
int ba_table_set(struct ba_table *t, struct libscols_line *ln, int id,
		 const char *text, const char *color);
void ba_table_split(struct ba_table *t);
size_t ba_table_natural_width(struct ba_table *t);
void ba_table_hide(struct ba_table *t, int id);
int ba_table_print(struct ba_table *t, FILE *out, const char *indent);
void ba_table_free(struct ba_table *t);

#endif /* BLKALIGN_TEXT_TABLE_H */
