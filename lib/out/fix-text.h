/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-text.h - the ids of fix's table columns (fix-text.c), each the
 * index of its row in ba_fix_columns.
 */
#ifndef BLKALIGN_FIX_TEXT_H
#define BLKALIGN_FIX_TEXT_H

#include "text-table.h"

enum {
	BA_FCOL_NUMBER,
	BA_FCOL_ACTION,
	BA_FCOL_OLD_START,
	BA_FCOL_OLD_END,
	BA_FCOL_NEW_START,
	BA_FCOL_NEW_END,
	BA_FCOL_OLD_SIZE,
	BA_FCOL_NEW_SIZE,
	BA_FCOL_BYTES_TO_COPY,
	BA_FCOL_BYTES_COPIED,
	BA_FCOL_SECONDS,
	BA_FCOL_RATE,
	BA_FCOL_BYTES_SKIPPED,
	BA_FCOL_MAP_SOURCE,
	BA_FCOL_MODE,
	BA_FCOL_STEPS,
	BA_FCOL_FLUSHES,
	BA_FCOL_BYTES_READ_BACK,
	BA_FCOL_JOURNAL_KEPT,
	BA_FCOL_MESSAGE,
	BA_FCOL_COUNT
};

extern const struct ba_column ba_fix_columns[BA_FCOL_COUNT];

#endif /* BLKALIGN_FIX_TEXT_H */
