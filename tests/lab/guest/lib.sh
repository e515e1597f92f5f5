# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - helpers for the lab's guest scenarios (sourced by /init).
# A scenario runs in its own output directory (/out/<name>/): what it
# writes there comes back to the host, where tests/ts/lab/<name> checks
# blkalign's output against the kernel's ground truth saved beside it.

# lab_disk SERIAL: the vdX name of the virtio disk with that serial.
lab_disk() {
	local s
	for s in /sys/block/vd*/serial; do
		[ "$(cat "$s")" = "$1" ] && { basename "$(dirname "$s")"; return 0; }
	done
	echo "lab: no disk with serial '$1'" >&2
	return 1
}

# lab_run NAME CMD...: run a command, its stdout in NAME.out, stderr in
# NAME.err and exit status in NAME.rc.
lab_run() {
	local n=$1
	shift
	"$@" >"$n.out" 2>"$n.err"
	echo "$?" >"$n.rc"
}

# lab_partition DISK START SIZE TYPE...: a dos table on /dev/DISK with one
# partition per START SIZE TYPE triple, as sfdisk writes it.
lab_partition() {
	local d=$1 n=1
	shift
	{
		printf 'label: dos\nunit: sectors\n'
		while [ $# -ge 3 ]; do
			printf '%s : start=%s, size=%s, type=%s\n' $n "$1" "$2" "$3"
			n=$((n + 1))
			shift 3
		done
	} | sfdisk -q "/dev/$d"
}

# lab_topology DEV...: the kernel's view of each block device, one line
# each: name, alignment_offset, logical/physical block size, minimum and
# optimal I/O, soft block size and size in 512-byte sectors.
lab_topology() {
	local d
	for d in "$@"; do
		echo "$d alignoff=$(blockdev --getalignoff "/dev/$d") ss=$(blockdev --getss "/dev/$d") pbsz=$(blockdev --getpbsz "/dev/$d") iomin=$(blockdev --getiomin "/dev/$d") ioopt=$(blockdev --getioopt "/dev/$d") bsz=$(blockdev --getbsz "/dev/$d") size=$(blockdev --getsz "/dev/$d")"
	done
}

TR=/sys/kernel/tracing

# lab_trace_on / lab_trace_off: block_rq_issue events into the trace buffer.
lab_trace_on() {
	echo >$TR/trace
	echo 1 >$TR/events/block/block_rq_issue/enable
	echo 1 >$TR/tracing_on
}
lab_trace_off() {
	echo 0 >$TR/tracing_on
	echo 0 >$TR/events/block/block_rq_issue/enable
}

# lab_trace_count DISK RW: block_rq_issue requests of the buffer to DISK
# whose rwbs starts with RW (R or W).
lab_trace_count() {
	local dev
	dev=$(tr : , <"/sys/block/$1/dev")
	grep block_rq_issue $TR/trace | grep " $dev $2" | grep -c . || true
}

# lab_blockdevs: every block device the kernel has, one line each: name,
# maj:min, the whole disk it is on, start in sectors (0 for a disk), size
# in sectors, and the dm name or "-".
lab_blockdevs() {
	local b n disk start dm
	for b in /sys/class/block/*; do
		n=$(basename "$b")
		if [ -f "$b/partition" ]; then
			disk=$(basename "$(dirname "$(readlink -f "$b")")")
			start=$(cat "$b/start")
		else
			disk=$n start=0
		fi
		dm=$(cat "$b/dm/name" 2>/dev/null || echo -)
		echo "$n $(cat "$b/dev") $disk $start $(cat "$b/size") $dm"
	done
}

# lab_trace_writes DISK: "requests=N bytes=B" of the buffer's block_rq_issue
# writes to DISK (rwbs W..., or FW... for a write with a preflush), the
# kernel's own count to hold blkalign trace's against.
lab_trace_writes() { lab_trace_rw "$1" '^F?W'; }

# lab_trace_reads DISK: the same for the reads (rwbs R...).
lab_trace_reads() { lab_trace_rw "$1" '^R'; }

# lab_trace_rw DISK RWBS-REGEX: "requests=N bytes=B partial=P rmw=M" of
# the buffer's block_rq_issue events to DISK whose rwbs matches: P of
# them cover part of a physical sector (counted from the disk's
# alignment offset), which for a write costs the 512e drive M
# read-modify-writes (head and tail; one when both fall in one sector).
lab_trace_rw() {
	local dev pss ao
	dev=$(tr : , <"/sys/block/$1/dev")
	pss=$(cat "/sys/block/$1/queue/physical_block_size")
	ao=$(cat "/sys/block/$1/alignment_offset")
	awk -v dev="$dev" -v rw="$2" -v pss="$pss" -v ao="$ao" '{
		for (i = 1; i < NF; i++) if ($i == "block_rq_issue:") break
		if (i >= NF || $(i + 1) != dev || $(i + 2) !~ rw) next
		n++; b += $(i + 7) * 512
		lo = $(i + 5) * 512 - ao + pss; hi = lo + $(i + 7) * 512
		h = lo % pss; t = hi % pss
		if (h || t) {
			p++
			m += (int(lo / pss) == int((hi - 1) / pss)) ? 1 : ((h != 0) + (t != 0))
		}
	} END { printf "requests=%d bytes=%d partial=%d rmw=%d\n", n, b, p, m }' $TR/trace
}
