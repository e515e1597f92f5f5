/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-rewrite.c - a command's document as it leaves the command: with
 * its exit status (every document has `status`), in the form --json
 * asked for (docs/json-schema.md, "Streams"): pretty, compact, or lines.
 * For the commands whose document is written whole at the end (model,
 * trace, bench, plan, fix, check --list-codes, the failure document):
 * the document is small, so it is parsed back and printed again; check
 * streams its own (report-stream.c), status last.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"

/* The keys that name a target in the documents, the first found is its
 * "path": bench and plan's devices have one, trace and fix say "device",
 * model "target". */
static const char *const path_keys[] = {"path", "device", "target"};

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, k, &v);
	return v;
}

/* A target's line: schema_version, path (when @t names one), then @t's
 * own keys. */
static struct json_object *target_line(struct json_object *t)
{
	struct json_object *o = json_object_new_object(), *path = NULL;
	const char *key = NULL;

	if (!o)
		return NULL;
	for (size_t i = 0; i < sizeof(path_keys) / sizeof(path_keys[0]); i++)
		if (json_object_object_get_ex(t, path_keys[i], &path)) {
			key = path_keys[i];
			break;
		}
	ba_json_u64(o, "schema_version", BLKALIGN_SCHEMA_VERSION);
	if (key && path) /* a code of check --list-codes, model --size: none */
		json_object_object_add(o, "path", json_object_get(path));
	json_object_object_foreach(t, k, v)
	{
		if (strcmp(k, "schema_version") && strcmp(k, "path") &&
		    strcmp(k, "command") && strcmp(k, "status") &&
		    strcmp(k, "errors")) /* the summary's */
			json_object_object_add(o, k, json_object_get(v));
	}
	return o;
}

/*
 * The summary line: schema_version, version, command, status, counts {
 * targets }, then what the document says beside its targets (@doc's keys
 * but the array @each and those already said), when its targets are
 * @each's elements.
 */
static struct json_object *summary_line(struct json_object *doc,
					const char *command, int status,
					const char *each, size_t ntargets)
{
	static const char *const said[] = {"schema_version", "version",
					   "command", "status", "counts"};
	struct json_object *o = ba_json_root(command);
	struct json_object *c = json_object_new_object();

	if (!o || !c) {
		json_object_put(o);
		json_object_put(c);
		return NULL;
	}
	ba_json_s64(o, "status", status);
	ba_json_u64(c, "targets", ntargets);
	json_object_object_add(o, "counts", c);
	if (!each) {
		if (get(doc, "errors"))
			json_object_object_add(
				o, "errors",
				json_object_get(get(doc, "errors")));
		return o;
	}
	json_object_object_foreach(doc, k, v)
	{
		bool skip = !strcmp(k, each);

		for (size_t i = 0; !skip && i < sizeof(said) / sizeof(said[0]);
		     i++)
			skip = !strcmp(k, said[i]);
		if (!skip)
			json_object_object_add(o, k, json_object_get(v));
	}
	return o;
}

static int write_lines(struct json_object *doc, const char *command, int status,
		       const char *each, bool failure, FILE *out)
{
	struct json_object *arr = each ? get(doc, each) : NULL;
	size_t n = 1;
	int rc;

	/* the failure document is its own summary: no target */
	if (failure)
		return ba_json_write_compact(json_object_get(doc), out, true);
	if (each && !json_object_is_type(arr, json_type_array))
		return -EINVAL;
	if (arr)
		n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		struct json_object *t =
			arr ? json_object_array_get_idx(arr, i) : doc;

		if (!json_object_is_type(t, json_type_object))
			return -EINVAL;
		rc = ba_json_write_compact(target_line(t), out, true);
		if (rc)
			return rc;
	}
	return ba_json_write_compact(
		summary_line(doc, command, status, each, n), out, true);
}

/*
 * @doc with "status": @status right after "command" (a writer's own
 * value is replaced: the document says the status the command exits
 * with).  Takes @doc; NULL without memory.
 */
static struct json_object *with_status(struct json_object *doc, int status)
{
	struct json_object *o, *st = json_object_new_int64(status);
	bool added = false;

	if (!st) {
		json_object_put(doc);
		return NULL;
	}
	if (get(doc, "status")) {
		json_object_object_add(doc, "status", st);
		return doc;
	}
	o = json_object_new_object();
	if (!o) {
		json_object_put(st);
		json_object_put(doc);
		return NULL;
	}
	json_object_object_foreach(doc, k, v)
	{
		json_object_object_add(o, k, json_object_get(v));
		if (!strcmp(k, "command")) {
			json_object_object_add(o, "status", st);
			added = true;
		}
	}
	if (!added)
		json_object_object_add(o, "status", st);
	json_object_put(doc);
	return o;
}

/* @doc with "errors": the @n messages @errors, last. */
static int add_errors(struct json_object *doc, const char *const *errors,
		      size_t n)
{
	struct json_object *a = json_object_new_array();

	if (!a)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(errors[i]));
	json_object_object_add(doc, "errors", a);
	return 0;
}

/**
 * blkalign_json_finish: blkalign_json_rewrite, and when @status says an
 * operational error (BLKALIGN_STATUS_FAILED, no signal) and the document
 * has no "errors", "errors": the @nerrors messages @errors (what the
 * command said on stderr), so that a document that says it failed also
 * says why; with --json=lines they go to the summary line.
 */
int blkalign_json_finish(const char *text, size_t len,
			 enum blkalign_json_format f, const char *command,
			 int status, const char *const *errors, size_t nerrors,
			 const char *each, FILE *out)
{
	struct json_tokener *tok;
	struct json_object *doc;
	bool failure;
	int rc;

	if (!text || !command || !out || (nerrors && !errors))
		return -EINVAL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	doc = json_tokener_parse_ex(tok, text, (int)len);
	json_tokener_free(tok);
	if (!json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		return -EINVAL;
	}
	failure = get(doc, "errors") != NULL;
	doc = with_status(doc, status);
	if (!doc)
		return -ENOMEM;
	if (!failure && nerrors && status < 128 &&
	    (status & BLKALIGN_STATUS_FAILED) &&
	    add_errors(doc, errors, nerrors)) {
		json_object_put(doc);
		return -ENOMEM;
	}
	if (f == BLKALIGN_JSON_PRETTY)
		return ba_json_write(doc, out);
	if (f == BLKALIGN_JSON_COMPACT)
		return ba_json_write_compact(doc, out, true);
	rc = write_lines(doc, command, status, each, failure, out);
	json_object_put(doc);
	return rc;
}

/**
 * blkalign_json_rewrite: the document @text (@len bytes, one JSON object)
 * with "status": @status after "command" (replacing one it has), in form
 * @f on @out: pretty, compact on one line, or lines: each target's object
 * on a line (schema_version, path, its keys), the targets the elements of
 * the array @each (NULL: the whole document), then the summary line of
 * @command that exits with @status; a failure document ("errors") is its
 * one line.
 * Returns: 0, -EINVAL (@text is no JSON object, or @each no array of
 * objects), -ENOMEM or -EIO.
 */
int blkalign_json_rewrite(const char *text, size_t len,
			  enum blkalign_json_format f, const char *command,
			  int status, const char *each, FILE *out)
{
	return blkalign_json_finish(text, len, f, command, status, NULL, 0,
				    each, out);
}
