#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - run the script tests (tests/ts/<suite>/<test>) against a built
# blkalign.  Usage: tests/run.sh [--build DIR] [suite...]
# Prints a line per test and ends with "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
if [ "${1:-}" = "--build" ]; then
	build=$(cd "$2" && pwd)
	shift 2
fi
export BLKALIGN=$build/cli/blkalign
export BLKALIGN_BUILD=$build
export BLKALIGN_FAULT_BIN=$build/tests/blkalign-fault
[ -x "$BLKALIGN" ] || { echo "run.sh: no binary at $BLKALIGN" >&2; exit 2; }

suites=("$@")
[ ${#suites[@]} -gt 0 ] || mapfile -t suites < <(cd "$top/tests/ts" && ls -d */ | tr -d /)

pass=0 fail=0 skip=0
failed=()
logdir=$build/ts-logs
mkdir -p "$logdir"
for suite in "${suites[@]}"; do
	for t in "$top/tests/ts/$suite"/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		name=$suite/$(basename "$t")
		log=$logdir/${name//\//-}.log
		TS_NAME=$name timeout 900 bash "$t" >"$log" 2>&1
		rc=$?
		case $rc in
		0) pass=$((pass + 1)); printf '  %-40s ok\n' "$name" ;;
		77) skip=$((skip + 1))
		    printf '  %-40s skipped (%s)\n' "$name" "$(grep -m1 '^SKIP:' "$log" | cut -c7-)" ;;
		*) fail=$((fail + 1)); failed+=("$name")
		   printf '  %-40s FAILED (exit %d)\n' "$name" "$rc"
		   sed 's/^/    | /' "$log" | grep -v '| ok:' | tail -40 ;;
		esac
	done
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
