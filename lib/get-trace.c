/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get-trace.c - the getters of a block trace's summary (act/trace.c).
 * Field meanings: include/blkalign.h.
 */
#include "get.h"

BA_GET(trace_dir, uint64_t, requests);
BA_GET(trace_dir, uint64_t, bytes);
BA_GET(trace_dir, uint64_t, request_max);
BA_GET(trace_dir, uint64_t, request_min);
BA_GET(trace_dir, size_t, nsizes);
BA_GET_REF_AT(trace_dir, const struct blkalign_size_count *, size, sizes,
	      nsizes);
BA_GET(trace_dir, uint64_t, sizes_other);
BA_GET(trace_dir, uint64_t, off_physical);
BA_GET(trace_dir, uint64_t, off_page_in_layer);
BA_GET(trace_dir, uint64_t, partial_requests);
BA_GET(trace_dir, uint64_t, rmw);
BA_GET(trace_dir, uint64_t, physical_sectors);
BA_GET(trace_dir, uint64_t, completed);
BA_GET(trace_dir, uint64_t, lat_p50_ns);
BA_GET(trace_dir, uint64_t, lat_p90_ns);
BA_GET(trace_dir, uint64_t, lat_p99_ns);
BA_GET(trace_dir, uint64_t, lat_max_ns);

BA_GET(trace_below, const char *, name);
BA_GET(trace_below, unsigned int, major);
BA_GET(trace_below, unsigned int, minor);
BA_GET(trace_below, uint64_t, start);
BA_GET(trace_below, uint64_t, size);
BA_GET(trace_below, uint64_t, layer_offset);
BA_GET(trace_below, uint32_t, physical_sector_size);
BA_GET(trace_below, uint32_t, alignment_offset);
BA_GET(trace_below, uint64_t, read_requests);
BA_GET(trace_below, uint64_t, read_bytes);
BA_GET(trace_below, uint64_t, write_requests);
BA_GET(trace_below, uint64_t, write_bytes);
BA_GET(trace_below, uint64_t, off_physical);
BA_GET(trace_below, uint64_t, partial_requests);

BA_GET(trace_summary, const char *, device);
BA_GET(trace_summary, unsigned int, major);
BA_GET(trace_summary, unsigned int, minor);
BA_GET(trace_summary, uint64_t, layer_start);
BA_GET(trace_summary, uint64_t, layer_size);
BA_GET(trace_summary, uint32_t, logical_sector_size);
BA_GET(trace_summary, uint32_t, physical_sector_size);
BA_GET(trace_summary, uint32_t, alignment_offset);
BA_GET(trace_summary, double, seconds);
BA_GET(trace_summary, uint64_t, events);
BA_GET(trace_summary, uint64_t, lost_events);
BA_GET(trace_summary, uint64_t, unmatched);
BA_GET_REF(trace_summary, const struct blkalign_trace_dir *, read, read);
BA_GET_REF(trace_summary, const struct blkalign_trace_dir *, write, write);
BA_GET_REF(trace_summary, const struct blkalign_trace_dir *, discard, discard);
BA_GET_REF(trace_summary, const struct blkalign_trace_dir *, flush, flush);
BA_GET_REF(trace_summary, const struct blkalign_trace_dir *, other, other);
BA_GET(trace_summary, size_t, nbelow);
BA_GET_REF_AT(trace_summary, const struct blkalign_trace_below *, below, below,
	      nbelow);
BA_GET(trace_summary, double, event_seconds);

size_t blkalign_trace_dir_get_nhist_log2(const struct blkalign_trace_dir *d)
{
	return d ? sizeof(d->hist_log2) / sizeof(d->hist_log2[0]) : 0;
}

uint64_t blkalign_trace_dir_get_hist_log2(const struct blkalign_trace_dir *d,
					  size_t i)
{
	return i < blkalign_trace_dir_get_nhist_log2(d) ? d->hist_log2[i] : 0;
}
