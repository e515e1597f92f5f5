# SPDX-License-Identifier: GPL-2.0-or-later
# stack-functions.sh - shared by the tests/ts/stack/* scripts (sourced,
# not a test: it is not executable, so tests/run.sh skips it).
#
# A stack test builds a disk image with one partition at a chosen start,
# puts in it what the real tools made (mdadm-readable md superblocks from
# tests/fixtures/mk-md.py, pvcreate, cryptsetup luksFormat, mkfs), runs
# `blkalign check --json` on it (under timeout, through ba_check) and
# compares the whole layer tree and every finding, numbers included, with
# values written by hand from the rules (lib/analyze/rules-stack.c, blkalign(8)
# FINDINGS, docs/stack.md).  Nothing may be written to the image.

. "$(dirname "$0")/../../functions.sh"
. "$TS_TOP/tests/lib/mkimg.sh"


# st_disk IMG LABEL START SECTORS TYPE: a new sparse disk image with one
# partition (dos or gpt) of SECTORS 512-byte sectors at START, followed by
# at least 2048 free sectors; the disk size is a multiple of 4 KiB, so the
# disk layer itself has no finding.  The layout is read back with sfdisk.
st_disk() {
	local img=$1 label=$2 start=$3 sectors=$4 type=$5 total
	total=$(((start + sectors + 2048 + 7) / 8 * 8))
	if [ "$label" = gpt ]; then
		mkimg_sgdisk "$img" $((total * 512)) -a 1 \
			-n "1:$start:$((start + sectors - 1))" -t "1:$type" || return 1
	else
		mkimg_sfdisk "$img" $((total * 512)) \
			<<<"label: dos
start=$start, size=$sectors, type=$type" || return 1
	fi
	mkimg_expect_layout "$(basename "$img") ($label)" "$img" <<<"1 $start $sectors"
}

# st_put SRC IMG OFFSET: copy the file SRC into IMG at byte OFFSET (sparse).
st_put() {
	dd if="$1" of="$2" bs=1M conv=sparse,notrunc oflag=seek_bytes \
		seek="$3" status=none || ts_fail "cannot copy '$1' into '$2'"
}

# st_cut IMG OFFSET SECTORS OUT: copy a region of IMG (a partition) out,
# for the tools that only read whole files (mdadm --examine).
st_cut() {
	dd if="$1" of="$4" bs=512 skip=$(($2 / 512)) count="$3" \
		conv=sparse status=none || ts_fail "cannot cut a region of '$1'"
}

# st_sha IMG: sha256 of IMG, through openssl when there is one: coreutils'
# sha256sum is three times slower on the 512 MiB images.
st_sha() {
	if command -v openssl >/dev/null 2>&1; then
		openssl dgst -sha256 -r "$1" | cut -d' ' -f1
	else
		mkimg_sha "$1"
	fi
}

# st_check NAME IMG [blkalign options...]: ba_check on IMG (JSON and text,
# under timeout), the image's sha256 unchanged, nothing left unreadable.
# The hash after one run is the hash before the next run on that image.
declare -A ST_SHA=()
st_check() {
	local name=$1 img=$2 before after
	shift 2
	before=${ST_SHA[$img]:-$(st_sha "$img")}
	ba_check "$name" "$@" "$img" || return 1
	after=$(st_sha "$img")
	ST_SHA[$img]=$after
	ts_expect_eq "$name: image sha256 unchanged" "$before" "$after"
	ts_expect_eq "$name: problems" "" "$(ba_jq "$name" '.devices[0].problems | join("; ")')"
}

# st_expect_tree NAME [DEVICE-INDEX] <<EOF: the device has exactly these
# layers, one per line: "name kind parent start [key=value ...]", parent
# "-" for none, start in bytes, keys from the JSON layer (a key the layer
# lacks reads "null").
st_expect_tree() {
	local name=$1 dev=${2:-0} want got lname kind parent start kv rest
	local json=$TS_TMP/$name.json lines ln k v
	local -A val=()
	lines=$(grep -v '^[[:space:]]*$' | sed 's/^[[:space:]]*//')
	want=$(cut -d' ' -f1 <<<"$lines" | sort | paste -sd' ' -)
	got=$(jq -r ".devices[$dev].layers[].name" "$json" | sort | paste -sd' ' -)
	ts_expect_eq "$name: layers" "$want" "$got"
	# One jq run for the whole tree: "layer<TAB>key<TAB>value" lines.
	while IFS=$'\t' read -r ln k v; do
		val["$ln/$k"]=$v
	done < <(jq -r ".devices[$dev].layers[] | .name as \$n | to_entries[] |
		\"\\(\$n)\t\\(.key)\t\\(.value)\"" "$json")
	while read -r lname kind parent start rest; do
		[ "$parent" = - ] && parent=null
		ts_expect_eq "$name: $lname kind parent start" "$kind $parent $start" \
			"${val[$lname/kind]:-null} ${val[$lname/parent]:-null} ${val[$lname/start]:-null}"
		for kv in $rest; do
			ts_expect_eq "$name: $lname ${kv%%=*}" "${kv#*=}" \
				"${val[$lname/${kv%%=*}]:-null}"
		done
	done <<<"$lines"
}

# st_expect_findings NAME [DEVICE-INDEX] <<EOF: the device has exactly
# these findings, one per line: "layer code severity value granularity
# remainder" (none for an empty heredoc).  For the first device, the text
# report must mention each code on its layer and no other code
# (ba_expect_findings).
st_expect_findings() {
	local name=$1 dev=${2:-0} want got lines
	lines=$(grep -v '^[[:space:]]*$' | sed 's/^[[:space:]]*//')
	want=$(sort <<<"$lines")
	got=$(jq -r ".devices[$dev].findings[] | \"\\(.layer) \\(.code) \\(.severity) \\(.value) \\(.granularity) \\(.remainder)\"" \
		"$TS_TMP/$name.json" | sort)
	if [ "$want" = "$got" ]; then
		ts_ok "$name: findings and their numbers as derived"
	else
		ts_fail "$name: findings differ (- expected, + blkalign)"
		ts_diff_lines "$want" "$got"
	fi
	[ "$dev" = 0 ] || return 0
	cut -d' ' -f1-3 <<<"$lines" | ba_expect_findings "$name" "$name"
}
