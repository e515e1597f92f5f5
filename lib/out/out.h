/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out.h - what out/ offers the other stages: a finding's texts from the
 * message table, a device as JSON, trace's summary as JSON and text.
 */
#ifndef BLKALIGN_OUT_H
#define BLKALIGN_OUT_H

#include "blkalignP.h"

/* Render @f's texts from the message table into @d's pool (messages.c). */
int ba_finding_render(struct ba_device *d, const struct ba_finding *f,
		      struct blkalign_finding *out);

/* A device as the JSON of a report (json.c). */
struct json_object;
struct json_object *ba_device_json(const struct ba_device *bd, bool alone);

/* trace's summary (act/trace.c's blkalign_trace_write_json/_text). */
int ba_trace_summary_write_json(const struct blkalign_trace_summary *s,
				FILE *out);
int ba_trace_summary_write_text(const struct blkalign_trace_summary *s,
				FILE *out, const struct blkalign_text_opts *o);

#endif /* BLKALIGN_OUT_H */
