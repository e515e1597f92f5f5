/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-report-stream.c - a report written as the run goes (issue 13):
 * devices written and freed one at a time (blkalign_report_clear), the
 * JSON document streamed (_begin, _devices, _end) with the entries
 * skipped.  The streamed text must be the very text json-c prints for
 * the document parsed back (so it is one valid document, laid out as a
 * document written at once), the same as blkalign_report_write_json of
 * a report that kept every device, and the status must outlive the
 * devices it came from.  The other forms (issue 27): compact is json-c's
 * plain text of that document, lines its devices a line each and a
 * summary.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include <json-c/json.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

/* A device built in memory: a disk layer and, with @warn, a finding
 * that sets the findings bit. */
static void add_device(struct blkalign_report *r, const char *name, bool warn)
{
	struct ba_device *d = ba_report_add_device(r);
	struct blkalign_layer *l;

	assert_non_null(d);
	d->pub.name = d->pub.path = name;
	d->pub.size = 8 * 1024 * 1024;
	d->pub.image_format = "raw";
	l = ba_device_add_layer(d);
	assert_non_null(l);
	l->name = name;
	l->kind = BLKALIGN_LAYER_DISK;
	l->size = d->pub.size;
	if (warn) {
		struct ba_finding *f = ba_device_add_finding(
			d, BA_CODE_SOFT_BLOCK_SIZE, BLKALIGN_WARNING, 0);

		assert_non_null(f);
		ba_finding_say(f, BA_T_NOTHING_TO_DO, BA_T_NOTHING_TO_DO,
			       BA_T_NOTHING_TO_DO);
	}
	ba_check_finish(r, r->ndevices - 1);
}

static const char *const names[] = {"a.img", "b.img", "c.img"};

/* json-c's own text for @text parsed back, flags as every writer's. */
static char *reprinted(const char *text)
{
	struct json_object *o = json_tokener_parse(text);
	char *s;

	assert_non_null(o);
	s = strdup(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return s;
}

static void test_stream(void **state)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	struct blkalign_report *whole = blkalign_report_new(ctx);
	char *streamed = NULL, *at_once = NULL, *back;
	size_t len = 0, len2 = 0;
	const char *why = NULL;
	FILE *out = open_memstream(&streamed, &len);
	FILE *out2 = open_memstream(&at_once, &len2);
	struct json_object *doc;

	(void)state;
	assert_non_null(out);
	assert_non_null(out2);
	/* misuse: devices or the end before the beginning */
	assert_int_equal(blkalign_report_write_json_devices(r, out), -EINVAL);
	assert_int_equal(blkalign_report_write_json_end(r, out), -EINVAL);
	assert_int_equal(blkalign_report_write_json_begin(r, out), 0);
	assert_int_equal(blkalign_report_write_json_begin(r, out), -EINVAL);
	for (size_t i = 0; i < 3; i++) {
		add_device(r, names[i], i == 1);
		add_device(whole, names[i], i == 1);
		if (i == 1) {
			assert_int_equal(
				blkalign_report_skip(r, "notes.txt", "not one"),
				0);
			assert_int_equal(blkalign_report_skip(
						 whole, "notes.txt", "not one"),
					 0);
		}
		assert_int_equal(blkalign_report_ndevices(r), 1);
		assert_int_equal(blkalign_report_write_json_devices(r, out), 0);
		blkalign_report_clear(r);
		assert_int_equal(blkalign_report_ndevices(r), 0);
	}
	/* b.img's warning outlives its record */
	assert_int_equal(blkalign_report_status(r), BLKALIGN_STATUS_FINDINGS);
	assert_int_equal(blkalign_report_nskipped(r), 1);
	assert_string_equal(blkalign_report_skipped(r, 0, &why), "notes.txt");
	assert_string_equal(why, "not one");
	assert_null(blkalign_report_skipped(r, 1, &why));
	assert_int_equal(blkalign_report_write_json_end(r, out), 0);
	assert_int_equal(blkalign_report_write_json(whole, out2), 0);
	fclose(out);
	fclose(out2);

	back = reprinted(streamed);
	/* json-c's text has no final newline; the writers add one */
	assert_int_equal(strlen(back) + 1, len);
	assert_memory_equal(back, streamed, len - 1);
	assert_string_equal(streamed, at_once);

	doc = json_tokener_parse(streamed);
	assert_int_equal(json_object_array_length(
				 json_object_object_get(doc, "devices")),
			 3);
	assert_int_equal(
		json_object_get_int(json_object_object_get(doc, "status")),
		BLKALIGN_STATUS_FINDINGS);
	assert_string_equal(
		json_object_get_string(json_object_object_get(
			json_object_array_get_idx(
				json_object_object_get(doc, "skipped"), 0),
			"reason")),
		"not one");
	json_object_put(doc);
	free(back);
	free(streamed);
	free(at_once);
	blkalign_report_unref(r);
	blkalign_report_unref(whole);
	blkalign_ctx_unref(ctx);
}

/* Nothing audited: the document json-c prints for empty arrays, by hand. */
static void test_empty(void **state)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	char *text = NULL, want[256];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(blkalign_report_write_json_begin(r, out), 0);
	assert_int_equal(blkalign_report_write_json_end(r, out), 0);
	fclose(out);
	snprintf(want, sizeof(want),
		 "{\n  \"schema_version\": 2,\n  \"version\": \"%s\",\n"
		 "  \"command\": \"check\",\n"
		 "  \"devices\": [\n  ],\n  \"skipped\": [\n  ],\n"
		 "  \"status\": 0\n}\n",
		 blkalign_version());
	assert_string_equal(text, want);
	free(text);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
}

