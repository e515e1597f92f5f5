/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-stream.c - check's JSON document written as the run goes: its
 * opening, each device as soon as it is audited, its end (json.c makes
 * the device objects).  Three forms (docs/json-schema.md, "Streams"):
 * pretty and compact are byte for byte what json-c prints for the whole
 * document (ba_json_write, ba_json_write_compact), so a report written at
 * once and one streamed are the same text; lines is a device a line,
 * then the summary line.  Each form holds one device at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"

static int stream_begin(const struct ba_json_stream *s, FILE *out)
{
	int n = 0;

	if (s->format == BLKALIGN_JSON_PRETTY)
		n = fprintf(out,
			    "{\n  \"schema_version\": %d,\n  \"version\": "
			    "\"%s\",\n  \"command\": \"check\",\n"
			    "  \"devices\": [",
			    BLKALIGN_SCHEMA_VERSION, BLKALIGN_VERSION);
	else if (s->format == BLKALIGN_JSON_COMPACT)
		n = fprintf(out,
			    "{\"schema_version\":%d,\"version\":\"%s\","
			    "\"command\":\"check\",\"devices\":[",
			    BLKALIGN_SCHEMA_VERSION, BLKALIGN_VERSION);
	/* lines: no frame, each line stands alone */
	return n < 0 ? -EIO : 0;
}

/* The devices of @r, after the ones @s counts as written already. */
static int stream_devices(const struct blkalign_report *r,
			  struct ba_json_stream *s, FILE *out)
{
	const char *sep = s->ndevices ? ",\n    " : "\n    ";
	int rc;

	for (size_t i = 0; i < r->ndevices; i++) {
		const struct ba_device *bd = r->devices[i];
		bool alone = s->format == BLKALIGN_JSON_LINES;

		if (s->format == BLKALIGN_JSON_COMPACT)
			sep = s->ndevices ? "," : "";
		if (!alone && fputs(sep, out) == EOF)
			return -EIO;
		if (s->format == BLKALIGN_JSON_PRETTY)
			rc = ba_json_write_nested(ba_device_json(bd, false),
						  out, 2);
		else
			rc = ba_json_write_compact(ba_device_json(bd, alone),
						   out, alone);
		if (rc)
			return rc;
		sep = ",\n    ";
		s->ndevices++;
		s->nfindings += bd->pub.nfindings;
		s->nproblems += bd->pub.nproblems;
	}
	return 0;
}

/*
 * The entries skipped, as a JSON array written one entry at a time (a
 * pool of 10,000 images with as many other files beside them held 14 MiB
 * more as one json-c array and its text): compact, or pretty as json-c
 * prints an array one level deep.  Returns: 0, -ENOMEM or -EIO.
 */
static int write_skipped(const struct blkalign_report *r, bool pretty,
			 FILE *out)
{
	int rc = 0;

	if (fputs(pretty ? "[\n" : "[", out) == EOF)
		return -EIO;
	for (size_t i = 0; !rc && i < r->nskipped; i++) {
		struct json_object *e = json_object_new_object();

		if (!e)
			return -ENOMEM;
		ba_json_str(e, "path", r->skipped[i].path);
		ba_json_str(e, "reason", r->skipped[i].reason);
		if (i && fputs(pretty ? ",\n" : ",", out) == EOF) {
			json_object_put(e);
			return -EIO;
		}
		if (pretty)
			rc = fputs("    ", out) == EOF
				     ? (json_object_put(e), -EIO)
				     : ba_json_write_nested(e, out, 2);
		else
			rc = ba_json_write_compact(e, out, false);
	}
	if (rc)
		return rc;
	if (pretty && fputs(r->nskipped ? "\n  ]" : "  ]", out) == EOF)
		return -EIO;
	return !pretty && fputc(']', out) == EOF ? -EIO : 0;
}

