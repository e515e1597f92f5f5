# SPDX-License-Identifier: GPL-2.0-or-later
# functions.sh - helpers for tests/ts/<suite>/<test> scripts (sourced).
#
# A test script prints what it checks and exits:
#   0 passed, 77 skipped (reason on stdout), anything else failed.
# Environment (set by tests/run.sh):
#   BLKALIGN   the blkalign binary under test
#   TS_SHARED  ../shared when it exists, else empty
#   CI         "true" in CI: root-only tests must not skip there

set -u

# The distribution's tools first: the tests use Debian's python3 and
# util-linux, which tools/bootstrap installs, not a version manager's
# shim found earlier in PATH (a pyenv shim costs over a second per
# python3 run on a loaded machine, and the crash matrices run it for
# every point).
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

TS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${BLKALIGN:=$TS_TOP/build/cli/blkalign}"
: "${TS_SHARED:=}"
if [ -z "$TS_SHARED" ] && [ -d "$TS_TOP/../shared/corpus" ]; then
	TS_SHARED=$(cd "$TS_TOP/../shared" && pwd)
fi
TS_NAME=${TS_NAME:-$(basename "$0")}
TS_FAILED=0
TS_LOOPS=()
# Loop devices are recorded in a file too, so that ts_loop_attach works
# inside $(...) and the parent still detaches them.
TS_LOOP_REG=$(mktemp "${TMPDIR:-/tmp}/blkalign-loops.XXXXXX")

ts_log() { printf '%s\n' "$*"; }

ts_skip() {
	ts_log "SKIP: $*"
	exit 77
}

# A root-only test: skips outside CI, fails loudly in CI.
ts_require_root() {
	if [ "$(id -u)" -ne 0 ]; then
		if [ "${CI:-}" = "true" ]; then
			ts_log "FAIL: CI must run as root for this test"
			exit 1
		fi
		ts_skip "needs root"
	fi
}

# A needed program; missing in CI is a failure (.ci/run installs it).
ts_require_prog() {
	local p
	for p in "$@"; do
		if ! command -v "$p" >/dev/null 2>&1; then
			if [ "${CI:-}" = "true" ]; then
				ts_log "FAIL: '$p' is not installed"
				exit 1
			fi
			ts_skip "'$p' is not installed"
		fi
	done
}

ts_require_shared() {
	[ -n "$TS_SHARED" ] && [ -d "$TS_SHARED/corpus" ] ||
		ts_skip "no ../shared corpus in this checkout"
}

ts_fail() {
	ts_log "FAIL: $*"
	TS_FAILED=$((TS_FAILED + 1))
}

ts_ok() {
	ts_log "ok: $*"
}

# ts_expect_eq WHAT EXPECTED ACTUAL
ts_expect_eq() {
	if [ "$2" = "$3" ]; then
		ts_ok "$1 = $2"
	else
		ts_fail "$1: expected '$2', got '$3'"
	fi
}

ts_tmpdir() {
	TS_TMP=$(mktemp -d "${TMPDIR:-/tmp}/blkalign-ts.XXXXXX")
	ts_on_exit "rm -rf '$TS_TMP'"
}

TS_EXIT_CMDS=()
ts_on_exit() {
	TS_EXIT_CMDS+=("$1")
}

