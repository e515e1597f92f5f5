#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fio-vs-bench.sh - `blkalign bench --test seq|rand` against fio on the
# same job: the same loop device (on a backing file, losetup
# --direct-io=on), size, block size, queue depth, O_DIRECT, engine
# (psync, and io_uring when blkalign has it), in the same run, the two
# tools interleaved (the first alternates every round); prints the median
# throughput of each, the ratio of the medians bench / fio (target:
# within 10%), and the median and range of the per-round ratios (each
# round's two runs are back to back: drift between rounds cancels).
#
# Usage: bench/fio-vs-bench.sh [--build DIR] [--rounds N] [--size MIB]
#                              [--writes] [--dir DIR]
#   --writes  also the write jobs.  fio writes its own data; bench
#             rewrites the bytes it has just read (reads untimed), in
#             batches of 64 MiB, so its queue drains between batches.
#   --dir     where the backing file lives (default $TMPDIR or /var/tmp);
#             on tmpfs (/dev/shm, where the kernel allows direct I/O to
#             it) the jobs are CPU-bound: the tools' own overhead shows,
#             the disk's noise does not.  Needs root and fio (Debian: apt-get install fio).
# Writes only to the backing file and the loop device it attaches itself
# (detached on exit).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build rounds=5 size=256 writes='' dir=${TMPDIR:-/var/tmp}
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--writes) writes=1; shift ;;
	--dir) dir=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--rounds N] [--size MIB] [--writes] [--dir DIR]" >&2; exit 2 ;;
	esac
done
bin=$build/cli/blkalign
. "$top/bench/lib.sh"
bench_require "$bin" fio jq
bench_tmpdir "$dir" blkalign-fio

img=$tmp/fio.img
# real blocks, not a sparse file: reads of holes cost nothing
dd if=/dev/zero of="$img" bs=1M count="$size" status=none conv=fsync
bench_attach "$img" --direct-io=on

engines="psync"
"$bin" bench --help | grep -q 'uring' && "$bin" bench -t seq -e uring --rounds 1 \
	--region-size 1M "$dev" >/dev/null 2>&1 && engines="psync uring"

# jobs: pattern rw bs depth
jobs="seq read 1M 1
rand read 4K 1
seq read 128K 1"
for e in $engines; do
	[ "$e" = uring ] && jobs="$jobs
seq read 1M 8
rand read 4K 16"
done
if [ -n "$writes" ]; then
	jobs="$jobs
seq write 1M 1
rand write 4K 1"
fi

bench_once() { # pattern rw bs depth engine
	local w=
	[ "$2" = write ] && w=--write
	"$bin" bench -t "$1" $w -e "$5" -q "$4" -s "$3" --region-size "${size}M" \
		-r 1 -J "$dev" | jq -r '.sides[0].median_bytes_per_s'
}

fio_once() { # pattern rw bs depth engine
	local rw=$2 fe=$5
	[ "$1" = rand ] && rw=rand$2
	[ "$fe" = uring ] && fe=io_uring
	fio --name=job --filename="$dev" --rw="$rw" --bs="$3" --size="${size}M" \
		--direct=1 --ioengine="$fe" --iodepth="$4" --randrepeat=0 \
		--output-format=json 2>/dev/null | jq -r ".jobs[0].$2.bw_bytes"
}

printf 'device %s on %s (%s), %s MiB per pass, %s rounds, kernel %s\n' "$dev" \
	"$tmp" "$(df -P "$tmp" | awk 'NR == 2 { print $1 }')" "$size" "$rounds" "$(uname -r)"
printf '%-6s %-6s %-6s %-5s %-6s %12s %12s %8s %8s %15s\n' ENGINE JOB RW BS DEPTH \
	'BENCH MiB/s' 'FIO MiB/s' RATIO PAIRED 'PAIRED RANGE'
for e in $engines; do
	while read -r pat rw bs depth; do
		[ -n "$pat" ] || continue
		[ "$e" = psync ] && [ "$depth" != 1 ] && continue
		b=() f=()
		for r in $(seq "$rounds"); do
			if [ $((r % 2)) = 1 ]; then
				b+=("$(bench_once "$pat" "$rw" "$bs" "$depth" "$e")")
				f+=("$(fio_once "$pat" "$rw" "$bs" "$depth" "$e")")
			else
				f+=("$(fio_once "$pat" "$rw" "$bs" "$depth" "$e")")
				b+=("$(bench_once "$pat" "$rw" "$bs" "$depth" "$e")")
			fi
		done
		bm=$(printf '%s\n' "${b[@]}" | median)
		fm=$(printf '%s\n' "${f[@]}" | median)
		pr=()
		for i in "${!b[@]}"; do
			pr+=("$(awk -v b="${b[$i]}" -v f="${f[$i]}" 'BEGIN { print (f > 0 ? b / f : 0) }')")
		done
		pm=$(printf '%s\n' "${pr[@]}" | median)
		lo=$(printf '%s\n' "${pr[@]}" | sort -g | head -1)
		hi=$(printf '%s\n' "${pr[@]}" | sort -g | tail -1)
		awk -v e="$e" -v p="$pat" -v rw="$rw" -v bs="$bs" -v d="$depth" \
			-v b="$bm" -v f="$fm" -v pm="$pm" -v lo="$lo" -v hi="$hi" 'BEGIN {
			printf "%-6s %-6s %-6s %-5s %-6s %12.1f %12.1f %7.3fx %7.3fx %7.3f-%.3fx\n",
				e, p, rw, bs, d, b / 1048576, f / 1048576, (f > 0 ? b / f : 0), pm, lo, hi }'
	done <<<"$jobs"
done
