#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-images.sh - `blkalign check` on 20 VM disk images in qemu formats
# (bench/mkvmimages.sh: installer layouts as qcow2, vmdk, vhdx, vpc, vdi)
# against libguestfs's virt-alignment-scan on the same images in the same
# run, and against what a user without blkalign's image support runs:
# `qemu-img convert -O raw`, then `blkalign check` on the raw file.
#
# Usage: bench/vm-images.sh [--ci] [--out DIR] [--vas-every K]
#   --ci            CI-sized: one run of each blkalign command per image,
#                   virt-alignment-scan once over all 20 disks in one
#                   appliance (no appliance per image, no warm-up); images
#                   built afresh in the output directory.  Exit 0 unless
#                   something failed to run: timings are printed, never
#                   judged.
#   --out DIR       keep the per-image results there (default: the image
#                   set's last-run/; with --ci a new temp dir, removed)
#   --vas-every K   one appliance per image on every K-th image only
#                   (default 1: all 20, about 25 s each under TCG)
# Environment:
#   BLKALIGN     binary under test (default build/cli/blkalign)
#   BENCH_CACHE  where the image set is kept (default
#                ${TMPDIR:-/tmp}/blkalign-bench), keyed by mkvmimages.sh's hash
#   BLK_REPS     runs of blkalign per image, the median counts (default 3)
#   LIBGUESTFS_BACKEND, LIBGUESTFS_BACKEND_SETTINGS: passed on (default
#                direct and force_tcg: no KVM on the machines this runs on)
# blkalign judges the images as on a drive with 4 KiB physical sectors
# (--physical-sector-size 4096): the grid virt-alignment-scan's "< 4K"
# threshold assumes.  Output: a table per image, the disagreements per
# partition with the reason, and a last line with the ratios.  Exit status
# (full mode): 0 when virt-alignment-scan/blkalign per image is >= 1000,
# 1 below, 2 on a setup error.
set -eu
export LC_ALL=C

CI_MODE=0 OUT='' VAS_EVERY=1
while [ $# -gt 0 ]; do
	case $1 in
	--ci) CI_MODE=1; shift ;;
	--out) OUT=$2; shift 2 ;;
	--vas-every) VAS_EVERY=$2; shift 2 ;;
	*) echo "usage: $0 [--ci] [--out DIR] [--vas-every K]" >&2; exit 2 ;;
	esac
done
BLK_REPS=${BLK_REPS:-3}
[ "$CI_MODE" = 0 ] || BLK_REPS=1
TARGET=1000
case $VAS_EVERY$BLK_REPS in *[!0-9]* | '') echo "$0: --vas-every and BLK_REPS must be integers" >&2; exit 2 ;; esac
if [ "$VAS_EVERY" -lt 1 ] || [ "$BLK_REPS" -lt 1 ]; then
	echo "$0: --vas-every and BLK_REPS must be >= 1" >&2
	exit 2
fi

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
B=$(bench_bin "${BLKALIGN:-build/cli/blkalign}")
for p in virt-alignment-scan qemu-img qemu-nbd jq flock; do
	command -v "$p" >/dev/null || { echo "$0: '$p' is not installed (Debian: libguestfs-tools, qemu-utils, jq, util-linux)" >&2; exit 2; }
done
export LIBGUESTFS_BACKEND=${LIBGUESTFS_BACKEND:-direct}
export LIBGUESTFS_BACKEND_SETTINGS=${LIBGUESTFS_BACKEND_SETTINGS:-force_tcg}
BLK_OPTS=(--physical-sector-size 4096)

now_us; bench_t0=$US

# --- images ---
if [ "$CI_MODE" = 1 ]; then
	[ -n "$OUT" ] || { OUT=$(mktemp -d "${TMPDIR:-/tmp}/vm-images.XXXXXX"); trap 'rm -rf "$OUT"' EXIT; }
	DIR=$OUT/set
	echo "building the 20 images in $DIR (not timed)..."
	now_us; t0=$US
	"$HERE/mkvmimages.sh" "$DIR" || exit 2
	now_us; echo "built in $(((US - t0) / 1000000)) s"
else
	CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/blkalign-bench}
	GENVER=$(cat "$HERE/mkvmimages.sh" "$TOP/tests/fixtures/mk-md.py" | sha1sum | cut -c1-10)
	DIR=$CACHE/vm-$GENVER
	bench_lock "$DIR"
	if [ ! -f "$DIR/manifest.tsv" ]; then
		echo "building the 20 images in $DIR (not timed)..."
		"$HERE/mkvmimages.sh" "$DIR" || exit 2
	else
		echo "reusing the images in $DIR"
	fi
	[ -n "$OUT" ] || OUT=$DIR/last-run
