# SPDX-License-Identifier: GPL-2.0-or-later
# common.sh - shared pieces of the trace tests (sourced, not run: run.sh
# only runs executable files).  They run workloads under `blkalign trace`
# on loop devices they attach themselves and compare what the kernel did
# with `blkalign model` for the same layout and workload, and both with
# numbers derived by hand in each test.
#
# Tolerances (the model is exact on request sizes; counts differ only at
# the edges of a stream):
#   buffered writes: traced count = model count, +-2
#   direct writes: between the counts for the two caps (see below)
#   buffered reads: the bytes read ahead exactly; the count between the
#     model's (page cache 64 KiB-contiguous: requests of the cap) and the
#     count with one page per segment (max_segments x 4 KiB): memory is
#     not always contiguous, which splits some readahead requests
#   mkfs: the model is evaluated for the bytes mkfs wrote;
#     model <= traced <= model + model / 10 + 16, as mkfs writes its
#     metadata in small runs besides its big zeroing runs
# shellcheck shell=bash

. "$(dirname "${BASH_SOURCE[0]}")/../loop/common.sh"

trace_setup() {
	loop_setup
	ts_require_prog dd mkfs.ext4
	if ! grep -qw tracefs /proc/filesystems; then
		[ "${CI:-}" = "true" ] && { ts_log "FAIL: no tracefs in this kernel"; exit 1; }
		ts_skip "no tracefs in this kernel"
	fi
	grep -q 'block_rq_issue' /proc/kallsyms 2>/dev/null ||
		ts_log "note: block_rq_issue not in /proc/kallsyms (may be hidden)"
	TRACE_MOUNTED_BEFORE=$(awk '$3 == "tracefs" { print $2 }' /proc/self/mounts | sort | paste -sd' ' -)
}

# trace_json OUT NODE [trace options] -- COMMAND...: run COMMAND under
# blkalign trace; the JSON summary goes to OUT.  Fails the test on a
# non-zero exit.
trace_json() {
	local out=$1
	shift
	if ! "$BLKALIGN" trace --json "$@" >"$out" 2>"$out.err"; then
		ts_fail "blkalign trace $*: exit $? ($(head -c 300 "$out.err"))"
		return 1
	fi
	ts_keep_json trace "$out"
}

# drop the page cache of NODE so that reads go to the device
trace_drop_cache() {
	sync
	blockdev --flushbufs "$1" 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
}

# jq on a file, one value
jqv() {
	jq -r "$1" "$2"
}

