/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text-table.c - the library's text tables over libsmartcols
 * (text-table.h): the column list a caller chose, checked against a
 * table of columns, and one libsmartcols table laid out as the options
 * say (raw, pairs, no headings, a width, colors, a tree or a list).
 * Nothing here knows what the rows are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "out/out.h"

static int find(const struct ba_column *cols, size_t ncols, const char *name,
		size_t len)
{
	for (size_t i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len &&
		    !strncasecmp(cols[i].name, name, len))
			return (int)i;
	return -ENOENT;
}

static int add(struct ba_colsel *sel, int id)
{
	if (sel->n == BA_TABLE_MAXCOLS)
		return -E2BIG;
	sel->id[sel->n++] = id;
	return 0;
}

/**
 * ba_columns_select: the columns of @list, a comma-separated list of
 * column names (any case), into @sel: NULL or "" is the default columns,
 * "+LIST" the default columns and then LIST's, as lsblk's -o.
 * Returns: 0; -EINVAL for a name not in @cols (@bad and @badlen, when
 * not NULL, point at it in @list) or an empty one; -E2BIG for more than
 * BA_TABLE_MAXCOLS columns.
 */
int ba_columns_select(const struct ba_column *cols, size_t ncols,
		      const char *list, struct ba_colsel *sel, const char **bad,
		      size_t *badlen)
{
	const char *p = list;
	int rc;

	sel->n = 0;
	if (!list || !*list || *list == '+') {
		for (size_t i = 0; i < ncols; i++)
			if (cols[i].dflt && (rc = add(sel, (int)i)))
				return rc;
		if (!list || !*list)
			return 0;
		p++;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		int id = find(cols, ncols, p, len);

		if (id < 0) {
			if (bad)
				*bad = p;
			if (badlen)
				*badlen = len;
			return -EINVAL;
		}
		if ((rc = add(sel, id)))
			return rc;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/**
 * ba_table_init: @t, an empty table of the columns @sel of @cols, laid
 * out as @o says (BLKALIGN_TEXT_RAW, _PAIRS, _NOHEADINGS, _COLOR, _LIST;
 * a tree column drawn in ASCII, as the text report always was).
 * Returns: 0 or -ENOMEM.
 */
int ba_table_init(struct ba_table *t, const struct ba_column *cols,
		  const struct ba_colsel *sel,
		  const struct blkalign_text_opts *o)
{
	unsigned int f = o->flags;
	/* lsblk too draws no tree in raw and pairs output */
	bool tree = !(f & (BLKALIGN_TEXT_LIST | BLKALIGN_TEXT_RAW |
			   BLKALIGN_TEXT_PAIRS));
	bool hide = f & BLKALIGN_TEXT_NOHEADINGS,
	     pairs = f & BLKALIGN_TEXT_PAIRS;

	*t = (struct ba_table){
		.cols = cols, .sel = *sel, .flags = f, .width = o->width};
	t->tb = scols_new_table();
	if (!t->tb)
		return -ENOMEM;
	scols_table_enable_ascii(t->tb, 1);
	scols_table_enable_raw(t->tb, !!(f & BLKALIGN_TEXT_RAW));
	scols_table_enable_export(t->tb, !!(f & BLKALIGN_TEXT_PAIRS));
	scols_table_enable_noheadings(t->tb, !!(f & BLKALIGN_TEXT_NOHEADINGS));
	scols_table_enable_colors(t->tb, !!(f & BLKALIGN_TEXT_COLOR));
	for (size_t k = 0; k < sel->n; k++) {
		const struct ba_column *c = &cols[sel->id[k]];
		int fl = c->flags;

		if (!tree)
			fl &= ~SCOLS_FL_TREE;
		/* libsmartcols sizes a column for its heading, printed or
		 * not; pairs name every value with it */
		if (!scols_table_new_column(t->tb,
					    hide && !pairs ? "" : c->name,
					    c->whint, fl)) {
			ba_table_free(t);
			return -ENOMEM;
		}
	}
	return 0;
}

/* A new row of @t, below @parent (NULL: at the top); NULL: no memory. */
struct libscols_line *ba_table_line(struct ba_table *t,
				    struct libscols_line *parent)
{
	return scols_table_new_line(t->tb, parent);
}

/* A cell of a wrapping column split after each comma, one part a line. */
static int set_split(struct ba_table *t, struct libscols_line *ln, size_t k,
		     const char *text, const char *color)
{
	size_t n = strlen(text), commas = 0;
	char *buf, *o;

	for (size_t i = 0; i < n; i++)
		commas += text[i] == ',';
	buf = malloc(n + commas + 1);
	if (!buf)
		return -ENOMEM;
	for (o = buf; *text; text++) {
		*o++ = *text;
		if (*text == ',') {
			*o++ = '\n';
			while (text[1] == ' ')
				text++;
		}
	}
	*o = '\0';
	/* the line owns it now */
	if (scols_line_refer_data(ln, k, buf)) {
		free(buf);
		return -ENOMEM;
	}
	if (color && (t->flags & BLKALIGN_TEXT_COLOR))
		scols_cell_set_color(scols_line_get_cell(ln, k), color);
	return 0;
}

/**
 * ba_table_split: the columns of @t that may wrap (SCOLS_FL_WRAP) wrap
 * after their commas, not at any character ("start-physical,\nsize-
 * physical"), for a table that is wider than its width.  Call it before
 * the cells are set.
 */
void ba_table_split(struct ba_table *t)
{
	t->split = true;
	for (size_t k = 0; k < t->sel.n; k++)
		if (t->cols[t->sel.id[k]].flags & SCOLS_FL_WRAP) {
			struct libscols_column *c =
				scols_table_get_column(t->tb, k);

			scols_column_set_wrapfunc(c, scols_wrapnl_chunksize,
						  scols_wrapnl_nextchunk, NULL);
			/* a newline there is ours, not one to escape */
			scols_column_set_safechars(c, "\n");
			/* as narrow as its widest part, never narrower:
			 * libsmartcols would cut a part at any character */
			scols_column_set_whint(c, 0);
		}
}

/* The width of @t's widest line with no width to fit in. */
size_t ba_table_natural_width(struct ba_table *t)
{
	char *text = NULL, *p;
	size_t w = 0, n;

	scols_table_set_termforce(t->tb, SCOLS_TERMFORCE_NEVER);
	if (scols_print_table_to_string(t->tb, &text) || !text)
		return 0;
	for (p = text; *p; p += n + (p[n] == '\n')) {
		n = strcspn(p, "\n");
		if (n > w)
			w = n;
	}
	free(text);
	return w;
}

/**
 * ba_table_set: the cell of column @id on row @ln, @text copied; @color
 * (an ANSI sequence, or NULL) when the table has colors.  A column not
 * shown is no error.
 * Returns: 0 or -ENOMEM.
 */
int ba_table_set(struct ba_table *t, struct libscols_line *ln, int id,
		 const char *text, const char *color)
{
	for (size_t k = 0; k < t->sel.n; k++) {
		if (t->sel.id[k] != id)
			continue;
		if (t->split && (t->cols[id].flags & SCOLS_FL_WRAP))
			return set_split(t, ln, k, text, color);
		if (scols_line_set_data(ln, k, text))
			return -ENOMEM;
		if (color && (t->flags & BLKALIGN_TEXT_COLOR))
			scols_cell_set_color(scols_line_get_cell(ln, k), color);
		return 0;
	}
	return 0;
}

/**
 * ba_table_print: @t on @out, each line after @indent (not in raw or
 * pairs output, which scripts read); within the table's width less the
 * indent when it has one.  A cell that does not fit is never cut: it is
 * wrapped when its column allows it, else the line grows.
 * Returns: 0, -ENOMEM or -EIO.
 */
int ba_table_print(struct ba_table *t, FILE *out, const char *indent)
{
	size_t ilen = indent ? strlen(indent) : 0;
	char *text = NULL, *p, *nl;

	if (t->flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS))
		ilen = 0;
	if (t->width) {
		scols_table_set_termforce(t->tb, SCOLS_TERMFORCE_ALWAYS);
		scols_table_set_termwidth(
			t->tb, t->width > ilen + 1 ? t->width - ilen : 1);
	} else {
		scols_table_set_termforce(t->tb, SCOLS_TERMFORCE_NEVER);
	}
	if (!ilen) {
		scols_table_set_stream(t->tb, out);
		return scols_print_table(t->tb) ? -EIO : 0;
	}
	if (scols_print_table_to_string(t->tb, &text) || !text)
		return -ENOMEM;
	for (p = text; *p; p = nl + 1) {
		size_t n;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		/* empty last cells leave padding that no one wants */
		for (n = (size_t)(nl - p); n && p[n - 1] == ' '; n--)
			;
		fprintf(out, "%s%.*s\n", indent, (int)n, p);
		if (!*nl)
			break;
	}
	free(text);
	return 0;
}

/* Column @id of @t not printed (its cells kept), when shown. */
void ba_table_hide(struct ba_table *t, int id)
{
	for (size_t k = 0; k < t->sel.n; k++)
		if (t->sel.id[k] == id)
			scols_column_set_flags(scols_table_get_column(t->tb, k),
					       t->cols[id].flags |
						       SCOLS_FL_HIDDEN);
}

void ba_table_free(struct ba_table *t)
{
	scols_unref_table(t->tb);
	t->tb = NULL;
}