fi
WORK=$OUT
mkdir -p "$WORK"
rm -f "$WORK"/*.tsv "$WORK"/*.json "$WORK"/vas-*.txt "$WORK/raw.img"
NAMES=() FMTS=() IMGS=()
while IFS=$'\t' read -r n f _; do
	NAMES+=("$n") FMTS+=("$f") IMGS+=("$DIR/img/$n.$f")
done <"$DIR/manifest.tsv"
N=${#IMGS[@]}

# vas OUT IMG...: virt-alignment-scan over the images in one appliance;
# its output in OUT, its exit status in VAS_RC, its time in VAS_US.
vas() {
	local out=$1 a=() i
	shift
	for i in "$@"; do a+=(-a "$i"); done
	now_us; local t0=$US
	VAS_RC=0
	virt-alignment-scan "${a[@]}" >"$out" 2>"$out.err" || VAS_RC=$?
	now_us; VAS_US=$((US - t0))
}

# --- warm-up (untimed in full mode): page cache, loader, the appliance ---
"$B" check --json "${BLK_OPTS[@]}" "${IMGS[@]}" >/dev/null 2>&1 || true
appliance_note=
if [ "$CI_MODE" = 0 ]; then
	vas "$WORK/vas-warmup.txt" "${IMGS[0]}"
	appliance_note="warm-up run (appliance from /var/tmp, built there if missing): $((VAS_US / 1000)) ms"
fi
read -r load0 _ </proc/loadavg

# --- per image, interleaved: blkalign (median of BLK_REPS), convert + check,
# virt-alignment-scan with an appliance of its own ---
: >"$WORK/times.tsv"
tool_err=0
for ((i = 0; i < N; i++)); do
	img=${IMGS[i]}
	ts=()
	for ((r = 0; r < BLK_REPS; r++)); do
		now_us; t0=$US
		rc=0
		"$B" check --json "${BLK_OPTS[@]}" "$img" >"$WORK/blk-$i.json" 2>/dev/null || rc=$?
		now_us
		ts+=($((US - t0)))
	done
	[ $((rc & ~3)) -eq 0 ] || { tool_err=$((tool_err + 1)); echo "blkalign check failed on $img (exit $rc)" >&2; }
	mapfile -t sorted < <(printf '%s\n' "${ts[@]}" | sort -n)
	blk_us=${sorted[$((BLK_REPS / 2))]}

	now_us; t0=$US
	rc=0
	qemu-img convert -O raw "$img" "$WORK/raw.img" && "$B" check --json "${BLK_OPTS[@]}" "$WORK/raw.img" >"$WORK/raw-$i.json" 2>/dev/null || rc=$?
	now_us; conv_us=$((US - t0))
	rm -f "$WORK/raw.img"
	[ $((rc & ~3)) -eq 0 ] || { tool_err=$((tool_err + 1)); echo "qemu-img convert + check failed on $img (exit $rc)" >&2; }

	vas_us=- vas_rc=-
	if [ "$CI_MODE" = 0 ] && [ $((i % VAS_EVERY)) -eq 0 ]; then
		vas "$WORK/vas-$i.txt" "$img"
		vas_us=$VAS_US vas_rc=$VAS_RC
		[ "$VAS_RC" -ne 1 ] || { tool_err=$((tool_err + 1)); echo "virt-alignment-scan failed on $img: $(tail -1 "$WORK/vas-$i.txt.err")" >&2; }
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "${NAMES[i]}" "${FMTS[i]}" "$blk_us" "$conv_us" "$vas_us" "$vas_rc" >>"$WORK/times.tsv"
done

# --- all images in one appliance ---
vas "$WORK/vas-all.txt" "${IMGS[@]}"
all_us=$VAS_US all_rc=$VAS_RC
[ "$all_rc" -ne 1 ] || { tool_err=$((tool_err + 1)); echo "virt-alignment-scan failed on all $N: $(tail -1 "$WORK/vas-all.txt.err")" >&2; }
now_us; t0=$US
"$B" check --json "${BLK_OPTS[@]}" "${IMGS[@]}" >"$WORK/blk-all.json" 2>/dev/null || true
now_us; blk_all_us=$((US - t0))
read -r load1 _ </proc/loadavg

# --- verdicts per partition ---
# blkalign: IDX NUMBER START_BYTES CODES (code:severity,... of the
# partition and the layers on it; "-" for none)
# shellcheck disable=SC2016 # jq variables, not the shell's
# the guest's verdicts per partition, as on the raw disk: the image
# layer's own finding (image-cluster-offset, the format's cluster grid;
# tests/ts/images/cluster-grid checks it) has no raw counterpart and no
# virt-alignment-scan one, so it is left out of the comparison
parts_jq='.devices[0] | . as $d
| ($d.layers | map({(.name): .}) | add) as $L
| def part(n): if $L[n].kind == "partition" then n elif $L[n].parent then part($L[n].parent) else null end;
  ([$d.findings[] | select(.code != "image-cluster-offset") | {p: part(.layer), c: "\(.code):\(.severity)"}]) as $F
| $d.layers[] | select(.kind == "partition") | . as $p
| "\($i) \($p.number) \($p.start) \($p.extended) \([$F[] | select(.p == $p.name) | .c] | sort | unique | join(",") | if . == "" then "-" else . end)"'
: >"$WORK/blk.tsv"
: >"$WORK/blkraw.tsv"
for ((i = 0; i < N; i++)); do
	jq -r --arg i "$i" "$parts_jq" "$WORK/blk-$i.json" >>"$WORK/blk.tsv" || tool_err=$((tool_err + 1))
	jq -r --arg i "$i" "$parts_jq" "$WORK/raw-$i.json" >>"$WORK/blkraw.tsv" || tool_err=$((tool_err + 1))
done
# virt-alignment-scan, all in one: /dev/sdX N START ALIGN ok|bad (...),
# X the disk's place among the -a options -> IDX NUMBER START ALIGN VERDICT
awk '$1 ~ /^\/dev\/sd[a-z]+[0-9]+$/ {
	d = $1; sub(/^\/dev\/sd/, "", d); num = d; sub(/^[a-z]+/, "", num); sub(/[0-9]+$/, "", d)
	idx = 0; for (k = 1; k <= length(d); k++) idx = idx * 26 + index("abcdefghijklmnopqrstuvwxyz", substr(d, k, 1))
	v = $4; if (v == "bad") { v = $0; sub(/^.*bad \(alignment < /, "bad<", v); sub(/\).*$/, "", v) }
	print idx - 1, num, $2, $3, v }' "$WORK/vas-all.txt" >"$WORK/vas.tsv"

now_us; bench_s=$(((US - bench_t0) / 1000000))

# --- report ---
awk -v N="$N" -v ci="$CI_MODE" -v reps="$BLK_REPS" -v target="$TARGET" -v every="$VAS_EVERY" \
	-v all_us="$all_us" -v all_rc="$all_rc" -v blk_all_us="$blk_all_us" -v bench_s="$bench_s" \
	-v dir="$DIR" -v work="$WORK" -v blkbin="$B" -v appliance="$appliance_note" -v tool_err="$tool_err" \
	-v loadavg="$load0 at the start, $load1 at the end" -v cpus="$(nproc)" \
	-v vasver="$(virt-alignment-scan --version 2>/dev/null | head -1)" '
function sev_codes(c,   n, a, k, s, out) {	# the codes, severity dropped
	if (c == "-") return "-"
	n = split(c, a, ","); out = ""
	for (k = 1; k <= n; k++) { s = a[k]; sub(/:.*/, "", s); out = out (out == "" ? "" : ",") s }
	return out
}
function has(c, code) { return ("," c ",") ~ ("," code ":") }
function nonstart(c,   n, a, k, s, out) {	# findings other than start-*, info dropped
	if (c == "-") return ""
	n = split(c, a, ","); out = ""
	for (k = 1; k <= n; k++) { s = a[k]; if (s ~ /^start-/ || s ~ /:info$/) continue
		sub(/:.*/, "", s); out = out (out == "" ? "" : ",") s }
	return out
}
FILENAME ~ /times.tsv$/ { name[$1] = $2; fmt[$1] = $3; blk[$1] = $4; conv[$1] = $5; vas1[$1] = $6; vrc[$1] = $7; next }
FILENAME ~ /blkraw.tsv$/ { raw[$1 " " $2] = $5; next }
FILENAME ~ /blk.tsv$/ { k = $1 " " $2; order[++np] = k; bstart[k] = $3; ext[k] = $4; bc[k] = $5; next }
FILENAME ~ /vas.tsv$/ { k = $1 " " $2; vstart[k] = $3; valign[k] = $4; vv[k] = $5; nv++; next }
END {
	printf "\n== blkalign check vs virt-alignment-scan and qemu-img convert + check: %d VM images%s\n", N, ci ? " (--ci: one run each)" : ""
	printf "   images: %s\n   blkalign: %s (check --json --physical-sector-size 4096)\n   %s, LIBGUESTFS_BACKEND=direct, force_tcg\n", dir, blkbin, vasver
	if (appliance != "") printf "   %s\n", appliance
	printf "\n   %-22s %-5s %12s %14s %14s %7s %9s %9s\n", "image", "fmt", "blkalign ms", "convert+chk ms", "v-a-scan ms", "its rc", "vas/blk", "conv/blk"
	for (i = 0; i < N; i++) {
		bs += blk[i]; cs += conv[i]
		r1 = vas1[i] == "-" ? "-" : sprintf("%.0fx", vas1[i] / blk[i])
		if (vas1[i] != "-") { vs += vas1[i]; vbs += blk[i]; nvas++ }
		printf "   %-22s %-5s %12.1f %14.1f %14s %7s %9s %8.1fx\n", name[i], fmt[i], blk[i] / 1000, conv[i] / 1000,
			vas1[i] == "-" ? "-" : sprintf("%.0f", vas1[i] / 1000), vrc[i], r1, conv[i] / blk[i]
	}
	printf "   %-22s %-5s %12.1f %14.1f %14s\n", "mean", "", bs / N / 1000, cs / N / 1000, nvas ? sprintf("%.0f", vs / nvas / 1000) : "-"
	printf "   all %d in one process: blkalign %.1f ms (%.2f ms per image); virt-alignment-scan, one appliance with %d disks: %.0f ms (%.0f ms per image, exit %d)\n",
		N, blk_all_us / 1000, blk_all_us / N / 1000, N, all_us / 1000, all_us / N / 1000, all_rc

	# disagreements, from the all-in-one scan
	printf "\n   verdicts per partition (virt-alignment-scan, one appliance for all; blkalign on the image):\n"
	printf "   %-22s %4s %12s %7s %-10s %-50s %s\n", "image", "part", "start", "align", "v-a-scan", "blkalign", "agreement"
	for (j = 1; j <= np; j++) {
		k = order[j]; split(k, kk, " "); i = kk[1]
		v = (k in vv) ? vv[k] : "(absent)"
		c = bc[k]
		if (raw[k] != c) rawdiff++
		if (!(k in vv)) { cls = "vas-missing"; why = "virt-alignment-scan does not list it" }
		else if (v == "bad<4K" && has(c, "start-physical")) { cls = "agree-bad"; why = nonstart(c) == "" ? "both: start off 4 KiB" : "both: start off 4 KiB; blkalign also " nonstart(c) }
		else if (v == "bad<4K" && ext[k] == "true") { cls = "extended"; why = "v-a-scan judges the extended container: it holds only EBRs, its logicals are judged each (blkalign right)" }
		else if (v == "bad<64K" && !has(c, "start-physical") && nonstart(c) == "") { cls = "64k"; why = "on 4 KiB: no cost with 4 KiB physical sectors; 64K is a NetApp-style opt I/O grain (blkalign right here; --opt-io 65536 would flag start-io-opt)" }
		else if (v == "ok" && nonstart(c) == "" && !has(c, "start-physical")) { cls = "agree-ok"; why = "" }
		else if (v == "ok") { cls = "blk-only"; why = "v-a-scan judges starts only: " nonstart(c) " (blkalign right)" }
		else { cls = "other"; why = "unexplained" }
		printf "%s %s %s %s %s %s %s\n", name[i], kk[2], bstart[k], (k in valign) ? valign[k] : "-", v, c, cls >(work "/verdicts.tsv")
		ncls[cls]++
		if (cls == "agree-ok") continue
		printf "   %-22s %4s %12s %7s %-10s %-50s %s\n", name[i], kk[2], bstart[k], (k in valign) ? valign[k] : "-", v, sev_codes(c), why
	}
	for (k in vv) if (!(k in bc)) { ncls["blk-missing"]++; printf "   %s part %s: listed by v-a-scan only\n", k, k }
	printf "   %d partitions: %d agree ok, %d agree on a bad start, %d blkalign-only findings, %d extended containers, %d 4K-not-64K, %d other%s\n",
		np, ncls["agree-ok"], ncls["agree-bad"], ncls["blk-only"], ncls["extended"], ncls["64k"], ncls["other"] + ncls["vas-missing"] + ncls["blk-missing"],
		rawdiff ? sprintf("; %d differ between the image and its raw copy", rawdiff) : "; the raw copies give the same verdicts"
	if (tool_err) printf "   %d tool runs failed\n", tool_err
	printf "   benchmark wall time: %d s; per-image data in %s\n   load average (1 min): %s; %d CPUs\n\n", bench_s, work, loadavg, cpus

	ratio_conv = cs / bs
	if (nvas) {
		ratio = vs / vbs
		printf "ratio virt-alignment-scan/blkalign: %.0fx per image, one appliance each (%d of %d images; target >= %dx); %.0fx with all %d in one appliance; qemu-img convert + check/blkalign: %.1fx\n",
			ratio, nvas, N, target, (all_us / N) / (bs / N), N, ratio_conv
		exit tool_err ? 2 : !(ratio >= target)
	}
	printf "ratio virt-alignment-scan/blkalign: %.0fx with all %d in one appliance (no appliance per image in --ci); qemu-img convert + check/blkalign: %.1fx\n",
		(all_us / N) / (bs / N), N, ratio_conv
	exit tool_err ? 2 : 0
}' "$WORK/times.tsv" "$WORK/blkraw.tsv" "$WORK/blk.tsv" "$WORK/vas.tsv"
