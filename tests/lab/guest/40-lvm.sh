# SPDX-License-Identifier: GPL-2.0-or-later
# lvm: physical volumes with aligned and misaligned data areas on
# partitions and on an md array, linear and striped LVs.  The partition
# tables of 20-md.sh are still on the disks: p1 at 63, p2..p4 at MiB
# starts.  Ground truth: pvs/lvs, dmsetup table, blockdev; then blkalign
# check on every disk, PV partition and LV.
for s in e1 e2 e3 e4 n1 n2; do eval "$s=$(lab_disk $s)"; done
# pa: default alignment at a MiB start; pb: 512 bytes off (the lab's vdk1)
pvcreate -q /dev/${e1}2
pvcreate -q --dataalignmentoffset 1s /dev/${e2}2
# pc: default alignment at 63: the 1 MiB data offset sits 3584 bytes off
# pd: 512 off at 63: the two errors cancel, the data is 4 KiB aligned
pvcreate -q /dev/${e3}1
pvcreate -q --dataalignmentoffset 1s /dev/${e4}1
vgcreate -q vga /dev/${e1}2
vgcreate -q vgb /dev/${e2}2
vgcreate -q vgc /dev/${e3}1
vgcreate -q vgd /dev/${e4}1
for v in vga vgb vgc vgd; do lvcreate -q -y -n lv -L 8M $v; done
# striped over two 512n PVs
pvcreate -q /dev/${n1}2 /dev/${n2}2
vgcreate -q vgs /dev/${n1}2 /dev/${n2}2
lvcreate -q -y -n lv -i 2 -I 64k -L 8M vgs
# on md: RAID-5 of 4 (stripe 192 KiB), the PV forced to 1 MiB, which
# is on the 4 KiB grid but not on the stripe grid
mdadm --create /dev/md20 --run --assume-clean --quiet --metadata=1.2 --level=5 --chunk=64 --raid-devices=4 /dev/${e1}3 /dev/${e2}3 /dev/${e3}3 /dev/${e4}3
pvcreate -q --dataalignment 1m /dev/md20
vgcreate -q vgm /dev/md20
lvcreate -q -y -n lv -L 8M vgm
vgchange -q -ay >/dev/null
sleep 1
pvs --units b --nosuffix --noheadings -o pv_name,vg_name,pe_start,vg_extent_size >pvs.txt
lvs --units b --nosuffix --noheadings -o vg_name,lv_name,lv_kernel_minor,stripes,stripe_size,seg_pe_ranges >lvs.txt
dmsetup table >dmsetup-table.txt
lab_blockdevs >blockdevs.txt
pvparts="${e1}2 ${e2}2 ${e3}1 ${e4}1 ${n1}2 ${n2}2"
for p in $pvparts; do echo "$p start=$(cat /sys/class/block/$p/start)"; done >starts.txt
lvdevs=$(cd /sys/block && ls -d dm-*)
lab_topology $e1 $e2 $e3 $e4 $n1 $n2 $pvparts md20 $lvdevs >topology.txt
for d in $lvdevs; do echo "$d $(cat /sys/block/$d/dm/name)"; done >dm-names.txt
mkdir -p check
for d in $e1 $e2 $e3 $e4 $n1 $n2 $pvparts md20; do
	lab_run check/$d blkalign check --json /dev/$d
done
for v in vga vgb vgc vgd vgs vgm; do
	lab_run check/$v-lv blkalign check --json /dev/mapper/$v-lv
	lab_run check/$v-lv-text blkalign check /dev/mapper/$v-lv
done
# trace on an LV (vgb-lv: linear on e2's p2), a striped LV (over n1 and
# n2) and a plain partition (n1's p3), each inside the kernel's own count
# of the writes reaching its disks: trace-writes.txt, trace-part.txt
mkdir -p trace
trace_dev() { # FILE NAME NODE DISK...
	local f=$1 n=$2 node=$3 d
	shift 3
	lab_trace_on
	lab_run trace/$n blkalign trace --json --save trace/$n.raw $node -- \
		dd if=/dev/zero of=$node bs=4k count=256 oflag=direct
	lab_trace_off
	for d in "$@"; do echo "$n $d $(cat /sys/block/$d/dev) $(lab_trace_writes $d)"; done >>$f
}
: >trace-writes.txt
: >trace-part.txt
trace_dev trace-writes.txt vgb-lv /dev/mapper/vgb-lv $e2
trace_dev trace-writes.txt vgs-lv /dev/mapper/vgs-lv $n1 $n2
trace_dev trace-part.txt ${n1}3 /dev/${n1}3 $n1
vgchange -q -an >/dev/null
for v in vga vgb vgc vgd vgs vgm; do vgremove -q -f $v; done
pvremove -q -ff -y /dev/md20 $(for p in $pvparts; do echo /dev/$p; done)
mdadm --stop /dev/md20
for p in ${e1}3 ${e2}3 ${e3}3 ${e4}3; do mdadm --zero-superblock /dev/$p; done
