# SPDX-License-Identifier: GPL-2.0-or-later
# nested: ext4 on an LVM volume on a LUKS2 mapping on an md RAID-1 (1.2)
# over one partition on each of two 512e disks (s1, s2): with both
# partitions at 2048 (aligned at every level), both at 63, and one at 63
# and one at 2048 (mixed).  Ground
# truth: the partitions' starts, md/dev-*/offset, cryptsetup status,
# pvs' pe_start, dmsetup table, dumpe2fs; then blkalign check on the
# disk, the partition, the array, the mapping and the volume, as root
# and as nobody (setpriv), and with no argument as nobody.
for s in s1 s2; do eval "$s=$(lab_disk $s)"; done
key() { printf 'lab-passphrase'; }
nest() { # TAG START-ON-S1 START-ON-S2
	local t=$1 d
	wipefs -q -a /dev/$s1 /dev/$s2
	lab_partition $s1 $2 120000 fd
	lab_partition $s2 $3 120000 fd
	sleep 1
	mdadm --create /dev/md30 --run --assume-clean --quiet --metadata=1.2 --level=1 \
		--raid-devices=2 /dev/${s1}1 /dev/${s2}1
	key | cryptsetup luksFormat -q --key-file=- --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 /dev/md30
	key | cryptsetup open --key-file=- /dev/md30 nc
	pvcreate -q /dev/mapper/nc
	vgcreate -q vgn /dev/mapper/nc
	lvcreate -q -y -n lv -L 16M vgn
	vgchange -q -ay vgn >/dev/null
	mkfs.ext4 -q -F /dev/mapper/vgn-lv
	sleep 1
	mkdir -p $t/check
	for p in ${s1}1 ${s2}1; do echo "$p start=$(cat /sys/class/block/$p/start)"; done >$t/starts.txt
	for r in /sys/block/md30/md/dev-*; do echo "$(basename $r) offset=$(cat $r/offset)"; done >$t/md-offsets.txt
	cryptsetup status nc >$t/status.txt
	pvs --units b --nosuffix --noheadings -o pv_name,pe_start >$t/pvs.txt
	dmsetup table >$t/dmsetup-table.txt
	dumpe2fs -h /dev/mapper/vgn-lv 2>/dev/null | grep -E '^Block size' >$t/ext4.txt
	lab_blockdevs >$t/blockdevs.txt
	lab_topology $s1 $s2 ${s1}1 md30 $(cd /sys/block && ls -d dm-*) >$t/topology.txt
	for d in $(cd /sys/block && ls -d dm-*); do echo "$d $(cat /sys/block/$d/dm/name)"; done >$t/dm-names.txt
	for dev in $s1 ${s1}1 md30 mapper/nc mapper/vgn-lv; do
		lab_run $t/check/${dev#mapper/} blkalign check --json /dev/$dev
	done
	lab_run $t/check/vgn-lv-text blkalign check /dev/mapper/vgn-lv
	# as an ordinary user: what sysfs alone says
	for dev in $s1 ${s1}1 md30 mapper/nc mapper/vgn-lv; do
		lab_run $t/check/user-${dev#mapper/} setpriv --reuid=65534 --regid=65534 \
			--clear-groups blkalign check --json /dev/$dev
	done
	lab_run $t/check/user-all setpriv --reuid=65534 --regid=65534 --clear-groups \
		blkalign check --json
	vgchange -q -an vgn >/dev/null
	vgremove -q -f vgn
	pvremove -q -ff -y /dev/mapper/nc
	cryptsetup close nc
	mdadm --stop /dev/md30
	for d in $s1 $s2; do mdadm --zero-superblock /dev/${d}1; wipefs -q -a /dev/$d; done
}
nest aligned 2048 2048
nest at63 63 63
# the mirror's copies disagree: the array's alignment_offset is -1
nest mixed 63 2048
