# SPDX-License-Identifier: GPL-2.0-or-later
# mkimg.sh - build partitioned image files and read blkalign's reports in
# tests/ts/<suite>/<test> scripts.  Source it after tests/functions.sh and
# call ts_tmpdir first: every file lands in $TS_TMP.
#
# Images are sparse (truncate), so a 2 TB disk costs a few KiB.  Sizes and
# offsets are plain numbers (bytes, or 512-byte sectors where the name says
# so).  Expected values in tests are written by hand from the rules in
# docs/ (and ../shared/research), never captured from blkalign itself.

MKIMG_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Every finding code blkalign knows; the text report must mention exactly
# the ones the JSON report has.
# Every finding code, from the library's own table.
BA_CODES=$("$BLKALIGN" check --list-codes | awk '{print $1}' | tr '\n' ' ')

# mkimg_new IMG BYTES: a sparse, zero-filled image.
mkimg_new() {
	rm -f "$1"
	truncate -s "$2" "$1" || { ts_fail "cannot create '$1'"; return 1; }
}

# mkimg_sfdisk IMG BYTES < SCRIPT: a new image partitioned by sfdisk.
mkimg_sfdisk() {
	mkimg_new "$1" "$2" || return 1
	sfdisk -q --no-reread --no-tell-kernel "$1" >"$TS_TMP/sfdisk.out" 2>&1 || {
		ts_fail "sfdisk could not partition '$1': $(cat "$TS_TMP/sfdisk.out")"
		return 1
	}
}

# mkimg_sgdisk IMG BYTES SGDISK-ARGS...: a new GPT image made by sgdisk.
mkimg_sgdisk() {
	local img=$1 size=$2
	shift 2
	mkimg_new "$img" "$size" || return 1
	sgdisk "$@" "$img" >"$TS_TMP/sgdisk.out" 2>&1 || {
		ts_fail "sgdisk $* could not partition '$img': $(cat "$TS_TMP/sgdisk.out")"
		return 1
	}
}

# mkimg_parted IMG BYTES PARTED-COMMANDS...: a new image made by parted -s.
mkimg_parted() {
	local img=$1 size=$2
	shift 2
	mkimg_new "$img" "$size" || return 1
	parted -s -a none "$img" "$@" >"$TS_TMP/parted.out" 2>&1 || {
		ts_fail "parted $* failed on '$img': $(cat "$TS_TMP/parted.out")"
		return 1
	}
}

# mkimg_layout IMG: "N start size" per partition (512-byte sectors) as
# sfdisk reads the image, to check that a tool built what the test meant.
mkimg_layout() {
	sfdisk -d "$1" 2>/dev/null | sed -n 's/^[^:]*[^0-9]\([0-9]\+\) *: *start= *\([0-9]\+\), *size= *\([0-9]\+\).*/\1 \2 \3/p'
}

# mkimg_expect_layout WHAT IMG <<EOF: the image holds exactly these
# partitions ("N start size" lines, sectors), as sfdisk sees it.
mkimg_expect_layout() {
	local want got
	want=$(grep -v '^[[:space:]]*$' | sort)
	got=$(mkimg_layout "$2" | sort)
	if [ "$want" = "$got" ]; then
		ts_ok "$1: image layout as intended"
	else
		ts_fail "$1: the image tool did not build the intended layout"
		diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed 's/^/    /'
	fi
}

