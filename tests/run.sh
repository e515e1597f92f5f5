#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - run the script tests (tests/ts/<suite>/<test>) against a built
# blkalign.  Usage: tests/run.sh [--build DIR] [--jobs N] [suite...]
# Prints a line per test with its wall time, then each lane's total, and
# ends with "N passed, N failed, N skipped".
# --jobs 2 runs the fix and package suites (the longest: fix's own images,
# loop devices and journals; package's build and fresh root) in one lane
# beside the others, each lane's lines printed as it ends.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build jobs=1
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	*) break ;;
	esac
done
export BLKALIGN=$build/cli/blkalign
export BLKALIGN_BUILD=$build
export BLKALIGN_FAULT_BIN=$build/tests/blkalign-fault
[ -x "$BLKALIGN" ] || { echo "run.sh: no binary at $BLKALIGN" >&2; exit 2; }

suites=("$@")
[ ${#suites[@]} -gt 0 ] || mapfile -t suites < <(cd "$top/tests/ts" && ls -d */ | tr -d /)
logdir=$build/ts-logs
mkdir -p "$logdir"

# elapsed T0: seconds since $EPOCHREALTIME was T0, to a tenth.
elapsed() {
	local now=${EPOCHREALTIME/[.,]/} then=${1/[.,]/}
	local ds=$(((now - then) / 100000))
	echo "$((ds / 10)).$((ds % 10))"
}

# run_lane SUITE...: each test of each suite in turn; a line per test,
# then "P F S" as the last line.
run_lane() {
	local pass=0 fail=0 skip=0 suite t name log rc t0 secs lane0=$SECONDS
	for suite in "$@"; do
		for t in "$top/tests/ts/$suite"/*; do
			[ -f "$t" ] || continue
			case $t in *.sh) continue ;; esac # a suite's helpers
			name=$suite/$(basename "$t")
			if [ ! -x "$t" ]; then # a test that never runs is a failure
				fail=$((fail + 1))
				printf '  %-40s FAILED (not executable)\n' "$name"
				continue
			fi
			log=$logdir/${name//\//-}.log
			t0=$EPOCHREALTIME
			TS_NAME=$name timeout 900 bash "$t" >"$log" 2>&1
			rc=$?
			secs=$(elapsed "$t0")
			case $rc in
			0) pass=$((pass + 1)); printf '  %-40s ok %8ss\n' "$name" "$secs" ;;
			77) skip=$((skip + 1))
			    printf '  %-40s skipped (%s)\n' "$name" "$(grep -m1 '^SKIP:' "$log" | cut -c7-)" ;;
			*) fail=$((fail + 1))
			   printf '  %-40s FAILED (exit %d) %ss\n' "$name" "$rc" "$secs"
			   sed 's/^/    | /' "$log" | grep -v '| ok:' | tail -40 ;;
			esac
		done
	done
	printf '  %-40s %8ss\n' "(lane: $*)" "$((SECONDS - lane0))"
	echo "$pass $fail $skip"
}

lanes=()
if [ "$jobs" -gt 1 ]; then
	long=() rest=()
	for s in "${suites[@]}"; do
		case $s in fix | package) long+=("$s") ;; *) rest+=("$s") ;; esac
	done
	[ ${#long[@]} -gt 0 ] && lanes+=("${long[*]}")
	[ ${#rest[@]} -gt 0 ] && lanes+=("${rest[*]}")
else
	lanes=("${suites[*]}")
fi

pass=0 fail=0 skip=0
if [ ${#lanes[@]} = 1 ]; then
	# shellcheck disable=SC2086 # a lane is a list of suite names
	run_lane ${lanes[0]} | tee "$logdir/lane-0.out" | sed '$d'
else
	pids=()
	for i in "${!lanes[@]}"; do
		# shellcheck disable=SC2086
		run_lane ${lanes[$i]} >"$logdir/lane-$i.out" &
		pids+=($!)
	done
	for i in "${!lanes[@]}"; do
		wait "${pids[$i]}"
		sed '$d' "$logdir/lane-$i.out"
	done
fi
for i in "${!lanes[@]}"; do
	read -r p f s < <(tail -n 1 "$logdir/lane-$i.out")
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
