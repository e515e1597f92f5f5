/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get-model.c - the getters of the I/O cost model's results (analyze/model.c).
 * Field meanings: include/blkalign.h.
 */
#include "get.h"

BA_GET(size_count, uint64_t, bytes);
BA_GET(size_count, uint64_t, count);

BA_GET(model_cost, uint64_t, bytes);
BA_GET(model_cost, uint64_t, ios);
BA_GET(model_cost, uint64_t, bios);
BA_GET(model_cost, uint32_t, soft_block_size);
BA_GET(model_cost, uint64_t, request_cap);
BA_GET(model_cost, uint64_t, requests);
BA_GET(model_cost, uint64_t, request_bytes);
BA_GET(model_cost, uint64_t, request_max);
BA_GET(model_cost, uint64_t, request_min);
BA_GET(model_cost, size_t, nsizes);
BA_GET_REF_AT(model_cost, const struct blkalign_size_count *, size, sizes,
	      nsizes);
BA_GET(model_cost, uint64_t, sizes_other);
BA_GET(model_cost, uint64_t, physical_sectors);
BA_GET(model_cost, uint64_t, partial_requests);
BA_GET(model_cost, uint64_t, rmw);
BA_GET(model_cost, uint64_t, chunk_straddles);
BA_GET(model_cost, uint64_t, raid_stripes);
BA_GET(model_cost, uint64_t, raid_full_stripes);
BA_GET(model_cost, uint64_t, raid_rmw_stripes);
BA_GET(model_cost, uint64_t, raid_rcw_stripes);
BA_GET(model_cost, uint64_t, raid_reads);
BA_GET(model_cost, uint64_t, raid_writes);
BA_GET(model_cost, uint64_t, raid_member_rmw);
BA_GET(model_cost, uint64_t, request_cap_min);
BA_GET(model_cost, uint64_t, request_cap_max);

BA_GET_REF(model, const struct blkalign_workload *, workload, workload);
BA_GET(model, enum blkalign_kernel, kernel);
BA_GET_REF(model, const struct blkalign_model_layer *, actual, actual);
BA_GET_REF(model, const struct blkalign_model_layer *, aligned, aligned);
BA_GET_REF(model, const struct blkalign_model_cost *, cost, cost);
BA_GET_REF(model, const struct blkalign_model_cost *, cost_aligned,
	   cost_aligned);