# mkimg_put_le32 IMG OFFSET VALUE / mkimg_put_byte IMG OFFSET VALUE:
# patch bytes in place (little-endian), as a hex editor would.
mkimg_put_le32() {
	local v=$3
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v & 255)) \
		$(((v >> 8) & 255)) $(((v >> 16) & 255)) $(((v >> 24) & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
mkimg_put_byte() {
	printf "$(printf '\\%03o' $(($3 & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# mkimg_get_le32 IMG OFFSET
mkimg_get_le32() {
	od -An -tu4 -j "$2" -N4 --endian=little "$1" | tr -d ' '
}

# mkimg_gpt_patch IMG LBA FIELD VALUE [SECTOR]: set a GPT header field
# (num_entries, entry_size, entries_lba, first_usable, last_usable,
# my_lba, alternate_lba) and recompute the header CRC, so only the
# field's value is wrong.
mkimg_gpt_patch() {
	perl "$MKIMG_DIR/gpt-patch.pl" "$@" ||
		ts_fail "cannot patch the GPT header of '$1'"
}

# mkimg_sha IMG: the image's sha256 (for "nothing was written").
mkimg_sha() {
	sha256sum "$1" | cut -d' ' -f1
}

# mkimg_stamp IMG: size and modification time (ns), a cheap "nothing was
# written" check for big images.
mkimg_stamp() {
	stat -c '%s %y' "$1"
}

# ---------------------------------------------------------------------
# Running blkalign

# ba_check NAME ARGS...: run `blkalign check --json ARGS` and the text
# report with the same arguments.  Leaves $TS_TMP/NAME.json, NAME.err
# (stderr of the JSON run), NAME.txt (text report), and BA_RC (exit
# status).  A crash, a hang (timeout 20) or text and JSON runs that
# disagree on the exit status are failures.  The page size is pinned to
# 4096 unless the test passes --page-size itself.
ba_check() {
	local name=$1 page=(--page-size 4096) a trc
	shift
	for a in "$@"; do
		case $a in --page-size*) page=() ;; esac
	done
	timeout 20 "$BLKALIGN" check --json "${page[@]}" "$@" \
		>"$TS_TMP/$name.json" 2>"$TS_TMP/$name.err"
	BA_RC=$?
	ts_keep_json check "$TS_TMP/$name.json"
	timeout 20 "$BLKALIGN" check --color=never "${page[@]}" "$@" \
		>"$TS_TMP/$name.txt" 2>"$TS_TMP/$name.txt.err"
	trc=$?
	if [ "$BA_RC" -ge 124 ]; then
		ts_fail "$name: blkalign crashed or hung (exit $BA_RC): $(head -c 400 "$TS_TMP/$name.err")"
		return 1
	fi
	if [ "$trc" -ne "$BA_RC" ]; then
		ts_fail "$name: text report exits $trc, JSON report $BA_RC"
	fi
	if [ -s "$TS_TMP/$name.json" ]; then
		# One jq: is it JSON (and not null or false, as jq -e . has
		# it), and its status.
		if ! ts_json "$TS_TMP/$name.json" '. != null and . != false' \
			'.status' 2>/dev/null || [ "${TS_JSON[0]}" != true ]; then
			ts_fail "$name: --json output is not JSON"
			return 1
		fi
		[ "${TS_JSON[1]}" = "$BA_RC" ] ||
			ts_fail "$name: JSON status ${TS_JSON[1]} but exit status $BA_RC"
	fi
	return 0
}

# ba_jq NAME FILTER: jq -r FILTER over NAME.json
ba_jq() {
	jq -r "$2" "$TS_TMP/$1.json"
}

# ba_findings NAME [DEVICE-INDEX]: "layer code severity" per finding, sorted.
ba_findings() {
	jq -r ".devices[${2:-0}].findings[] | \"\(.layer) \(.code) \(.severity)\"" \
		"$TS_TMP/$1.json" | sort
}

# ba_expect_findings WHAT NAME <<EOF: the first device has exactly these
# findings ("layer code severity" lines; none for an empty heredoc), and
# the text report mentions each code with its layer and no other code.
ba_expect_findings() {
	local what=$1 name=$2 want got layer code c
	want=$(grep -v '^[[:space:]]*$' | sed 's/^[[:space:]]*//' | sort)
	got=$(ba_findings "$name")
	if [ "$want" = "$got" ]; then
		ts_ok "$what: findings = {$(printf '%s' "$want" | tr '\n' ';')}"
	else
		ts_fail "$what: findings differ (- expected, + blkalign)"
		ts_diff_lines "$want" "$got"
	fi
	while read -r layer code _; do
		[ -n "$code" ] || continue
		grep -E -- "(^|[^a-z-])$code([^a-z-]|$)" "$TS_TMP/$name.txt" |
			grep -F -q -- "$layer" ||
			ts_fail "$what: the text report does not mention $code on '$layer'"
	done <<<"$want"
	for c in $BA_CODES; do
		if ! grep -q -- " $c " <<<" $(printf '%s' "$want" | tr '\n' ' ') "; then
			grep -E -q -- "(^|[^a-z-])$c([^a-z-]|$)" "$TS_TMP/$name.txt" &&
				ts_fail "$what: the text report mentions $c, the JSON report does not"
		fi
	done
	return 0
}

# ba_field NAME LAYER CODE FIELD: a field of the (first) finding CODE on LAYER.
ba_field() {
	jq -r --arg l "$2" --arg c "$3" \
		"[.devices[0].findings[] | select(.layer == \$l and .code == \$c)][0].$4" \
		"$TS_TMP/$1.json"
}

# ba_layer NAME LAYER FIELD: a field of a layer of the first device.
ba_layer() {
	jq -r --arg l "$2" \
		"[.devices[0].layers[] | select(.name == \$l)][0].$3" \
		"$TS_TMP/$1.json"
}

# ba_expect_rc WHAT EXPECTED: BA_RC is EXPECTED.
ba_expect_rc() {
	ts_expect_eq "$1: exit status" "$2" "$BA_RC"
}

# ba_expect_fields WHAT NAME LAYER CODE FIELD=VALUE...
ba_expect_fields() {
	local what=$1 name=$2 layer=$3 code=$4 kv i exprs=()
	shift 4
	# One jq for all the fields (ba_field's filter for each).
	for kv in "$@"; do
		exprs+=("[.devices[0].findings[] | select(.layer == \$l and .code == \$c)][0].${kv%%=*}")
	done
	ts_json --arg l "$layer" --arg c "$code" "$TS_TMP/$name.json" \
		"${exprs[@]}"
	i=0
	for kv in "$@"; do
		ts_expect_eq "$what: $code on $layer: ${kv%%=*}" "${kv#*=}" \
			"${TS_JSON[$i]}"
		i=$((i + 1))
	done
}

# ba_expect_layers WHAT NAME <<EOF: the partitions of the first device,
# "name start size" in 512-byte sectors (the disk layer excluded).
ba_expect_layers() {
	local want got
	want=$(grep -v '^[[:space:]]*$' | sed 's/^[[:space:]]*//' | sort)
	got=$(jq -r '.devices[0].layers[] | select(.kind == "partition") |
		"\(.name) \(.start / 512) \(.size / 512)"' "$TS_TMP/$2.json" | sort)
	if [ "$want" = "$got" ]; then
		ts_ok "$1: partitions as built"
	else
		ts_fail "$1: partitions differ (- expected, + blkalign)"
		ts_diff_lines "$want" "$got"
	fi
}

# ba_hostile NAME "ALLOWED EXIT CODES" IMG [ARGS...]: run ba_check on a
# hostile image; the exit status must be one of the allowed ones, nothing
# may be written to the image (sha256), and stderr must not show a
# sanitizer report.  Leaves BA_RC and BA_SAID (stderr, the findings'
# messages and the problems of the JSON report, for message checks).
ba_hostile() {
	local name=$1 allowed=$2 img=$3 before after
	shift 3
	before=$(mkimg_sha "$img")
	ba_check "$name" "$@" "$img"
	case " $allowed " in
	*" $BA_RC "*) ts_ok "$name: exit $BA_RC (allowed: $allowed)" ;;
	*) ts_fail "$name: exit $BA_RC, allowed: $allowed; stderr: $(head -c 300 "$TS_TMP/$name.err")" ;;
	esac
	after=$(mkimg_sha "$img")
	[ "$before" = "$after" ] && ts_ok "$name: image unchanged" ||
		ts_fail "$name: the image changed"
	if grep -E -q 'Sanitizer|runtime error:|Segmentation|Aborted|core dumped' \
		"$TS_TMP/$name.err" "$TS_TMP/$name.txt.err"; then
		ts_fail "$name: sanitizer or crash report on stderr"
	fi
	BA_SAID=$(cat "$TS_TMP/$name.err"
		jq -r '.devices[]? | (.findings[]?.message), (.problems[]?)' \
			"$TS_TMP/$name.json" 2>/dev/null)
}

# ba_said WHAT ERE: BA_SAID (from ba_hostile) matches ERE (case-insensitive).
ba_said() {
	if grep -E -i -q -- "$2" <<<"$BA_SAID"; then
		ts_ok "$1: says /$2/"
	else
		ts_fail "$1: nothing on stderr or in the report matches /$2/"
	fi
}