/* --json=lines' last line: what the document's end says, and counts. */
static int stream_summary(const struct blkalign_report *r,
			  const struct ba_json_stream *s, FILE *out)
{
	struct json_object *o = ba_json_root("check");
	struct json_object *c = json_object_new_object();
	const char *text;
	size_t len;
	int rc;

	if (!o || !c) {
		json_object_put(o);
		json_object_put(c);
		return -ENOMEM;
	}
	ba_json_u64(o, "status", r->status);
	ba_json_u64(c, "targets", s->ndevices);
	ba_json_u64(c, "skipped", r->nskipped);
	ba_json_u64(c, "findings", s->nfindings);
	ba_json_u64(c, "problems", s->nproblems);
	json_object_object_add(o, "counts", c);
	/* the line but its closing brace, then the entries skipped */
	text = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	len = text ? strlen(text) : 0;
	if (len < 2) {
		json_object_put(o);
		return -ENOMEM;
	}
	rc = fwrite(text, 1, len - 1, out) == len - 1 &&
			     fputs(",\"skipped\":", out) != EOF
		     ? 0
		     : -EIO;
	json_object_put(o);
	if (!rc)
		rc = write_skipped(r, false, out);
	if (!rc && fputs("}\n", out) == EOF)
		rc = -EIO;
	return rc;
}

static int stream_end(const struct blkalign_report *r,
		      const struct ba_json_stream *s, FILE *out)
{
	bool pretty = s->format == BLKALIGN_JSON_PRETTY;
	int rc;

	if (s->format == BLKALIGN_JSON_LINES)
		return stream_summary(r, s, out);
	if (fputs(pretty ? "\n  ],\n  \"skipped\": " : "],\"skipped\":", out) ==
	    EOF)
		return -EIO;
	rc = write_skipped(r, pretty, out);
	if (rc)
		return rc;
	if (pretty)
		rc = fprintf(out, ",\n  \"status\": %u\n}\n", r->status);
	else
		rc = fprintf(out, ",\"status\":%u}\n", r->status);
	return rc < 0 ? -EIO : 0;
}

/**
 * blkalign_report_write_json: write @r to @out as one JSON document, in
 * the form blkalign_report_set_json_format chose (pretty by default).
 * Returns: 0, -ENOMEM, or -EIO when writing failed.
 */
int blkalign_report_write_json(const struct blkalign_report *r, FILE *out)
{
	struct ba_json_stream s;
	int rc;

	if (!r || !out)
		return -EINVAL;
	s = (struct ba_json_stream){.format = r->json.format};
	rc = stream_begin(&s, out);
	if (!rc)
		rc = stream_devices(r, &s, out);
	if (!rc)
		rc = stream_end(r, &s, out);
	return rc;
}

/**
 * blkalign_report_set_json_format: the form of @r's JSON document, before
 * it is begun: pretty (the default), compact or lines.
 * Returns: 0, or -EINVAL (no such form, or the document is begun).
 */
int blkalign_report_set_json_format(struct blkalign_report *r,
				    enum blkalign_json_format f)
{
	if (!r || r->json_begun || f < BLKALIGN_JSON_PRETTY ||
	    f > BLKALIGN_JSON_LINES)
		return -EINVAL;
	r->json.format = f;
	return 0;
}

/**
 * blkalign_report_write_json_begin: start the JSON document of @r on
 * @out, up to its "devices" array: then each device as it is audited
 * (blkalign_report_write_json_devices), the end last
 * (blkalign_report_write_json_end).
 * Returns: 0, -EINVAL (begun already) or -EIO.
 */
int blkalign_report_write_json_begin(struct blkalign_report *r, FILE *out)
{
	if (!r || !out || r->json_begun)
		return -EINVAL;
	r->json_begun = true;
	r->json = (struct ba_json_stream){.format = r->json.format};
	return stream_begin(&r->json, out);
}

/**
 * blkalign_report_write_json_devices: write the devices @r holds into the
 * document begun on @out; blkalign_report_clear() then frees them.
 * Returns: 0, -EINVAL (not begun), -ENOMEM or -EIO.
 */
int blkalign_report_write_json_devices(struct blkalign_report *r, FILE *out)
{
	if (!r || !out || !r->json_begun)
		return -EINVAL;
	return stream_devices(r, &r->json, out);
}

/**
 * blkalign_report_write_json_end: the devices @r still holds, then the
 * end of the document: the entries skipped and the status of the run
 * (lines: the summary line).
 * Returns: 0, -EINVAL (not begun), -ENOMEM or -EIO.
 */
int blkalign_report_write_json_end(struct blkalign_report *r, FILE *out)
{
	int rc;

	if (!r || !out || !r->json_begun)
		return -EINVAL;
	rc = stream_devices(r, &r->json, out);
	r->json_begun = false;
	return rc ? rc : stream_end(r, &r->json, out);
}
