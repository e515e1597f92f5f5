#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make-bench-pictures.sh - docs/bench-<kind>.png again: one chart of each
# kind `blkalign bench --svg` draws, from the sim engine (its drive model:
# 512e, 1 ms per I/O, +4 ms per partly written physical sector, 5% noise,
# seeded: the same pictures every time) but soft-block-size, which does
# real buffered I/O on a loop device.  whole-vs-partition and
# soft-block-size need root (a loop device this script attaches and
# detaches).  Needs rsvg-convert (Debian: librsvg2-bin) and python3 (the
# licence is written into each PNG as a tEXt chunk by tools/png-spdx).
#
#   docs/make-bench-pictures.sh [BLKALIGN] [OUTDIR]
#   (defaults: build/cli/blkalign, docs/)
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build/cli/blkalign}
out=${2:-docs}
tmp=$(mktemp -d)
dev=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$tmp"
}
trap cleanup EXIT

# draw KIND ARGS...: bench ARGS --svg, then the PNG
draw() {
	local kind=$1
	shift
	"$bin" bench "$@" --svg "$tmp/$kind.svg" >/dev/null
	rsvg-convert "$tmp/$kind.svg" -o "$out/bench-$kind.png"
	tools/png-spdx "$out/bench-$kind.png"
	echo "$out/bench-$kind.png"
}

sim=(-e sim --sim noise=0.05,seed=1)
truncate -s 64M "$tmp/image.img"
cd "$tmp"
bin=$(cd "$OLDPWD" && realpath "$bin")
out=$(cd "$OLDPWD" && realpath "$out")
draw phase-sweep "${sim[@]}" -w
draw seq "${sim[@]}" -t seq --region-size 32M image.img
draw rand "${sim[@]}" -t rand -q 4 --region-size 4M image.img
if [ "$(id -u)" != 0 ]; then
	echo "not root: whole-vs-partition and soft-block-size not drawn" >&2
	exit 0
fi
# a partition from sector 2049 (off the 4 KiB grid) of 65535 sectors
# (not a multiple of 4 KiB: soft block size 512)
truncate -s 48M disk.img
printf 'label: dos\nstart=2049, size=65535, type=83\n' | sfdisk -q disk.img
dev=$(losetup -f --show -P disk.img)
partx -a "$dev" 2>/dev/null || true
draw whole-vs-partition "${sim[@]}" -t whole-vs-partition -w --region-size 16M "${dev}p1"
draw soft-block-size -t soft-block-size -w --region-size 16M "${dev}p1"
