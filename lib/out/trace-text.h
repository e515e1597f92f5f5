/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-text.h - the ids of trace's table columns (trace-text.c): one
 * row per direction that had requests, each id the index of its row in
 * ba_trace_columns.
 */
#ifndef BLKALIGN_TRACE_TEXT_H
#define BLKALIGN_TRACE_TEXT_H

#include "text-table.h"

enum {
	BA_RCOL_DIRECTION,
	BA_RCOL_REQUESTS,
	BA_RCOL_BYTES,
	BA_RCOL_REQUEST_MAX,
	BA_RCOL_REQUEST_AVG,
	BA_RCOL_OFF_PHYSICAL,
	BA_RCOL_OFF_4K_IN_LAYER,
	BA_RCOL_PARTIAL_REQUESTS,
	BA_RCOL_RMW,
	BA_RCOL_LATENCY,
	BA_RCOL_REQUEST_MIN,
	BA_RCOL_PHYSICAL_SECTORS,
	BA_RCOL_COMPLETED,
	BA_RCOL_P50_NS,
	BA_RCOL_P90_NS,
	BA_RCOL_P99_NS,
	BA_RCOL_MAX_NS,
	BA_RCOL_COUNT
};

extern const struct ba_column ba_trace_columns[BA_RCOL_COUNT];

#endif /* BLKALIGN_TRACE_TEXT_H */
