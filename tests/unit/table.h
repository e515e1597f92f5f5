/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table.h - table-driven cmocka tests: every row of a table becomes one
 * named cmocka test whose state is the row, so a failure names the row.
 * A row is any struct whose first member is `const char *name`.
 */
#ifndef BLKALIGN_TEST_TABLE_H
#define BLKALIGN_TEST_TABLE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A case that needs a file of ../shared (@what) it cannot have: skipped
 * with the reason outside CI, failed in CI (CI=true), where ../shared is
 * part of the machine and its absence a broken setup.
 */
#define NEED_SHARED(what)                                                      \
	do {                                                                   \
		const char *ci_ = getenv("CI");                                \
		if (ci_ && ci_[0] == 't')                                      \
			fail_msg("%s: not there, and CI has ../shared",        \
				 (what));                                      \
		print_message("[  SKIP    ] %s: no ../shared here\n", (what)); \
		skip();                                                        \
	} while (0)

static inline int run_table(const char *group, CMUnitTestFunction fn,
			    const void *rows, size_t stride, size_t n)
{
	struct CMUnitTest *t = calloc(n, sizeof(*t));
	int failed;

	if (!t)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const char *row = (const char *)rows + i * stride;

		t[i].name = *(const char *const *)row;
		t[i].test_func = fn;
		t[i].initial_state = (void *)(uintptr_t)row;
	}
	failed = _cmocka_run_group_tests(group, t, n, NULL, NULL);
	free(t);
	return failed;
}

/* run_table over a whole array: RUN_TABLE(test_fn, rows). */
#define RUN_TABLE(fn, rows) \
	run_table(#fn, fn, (rows), sizeof((rows)[0]), ARRAY_SIZE(rows))

/* Compare one number of a row, naming the row and the field on failure. */
#define EXPECT_U64(row, what, got, want)                                       \
	do {                                                                   \
		uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);     \
		if (got_ != want_)                                             \
			fail_msg("%s: %s is %llu, expected %llu", (row)->name, \
				 (what), (unsigned long long)got_,             \
				 (unsigned long long)want_);                   \
	} while (0)

#define EXPECT_S64(row, what, got, want)                                       \
	do {                                                                   \
		int64_t got_ = (int64_t)(got), want_ = (int64_t)(want);        \
		if (got_ != want_)                                             \
			fail_msg("%s: %s is %lld, expected %lld", (row)->name, \
				 (what), (long long)got_, (long long)want_);   \
	} while (0)

#endif /* BLKALIGN_TEST_TABLE_H */
