#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-vs-peers.sh - time `blkalign check --json` against what a user of
# the peer tools runs to get a per-partition alignment verdict
# (`sfdisk -J IMG`, then `parted -s IMG align-check opt K` for each K),
# on N generated images (bench/mkimages.sh), in the same run.
#
# Usage: bench/check-vs-peers.sh [N]       (N defaults to 1000)
# Environment:
#   BLKALIGN     binary under test (default build/cli/blkalign)
#   SEED         layout seed (default 1)
#   BENCH_CACHE  where generated image sets are kept
#                (default ${TMPDIR:-/tmp}/blkalign-bench); a set is keyed by
#                N, SEED and the hash of mkimages.sh, and reused
#   PEER_EVERY   time the peers on every k-th image only (default 1: all);
#                the ratio is then computed on that subset
#   BLK_REPS     runs of blkalign per image, the median counts (default 3)
# The raw per-image results (times in microseconds, blkalign's JSON, each
# parted exit status) are left in the image set's last-run/ directory.
# Needs: sfdisk, parted, jq, flock; /usr/bin/time (Debian package "time") for
# peak RSS, else RSS is read from /proc by polling (coarser).
# Generation is not timed.  Exit status: 0 when the ratio is >= 10, 1 when
# below, 2 on a setup error.
set -eu
export LC_ALL=C

N=${1:-1000}
SEED=${SEED:-1}
PEER_EVERY=${PEER_EVERY:-1}
BLK_REPS=${BLK_REPS:-3}
TARGET=10
case $N$SEED$PEER_EVERY$BLK_REPS in *[!0-9]*) echo "$0: N, SEED, PEER_EVERY and BLK_REPS must be integers" >&2; exit 2;; esac
[ "$N" -ge 1 ] && [ "$PEER_EVERY" -ge 1 ] && [ "$BLK_REPS" -ge 1 ] ||
	{ echo "$0: N, PEER_EVERY and BLK_REPS must be >= 1" >&2; exit 2; }

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
B=$(bench_bin "${BLKALIGN:-build/cli/blkalign}")
for p in sfdisk parted jq flock; do
	command -v "$p" >/dev/null || { echo "$0: '$p' is not installed" >&2; exit 2; }
done
GNUTIME=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
	GNUTIME=/usr/bin/time
fi

now_us; bench_t0=$US

# --- images (cached) ---
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/blkalign-bench}
GENVER=$(sha1sum "$HERE/mkimages.sh" | cut -c1-10)
DIR=$CACHE/n$N-s$SEED-$GENVER
bench_lock "$DIR" # one run at a time per image set
if [ ! -f "$DIR/manifest.tsv" ]; then
	echo "generating $N images in $DIR (not timed)..."
	now_us; t0=$US
	rm -rf "$DIR"
	"$HERE/mkimages.sh" "$N" "$SEED" "$DIR"
	now_us; echo "generated in $(( (US - t0) / 1000000 )) s"
else
	echo "reusing $N images in $DIR"
fi

# Raw per-image results of the last run stay next to the images.
WORK=$DIR/last-run
rm -rf "$WORK"
mkdir -p "$WORK"
trap 'rm -f "$WORK/sf.json" "$WORK/rss"' EXIT
cd "$DIR"
mapfile -t IMGS < <(cut -f1 manifest.tsv)

# Peak RSS in KiB of a command (stdout to $1, the rest is the command).
peak_rss() {
	local out=$1; shift
	if [ -n "$GNUTIME" ]; then
		"$GNUTIME" -f %M -o "$WORK/rss" "$@" >"$out" 2>/dev/null || true
		tail -n 1 "$WORK/rss"
	else
		local pid hwm=0 v
		"$@" >"$out" 2>/dev/null &
		pid=$!
		while v=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [ -n "$v" ]; do
			hwm=$v
			sleep 0.001
		done
		wait "$pid" || true
		echo "$hwm"
	fi
}

# --- warm-up (untimed): page cache, dynamic loader, and the statistics ---
"$B" check --json "${IMGS[@]}" >/dev/null 2>&1 || true
for img in "${IMGS[@]:0:5}"; do
	sfdisk -J "$img" >/dev/null 2>&1 || true
	parted -s "$img" align-check opt 1 >/dev/null 2>&1 || true
done

read -r load0 _ </proc/loadavg