# within WHAT GOT LOW HIGH
within() {
	if [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		ts_ok "$1 = $2 (in [$3, $4])"
	else
		ts_fail "$1: $2 is not in [$3, $4]"
	fi
}

# The hand-derived soft block size of SIZE bytes (4 KiB pages): start at
# the logical sector, double while it divides the size.
sbs_of() {
	local size=$1 b=$2
	while [ "$b" -lt 4096 ] && [ $((size & b)) -eq 0 ]; do
		b=$((b * 2))
	done
	echo "$b"
}

min() { [ "$1" -le "$2" ] && echo "$1" || echo "$2"; }

# trace_check_state: tracefs is as the test found it: the same mounts,
# no blkalign instance left in any mounted tracefs.  Another blkalign
# trace running at the same time (a second test run on this machine) owns
# its live instance and may hold the mount: only instances whose process
# is gone count, and the mounts are compared when no other tracer runs.
trace_check_state() {
	local now mp inst others
	now=$(awk '$3 == "tracefs" { print $2 }' /proc/self/mounts | sort | paste -sd' ' -)
	others=$(pgrep -f 'blkalign trace' | grep -vx "$$" | head -1)
	if [ -z "$others" ]; then
		ts_expect_eq "tracefs mounts after tracing" "$TRACE_MOUNTED_BEFORE" "$now"
	else
		ts_log "another blkalign trace is running: mounts not compared"
	fi
	for mp in $now; do
		for inst in "$mp"/instances/blkalign-*; do
			[ -e "$inst" ] || continue
			kill -0 "${inst##*-}" 2>/dev/null && continue
			ts_fail "tracefs instance left: $inst"
		done
	done
}

# trace_partition NODE LSS: the four workloads on one partition node,
# traced and modelled.  The caps are derived here from the queue limits
# in sysfs and the partition size (domain-facts §1-§2):
#   buffered writes: min(max_sectors_kb * 1024, max_segments * sbs)
#   direct 1 MiB writes: min(1 MiB, max_sectors_kb * 1024, max_segments * 4096)
#     with scattered buffer pages, up to max_segments * max_segment_size
#     when they are contiguous
#   buffered reads: min(max_sectors_kb * 1024, max_segments * max_segment_size,
#                       readahead window = max(read_ahead_kb, ...))
# and a 4096-byte physical sector is assumed on both sides (trace and
# model --physical-sector-size 4096): a partition starting off 4 KiB has
# every write request cover part of a physical sector at both ends.
trace_partition() {
	local node=$1 lss=$2 name sys disk q start size sbs kb segs segsz ra
	local cap_bw cap_dio cap_dio_max cap_rd cap_rd_min win out m mb rb
	name=$(basename "$node")
	sys=/sys/class/block/$name
	disk=$(basename "$(dirname "$(readlink -f "$sys")")")
	q=/sys/block/$disk/queue
	start=$(($(cat "$sys/start") * 512))
	size=$(($(cat "$sys/size") * 512))
	sbs=$(sbs_of "$size" "$lss")
	kb=$(cat "$q/max_sectors_kb") segs=$(cat "$q/max_segments")
	segsz=$(cat "$q/max_segment_size") ra=$(cat "$q/read_ahead_kb")
	cap_bw=$(min $((kb * 1024)) $((segs * sbs)))
	cap_dio=$(min $((1024 * 1024)) "$(min $((kb * 1024)) $((segs * 4096)))")
	cap_dio_max=$(min $((1024 * 1024)) "$(min $((kb * 1024)) $((segs * segsz)))")
	win=$((ra * 1024))
	[ $((1024 * 1024)) -gt "$win" ] && [ $((kb * 1024)) -gt "$win" ] &&
		win=$(min $((1024 * 1024)) $((kb * 1024)))
	cap_rd=$(min "$(min $((kb * 1024)) $((segs * segsz)))" "$win")
	m="$name (start $start, size $size, soft block $sbs)"
	out=$TS_TMP/$name
	ts_log "== $m"

	# rmw(requests): 2 per write request when the start is off 4 KiB
	local off=0
	[ $((start % 4096)) -ne 0 ] && off=1

	# jq costs ~50 ms a call: one call per file, the values on one line
	local t_max t_n t_bytes t_rmw m_cap m_max m_n m_rmw m_min m_capmax m_bytes

	# 1. buffered writes, dd bs=1M count=8 conv=fsync
	trace_json "$out.bw.trace" --physical-sector-size 4096 "$node" -- \
		dd if=/dev/zero of="$node" bs=1M count=8 conv=fsync status=none || return
	"$BLKALIGN" model --json --workload seq-write-buffered --total 8M \
		--physical-sector-size 4096 "$node" >"$out.bw.model" ||
		{ ts_fail "model $node"; return; }
	read -r t_max t_n t_bytes t_rmw < <(jqv '.requests.write |
		"\(.request_max) \(.requests) \(.bytes) \(.rmw)"' "$out.bw.trace")
	read -r m_cap m_max m_n m_rmw < <(jqv '.models[0].actual |
		"\(.request_cap) \(.request_max) \(.requests) \(.rmw)"' "$out.bw.model")
	ts_expect_eq "$m: buffered write cap (hand, model cap, model max, traced max)" \
		"$cap_bw $cap_bw $cap_bw $cap_bw" "$cap_bw $m_cap $m_max $t_max"
	ts_expect_eq "$m: model buffered write requests = 8 MiB / cap" $((8388608 / cap_bw)) "$m_n"
	within "$m: traced buffered write requests (model $m_n +-2)" "$t_n" $((m_n - 2)) $((m_n + 2))
	ts_expect_eq "$m: traced bytes written" 8388608 "$t_bytes"
	ts_expect_eq "$m: model rmw (2 per request off 4 KiB)" $((off * 2 * m_n)) "$m_rmw"
	within "$m: traced partial-sector writes (model $m_rmw +-4)" "$t_rmw" $((m_rmw - 4)) $((m_rmw + 4))

	# 2. direct writes, dd bs=1M count=8 oflag=direct.  A request holds
	# max_segments segments of the user buffer: one page each when the
	# buffer's pages are scattered, up to max_segment_size when they
	# happen to be physically contiguous: the cap is a range.
	trace_json "$out.dw.trace" --physical-sector-size 4096 "$node" -- \
		dd if=/dev/zero of="$node" bs=1M count=8 oflag=direct status=none || return
	"$BLKALIGN" model --json --workload seq-write-direct --total 8M \
		--physical-sector-size 4096 "$node" >"$out.dw.model" ||
		{ ts_fail "model $node"; return; }
	read -r t_max t_n t_bytes t_rmw < <(jqv '.requests.write |
		"\(.request_max) \(.requests) \(.bytes) \(.rmw)"' "$out.dw.trace")
	read -r m_cap m_min m_capmax m_n m_rmw < <(jqv '.models[0].actual |
		"\(.request_cap) \(.request_cap_min) \(.request_cap_max) \(.requests) \(.rmw)"' "$out.dw.model")
	ts_expect_eq "$m: direct write cap, page segments (hand, model cap, model cap_min)" \
		"$cap_dio $cap_dio $cap_dio" "$cap_dio $m_cap $m_min"
	ts_expect_eq "$m: direct write cap, contiguous buffer (hand, model cap_max)" \
		"$cap_dio_max $cap_dio_max" "$cap_dio_max $m_capmax"
	within "$m: traced direct write max (model cap range)" "$t_max" "$cap_dio" "$cap_dio_max"
	ts_expect_eq "$m: model direct write requests = 8 x ceil(1 MiB / cap)" \
		$((8 * ((1048576 + cap_dio - 1) / cap_dio))) "$m_n"
	within "$m: traced direct write requests (8 .. model $m_n)" "$t_n" \
		$((8 * ((1048576 + cap_dio_max - 1) / cap_dio_max))) "$m_n"
	ts_expect_eq "$m: traced bytes written directly" 8388608 "$t_bytes"
	ts_expect_eq "$m: model direct rmw" $((off * 2 * m_n)) "$m_rmw"
	ts_expect_eq "$m: traced direct partial-sector writes (2 per request off 4 KiB)" \
		$((off * 2 * t_n)) "$t_rmw"

	# 3. buffered reads, cold cache, dd bs=1M count=8
	trace_drop_cache "$node"
	trace_json "$out.rd.trace" "$node" -- \
		dd if="$node" of=/dev/null bs=1M count=8 status=none || return
	"$BLKALIGN" model --json --workload seq-read --total 8M "$node" >"$out.rd.model" ||
		{ ts_fail "model $node"; return; }
	read -r t_max t_n t_bytes < <(jqv '.requests.read |
		"\(.request_max) \(.requests) \(.bytes)"' "$out.rd.trace")
	read -r m_cap m_max m_n m_min m_bytes < <(jqv '.models[0].actual |
		"\(.request_cap) \(.request_max) \(.requests) \(.request_cap_min) \(.request_bytes)"' "$out.rd.model")
	ts_expect_eq "$m: read cap (hand, model cap, model max, traced max)" \
		"$cap_rd $cap_rd $cap_rd $cap_rd" "$cap_rd $m_cap $m_max $t_max"
	cap_rd_min=$(min "$cap_rd" $((segs * 4096)))
	ts_expect_eq "$m: read cap with one page per segment (hand, model)" \
		"$cap_rd_min" "$m_min"
	# readahead: windows of $win over the 8 MiB and one more
	rb=$(( ((8388608 + win - 1) / win + 1) * win ))
	ts_expect_eq "$m: bytes read ahead (hand, model, traced)" "$rb $rb $rb" \
		"$rb $m_bytes $t_bytes"
	within "$m: traced read requests (model $m_n .. one page per segment)" \
		"$t_n" "$m_n" $(( (rb + win - 1) / win * ((win + cap_rd_min - 1) / cap_rd_min) ))

	# 4. mkfs.ext4 writing everything (no zeroout, no lazy init)
	trace_json "$out.mk.trace" "$node" -- env UNIX_IO_NOZEROOUT=1 \
		mkfs.ext4 -q -F -b 4096 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$node" || return
	read -r t_max t_n mb < <(jqv '.requests.write |
		"\(.request_max) \(.requests) \(.bytes)"' "$out.mk.trace")
	"$BLKALIGN" model --json --workload mkfs --total "$mb" "$node" >"$out.mk.model" ||
		{ ts_fail "model $node"; return; }
	read -r m_cap m_n < <(jqv '.models[0].actual | "\(.request_cap) \(.requests)"' "$out.mk.model")
	ts_expect_eq "$m: mkfs write cap (hand, model cap, traced max)" \
		"$cap_bw $cap_bw $cap_bw" "$cap_bw $m_cap $t_max"
	within "$m: mkfs traced write requests for $mb bytes (model $m_n .. +10%+16)" \
		"$t_n" "$m_n" $((m_n + m_n / 10 + 16))
}
