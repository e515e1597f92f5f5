/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonw.c - typed JSON setters and the document frame over json-c
 * (jsonw.h).  Keys are snake_case and only ever added; byte counts are
 * integers; a value that is not known is null.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"

/* Exact up to 2^64 - 1 (json-c's uint64: never a negative number). */
void ba_json_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

void ba_json_s64(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

void ba_json_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

void ba_json_bool(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

/* A double, or null when it is not finite. */
/*
 * A double as what it measures means it: six significant digits
 * (0.00465434 seconds, not json-c's 0.0046543410000000002), the whole
 * part kept when it is longer (a rate of 178123456.7 bytes/s), plain
 * decimals from 1e-4 to 1e15, an exponent outside.  NULL (JSON null)
 * when @v is not finite.
 */
struct json_object *ba_json_new_double(double v)
{
	char s[64];
	int lead, dec;
	size_t n;

	if (!isfinite(v))
		return NULL;
	if (v == 0)
		return json_object_new_double_s(0.0, "0.0");
	lead = (int)floor(log10(fabs(v)));
	if (lead < -4 || lead >= 15) {
		snprintf(s, sizeof(s), "%.6g", v);
		return json_object_new_double_s(strtod(s, NULL), s);
	}
	dec = 5 - lead < 1 ? 1 : 5 - lead;
	snprintf(s, sizeof(s), "%.*f", dec, v);
	n = strlen(s);
	while (n > 2 && s[n - 1] == '0' && s[n - 2] != '.')
		s[--n] = '\0';
	return json_object_new_double_s(strtod(s, NULL), s);
}

/*
 * A duration in seconds to the microsecond ("3.001265"), the resolution
 * of the clocks it comes from (tracefs timestamps, CLOCK_MONOTONIC read
 * in ns): a trace replayed from its --raw file (whose end line has six
 * decimals) then says exactly what the live trace said, which six
 * significant digits cannot once it lasts a second.  NULL when @v is not
 * finite or negative.
 */
struct json_object *ba_json_new_seconds(double v)
{
	char s[64];
	size_t n;

	if (!isfinite(v) || v < 0)
		return NULL;
	snprintf(s, sizeof(s), "%.6f", v);
	n = strlen(s);
	while (n > 2 && s[n - 1] == '0' && s[n - 2] != '.')
		s[--n] = '\0';
	return json_object_new_double_s(strtod(s, NULL), s);
}

void ba_json_seconds(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, ba_json_new_seconds(v));
}

void ba_json_double(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, ba_json_new_double(v));
}

/* A new document: { "schema_version": 1, "version": "...", "command":
 * @command }, or NULL (docs/json-schema.md: every document names the
 * command that printed it). */
struct json_object *ba_json_root(const char *command)
{
	struct json_object *root = json_object_new_object();

	if (!root)
		return NULL;
	ba_json_u64(root, "schema_version", BLKALIGN_SCHEMA_VERSION);
	ba_json_str(root, "version", BLKALIGN_VERSION);
	ba_json_str(root, "command", command);
	return root;
}

/* A document's root and one array for it: 0, or -ENOMEM with neither. */
int ba_json_root_array(struct json_object **root, struct json_object **arr,
		       const char *command)
{
	*root = ba_json_root(command);
	*arr = json_object_new_array();
	if (*root && *arr)
		return 0;
	json_object_put(*root);
	json_object_put(*arr);
	*root = *arr = NULL;
	return -ENOMEM;
}

/*
 * Print @root pretty to @out with a final newline, and free it.
 * Returns: 0, -ENOMEM or -EIO.
 */
int ba_json_write(struct json_object *root, FILE *out)
{
	const char *text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = 0;

	if (!text)
		rc = -ENOMEM;
	else if (fputs(text, out) == EOF || fputc('\n', out) == EOF)
		rc = -EIO;
	json_object_put(root);
	return rc;
}

/*
 * Print @o to @out compact (json-c's plain form, on one line: the text
 * of --json=compact and of each line of --json=lines), with a final
 * newline when @newline, and free it.
 * Returns: 0, -ENOMEM or -EIO.
 */
int ba_json_write_compact(struct json_object *o, FILE *out, bool newline)
{
	const char *text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = 0;

	if (!o || !text)
		rc = -ENOMEM;
	else if (fputs(text, out) == EOF ||
		 (newline && fputc('\n', out) == EOF))
		rc = -EIO;
	json_object_put(o);
	return rc;
}

/*
 * Print @o to @out as it is printed nested @level deep in a pretty
 * document (2 spaces a level before each line after the first: strings
 * hold no newline, json-c escapes it), without a final newline, and
 * free it.  What a streamed document writes between its parts.
 * Returns: 0, -ENOMEM or -EIO.
 */
int ba_json_write_nested(struct json_object *o, FILE *out, int level)
{
	const char *text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			   JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = 0;

	if (!o || !text) {
		json_object_put(o);
		return -ENOMEM;
	}
	/* a line at a time: a device of 128 partitions is 100 KiB of text */
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			if (fputs(p, out) == EOF)
				rc = -EIO;
			break;
		}
		if (fwrite(p, 1, (size_t)(nl - p) + 1, out) !=
			    (size_t)(nl - p) + 1 ||
		    fprintf(out, "%*s", 2 * level, "") < 0) {
			rc = -EIO;
			break;
		}
	}
	json_object_put(o);
	return rc;
}

/* [{ "bytes", "count" }...] of a size histogram. */
struct json_object *ba_json_size_counts(const struct blkalign_size_count *s,
					size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();

		ba_json_u64(o, "bytes", s[i].bytes);
		ba_json_u64(o, "count", s[i].count);
		json_object_array_add(a, o);
	}
	return a;
}

/*
 * The request summary the model's cost and a traced direction share, in
 * this order: request_max, request_min, request_avg (@bytes / @requests),
 * request_sizes and request_sizes_other.
 */
void ba_json_requests(struct json_object *o, const struct ba_json_requests *r)
{
	ba_json_u64(o, "request_max", r->max);
	ba_json_u64(o, "request_min", r->min);
	json_object_object_add(
		o, "request_avg",
		ba_json_new_double(r->requests ? (double)r->bytes /
							 (double)r->requests
					       : 0.0));
	json_object_object_add(o, "request_sizes",
			       ba_json_size_counts(r->sizes, r->nsizes));
	ba_json_u64(o, "request_sizes_other", r->sizes_other);
}