ts_cleanup() {
	local i dev
	for ((i = ${#TS_LOOPS[@]} - 1; i >= 0; i--)); do
		losetup -d "${TS_LOOPS[$i]}" 2>/dev/null
	done
	if [ -f "$TS_LOOP_REG" ]; then
		while read -r dev; do
			[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
		done < <(tac "$TS_LOOP_REG")
		rm -f "$TS_LOOP_REG"
	fi
	for ((i = ${#TS_EXIT_CMDS[@]} - 1; i >= 0; i--)); do
		eval "${TS_EXIT_CMDS[$i]}"
	done
}
trap ts_cleanup EXIT
trap 'exit 130' INT TERM

# ts_loop_attach IMAGE [losetup options...]: prints the device; it is
# detached by name when the test exits, whatever happens.
ts_loop_attach() {
	local img=$1 dev
	shift
	dev=$(losetup -f --show -P "$@" "$img") || return 1
	TS_LOOPS+=("$dev")
	printf '%s\n' "$dev" >>"$TS_LOOP_REG"
	# No udev here: make the partition nodes ourselves.
	partx -a "$dev" 2>/dev/null || true
	udevadm settle 2>/dev/null || true
	printf '%s\n' "$dev"
}

# ts_loop_detach DEV: detach one of our loop devices now, and forget it,
# so that the exit cleanup never detaches a device someone else attached
# under the same name later.
ts_loop_detach() {
	local dev=$1 i
	losetup -d "$dev" 2>/dev/null
	for i in "${!TS_LOOPS[@]}"; do
		[ "${TS_LOOPS[$i]}" = "$dev" ] && unset 'TS_LOOPS[i]'
	done
	TS_LOOPS=("${TS_LOOPS[@]}")
	[ -f "$TS_LOOP_REG" ] && sed -i "\|^$dev\$|d" "$TS_LOOP_REG"
	return 0
}

# ts_diff_lines WANT GOT: the lines only in WANT ("    -") and only in
# GOT ("    +"), after a failed comparison of two sets of lines.
ts_diff_lines() {
	diff <(printf '%s\n' "$1") <(printf '%s\n' "$2") |
		grep '^[<>]' | sed 's/^</    -/; s/^>/    +/'
}

# jq over the JSON report: ts_jq FILTER FILE
ts_jq() {
	jq -r "$1" "$2"
}

# ts_keep_json CMD FILE: keep FILE, what `blkalign CMD --json` printed,
# for tools/json-validate, which tests/check runs over every document the
# suites kept against docs/schema/CMD.json (BLKALIGN_JSON_KEEP names the
# directory; unset, nothing is kept).
ts_keep_json() {
	local rc=$?
	[ -n "${BLKALIGN_JSON_KEEP:-}" ] && [ -s "$2" ] || return $rc
	cp "$2" "$BLKALIGN_JSON_KEEP/$1.$(basename "$0").$$.$RANDOM.json" 2>/dev/null
	return $rc
}

# ts_json [JQ-OPTION...] FILE EXPR...: the value of each EXPR over FILE,
# from one jq process (a jq costs ~50 ms), into the array TS_JSON, one
# element per EXPR.  A value is what `jq -r EXPR` prints: a string raw,
# anything else as (compact) JSON, null or a missing key as "null", the
# outputs of a generator one per line; spaces and newlines survive.  An
# EXPR that fails keeps what it printed before the error (often nothing),
# as `$(jq -r EXPR)` did.  JQ-OPTIONs: --arg N V, --argjson N V, -s.
# Returns jq's status (not JSON: every value empty).
ts_json() {
	local opts=() prog="" e rc n
	while [ $# -gt 0 ]; do
		case $1 in
		--arg | --argjson) opts+=("$1" "$2" "$3"); shift 3 ;;
		-s | --slurp) opts+=("$1"); shift ;;
		*) break ;;
		esac
	done
	local file=$1
	shift
	n=$#
	for e in "$@"; do
		prog+="${prog:+, }([try ($e)] | map(if type == \"string\" then . else tojson end) | join(\"\\n\") + \"\\u0000\")"
	done
	TS_JSON=()
	[ "$n" -gt 0 ] || return 0
	mapfile -t -d '' TS_JSON < <(jq -j "${opts[@]}" "$prog" "$file")
	wait $! 2>/dev/null
	rc=$?
	# Not JSON, or no input: as many empty values as expressions.
	[ "$rc" -eq 0 ] && [ ${#TS_JSON[@]} -eq "$n" ] || TS_JSON=()
	while [ ${#TS_JSON[@]} -lt "$n" ]; do
		TS_JSON+=("")
	done
	return "$rc"
}

# ts_expect_json [--what PREFIX] [--named] [JQ-OPTION...] FILE
#	EXPR EXPECTED...: each EXPR's value (as ts_json has it) is EXPECTED,
# all read by one jq process.  Each pair is a check of its own
# (ts_expect_eq named "PREFIX: EXPR"), so a mismatch says the
# expression, the expected and the actual value.  --named: triples
# NAME EXPR EXPECTED instead, each check named "PREFIX: NAME".
ts_expect_json() {
	local what="" named=0 opts=() names=() exprs=() want=() i
	while [ $# -gt 0 ]; do
		case $1 in
		--what) what="$2: "; shift 2 ;;
		--named) named=1; shift ;;
		--arg | --argjson) opts+=("$1" "$2" "$3"); shift 3 ;;
		-s | --slurp) opts+=("$1"); shift ;;
		*) break ;;
		esac
	done
	local file=$1
	shift
	if [ $(($# % (2 + named))) -ne 0 ]; then
		ts_fail "ts_expect_json: arguments are not $((2 + named))-tuples: $*"
		return 1
	fi
	while [ $# -gt 0 ]; do
		if [ "$named" = 1 ]; then
			names+=("$1")
			shift
		else
			names+=("$1")
		fi
		exprs+=("$1")
		want+=("$2")
		shift 2
	done
	ts_json "${opts[@]}" "$file" "${exprs[@]}"
	for i in "${!exprs[@]}"; do
		ts_expect_eq "$what${names[$i]}" "${want[$i]}" "${TS_JSON[$i]}"
	done
}

ts_finalize() {
	if [ "$TS_FAILED" -ne 0 ]; then
		ts_log "$TS_NAME: $TS_FAILED check(s) failed"
		exit 1
	fi
	exit 0
}
