/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-json-rewrite.c - a command's document in the other forms of
 * --json (lib/out/json-rewrite.c, issue 27): the exit status after the
 * command (a writer's own replaced), pretty, compact on one line, lines
 * (a target a line with schema_version and path, no status, then the
 * summary line), the failure document one line.  Documents and the
 * expected lines written by hand.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

struct row {
	const char *name;
	const char *doc;
	enum blkalign_json_format f;
	const char *command, *each;
	int status, rc;
	const char *want;
};

#define V "\"version\": \"x\""
/* the summary's: the library's version (expected_text puts it in) */
#define VC "\"version\":\"@\""
#define P  "\"schema_version\":2,"

static const struct row rows[] = {
	/* every document gets the exit status after its command */
	{"pretty: status after command",
	 "{\"schema_version\":2," V ",\"command\":\"model\",\"a\":1.50}",
	 BLKALIGN_JSON_PRETTY, "model", NULL, 3, 0,
	 "{\n  \"schema_version\": 2,\n  \"version\": \"x\",\n"
	 "  \"command\": \"model\",\n  \"status\": 3,\n  \"a\": 1.50\n}\n"},
	{"pretty: a writer's status replaced",
	 "{ \"command\": \"fix\", \"status\": 9, \"a\": 1 }",
	 BLKALIGN_JSON_PRETTY, "fix", NULL, 1, 0,
	 "{\n  \"command\": \"fix\",\n  \"status\": 1,\n  \"a\": 1\n}\n"},
	{"compact: no command, status last",
	 "{\n  \"schema_version\": 2,\n  \"a\": [ 1, 2 ],\n"
	 "  \"s\": \"a/b\"\n}\n",
	 BLKALIGN_JSON_COMPACT, "model", NULL, 0, 0,
	 "{" P "\"a\":[1,2],\"s\":\"a/b\",\"status\":0}\n"},
	/* trace: its device is the path, the document the one target */
	{"lines: one target",
	 "{ \"schema_version\": 2, " V ", \"device\": \"sdb\", \"events\": 3 }",
	 BLKALIGN_JSON_LINES, "trace", NULL, 1, 0,
	 "{" P "\"path\":\"sdb\",\"version\":\"x\",\"device\":\"sdb\","
	 "\"events\":3}\n"
	 "{" P "" VC ",\"command\":\"trace\",\"status\":1,"
	 "\"counts\":{\"targets\":1}}\n"},
	/* plan: the devices are the targets, the rest goes to the summary */
	{"lines: each",
	 "{ \"schema_version\": 2, " V ", \"t\": 2.5, "
	 "\"devices\": [ { \"path\": \"a\" }, { \"path\": \"b\" } ] }",
	 BLKALIGN_JSON_LINES, "plan", "devices", 0, 0,
	 "{" P "\"path\":\"a\"}\n{" P "\"path\":\"b\"}\n"
	 "{" P "" VC ",\"command\":\"plan\",\"status\":0,"
	 "\"counts\":{\"targets\":2},\"t\":2.5}\n"},
	{"lines: no target",
	 "{ \"schema_version\": 2, " V ", \"devices\": [] }",
	 BLKALIGN_JSON_LINES, "plan", "devices", 0, 0,
	 "{" P "" VC ",\"command\":\"plan\",\"status\":0,"
	 "\"counts\":{\"targets\":0}}\n"},
	{"lines: failure document",
	 "{ \"schema_version\": 2, " V ", \"command\": \"fix\", \"status\": 4, "
	 "\"errors\": [ \"no\" ] }",
	 BLKALIGN_JSON_LINES, "fix", NULL, 4, 0,
	 "{" P "\"version\":\"x\",\"command\":\"fix\",\"status\":4,"
	 "\"errors\":[\"no\"]}\n"},
	{"lines: each not an array", "{ \"devices\": 1 }", BLKALIGN_JSON_LINES,
	 "plan", "devices", 0, -EINVAL, ""},
	{"not JSON", "{ \"a\": ", BLKALIGN_JSON_COMPACT, "model", NULL, 0,
	 -EINVAL, ""},
	{"not an object", "[ 1 ]", BLKALIGN_JSON_LINES, "model", NULL, 0,
	 -EINVAL, ""},
};

/* @want with its '@' the library's version (to free). */
static char *expected_text(const char *want)
{
	const char *at = strchr(want, '@'), *v = blkalign_version();
	char *s = malloc(strlen(want) + strlen(v) + 1);

	assert_non_null(s);
	if (!at)
		return memcpy(s, want, strlen(want) + 1);
	memcpy(s, want, (size_t)(at - want));
	memcpy(s + (at - want), v, strlen(v));
	memcpy(s + (at - want) + strlen(v), at + 1, strlen(at + 1) + 1);
	return s;
}

static void test_rewrite(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		char *text = NULL, *want = expected_text(r->want);
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		int rc;

		assert_non_null(out);
		rc = blkalign_json_rewrite(r->doc, strlen(r->doc), r->f,
					   r->command, r->status, r->each, out);
		fclose(out);
		if (rc != r->rc || strcmp(text, want))
			fail_msg("%s: rc %d, text '%s'", r->name, rc, text);
		free(text);
		free(want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rewrite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
