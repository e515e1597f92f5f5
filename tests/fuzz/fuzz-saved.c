/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-saved.c - a saved check --json report as hostile input (check,
 * plan and model --from): the reader of lib/scan/saved.c, then the rules,
 * the planner, the model's geometry and the JSON writer on whatever
 * records it accepts.  A record the rules judge must be consistent: every
 * parent index before its layer, every finding on one of its layers.
 *
 * Build and run: tools/fuzz-run (clang, -Dfuzz=true, in build-fuzz/), or
 *   build-fuzz/tests/fuzz/fuzz-saved -max_total_time=60 \
 *     tests/fuzz/corpus/fuzz-saved
 * Seeds: check --json of the fuzz-image seeds and of installer layouts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "fuzz.h"
#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

static void quiet(void *data, const char *msg)
{
	(void)data;
	(void)msg;
}

static void judge(const struct blkalign_device *d)
{
	struct blkalign_model_geometry g = {.size = sizeof(g)};
	struct blkalign_plan *p = NULL;

	for (size_t i = 0; i < d->nlayers; i++)
		FUZZ_CHECK(d->layers[i].parent < (int)i);
	for (size_t k = 0; k < d->nfindings; k++)
		FUZZ_CHECK(d->findings[k].layer >= 0 &&
			   (size_t)d->findings[k].layer < d->nlayers);
	if (d->failed)
		return;
	FUZZ_CHECK(blkalign_model_geometry_from_device(d, &g) == 0);
	if (blkalign_plan_new(d, &p) == 0)
		blkalign_plan_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	struct blkalign_report *r = NULL;
	struct blkalign_ctx *ctx = NULL;
	struct json_object *root;
	FILE *null;

	if (!tok)
		return 0;
	root = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!root)
		return 0;
	ctx = blkalign_ctx_new();
	r = ctx ? blkalign_report_new(ctx) : NULL;
	if (r) {
		blkalign_ctx_set_log_fn(ctx, quiet, NULL);
		ba_scan_saved_json(r, root, "fuzz", NULL);
		ba_check_finish(r, 0);
		for (size_t i = 0; i < blkalign_report_ndevices(r); i++)
			judge(blkalign_report_device(r, i));
		null = fopen("/dev/null", "w");
		if (null) {
			blkalign_report_write_json(r, null);
			blkalign_report_write_text(r, null, 0);
			fclose(null);
		}
	}
	json_object_put(root);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
	return 0;
}
