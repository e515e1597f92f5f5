#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# move-vs-dd.sh - how fast `blkalign fix` moves a partition, against a
# pipelined O_DIRECT copy of the same bytes on the same device (the
# physical limit: bench/pcopy.c), a raw dd and `sfdisk --move-data`, in
# one run.  Targets: fix/pipe >= 1.0, fix/sfdisk >= 2.5.
#
# Usage: bench/move-vs-dd.sh [--build DIR] [--rounds N] [--size MIB]
#                            [--no-drop-caches]
#
# The disk: an image file of SIZE + 4 MiB (default SIZE 1024) in $TMPDIR
# or /var/tmp (a real filesystem: the loop device uses direct I/O to it),
# a dos table with one partition at sector 63 of SIZE MiB filled with
# random data, on a loop device attached with --direct-io=on.  Each
# round runs, in a rotating order, each on a freshly restored disk:
#   dd      dd if=L of=L bs=4M iflag=direct oflag=direct, the SIZE MiB at
#           sector 63 copied to sector 2048 (the same shift; dd only
#           copies forward, so the overlapping copy garbles the data:
#           timing only)
#   fix     blkalign fix --yes --partition 1 --copy-all L (63 -> 2048;
#           512n loop: an optional move, hence --partition)
#   sfdisk  echo '2048,<size>' | sfdisk -q --move-data -N 1 L
#   pipe    pcopy --step STEP L <63 * 512> <2048 * 512> <SIZE MiB>: a
#           reader thread and a writer over a ring of 4 buffers of fix's
#           step (the shift cut to 4 KiB, at most 16 MiB), from the end
#           backwards, one fdatasync; no journal, no table (built here
#           from bench/pcopy.c with cc)
# before each: sync and (unless --no-drop-caches) drop the page cache.
# Wall time of the whole command (table writes and flushes included);
# the results of fix, sfdisk and pipe are checked (sha256 of the
# partition's bytes at sector 2048 = the random data).  Prints every run,
# each round's ratios fix/pipe, fix/sfdisk and fix/dd (the same round:
# the same load), the medians in MB/s (10^6 bytes/s), the ratios of the
# medians and the median of the per-round ratios.
# Needs root and a C compiler; writes only to its own image and the loop
# device it attaches (detached by name on exit).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build rounds=5 size=1024 drop=1
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--no-drop-caches) drop=; shift ;;
	*) echo "usage: $0 [--build DIR] [--rounds N] [--size MIB] [--no-drop-caches]" >&2; exit 2 ;;
	esac
done
bin=$build/cli/blkalign
. "$top/bench/lib.sh"
bench_require "$bin" losetup sfdisk dd sha256sum jq cc
bench_tmpdir "${TMPDIR:-/var/tmp}" blkalign-move
cc -O2 -pthread -o "$tmp/pcopy" "$top/bench/pcopy.c" || exit 1

MiB=1048576
bytes=$((size * MiB))
sectors=$((size * 2048))
shift_bytes=$(((2048 - 63) * 512))
# fix's step for this move: the shift cut to 4 KiB, at most 16 MiB
step=$((shift_bytes < 16 * MiB ? shift_bytes / 4096 * 4096 : 16 * MiB))
img=$tmp/disk.img
pristine=$tmp/pristine.img

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs; backing file on $(df -P "$tmp" | awk 'NR == 2 {print $1}')"
echo "# disk: ${size} MiB partition at sector 63 (random data), moved to sector 2048 (+1985 sectors); step $step bytes"
head -c "$bytes" /dev/urandom >"$tmp/rand.bin"
want=$(sha256sum <"$tmp/rand.bin" | cut -d' ' -f1)
truncate -s $((bytes + 4 * MiB)) "$pristine"
printf 'label: dos\nlabel-id: 0x6d6f7665\nunit: sectors\nstart=63, size=%d, type=83\n' "$sectors" |
	sfdisk -q --no-reread --no-tell-kernel "$pristine" >/dev/null || exit 1
dd if="$tmp/rand.bin" of="$pristine" bs=4M seek=$((63 * 512)) oflag=seek_bytes \
	conv=notrunc,fsync status=none || exit 1
rm -f "$tmp/rand.bin"

restore() {
	bench_detach
	cp --sparse=never "$pristine" "$img" && sync "$img" || exit 1
	bench_attach "$img" --direct-io=on
	sync
	[ -n "$drop" ] && echo 3 >/proc/sys/vm/drop_caches
}

now() { date +%s.%N; }
mbps() { awk -v b="$bytes" -v s="$1" 'BEGIN { printf "%.1f", b / s / 1e6 }'; }
check() {
	local got
	got=$(dd if="$dev" bs=4M iflag=direct,skip_bytes,count_bytes skip=$((2048 * 512)) \
		count="$bytes" status=none | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] && echo ok || echo "DATA DIFFER"
}

