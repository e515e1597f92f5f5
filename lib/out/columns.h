/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * columns.h - the ids of check's table columns (columns.c), each the
 * index of its row in ba_layer_columns or ba_topology_columns.
 */
#ifndef BLKALIGN_COLUMNS_H
#define BLKALIGN_COLUMNS_H

#include "text-table.h"

enum {
	BA_LCOL_NAME,
	BA_LCOL_KIND,
	BA_LCOL_START,
	BA_LCOL_END,
	BA_LCOL_SIZE,
	BA_LCOL_SOFT_BLOCK_SIZE,
	BA_LCOL_ALIGNMENT_OFFSET,
	BA_LCOL_VERDICT,
	BA_LCOL_DETAIL,
	BA_LCOL_NUMBER,
	BA_LCOL_SCHEME,
	BA_LCOL_TYPE,
	BA_LCOL_PARENT,
	BA_LCOL_UUID,
	BA_LCOL_PART_NAME,
	BA_LCOL_USED_SIZE,
	BA_LCOL_COUNT
};

enum { BA_TCOL_TOPOLOGY, BA_TCOL_VALUE, BA_TCOL_SOURCE, BA_TCOL_COUNT };

extern const struct ba_column ba_layer_columns[BA_LCOL_COUNT];
extern const struct ba_column ba_topology_columns[BA_TCOL_COUNT];

void ba_layer_cell(const struct blkalign_device *d, size_t i, int id,
		   unsigned int flags, char *buf, size_t len);

#endif /* BLKALIGN_COLUMNS_H */
