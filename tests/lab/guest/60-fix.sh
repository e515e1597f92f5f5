# SPDX-License-Identifier: GPL-2.0-or-later
# fix: refused on disks that live stacks hold - a member of a running
# array, a PV of an active VG, an opened LUKS container, a disk with
# kpartx mappings, a mounted partition - with exit 4, the command that
# frees each and not a byte written; then the procedure of docs/fix.md
# for an md array: stop it, fix each member, assemble it again.
for s in e1 e2 e3 e4 n1 j1; do eval "$s=$(lab_disk $s)"; done
key() { printf 'lab-passphrase'; }
for d in $e1 $e2 $e3 $e4 $n1; do wipefs -q -a /dev/$d; done
# e1, e2: RAID-1 (1.2) over partitions at 63, ext4 with data on it
lab_partition $e1 63 60000 fd
lab_partition $e2 63 60000 fd
mdadm --create /dev/md30 --run --quiet --metadata=1.2 --level=1 --raid-devices=2 /dev/${e1}1 /dev/${e2}1
mdadm --wait /dev/md30 2>/dev/null
mkfs.ext4 -q -F /dev/md30
mkdir -p /mnt/md30 && mount -t ext4 /dev/md30 /mnt/md30
dd if=/dev/urandom of=/mnt/md30/data bs=1M count=8 2>/dev/null
umount /mnt/md30
# e3: an active VG on p2; e4: LUKS2 opened on p2
lab_partition $e3 2048 40000 8e 43008 40000 8e
pvcreate -q /dev/${e3}2 && vgcreate -q vgf /dev/${e3}2 && lvcreate -q -y -n lv -L 8M vgf
lab_partition $e4 2048 40000 83 43008 60000 83
key | cryptsetup luksFormat -q --key-file=- --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 /dev/${e4}2
key | cryptsetup open --key-file=- /dev/${e4}2 cf
# j1: kpartx mappings of its own table; n1: p2 mounted
lab_partition $j1 63 100000 83 102400 100000 83
kpartx -a -s /dev/$j1
lab_partition $n1 2048 40000 83 43008 40000 83
mkfs.ext4 -q -F /dev/${n1}2 && mkdir -p /mnt/n1 && mount -t ext4 /dev/${n1}2 /mnt/n1
sleep 1
lab_blockdevs >blockdevs.txt
cat /proc/mdstat >mdstat.txt
dmsetup table >dmsetup-table.txt
awk '$5 == "/mnt/n1" {print}' /proc/self/mountinfo >mounts.txt
mkdir -p refuse /tmp/journals
for d in $e1 $e3 $e4 $j1 $n1; do
	sha256sum /dev/$d | cut -d' ' -f1 >refuse/$d.before
	lab_run refuse/$d blkalign fix --yes --journal-dir /tmp/journals /dev/$d
	sha256sum /dev/$d | cut -d' ' -f1 >refuse/$d.after
done
echo "$e1 md30" >refuse/expect.txt
echo "$e3 vgf" >>refuse/expect.txt
echo "$e4 cf" >>refuse/expect.txt
echo "$j1 kpartx" >>refuse/expect.txt
echo "$n1 /mnt/n1" >>refuse/expect.txt
umount /mnt/n1
kpartx -d /dev/$j1
cryptsetup close cf
vgchange -q -an vgf >/dev/null && vgremove -q -f vgf && pvremove -q -y /dev/${e3}2

# the md procedure: stop, fix each member, assemble
mkdir -p md
sha256sum /dev/md30 | cut -d' ' -f1 >md/array.before
lab_topology ${e1}1 ${e2}1 >md/topology.before
mdadm --stop /dev/md30
for d in $e1 $e2; do
	lab_run md/fix-$d blkalign fix --yes --journal-dir /tmp/journals /dev/$d
	lab_run md/check-$d blkalign check --json /dev/$d
done
mdadm --assemble /dev/md30 /dev/${e1}1 /dev/${e2}1 >md/assemble.txt 2>&1
echo "$?" >md/assemble.rc
lab_topology ${e1}1 ${e2}1 >md/topology.after
mdadm --detail /dev/md30 >md/detail.txt
sha256sum /dev/md30 | cut -d' ' -f1 >md/array.after
mkdir -p /mnt/md30 && mount -t ext4 -o ro /dev/md30 /mnt/md30 && ls -la /mnt/md30 >md/ls.txt && umount /mnt/md30
mdadm --stop /dev/md30
