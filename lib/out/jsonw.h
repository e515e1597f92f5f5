/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonw.h - the one wrapper over json-c that every JSON writer of the
 * library uses (report, model, trace, plan, bench): typed setters that
 * keep the conventions (integers for byte counts, null for unknown) and
 * the document frame (schema_version, version, pretty printing).
 */
#ifndef BLKALIGN_JSONW_H
#define BLKALIGN_JSONW_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blkalign.h"

void ba_json_u64(struct json_object *o, const char *k, uint64_t v);
void ba_json_s64(struct json_object *o, const char *k, int64_t v);
void ba_json_str(struct json_object *o, const char *k, const char *v);
void ba_json_bool(struct json_object *o, const char *k, bool v);
void ba_json_double(struct json_object *o, const char *k, double v);
struct json_object *ba_json_new_double(double v);
void ba_json_seconds(struct json_object *o, const char *k, double v);
struct json_object *ba_json_new_seconds(double v);
struct json_object *ba_json_size_counts(const struct blkalign_size_count *s,
					size_t n);
struct ba_json_requests {
	uint64_t requests, bytes, max, min, sizes_other;
	const struct blkalign_size_count *sizes;
	size_t nsizes;
};
void ba_json_requests(struct json_object *o, const struct ba_json_requests *r);
struct json_object *ba_json_topology(const struct blkalign_topology *t);
struct json_object *ba_json_root(const char *command);
int ba_json_root_array(struct json_object **root, struct json_object **arr,
		       const char *command);
int ba_json_write(struct json_object *root, FILE *out);
int ba_json_write_compact(struct json_object *o, FILE *out, bool newline);
int ba_json_write_nested(struct json_object *o, FILE *out, int level);

#endif /* BLKALIGN_JSONW_H */