# --- (0) the floor: a process that does nothing, started the same way ---
now_us; t0=$US
for img in "${IMGS[@]}"; do
	/bin/true "$img" >/dev/null 2>&1
done
now_us; true_us=$(( US - t0 ))

# --- (a2) blkalign, one process for all images ---
now_us; t0=$US
"$B" check --json "${IMGS[@]}" >/dev/null 2>&1 || true
now_us; all_us=$(( US - t0 ))

# --- (a1) blkalign, one process per image, and (b) the peers, interleaved:
# image by image, so that both see the same load on the machine.  blkalign
# runs BLK_REPS times per image and counts with its median (a 1-3 ms run is
# easily doubled by one scheduling hiccup on a busy machine; the peers'
# runs are 10-10000 ms); the first run is kept too.
# Peers: sfdisk -J, then parted align-check opt K for each partition K.
: >"$WORK/blk.tsv"
: >"$WORK/peers.tsv"
: >"$WORK/parted.tsv"
blk_err=0
peer_fail=0
for (( i = 0; i < ${#IMGS[@]}; i++ )); do
	img=${IMGS[i]}
	ts=()
	for (( r = 0; r < BLK_REPS; r++ )); do
		now_us; t0=$US
		rc=0
		"$B" check --json "$img" >/dev/null 2>&1 || rc=$?
		now_us; t1=$US
		ts+=($(( t1 - t0 )))
	done
	[ $(( rc & ~3 )) -eq 0 ] || blk_err=$(( blk_err + 1 ))	# 4, 16: errors
	mapfile -t sorted < <(printf '%s\n' "${ts[@]}" | sort -n)
	echo "$img ${sorted[$(( BLK_REPS / 2 ))]} ${ts[0]}" >>"$WORK/blk.tsv"

	[ $(( i % PEER_EVERY )) -eq 0 ] || continue
	now_us; t0=$US
	sfdisk -J "$img" >"$WORK/sf.json" 2>/dev/null || peer_fail=$(( peer_fail + 1 ))
	nums=()
	while IFS= read -r line; do	# bash only: no extra process
		if [[ $line =~ \"node\":\ *\".*[^0-9]([0-9]+)\" ]]; then
			nums+=("${BASH_REMATCH[1]}")
		fi
	done <"$WORK/sf.json"
	rcs=()
	for k in "${nums[@]}"; do
		rc=0
		parted -s "$img" align-check opt "$k" >/dev/null 2>&1 || rc=$?
		rcs+=("$k:$rc")
	done
	now_us; t1=$US
	echo "$img $(( t1 - t0 )) ${#nums[@]}" >>"$WORK/peers.tsv"
	echo "$img ${rcs[*]}" >>"$WORK/parted.tsv"
done
blk_status_note=""
[ "$blk_err" -eq 0 ] || blk_status_note=" ($blk_err exited with an operational or usage error)"

# --- untimed: bytes read, RSS, agreement ---
all_rss=$(peak_rss "$WORK/all.json" "$B" check --json "${IMGS[@]}")
: >"$WORK/rss1.tsv"
for img in "${IMGS[@]}"; do
	echo "$(peak_rss /dev/null "$B" check --json "$img")" >>"$WORK/rss1.tsv"
done
: >"$WORK/rsspeer.tsv"
step=$(( N / 20 )); [ "$step" -ge 1 ] || step=1
for (( i = 0; i < N; i += step )); do
	img=${IMGS[i]}
	echo "sfdisk $(peak_rss /dev/null sfdisk -J "$img")" >>"$WORK/rsspeer.tsv"
	echo "parted $(peak_rss /dev/null parted -s "$img" align-check opt 1)" >>"$WORK/rsspeer.tsv"
done

# blkalign's per-device facts: name bytes_read npartitions
jq -r '.devices[] | "\(.name) \(.bytes_read) \([.layers[] | select(.kind == "partition")] | length)"' \
	"$WORK/all.json" >"$WORK/devs.tsv"
# partitions blkalign flags for a start rule (what parted's align-check opt judges)
jq -r '.devices[] | . as $d | [.findings[] | select(.code | startswith("start-")) | .layer] as $f
	| .layers[] | select(.kind == "partition" and (.extended | not))
	| "\($d.name) \(.number) \(if (.name as $n | $f | index($n)) then 1 else 0 end)"' \
	"$WORK/all.json" >"$WORK/blkflags.tsv"

now_us; bench_s=$(( (US - bench_t0) / 1000000 ))
read -r load1 _ </proc/loadavg

# --- report ---
awk -v N="$N" -v all_us="$all_us" -v true_us="$true_us" -v reps="$BLK_REPS" -v every="$PEER_EVERY" -v target="$TARGET" \
    -v all_rss="$all_rss" -v bench_s="$bench_s" -v seed="$SEED" -v dir="$DIR" \
    -v blkbin="$B" -v rssnote="$([ -n "$GNUTIME" ] && echo "/usr/bin/time -v" || echo "/proc VmHWM polling")" \
    -v peer_fail="$peer_fail" -v blknote="$blk_status_note" \
    -v loadavg="$load0 at the start, $load1 at the end" -v cpus="$(nproc)" '
function bucket(e) { return e <= 4 ? "1-4" : e <= 16 ? "5-16" : e <= 60 ? "17-60" : "61-128" }
function pct(a, n, p,   k) { k = int((n - 1) * p / 100) + 1; return a[k] }
FILENAME ~ /manifest.tsv$/ { scheme[$1] = $2; ent[$1] = $3; nsch[$2]++; next }
FILENAME ~ /blk.tsv$/ { blk[$1] = $2; blk1[$1] = $3; next }
FILENAME ~ /peers.tsv$/ { peer[$1] = $2; npeer++; peerparts += $3; next }
FILENAME ~ /devs.tsv$/ { br[$1] = $2; bsum += $2; if ($2 > bmax) { bmax = $2; bmaxn = $1 } nd++;
			  bparts[$1] = $3; bysch_b[scheme[$1]] += $2; bysch_n[scheme[$1]]++;
			  if ($2 > bysch_max[scheme[$1]]) bysch_max[scheme[$1]] = $2; next }
FILENAME ~ /rss1.tsv$/ { r1sum += $1; r1n++; if ($1 > r1max) r1max = $1; next }
FILENAME ~ /rsspeer.tsv$/ { if ($2 > pr[$1]) pr[$1] = $2; next }
FILENAME ~ /parted.tsv$/ { for (i = 2; i <= NF; i++) { split($i, kv, ":"); prc[$1 " " kv[1]] = kv[2] } next }
FILENAME ~ /blkflags.tsv$/ {
	key = $1 " " $2
	if (!($1 in peer)) next
	if (!(key in prc)) { missing++; next }
	if (prc[key] > 1) { perr++; next }
	if ((prc[key] == 1) == ($3 == 1)) agree++; else { disagree++; if (dis == "") dis = key }
	next
}
END {
	printf "\n== blkalign check vs peers: %d images (seed %d; %d dos, %d gpt)\n", N, seed, nsch["dos"], nsch["gpt"]
	printf "   images: %s\n   blkalign: %s\n", dir, blkbin
	for (n in ent) { esum += ent[n]; if (ent[n] > emax) emax = ent[n] }
	printf "   partitions per disk: mean %.1f, max %d (dos 1..60, gpt 1..128)\n\n", esum / N, emax

	# per-disk means on the peer subset and on all images
	for (n in peer) { ps += peer[n]; bs += blk[n]; b1s += blk1[n]; nb[bucket(ent[n])]++;
		pb[bucket(ent[n])] += peer[n]; bb[bucket(ent[n])] += blk[n];
		ns[scheme[n]]++; psch[scheme[n]] += peer[n]; bsch[scheme[n]] += blk[n];
		r = peer[n] / (blk[n] > 0 ? blk[n] : 1); rat[++nr] = r; if (r >= target) ok++ }
	for (n in blk) { ball += blk[n]; ball1 += blk1[n] }
	mb = ball / N / 1000; mall = all_us / N / 1000; mp = ps / npeer / 1000; mbs = bs / npeer / 1000
	printf "   %-46s %10s %12s\n", "wall time", "total s", "ms per disk"
	printf "   %-46s %10.2f %12.3f%s\n", "blkalign check --json, one process per image", ball / 1e6, mb, blknote
	printf "   %-46s %10.2f %12.3f\n", "  (the same, first of the " reps " runs only)", ball1 / 1e6, ball1 / N / 1000
	printf "   %-46s %10.2f %12.3f\n", "blkalign check --json, one process for all", all_us / 1e6, mall
	printf "   %-46s %10.2f %12.3f  (%d images, %d parted runs)\n", "peers: sfdisk -J + parted align-check x K", ps / 1e6, mp, npeer, peerparts
	printf "   %-46s %10.2f %12.3f\n", "(floor: /bin/true, one process per image)", true_us / 1e6, true_us / N / 1000
	if (peer_fail) printf "   (sfdisk -J failed on %d images)\n", peer_fail
	printf "\n   ratio peers/blkalign by partitions per disk (one process per image):\n"
	printf "   %-8s %6s %14s %14s %8s %13s\n", "entries", "disks", "peers ms/disk", "blkalign ms", "ratio", "median ratio"
	split("1-4 5-16 17-60 61-128", order, " ")
	for (i = 1; i <= 4; i++) { k = order[i]; if (!nb[k]) continue
		m = 0; for (n in peer) if (bucket(ent[n]) == k) rk[++m] = peer[n] / (blk[n] > 0 ? blk[n] : 1)
		for (a = 1; a <= m; a++) for (j = a; j > 1 && rk[j - 1] > rk[j]; j--) { t = rk[j]; rk[j] = rk[j - 1]; rk[j - 1] = t }
		printf "   %-8s %6d %14.2f %14.3f %7.1fx %12.1fx\n", k, nb[k], pb[k] / nb[k] / 1000, bb[k] / nb[k] / 1000, pb[k] / bb[k], pct(rk, m, 50) }
	for (s in ns) printf "   %-8s %6d %14.2f %14.3f %7.1fx\n", s, ns[s], psch[s] / ns[s] / 1000, bsch[s] / ns[s] / 1000, psch[s] / bsch[s]
	printf "   %-8s %6d %14.2f %14.3f %7.1fx  (blkalign: first of the %d runs)\n", "all", npeer, mp, b1s / npeer / 1000, ps / b1s, reps
	# per-disk ratios
	for (i = 1; i <= nr; i++) for (j = i; j > 1 && rat[j - 1] > rat[j]; j--) { t = rat[j]; rat[j] = rat[j - 1]; rat[j - 1] = t }
	printf "   per-disk ratio: min %.1fx, median %.1fx, max %.1fx; %d of %d disks >= %dx\n",
		rat[1], pct(rat, nr, 50), rat[nr], ok, nr, target
	for (n in peer) { r = peer[n] / (blk[n] > 0 ? blk[n] : 1)
		if (r < target && shown++ < 10)
			printf "     below %dx: %s (%s, %d entries): peers %.2f ms, blkalign %.2f ms, %.1fx\n",
				target, n, scheme[n], ent[n], peer[n] / 1000, blk[n] / 1000, r }

	printf "\n   blkalign bytes read per device: mean %.0f, max %d (%s)\n", bsum / nd, bmax, bmaxn
	for (s in bysch_n) printf "     %s: mean %.0f, max %d\n", s, bysch_b[s] / bysch_n[s], bysch_max[s]
	printf "   blkalign peak RSS (%s): %d KiB one process per image (max; mean %.0f), %d KiB one process for all %d\n",
		rssnote, r1max, r1sum / r1n, all_rss, N
	printf "   peers peak RSS (sample of 20): sfdisk -J %d KiB, parted %d KiB\n", pr["sfdisk"], pr["parted"]
	for (n in bparts) if (bparts[n] != ent[n]) pmis++
	printf "   partition count, blkalign vs manifest: %d mismatches\n", pmis
	printf "   parted align-check opt vs blkalign start-* findings (non-extended partitions): %d agree, %d disagree%s%s%s\n",
		agree, disagree, dis != "" ? " (first: " dis ")" : "", perr ? ", " perr " parted errors" : "", missing ? ", " missing " not listed by sfdisk" : ""
	printf "   benchmark wall time: %d s (N=%d, PEER_EVERY=%d, BLK_REPS=%d); per-image data in %s/last-run\n", bench_s, N, every, reps, dir
	printf "   load average (1 min): %s; %d CPUs\n\n", loadavg, cpus

	ratio = mp / mbs
	printf "ratio peers/blkalign: %.1fx per disk (target >= %dx); one process for all: %.1fx\n", ratio, target, mp / mall
	exit !(ratio >= target)
}' "$DIR/manifest.tsv" "$WORK/blk.tsv" "$WORK/peers.tsv" "$WORK/devs.tsv" "$WORK/rss1.tsv" \
	"$WORK/rsspeer.tsv" "$WORK/parted.tsv" "$WORK/blkflags.tsv"
