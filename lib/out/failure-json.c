/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failure-json.c - the document a command's --json prints when it fails
 * before it has its own (the target cannot be opened or audited, a
 * journal is refused before the run): the exit status and the errors it
 * said on stderr, so that stdout holds one JSON document whatever
 * happens (docs/json-schema.md, "Failure").
 */
#include <errno.h>
#include <stdio.h>

/* before blkalignP.h: json-c includes libc headers that banned.h would break */
#include "jsonw.h"
#include "out/out.h"

/**
 * blkalign_failure_write_json: { schema_version, version, command,
 * status, errors: [ ... ] } for @command that exits with @status after
 * saying @errors[0..n).  Returns 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_failure_write_json(const char *command, int status,
				const char *const *errors, size_t n, FILE *out)
{
	struct json_object *root, *arr;

	if ((!errors && n) || !command || !out)
		return -EINVAL;
	if (ba_json_root_array(&root, &arr, command))
		return -ENOMEM;
	ba_json_s64(root, "status", status);
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_new_string(errors[i]);

		if (!s || json_object_array_add(arr, s)) {
			json_object_put(s);
			json_object_put(arr);
			json_object_put(root);
			return -ENOMEM;
		}
	}
	json_object_object_add(root, "errors", arr);
	return ba_json_write(root, out);
}
