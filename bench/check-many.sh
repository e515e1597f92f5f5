#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-many.sh - `blkalign check DIR` over a directory of N images in one
# process (a libvirt pool): its peak RSS against that of auditing the
# largest image alone (the streamed report holds one device at a time:
# the ratio should stay near 1), and its wall time against one blkalign
# process per image and against the peer pass that lists every table
# (`sfdisk -J IMG` per image), in the same run.  --json=lines (issue 27)
# too: its peak RSS (flat: at most LINES_RSS_MIB) and its time per image
# against the pretty document's.
#
# Usage: bench/check-many.sh [N]        (N defaults to 200)
# Environment:
#   BLKALIGN       binary under test (default build/cli/blkalign)
#   BLKALIGN_BASE  an older binary, timed the way it could do it (all the
#                  images as operands: it knows no directories)
#   SEED, BENCH_CACHE  as bench/check-vs-peers.sh (the same image sets:
#                  bench/mkimages.sh, N images and their .sfdisk scripts,
#                  which check DIR skips)
#   REPS           runs of each one-process measurement, the median counts
#                  (default 3)
#   PER_IMAGE      0: leave out the one-process-per-image and sfdisk passes
#                  (minutes at 10,000 images); default 1
#   LINES_RSS_MIB  the most peak RSS of check --json=lines DIR (default 32)
# Needs: sfdisk, jq, flock, /usr/bin/time (Debian package "time").
# Generation is not timed.  Exit status: 0 when the RSS ratio is at most
# 1.5 and --json=lines' RSS at most LINES_RSS_MIB, 1 above, 2 on a setup
# error.
set -eu
export LC_ALL=C

N=${1:-200}
SEED=${SEED:-1}
REPS=${REPS:-3}
PER_IMAGE=${PER_IMAGE:-1}
LINES_RSS_MIB=${LINES_RSS_MIB:-32}
RSS_TARGET=1.5
case $N$SEED$REPS$PER_IMAGE$LINES_RSS_MIB in *[!0-9]*) echo "$0: N, SEED, REPS, PER_IMAGE and LINES_RSS_MIB must be integers" >&2; exit 2;; esac
[ "$N" -ge 1 ] && [ "$REPS" -ge 1 ] || { echo "$0: N and REPS must be >= 1" >&2; exit 2; }

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
B=$(bench_bin "${BLKALIGN:-build/cli/blkalign}")
BASE=
[ -z "${BLKALIGN_BASE:-}" ] || BASE=$(bench_bin "$BLKALIGN_BASE")
for p in sfdisk jq flock; do
	command -v "$p" >/dev/null || { echo "$0: '$p' is not installed" >&2; exit 2; }
