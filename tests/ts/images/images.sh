# SPDX-License-Identifier: GPL-2.0-or-later
# images.sh - helpers of the images suite (sourced): qemu-img and
# qemu-nbd are required (skip with the reason, fail in CI), and a check
# of a converted image is compared with the check of its raw original.

images_setup() {
	ts_require_prog jq qemu-img qemu-nbd
	ts_tmpdir
}

# images_json OUT TARGET [check options...]: check --json, exit status
# in $IMAGES_RC.
images_json() {
	local out=$1
	shift
	timeout 120 "$BLKALIGN" check --json "$@" >"$out" 2>"$out.err"
	IMAGES_RC=$?
}

# The report without what may differ between an image and its raw
# original: where it was read, how much, and what format held it.
images_strip() {
	jq -S '.devices |= map(del(.path, .bytes_read, .image_format,
		.virtual_size, .cluster_size, .bytes_skipped))' "$1"
}

# images_compare WHAT RAW.json OTHER.json
images_compare() {
	local what=$1 a b
	a=$(images_strip "$2") || { ts_fail "$what: $2 is not JSON"; return; }
	b=$(images_strip "$3") || { ts_fail "$what: $3 is not JSON"; return; }
	if [ "$a" = "$b" ]; then
		ts_ok "$what: check --json equals the raw image's"
	else
		ts_fail "$what: check --json differs from the raw image's:"
		diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -20
	fi
}

# No qemu-nbd of ours is left: none names a file under $TS_TMP.
images_no_leftover() {
	if pgrep -f "qemu-nbd.*$TS_TMP" >/dev/null; then
		ts_fail "$1: a qemu-nbd is still running"
	else
		ts_ok "$1: no qemu-nbd left"
	fi
}
