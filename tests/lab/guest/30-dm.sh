# SPDX-License-Identifier: GPL-2.0-or-later
# dm: seed 000's tables on a 1 GiB 512e disk (j1) - dm-linear with an
# odd size at an aligned start (lina) and an even size at a misaligned
# start (linb) - and kpartx partitions of a dm device (mp: p1 at 63 with
# an odd size, p2 at 4096).  Ground truth: dmsetup table, blockdev, and
# the block requests that reach j1 for a buffered 16 MiB write, counted
# from tracefs by this script; then blkalign check, model and trace.
# blkalign trace runs inside a kernel count of its own (the top-level
# tracefs instance, on before it starts and off after it exits), also on
# a dm-crypt mapping (crypt) and a dm-striped one over two ranges of j1
# (stripe): trace-writes.txt.
j=$(lab_disk j1)
dmsetup create lina --table "0 1000003 linear /dev/$j 2048"
dmsetup create linb --table "0 1000000 linear /dev/$j 2055"
dmsetup create mp --table "0 600000 linear /dev/$j 1050624"
traced="lina linb mp1 mp2 mp" # mp last: writing it wipes its table
key=$(printf '%064x' 14)
if dmsetup create crypt --table "0 200000 crypt aes-cbc-plain64 $key 0 /dev/$j 1700001"; then
	traced="$traced crypt"
else
	echo "lab: no dm-crypt with aes-cbc-plain64 here" >&2
fi
dmsetup create stripe --table "0 65536 striped 2 128 /dev/$j 1900000 /dev/$j 1950000" &&
	traced="$traced stripe"
lab_partition mapper/mp 63 100001 83 102400 200000 83
kpartx -a -s /dev/mapper/mp
sleep 1
dmsetup table >dmsetup-table.txt
lab_blockdevs >blockdevs.txt
for m in lina linb mp mp1 mp2; do
	dm=dm-$(dmsetup info -c --noheadings -o minor "$m" | tr -d ' ')
	echo "$m $dm $(cat /sys/block/$dm/dm/name) slaves=$(ls /sys/block/$dm/slaves | tr '\n' ' ')"
done >dm-names.txt
lab_topology $j $(cd /sys/block && ls -d dm-*) >topology.txt
mkdir -p check model trace
for m in lina linb mp mp1 mp2; do
	lab_run check/$m blkalign check --json /dev/mapper/$m
	lab_run model/$m blkalign model --json --workload seq-write-buffered --total 16M /dev/mapper/$m
done
lab_run check/$j blkalign check --json /dev/$j
lab_run check-all blkalign check --json
# mp last: writing it wipes its table
for m in lina linb mp1 mp2 mp; do
	# the kernel's count: buffered writes (dd bs=32k, 16 MiB) flushed by
	# dd's fsync (sync(1) would wake the flusher threads too, and two
	# writers interleaving split the requests differently each run)
	echo 3 >/proc/sys/vm/drop_caches
	lab_trace_on
	dd if=/dev/zero of=/dev/mapper/$m bs=32k count=512 conv=fsync 2>/dev/null
	lab_trace_off
	grep block_rq_issue $TR/trace >kernel-trace-$m.txt
	echo "$m requests=$(lab_trace_count $j W) sectors=$(grep block_rq_issue $TR/trace | grep " $(tr : , </sys/block/$j/dev) W" | grep -oE '\+ [0-9]+' | awk '{s += $2} END {print s + 0}')"
done >kernel-writes.txt
for m in $traced; do
	echo 3 >/proc/sys/vm/drop_caches
	lab_trace_on
	lab_run trace/$m blkalign trace --json --save trace/$m.raw /dev/mapper/$m -- \
		dd if=/dev/zero of=/dev/mapper/$m bs=32k count=512 conv=fsync
	lab_trace_off
	echo "$m $(lab_trace_writes $j)"
done >trace-writes.txt
kpartx -d /dev/mapper/mp
dmsetup remove lina linb mp
dmsetup remove crypt 2>/dev/null
dmsetup remove stripe 2>/dev/null
