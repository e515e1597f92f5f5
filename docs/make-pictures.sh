#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make-pictures.sh [BLKALIGN]: draw docs/diskmap-seed002.svg and .png
# again: seed 002's disk (a 20 GiB Hyper-V disk, 512-byte logical and
# 4096-byte physical sectors, its dos table from the report's fdisk -l;
# README.md's example) rebuilt as a sparse image, drawn by
# check --svg, the SVG rendered to PNG by headless chromium (Debian's
# chromium package) at its own size.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${BLKALIGN:-$top/build/cli/blkalign}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
truncate -s 20G seed002.img
printf 'label: dos\nunit: sectors\n1,14281784,82\n14281785,27647865,83\n' |
	sfdisk -q seed002.img
# exit 1: the disk has findings
"$bin" check --physical-sector-size 4096 --min-io 4096 --opt-io 4096 \
	--svg seed002.svg seed002.img >/dev/null || [ $? -eq 1 ]
h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' seed002.svg)
chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium" \
	--hide-scrollbars --screenshot="$tmp/seed002.png" --window-size=1400,"$h" \
	"file://$tmp/seed002.svg" >/dev/null 2>&1
# the licence line every tracked file has (tests/ts/docs/spdx): an XML
# comment in the SVG, a tEXt chunk in the PNG (tools/png-spdx)
sed '1a <!-- SPDX-License-Identifier: GPL-2.0-or-later -->' seed002.svg \
	>"$top/docs/diskmap-seed002.svg"
cp seed002.png "$top/docs/diskmap-seed002.png"
"$top/tools/png-spdx" "$top/docs/diskmap-seed002.png"
echo "docs/diskmap-seed002.svg, docs/diskmap-seed002.png: 1400x$h"
