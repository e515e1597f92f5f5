/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get-plan.c - the getters of a realignment plan (analyze/plan.c).
 * Field meanings: include/blkalign.h.
 */
#include "get.h"

BA_GET(plan_part, int, layer);
BA_GET(plan_part, const char *, name);
BA_GET(plan_part, int, number);
BA_GET(plan_part, enum blkalign_plan_action, action);
BA_GET(plan_part, uint64_t, old_start);
BA_GET(plan_part, uint64_t, old_size);
BA_GET(plan_part, uint64_t, new_start);
BA_GET(plan_part, uint64_t, new_size);
BA_GET(plan_part, uint64_t, used_size);
BA_GET(plan_part, bool, used_known);
BA_GET(plan_part, const char *, content);
BA_GET(plan_part, uint64_t, limit);
BA_GET(plan_part, uint64_t, bytes_to_copy);
BA_GET(plan_part, const char *, map_source);
BA_GET(plan_part, const char *, map_problem);
BA_GET(plan_part, const char *, reason);
BA_GET(plan_part, size_t, ncommands);
BA_GET_AT(plan_part, const char *, command, commands, ncommands);
BA_GET(plan_part, size_t, findings_before);
BA_GET(plan_part, size_t, findings_after);
BA_GET(plan_part, const char *, uuid);
BA_GET(plan_part, const char *, part_name);

BA_GET(plan, const struct blkalign_device *, device);
BA_GET(plan, uint64_t, grain);
BA_GET(plan, uint64_t, size_granularity);
BA_GET(plan, uint64_t, usable_end);
BA_GET(plan, uint64_t, usable_start);
BA_GET(plan, const char *, label_id);
BA_GET(plan, size_t, nparts);
BA_GET_REF_AT(plan, const struct blkalign_plan_part *, part, parts, nparts);
BA_GET(plan, size_t, remaining);
