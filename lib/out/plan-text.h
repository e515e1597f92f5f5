/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-text.h - the ids of plan's table columns (plan-text.c), each the
 * index of its row in ba_plan_columns.
 */
#ifndef BLKALIGN_PLAN_TEXT_H
#define BLKALIGN_PLAN_TEXT_H

#include "text-table.h"

enum {
	BA_PCOL_NAME,
	BA_PCOL_NUMBER,
	BA_PCOL_ACTION,
	BA_PCOL_OLD_START,
	BA_PCOL_OLD_END,
	BA_PCOL_NEW_START,
	BA_PCOL_NEW_END,
	BA_PCOL_OLD_SIZE,
	BA_PCOL_NEW_SIZE,
	BA_PCOL_START_SHIFT,
	BA_PCOL_SIZE_CHANGE,
	BA_PCOL_BYTES_TO_COPY,
	BA_PCOL_ESTIMATED_SECONDS,
	BA_PCOL_CONTENT,
	BA_PCOL_USED_SIZE,
	BA_PCOL_LIMIT,
	BA_PCOL_MAP_SOURCE,
	BA_PCOL_MAP_PROBLEM,
	BA_PCOL_FINDINGS_BEFORE,
	BA_PCOL_FINDINGS_AFTER,
	BA_PCOL_UUID,
	BA_PCOL_PART_NAME,
	BA_PCOL_REASON,
	BA_PCOL_COMMANDS,
	BA_PCOL_COUNT
};

extern const struct ba_column ba_plan_columns[BA_PCOL_COUNT];

#endif /* BLKALIGN_PLAN_TEXT_H */
