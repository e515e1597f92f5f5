#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# trace-overhead.sh - what `blkalign trace` costs the command it traces:
# a buffered dd of SIZE MiB (default 1024) with conv=fsync to a loop
# device, ROUNDS times (default 7) without and with the tracer,
# interleaved so that drifts hit both alike; prints each round and the
# overhead of the medians in percent (target: under 5 %).
#
# Usage: bench/trace-overhead.sh [--build DIR] [--rounds N] [--size MIB]
#                                [--odd]
#   --odd  write to a partition of an odd number of sectors (soft block
#          512: 8x the requests, so 8x the events)
# The image lives in /dev/shm when it has room (less noise from the disk
# under the backing file), else in $TMPDIR or /var/tmp.  One warm-up run
# of each is not counted.
# Needs root; writes only to an image file in a temp dir and the loop
# device it attaches (detached on exit).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build rounds=7 size=1024 odd=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--odd) odd=1; shift ;;
	*) echo "usage: $0 [--build DIR] [--rounds N] [--size MIB] [--odd]" >&2; exit 2 ;;
	esac
done
bin=$build/cli/blkalign
. "$top/bench/lib.sh"
bench_require "$bin"

base=${TMPDIR:-/var/tmp}
if [ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt $(((size + 512) * 1024)) ]; then
	base=/dev/shm
fi
bench_tmpdir "$base" blkalign-bench

img=$tmp/bench.img
truncate -s $(((size + 4) * 1024 * 1024)) "$img"
if [ -n "$odd" ]; then
	# one partition from 1 MiB, an odd number of sectors: soft block 512
	printf 'label: dos\nstart=2048, size=%d, type=83\n' $((size * 2048 + 1)) |
		sfdisk -q "$img" >/dev/null
	bench_attach "$img" -P
	partx -a "$dev" 2>/dev/null
	target=${dev}p1
else
	bench_attach "$img"
	target=$dev
fi
echo "target $target ($(blockdev --getsize64 "$target") bytes, soft block $(blockdev --getbsz "$target")), $size MiB per run, $rounds rounds"

# run CMD...: prints "wall user+sys" seconds of CMD (and its children)
run() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" ||
		{ echo "failed: $*: $(cat "$tmp/err")" >&2; exit 1; }
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time"
}

plain=() traced=() cplain=() ctraced=() owns=()
dd_cmd=(dd if=/dev/zero of="$target" bs=1M count="$size" conv=fsync status=none)
run "${dd_cmd[@]}" >/dev/null
run "$bin" trace "$target" -- "${dd_cmd[@]}" >/dev/null
for ((r = 1; r <= rounds; r++)); do
	# alternate which goes first
	if [ $((r % 2)) = 1 ]; then
		read -r p cp < <(run "${dd_cmd[@]}")
		read -r t ct < <(run "$bin" trace "$target" -- "${dd_cmd[@]}")
		ev=$(awk '/ events in / { print $1; exit }' "$tmp/out")
		own=$(awk '/^tracer CPU time:/ { print $4 }' "$tmp/out")
	else
		read -r t ct < <(run "$bin" trace "$target" -- "${dd_cmd[@]}")
		ev=$(awk '/ events in / { print $1; exit }' "$tmp/out")
		own=$(awk '/^tracer CPU time:/ { print $4 }' "$tmp/out")
		read -r p cp < <(run "${dd_cmd[@]}")
	fi
	plain+=("$p") traced+=("$t") cplain+=("$cp") ctraced+=("$ct") owns+=("$own")
	printf 'round %d: plain %.3f s (cpu %.2f s), traced %.3f s (cpu %.2f s, %d events, tracer itself %.3f s cpu)\n' \
		"$r" "$p" "$cp" "$t" "$ct" "$ev" "$own"
done

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
mp=$(median "${plain[@]}") mt=$(median "${traced[@]}")
cp=$(median "${cplain[@]}") ct=$(median "${ctraced[@]}")
printf 'median wall: plain %.3f s, traced %.3f s, overhead %.1f %%\n' "$mp" "$mt" \
	"$(echo "($mt - $mp) * 100 / $mp" | bc -l)"
mo=$(median "${owns[@]}")
printf 'median cpu (dd and children): plain %.2f s, traced %.2f s\n' "$cp" "$ct"
printf 'median cpu of the tracer process itself: %.3f s = %.2f %% of the plain wall time\n' \
	"$mo" "$(echo "$mo * 100 / $mp" | bc -l)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (wall times are only"
echo "meaningful on an otherwise idle machine)"
