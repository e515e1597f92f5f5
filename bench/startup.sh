#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# startup.sh - what one blkalign process costs before it does anything,
# and what `blkalign check` of one small image costs in all, against the
# peer that lists the same table (`sfdisk -J IMG`) and against a process
# that does nothing (`/bin/true`), in the same run: hyperfine (no shell,
# warm-up runs first) times each, in ROUNDS rounds that take turns (a
# load that comes and goes hits every command alike); the median of all
# runs counts.  Also the libraries
# libblkalign.so needs (its NEEDED list), how many a check process maps,
# and each one's peak RSS.  Target: check --json IMG faster than sfdisk
# -J IMG (libnbd, which costs 2.4 ms of start-up, is loaded only when a
# qemu image or an NBD URI needs it: lib/scan/nbd-dl.c).
#
# Usage: bench/startup.sh [--build DIR] [--runs N] [--rounds R]
#   --build DIR  the build to time (default build; or BLKALIGN=binary)
#   --runs N     timed runs of each command (default 300), in
#   --rounds R   rounds (default 5)
# Environment:
#   BLKALIGN_BASE  an older binary, timed the same way beside
# The image: 64 MiB, sparse, GPT with two partitions (sfdisk), in a temp
# dir; nothing else is written.  Needs hyperfine (apt-get install
# hyperfine), sfdisk, jq, readelf (binutils), /usr/bin/time.
# Exit status: 0 when check --json is faster than sfdisk -J (medians), 1
# when not, 2 on a setup error.
set -eu
export LC_ALL=C
top=$(cd "$(dirname "$0")/.." && pwd)
TOP=$top
build=$top/build runs=300 rounds=5
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--runs N] [--rounds R]" >&2; exit 2 ;;
	esac
done
case $runs$rounds in '' | *[!0-9]*) echo "$0: --runs and --rounds take a number" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] && [ "$runs" -ge "$rounds" ] || { echo "$0: needs 1 <= --rounds <= --runs" >&2; exit 2; }
. "$top/bench/lib.sh"
B=$(bench_bin "${BLKALIGN:-$build/cli/blkalign}")
BASE=
[ -z "${BLKALIGN_BASE:-}" ] || BASE=$(bench_bin "$BLKALIGN_BASE")
for p in hyperfine sfdisk jq readelf; do
	command -v "$p" >/dev/null || { echo "$0: '$p' is not installed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
img=$tmp/disk.img
truncate -s 64M "$img"
printf 'label: gpt\n,16M\n,\n' | sfdisk -q "$img"
"$B" check --json "$img" >/dev/null || [ $? -eq 1 ] ||
	{ echo "$0: blkalign check failed on $img" >&2; exit 2; }

cmds=(/bin/true "sfdisk -J $img" "$B --version" "$B check --json $img" "$B check $img")
names=("/bin/true" "sfdisk -J IMG" "blkalign --version" "blkalign check --json IMG" "blkalign check IMG")
if [ -n "$BASE" ]; then
	cmds+=("$BASE --version" "$BASE check --json $img")
	names+=("base: blkalign --version" "base: blkalign check --json IMG")
fi
# exit status 1 is check's "findings": not a failure here (-i)
for (( r = 0; r < rounds; r++ )); do
	hyperfine -N --warmup 10 --runs $(( runs / rounds )) -i \
		--export-json "$tmp/r$r.json" "${cmds[@]}" >/dev/null 2>"$tmp/err" ||
		{ echo "$0: hyperfine failed: $(cat "$tmp/err")" >&2; exit 2; }
done
# every command's times of all rounds: median, min, mean
jq -s '[[.[].results] | transpose[] | [.[].times[]] | sort | {
	median: (if length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end),
	min: .[0], mean: (add / length)}] | {results: .}' \
	"$tmp"/r[0-9]*.json >"$tmp/r.json"

lib=$(ldd "$B" | awk '$1 ~ /^libblkalign\.so/ { print $3 }')
echo "binary: $B"
if [ -n "$lib" ]; then
	echo "NEEDED of $lib: $(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -sd' ')"
fi
echo "libraries mapped by blkalign: $(ldd "$B" | grep -c '=>'); by sfdisk: $(ldd "$(command -v sfdisk)" | grep -c '=>')"
echo
printf '  %-34s %9s %9s %9s %10s\n' "" median min mean "peak RSS"
for i in "${!cmds[@]}"; do
	# shellcheck disable=SC2086 # the command's words
	/usr/bin/time -f %M -o "$tmp/rss" ${cmds[$i]} >/dev/null 2>&1 || true
	jq -r --argjson i "$i" --arg n "${names[$i]}" --arg rss "$(tail -n 1 "$tmp/rss")" \
		'.results[$i] | "\($n)\t\(.median * 1000)\t\(.min * 1000)\t\(.mean * 1000)\t\($rss)"' "$tmp/r.json"
done | awk -F'\t' '{ printf "  %-34s %6.2f ms %6.2f ms %6.2f ms %6.1f MiB\n", $1, $2, $3, $4, $5 / 1024 }'
med() { jq --argjson i "$1" '.results[$i].median' "$tmp/r.json"; }
least() { jq --argjson i "$1" '.results[$i].min' "$tmp/r.json"; }
echo
awk -v t="$(med 0)" -v s="$(med 1)" -v v="$(med 2)" -v c="$(med 3)" \
	-v ls="$(least 1)" -v lc="$(least 3)" 'BEGIN {
	printf "ratio check --json IMG / sfdisk -J IMG: %.2fx (target < 1); of the fastest runs %.2fx\n", c / s, lc / ls
	printf "start-up over /bin/true: blkalign --version %.2f ms, sfdisk -J IMG %.2f ms in all\n", (v - t) * 1000, (s - t) * 1000 }'
if [ -n "$BASE" ]; then
	awk -v c="$(med 3)" -v b="$(med 6)" 'BEGIN {
		printf "ratio base / this, check --json IMG: %.2fx\n", b / c }'
fi
awk -v c="$(med 3)" -v s="$(med 1)" 'BEGIN { exit !(c < s) }'
