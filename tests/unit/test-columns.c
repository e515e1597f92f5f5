/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-columns.c - ba_columns_select(), the column lists of -o: names in
 * any case, "+LIST" after the default columns, an unknown or empty name
 * pointed at.  The rows use check's layer columns (columns.c), whose
 * defaults are NAME KIND START END SIZE SOFT_BLOCK_SIZE ALIGNMENT_OFFSET
 * VERDICT DETAIL, ids 0 to 8 in that order.
 */
#include <errno.h>
#include <string.h>

#include "blkalign.h"
#include "table.h"
#include "columns.h"
#include "text-table.h"

struct cols_row {
	const char *name;
	const char *list;
	int rc;
	const char *bad; /* the unknown name, as @list has it */
	size_t n;
	int id[12];
};

static const struct cols_row cols_rows[] = {
	{"null: the defaults", NULL, 0, NULL, 9, {0, 1, 2, 3, 4, 5, 6, 7, 8}},
	{"empty: the defaults", "", 0, NULL, 9, {0, 1, 2, 3, 4, 5, 6, 7, 8}},
	{"two", "NAME,START", 0, NULL, 2, {BA_LCOL_NAME, BA_LCOL_START}},
	{"any case", "size,Name", 0, NULL, 2, {BA_LCOL_SIZE, BA_LCOL_NAME}},
	{"+LIST after the defaults",
	 "+UUID",
	 0,
	 NULL,
	 10,
	 {0, 1, 2, 3, 4, 5, 6, 7, 8, BA_LCOL_UUID}},
	{"unknown", "NAME,FOO,START", -EINVAL, "FOO", 0, {0}},
	{"a prefix is no name", "STAR", -EINVAL, "STAR", 0, {0}},
	{"empty name", "NAME,,START", -EINVAL, "", 0, {0}},
	{"trailing comma", "NAME,", -EINVAL, "", 0, {0}},
};

static void test_cols_row(void **state)
{
	const struct cols_row *r = *state;
	struct ba_colsel sel;
	const char *bad = NULL;
	size_t badlen = 0;
	int rc = ba_columns_select(ba_layer_columns, BA_LCOL_COUNT, r->list,
				   &sel, &bad, &badlen);

	assert_int_equal(rc, r->rc);
	if (rc) {
		assert_int_equal(badlen, strlen(r->bad));
		assert_memory_equal(bad, r->bad, badlen);
		return;
	}
	assert_int_equal(sel.n, r->n);
	for (size_t i = 0; i < r->n; i++)
		assert_int_equal(sel.id[i], r->id[i]);
}

/* More than BA_TABLE_MAXCOLS columns: -E2BIG, not an overrun. */
static void test_cols_too_many(void **state)
{
	char list[BA_TABLE_MAXCOLS * 5 + 8] = "";
	struct ba_colsel sel;
	size_t used = 0;

	(void)state;
	for (int i = 0; i <= BA_TABLE_MAXCOLS; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%sEND", i ? "," : "");
	assert_int_equal(ba_columns_select(ba_layer_columns, BA_LCOL_COUNT,
					   list, &sel, NULL, NULL),
			 -E2BIG);
	assert_int_equal(blkalign_text_columns_check(list, NULL, NULL), -E2BIG);
}

/* The public getter walks the same table. */
static void test_cols_public(void **state)
{
	const char *name, *help;
	bool dflt;
	size_t n = 0;

	(void)state;
	while (!blkalign_text_column(n, &name, &help, &dflt)) {
		assert_string_equal(name, ba_layer_columns[n].name);
		n++;
	}
	assert_int_equal(n, BA_LCOL_COUNT);
	assert_int_equal(blkalign_text_column(n, NULL, NULL, NULL), -ENOENT);
}

int main(void)
{
	static const struct CMUnitTest more[] = {
		cmocka_unit_test(test_cols_too_many),
		cmocka_unit_test(test_cols_public),
	};
	int failed = 0;

	failed += RUN_TABLE(test_cols_row, cols_rows);
	failed += cmocka_run_group_tests(more, NULL, NULL);
	return failed ? 1 : 0;
}
