/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get-fix.c - the getters of a fix run's outcomes (act/fix*.c).
 * Field meanings: include/blkalign.h.
 */
#include "get.h"

BA_GET(fix_result, int, number);
BA_GET(fix_result, uint64_t, old_start);
BA_GET(fix_result, uint64_t, old_size);
BA_GET(fix_result, uint64_t, new_start);
BA_GET(fix_result, uint64_t, new_size);
BA_GET(fix_result, uint32_t, sector_size);
BA_GET(fix_result, uint64_t, bytes_copied);
BA_GET(fix_result, bool, batch);
BA_GET(fix_result, bool, rolled_back);
BA_GET(fix_result, bool, journal_kept);
BA_GET(fix_result, uint64_t, steps);
BA_GET(fix_result, double, seconds);
BA_GET(fix_result, const char *, message);
BA_GET(fix_result, uint64_t, writes);
BA_GET(fix_result, uint64_t, flushes);
BA_GET(fix_result, bool, refused);
BA_GET(fix_result, uint64_t, bytes_to_copy);
BA_GET(fix_result, uint64_t, bytes_skipped);
BA_GET(fix_result, const char *, map_source);
BA_GET(fix_result, uint64_t, bytes_read_back);

BA_GET_REF(fix_outcome, const struct blkalign_fix_result *, result, res);
BA_GET(fix_outcome, const char *, action);
BA_GET(fix_outcome, int, rc);

BA_GET(fix_run, int, status);
BA_GET(fix_run, size_t, noutcomes);
BA_GET_REF_AT(fix_run, const struct blkalign_fix_outcome *, outcome, outcomes,
	      noutcomes);
BA_GET(fix_run, size_t, noptional);
BA_GET_AT(fix_run, int, optional, optional, noptional);
BA_GET(fix_run, uint64_t, grain);
