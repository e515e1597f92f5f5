#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# table-limits.sh - tables at their limits, against the peer tools in the
# same run (issue 11, item 9):
#   - dos EBR chains of 2000, 32000 and 100000 links (one sector each,
#     tests/fixtures/mk-table.py): `blkalign check` (which stops where the
#     kernel stops, 256 partitions) against `blkid -p` (libblkid walks
#     every link) and `sfdisk -d`;
#   - a GPT of 4096 and 16384 partitions (mk-table.py gpt-many, which
#     sfdisk --verify accepts), every other one off 4 KiB: `blkalign
#     plan` (the room of every partition from one sort), as text and
#     JSON, and `check`, against `sfdisk -d` of the same table.
# --before DIR adds the same command of another build (an earlier commit)
# to each line.
# Each timed with `timeout` (a peer that takes too long is cut off and
# reported as such), wall time, median of --rounds (default 3).  Prints
# the seconds and blkalign/peer ratios.  Writes only in its temp dir.
# Usage: bench/table-limits.sh [--build DIR] [--before DIR] [--rounds N]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build before= rounds=3 cut=120
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--before) before=$(cd "$2" && pwd)/cli/blkalign; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) echo "usage: $0 [--build DIR] [--before DIR] [--rounds N]" >&2; exit 2 ;;
	esac
done
bin=$build/cli/blkalign
. "$top/bench/lib.sh"
bench_require "$bin" sfdisk blkid python3 timeout
bench_tmpdir "${TMPDIR:-/var/tmp}" blkalign-limits

# t CMD...: wall seconds of CMD (">CUT" when cut off), output discarded
t() {
	local t0 t1 rc
	t0=$(date +%s.%N)
	timeout "$cut" "$@" >/dev/null 2>&1
	rc=$?
	t1=$(date +%s.%N)
	[ $rc = 124 ] && { echo ">$cut"; return; }
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

# med CMD...: the median of $rounds runs of t CMD (one, if it is cut off)
med() {
	local r v=()
	for ((r = 0; r < rounds; r++)); do
		v+=("$(t "$@")")
		case ${v[-1]} in ">"*) echo "${v[-1]}"; return ;; esac
	done
	printf '%s\n' "${v[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b ~ /^>/) { printf "< %.4f (the peer was cut off)", a / substr(b, 2); exit }
		printf "%.3f", (b > 0 ? a / b : 0) }'
}

# was CMD IMAGE: "; before: N s" with --before (one round: it may be slow)
was() {
	[ -n "$before" ] || return 0
	printf '; before: %s s' "$(t "$before" "$@")"
}

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs; median of $rounds, peers cut off at ${cut} s"
for links in 2000 32000 100000; do
	img=$tmp/ebr$links.img
	truncate -s $(((2048 + 2 * links + 4096) * 512)) "$img"
	python3 "$top/tests/fixtures/mk-table.py" ebr-chain "$img" "$links"
	b=$(med "$bin" check "$img")
	k=$(med blkid -p "$img")
	s=$(med sfdisk -d "$img")
	printf 'ebr chain %6d links: blkalign check %s s, blkid -p %s s, sfdisk -d %s s; blkalign/blkid %s, blkalign/sfdisk %s%s\n' \
		"$links" "$b" "$k" "$s" "$(ratio "$b" "$k")" "$(ratio "$b" "$s")" "$(was check "$img")"
	rm -f "$img"
done
for n in 4096 16384; do
	img=$tmp/gpt$n.img
	# the entries take n * 128 bytes after LBA 2: the first usable LBA
	# is the next 1 MiB boundary past them (as mk-table.py gpt-many)
	fl=$(((2 + n / 4 + 2047) / 2048 * 2048))
	truncate -s $(((fl + 8 * n + n / 4 + 2048) * 512)) "$img"
	# sfdisk and sgdisk take many minutes to write thousands of
	# entries; the table is written directly and sfdisk verifies it
	python3 "$top/tests/fixtures/mk-table.py" gpt-many "$img" "$n"
	sfdisk --verify "$img" >/dev/null 2>&1 ||
		{ echo "sfdisk --verify rejects the GPT of $n partitions" >&2; continue; }
	b=$(med "$bin" plan "$img")
	j=$(med "$bin" plan --json "$img")
	c=$(med "$bin" check "$img")
	s=$(med sfdisk -d "$img")
	printf 'gpt %5d partitions: blkalign plan %s s (--json %s s, check %s s), sfdisk -d %s s; plan/sfdisk %s, plan --json/sfdisk %s%s\n' \
		"$n" "$b" "$j" "$c" "$s" "$(ratio "$b" "$s")" "$(ratio "$j" "$s")" "$(was plan "$img")"
	rm -f "$img"
done