done
[ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1 ||
	{ echo "$0: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

# --- images (cached, shared with check-vs-peers.sh) ---
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/blkalign-bench}
GENVER=$(sha1sum "$HERE/mkimages.sh" | cut -c1-10)
DIR=$CACHE/n$N-s$SEED-$GENVER
bench_lock "$DIR"
if [ ! -f "$DIR/manifest.tsv" ]; then
	echo "generating $N images in $DIR (not timed)..."
	rm -rf "$DIR"
	"$HERE/mkimages.sh" "$N" "$SEED" "$DIR"
else
	echo "reusing $N images in $DIR"
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/check-many.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# check DIR must see only the set: last-run/ of check-vs-peers.sh is
# skipped as a subdirectory, manifest.tsv and the scripts as no images
cd "$DIR"
mapfile -t IMGS < <(cut -f1 manifest.tsv)

# run OUT CMD...: "seconds peak-KiB cpu-seconds" of one run of CMD
# (stdout to OUT).  CPU time (user + system) says more than wall time on
# a loaded machine.
run() {
	local out=$1
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$WORK/t" "$@" >"$out" 2>/dev/null || true
	tail -n 1 "$WORK/t" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'
}

# median_of CMD...: the run of median wall time of REPS runs.
median_of() {
	local i
	for (( i = 0; i < REPS; i++ )); do
		run "$WORK/out" "$@"
	done | sort -n | sed -n "$(( (REPS + 1) / 2 ))p"
}

"$B" check --json "$DIR" >/dev/null 2>&1 || true # warm-up: page cache, loader

read -r dir_json_s dir_json_kib dir_json_cpu < <(median_of "$B" check --json "$DIR")
cp "$WORK/out" "$WORK/dir.json"
read -r dir_lines_s dir_lines_kib dir_lines_cpu < <(median_of "$B" check --json=lines "$DIR")
cp "$WORK/out" "$WORK/dir.lines"
read -r dir_text_s dir_text_kib dir_text_cpu < <(median_of "$B" check "$DIR")

# one process per image: the largest RSS of them, the total time
max1=0 big='' per_s=- peer_s=-
if [ "$PER_IMAGE" -ne 0 ]; then
	t0=$EPOCHREALTIME
	for img in "${IMGS[@]}"; do
		read -r _ kib _ < <(run /dev/null "$B" check --json "$img")
		[ "$kib" -le "$max1" ] || { max1=$kib; big=$img; }
	done
	per_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')

	# the peer pass: every table listed, one sfdisk per image
	t0=$EPOCHREALTIME
	for img in "${IMGS[@]}"; do
		sfdisk -J "$img" >/dev/null 2>&1 || true
	done
	peer_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
fi

if [ -n "$BASE" ]; then
	read -r base_json_s base_json_kib base_json_cpu < <(median_of "$BASE" check --json "${IMGS[@]}")
	read -r base_text_s base_text_kib base_text_cpu < <(median_of "$BASE" check "${IMGS[@]}")
fi

# the directory run saw the set: N devices, the other files skipped
ndev=$(jq '.devices | length' "$WORK/dir.json")
nskip=$(jq '.skipped | length' "$WORK/dir.json")
nfiles=$(find "$DIR" -mindepth 1 -maxdepth 1 | wc -l)
ok=1
[ "$ndev" -eq "$N" ] && [ $(( ndev + nskip )) -eq "$nfiles" ] || ok=0
# --json=lines: the same devices a line each, then the summary
nlines=$(wc -l <"$WORK/dir.lines")
[ "$nlines" -eq $(( N + 1 )) ] &&
	[ "$(tail -n 1 "$WORK/dir.lines" | jq .counts.targets)" -eq "$N" ] || ok=0

mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
ms() { awk -v s="$1" -v n="$N" 'BEGIN { printf "%.2f ms", 1000 * s / n }'; }
ratio=$(awk -v a="$dir_json_kib" -v b="$max1" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
echo
echo "check DIR over $N images ($nfiles entries: $ndev audited, $nskip skipped)"
printf '  %-44s %8s %8s  %s\n' "" "wall" "cpu" "peak RSS"
printf '  %-44s %8s s %6s s  %s\n' "blkalign check --json DIR (one process)" "$dir_json_s" "$dir_json_cpu" "$(mib "$dir_json_kib")"
printf '  %-44s %8s s %6s s  %s\n' "blkalign check --json=lines DIR" "$dir_lines_s" "$dir_lines_cpu" "$(mib "$dir_lines_kib")"
printf '  %-44s %8s s %6s s  %s\n' "blkalign check DIR (text)" "$dir_text_s" "$dir_text_cpu" "$(mib "$dir_text_kib")"
if [ "$PER_IMAGE" -ne 0 ]; then
	printf '  %-44s %8s s %8s  %s (largest: %s)\n' "blkalign check --json IMG, one process each" "$per_s" "" "$(mib "$max1")" "$big"
	printf '  %-44s %8s s\n' "peers: sfdisk -J IMG, one process each" "$peer_s"
fi
if [ -n "$BASE" ]; then
	printf '  %-44s %8s s %6s s  %s\n' "base: check --json IMG... (one process)" "$base_json_s" "$base_json_cpu" "$(mib "$base_json_kib")"
	printf '  %-44s %8s s %6s s  %s\n' "base: check IMG... (text)" "$base_text_s" "$base_text_cpu" "$(mib "$base_text_kib")"
fi
echo "per image: --json $(ms "$dir_json_s") (cpu $(ms "$dir_json_cpu")), --json=lines $(ms "$dir_lines_s") (cpu $(ms "$dir_lines_cpu"))"
echo "peak RSS of --json=lines: $(mib "$dir_lines_kib") (target <= $LINES_RSS_MIB MiB)"
if [ "$PER_IMAGE" -ne 0 ]; then
	echo "ratio peak RSS, DIR / largest image alone: ${ratio}x (target <= ${RSS_TARGET}x)"
	awk -v a="$per_s" -v b="$dir_json_s" -v c="$peer_s" 'BEGIN {
		printf "ratio time, one process per image / DIR: %.1fx; sfdisk -J per image / DIR: %.1fx\n", a / b, c / b }'
fi
[ "$ok" -eq 1 ] || { echo "check DIR did not audit the set: $ndev devices, $nskip skipped of $nfiles, $nlines lines" >&2; exit 1; }
awk -v k="$dir_lines_kib" -v t="$LINES_RSS_MIB" 'BEGIN { exit !(k <= t * 1024) }' || exit 1
[ "$PER_IMAGE" -eq 0 ] || awk -v r="$ratio" -v t="$RSS_TARGET" 'BEGIN { exit !(r <= t) }'