run_dd() {
	echo "dd if=$dev of=$dev bs=4M iflag=direct,skip_bytes,count_bytes oflag=direct,seek_bytes skip=$((63 * 512)) seek=$((2048 * 512)) count=$bytes" >"$tmp/cmd"
	dd if="$dev" of="$dev" bs=4M iflag=direct,skip_bytes,count_bytes oflag=direct,seek_bytes \
		skip=$((63 * 512)) seek=$((2048 * 512)) count="$bytes" status=none
}
run_fix() {
	rm -f "$tmp/journal"
	echo "$bin fix --yes --partition 1 --copy-all --progress none -J --journal $tmp/journal $dev" >"$tmp/cmd"
	"$bin" fix --yes --partition 1 --copy-all --progress none -J --journal "$tmp/journal" "$dev" \
		>"$tmp/fix.json" 2>"$tmp/fix.err"
}
run_pipe() {
	echo "$tmp/pcopy --step $step $dev $((63 * 512)) $((2048 * 512)) $bytes" >"$tmp/cmd"
	"$tmp/pcopy" --step "$step" "$dev" $((63 * 512)) $((2048 * 512)) "$bytes" >"$tmp/pipe.err" 2>&1
}
run_sfdisk() {
	echo "echo '2048,$sectors' | sfdisk -q --move-data -N 1 $dev" >"$tmp/cmd"
	echo "2048,$sectors" | sfdisk -q --move-data -N 1 "$dev" >"$tmp/sfdisk.out" 2>&1
}

declare -A res rate
tools=(dd fix sfdisk pipe)
n=${#tools[@]}
printed=
for ((r = 1; r <= rounds; r++)); do
	for ((k = 0; k < n; k++)); do
		t=${tools[$(((r + k) % n))]}
		restore
		t0=$(now)
		"run_$t"
		rc=$?
		t1=$(now)
		secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		case $printed in *" $t "*) ;; *) echo "# $t: $(cat "$tmp/cmd")"; printed="$printed $t " ;; esac
		extra=
		case $t in
		dd) extra="(timing only)" ;;
		fix) extra="$(check); fix's own copy rate $(jq -r '.partitions[0].rate / 1e6 | floor' "$tmp/fix.json" 2>/dev/null) MB/s, mode $(jq -r '.partitions[0].mode' "$tmp/fix.json" 2>/dev/null), $(jq -r '.flushes' "$tmp/fix.json" 2>/dev/null) flushes"
		     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/fix.err")" ;;
		sfdisk) extra="$(check)"
		     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/sfdisk.out")" ;;
		pipe) extra="$(check); $(((bytes + step - 1) / step)) steps of $step bytes"
		     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/pipe.err")" ;;
		esac
		printf 'round %d  %-6s %8.3f s  %7s MB/s  %s\n' "$r" "$t" "$secs" "$(mbps "$secs")" "$extra"
		res[$t]="${res[$t]:-} $(mbps "$secs")"
		rate[$t]=$(mbps "$secs")
	done
	read -r rp rs rd < <(awk -v f="${rate[fix]}" -v p="${rate[pipe]}" -v s="${rate[sfdisk]}" \
		-v d="${rate[dd]}" 'BEGIN { printf "%.2f %.2f %.2f\n", f / p, f / s, f / d }')
	echo "round $r  ratios fix/pipe $rp, fix/sfdisk $rs, fix/dd $rd"
	rfp="${rfp:-} $rp" rfs="${rfs:-} $rs" rfd="${rfd:-} $rd"
done

md=$(tr ' ' '\n' <<<"${res[dd]}" | median)
mf=$(tr ' ' '\n' <<<"${res[fix]}" | median)
ms=$(tr ' ' '\n' <<<"${res[sfdisk]}" | median)
mp=$(tr ' ' '\n' <<<"${res[pipe]}" | median)
echo "median MB/s: fix $mf, pipe $mp, sfdisk $ms, dd $md"
awk -v f="$mf" -v p="$mp" -v s="$ms" -v d="$md" 'BEGIN {
	printf "ratio of the medians: fix/pipe %.2f (target >= 1.0), fix/sfdisk %.2f (target >= 2.5), fix/dd %.2f\n", f / p, f / s, f / d }'
echo "median of the per-round ratios: fix/pipe $(tr ' ' '\n' <<<"$rfp" | median), fix/sfdisk $(tr ' ' '\n' <<<"$rfs" | median), fix/dd $(tr ' ' '\n' <<<"$rfd" | median)"