/* The run of test_stream in form @f: the text streamed (to free). */
static char *stream_in(enum blkalign_json_format f)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(blkalign_report_set_json_format(r, f), 0);
	assert_int_equal(blkalign_report_write_json_begin(r, out), 0);
	/* the form is chosen before the document begins */
	assert_int_equal(blkalign_report_set_json_format(r, f), -EINVAL);
	for (size_t i = 0; i < 3; i++) {
		add_device(r, names[i], i == 1);
		if (i == 1)
			assert_int_equal(
				blkalign_report_skip(r, "notes.txt", "not one"),
				0);
		assert_int_equal(blkalign_report_write_json_devices(r, out), 0);
		blkalign_report_clear(r);
	}
	assert_int_equal(blkalign_report_write_json_end(r, out), 0);
	fclose(out);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
	return text;
}

/* --json=compact: json-c's plain text of the pretty document, one line. */
static void test_compact(void **state)
{
	char *pretty = stream_in(BLKALIGN_JSON_PRETTY);
	char *compact = stream_in(BLKALIGN_JSON_COMPACT);
	struct json_object *o = json_tokener_parse(pretty);
	const char *want;

	(void)state;
	assert_non_null(o);
	want = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_int_equal(strlen(compact), strlen(want) + 1);
	assert_memory_equal(compact, want, strlen(want));
	assert_string_equal(compact + strlen(want), "\n");
	json_object_put(o);
	free(pretty);
	free(compact);
}

/*
 * --json=lines: a line per device, each the document's device object
 * with the schema_version first, then the summary: 3 targets, 1 skipped,
 * b.img's one finding, the status of its warning.
 */
static void test_lines(void **state)
{
	char *pretty = stream_in(BLKALIGN_JSON_PRETTY);
	char *lines = stream_in(BLKALIGN_JSON_LINES);
	struct json_object *doc = json_tokener_parse(pretty);
	struct json_object *devs = json_object_object_get(doc, "devices");
	struct json_object *o, *c;
	char *p = lines, *nl;

	(void)state;
	for (size_t i = 0; i < 3; i++, p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		*nl = '\0';
		o = json_tokener_parse(p);
		assert_non_null(o);
		assert_int_equal(json_object_get_int(json_object_object_get(
					 o, "schema_version")),
				 BLKALIGN_SCHEMA_VERSION);
		json_object_object_del(o, "schema_version");
		assert_true(json_object_equal(
			o, json_object_array_get_idx(devs, i)));
		json_object_put(o);
	}
	nl = strchr(p, '\n');
	assert_non_null(nl);
	assert_string_equal(nl + 1, "");
	*nl = '\0';
	o = json_tokener_parse(p);
	assert_non_null(o);
	assert_string_equal(
		json_object_get_string(json_object_object_get(o, "command")),
		"check");
	assert_int_equal(
		json_object_get_int(json_object_object_get(o, "status")),
		BLKALIGN_STATUS_FINDINGS);
	c = json_object_object_get(o, "counts");
	assert_int_equal(
		json_object_get_int(json_object_object_get(c, "targets")), 3);
	assert_int_equal(
		json_object_get_int(json_object_object_get(c, "skipped")), 1);
	assert_int_equal(
		json_object_get_int(json_object_object_get(c, "findings")), 1);
	assert_int_equal(
		json_object_get_int(json_object_object_get(c, "problems")), 0);
	assert_true(json_object_equal(json_object_object_get(o, "skipped"),
				      json_object_object_get(doc, "skipped")));
	json_object_put(o);
	json_object_put(doc);
	free(pretty);
	free(lines);
}

/*
 * Byte counts past 2^63 come out as the unsigned numbers they are (issue
 * 27: they were cast to int64 and printed negative): a layer's start and
 * size, its lower start, the device's size and bytes read.
 */
static void test_uint64(void **state)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	struct ba_device *d = ba_report_add_device(r);
	struct blkalign_layer *l;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	assert_non_null(d);
	d->pub.name = d->pub.path = "big.img";
	d->pub.size = UINT64_MAX;
	d->pub.bytes_read = 9223372036854775808ull;
	d->pub.image_format = "raw";
	l = ba_device_add_layer(d);
	assert_non_null(l);
	l->name = "big.img";
	l->kind = BLKALIGN_LAYER_DISK;
	l->start = 9223372036854776320ull; /* 2^63 + 512 */
	l->size = UINT64_MAX;
	ba_check_finish(r, 0);
	assert_int_equal(blkalign_report_write_json(r, out), 0);
	fclose(out);
	assert_non_null(strstr(text, "\"start\": 9223372036854776320"));
	assert_non_null(strstr(text, "\"size\": 18446744073709551615"));
	assert_non_null(strstr(text, "\"bytes_read\": 9223372036854775808"));
	assert_null(strstr(text, ": -"));
	free(text);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream),	cmocka_unit_test(test_empty),
		cmocka_unit_test(test_compact), cmocka_unit_test(test_lines),
		cmocka_unit_test(test_uint64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
