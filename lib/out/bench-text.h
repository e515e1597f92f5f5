/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-text.h - the ids of bench's table columns (bench-text.c): the
 * phase sweep's rows (one per phase) and the comparison tests' rows (one
 * per side), each the index of its row in ba_bench_columns or
 * ba_bench_side_columns.
 */
#ifndef BLKALIGN_BENCH_TEXT_H
#define BLKALIGN_BENCH_TEXT_H

#include "text-table.h"

enum {
	BA_BCOL_PHASE,
	BA_BCOL_OFFSET,
	BA_BCOL_MEDIAN_NS,
	BA_BCOL_IQR_NS,
	BA_BCOL_MIN_NS,
	BA_BCOL_MAX_NS,
	BA_BCOL_RATIO,
	BA_BCOL_FAST,
	BA_BCOL_SAMPLES,
	BA_BCOL_P25_NS,
	BA_BCOL_P75_NS,
	BA_BCOL_COUNT
};

enum {
	BA_SCOL_LABEL,
	BA_SCOL_PATH,
	BA_SCOL_SOFT_BLOCK_SIZE,
	BA_SCOL_MEDIAN,
	BA_SCOL_MIN,
	BA_SCOL_MAX,
	BA_SCOL_REQUESTS,
	BA_SCOL_REQUEST_AVG,
	BA_SCOL_MODEL_REQUESTS,
	BA_SCOL_OFFSET,
	BA_SCOL_DEVICE_SIZE,
	BA_SCOL_SAMPLES,
	BA_SCOL_TRACED,
	BA_SCOL_REQUEST_BYTES,
	BA_SCOL_REQUEST_MAX,
	BA_SCOL_MODEL_REQUEST_CAP,
	BA_SCOL_COUNT
};

extern const struct ba_column ba_bench_columns[BA_BCOL_COUNT];
extern const struct ba_column ba_bench_side_columns[BA_SCOL_COUNT];

#endif /* BLKALIGN_BENCH_TEXT_H */
