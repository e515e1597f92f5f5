# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# lib.sh - what the benchmarks share, sourced after their option parsing:
# the checks before a run, a temp dir with its clean-up, attaching and
# detaching the one loop device a benchmark makes, medians; for the image
# benchmarks, the binary under test, a clock and the cached image set's
# lock.  Each benchmark writes only to files in its temp dir, its image
# cache and its loop device.

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

# bench_bin PATH: the absolute path of the binary PATH (as given, or under
# $TOP, the source tree), or exit 2 saying so.
bench_bin() {
	if [ -x "$1" ]; then
		echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
	elif [ -x "$TOP/$1" ]; then
		echo "$TOP/$1"
	else
		echo "$0: no blkalign binary at '$1' (build it, or set BLKALIGN)" >&2
		exit 2
	fi
}

# now_us: microseconds now, into US: $EPOCHREALTIME is a builtin variable
# (no fork, unlike a $(...) command substitution, which would be timed too).
# shellcheck disable=SC2034 # read by the benchmarks
US=0
now_us() { local t=$EPOCHREALTIME; US=$((10#${t/./})); }

# bench_lock DIR: hold DIR.lock (fd 9) for the rest of the run, waiting
# for another run of the same image set: two would share its results
# and, worse, the CPUs, and both sets of figures would be wrong.
bench_lock() {
	mkdir -p "$(dirname "$1")"
	exec 9>"$1.lock"
	if ! flock -n 9; then
		echo "another run holds $1.lock: waiting for it to finish..."
		flock 9
	fi
}
