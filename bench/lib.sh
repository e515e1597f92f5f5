# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lib.sh - what the loop-device benchmarks share, sourced after their
# option parsing: the checks before a run, a temp dir with its clean-up,
# attaching and detaching the one loop device a benchmark makes, medians.
# Each benchmark writes only to files in its temp dir and to that device.

# bench_require BIN PROG...: BIN is built, we are root, the PROGs exist.
bench_require() {
	local p
	[ -x "$1" ] || { echo "no blkalign at $1" >&2; exit 2; }
	shift
	[ "$(id -u)" = 0 ] || { echo "needs root" >&2; exit 2; }
	for p in "$@"; do
		command -v "$p" >/dev/null || { echo "needs $p (apt-get install $p)" >&2; exit 2; }
	done
}

# bench_tmpdir BASE NAME: tmp = a new dir BASE/NAME.XXXXXX, removed on
# exit with the loop device in $dev (detached by name), also on SIGINT.
bench_tmpdir() {
	tmp=$(mktemp -d "$1/$2.XXXXXX") || exit 1
	dev=
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
}

bench_cleanup() {
	bench_detach
	rm -rf "$tmp"
}

# bench_attach IMG [LOSETUP-OPTION...]: dev = a new loop device over IMG.
bench_attach() {
	local img=$1
	shift
	dev=$(losetup -f --show "$@" "$img") || { echo "cannot attach $img" >&2; exit 1; }
}

bench_detach() {
	[ -n "${dev:-}" ] && losetup -d "$dev"
	dev=
}

# median: the median of the numbers on stdin, one a line.
median() {
	grep . | sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
