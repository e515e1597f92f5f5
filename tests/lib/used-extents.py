#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# used-extents.py - the bytes a filesystem uses, by its own tools, and
# their sha256: what a move that copies only used blocks must keep.
#
#   used-extents.py TYPE IMAGE                  -> "OFF LEN" lines (bytes)
#       the used extents of the TYPE in IMAGE (a file holding only it),
#       by the filesystem's own tools; TYPE as tests/lib/fix.sh's
#       fix_mkfs names it:
#         ext4  dumpe2fs's free block ranges per group (the complement
#               in [0, Block count) is used), block size from its header;
#               with bigalloc each range's end is a cluster's first block
#         xfs   xfs_db freesp -d's free extents less each AG's AGFL
#               blocks (agfl bno, flfirst..fllast: not in the bnobt, so
#               copied): the complement in [0, dblocks) is used
#         fat16, fat32, esp
#               [0, fsck.fat -v's "Data area starts at byte") and the
#               clusters mshowfat (mtools) lists for the root and every
#               path mdir -/ -b lists
#         ntfs  the clusters ntfscat's $Bitmap marks (bit i of byte j:
#               cluster 8j + i) below ntfsinfo -m's "Volume Size in
#               Clusters" (the padding bits past it are not clusters),
#               cluster 0 (the boot sector), and every byte past the
#               last cluster to the image's end: the backup boot sector
#               lives there, at the boot sector's total sectors x bytes
#               per sector (Windows, mkntfs) or in the last sector
#               (ntfs-3g); both checked to be in that tail
#         lvm   an LVM2 PV (on a read-only loop device, the LVM tools
#               seeing only it, nothing activated): [0, pe_start), the
#               segments pvs --segments gives an LV, and the metadata
#               areas past pe_start pvck --dump headers lists
#         btrfs [0, 1 MiB), the superblock copies inside the image
#               (64 KiB, 64 MiB, 256 GiB; 4 KiB each) and every
#               DEV_EXTENT of btrfs inspect-internal dump-tree -t dev
#         exfat [0, dump.exfat's "Cluster Heap Offset") and the clusters
#               whose bit is set in the allocation bitmap at its "Bitmap
#               start cluster" (one bit per cluster of "Total Clusters")
#         swap  the header page (mkswap's: the page size of this
#               machine, SWAPSPACE2 at its end); a hibernation image
#               (S1SUSPEND, ULSUSPEND...) is used whole
#   used-extents.py knows TYPE                  -> exit 0 if TYPE is read
#   used-extents.py sha SRC OFF EXTENTS [FIRST_SRC FIRST_OFF]
#       sha256 of the extents' bytes of SRC, relative to byte OFF; with
#       FIRST_SRC, the first 512 bytes from FIRST_SRC at FIRST_OFF
#       (a marker stands in for them)
import hashlib
import os
import re
import subprocess
import sys


def ext4(image):
    out = subprocess.run(['dumpe2fs', image], capture_output=True,
                         text=True, check=True).stdout
    bs = int(re.search(r'^Block size:\s+(\d+)', out, re.M).group(1))
    count = int(re.search(r'^Block count:\s+(\d+)', out, re.M).group(1))
    # bigalloc: a free range's ends are the first blocks of clusters
    # (5248-65520 for clusters of 16 blocks up to 65535)
    cl = re.search(r'^Cluster size:\s+(\d+)', out, re.M)
    last = int(cl.group(1)) // bs - 1 if cl else 0
    free = []
    for line in re.findall(r'^\s+Free blocks: (.*)$', out, re.M):
        for r in filter(None, (x.strip() for x in line.split(','))):
            a, _, b = r.partition('-')
            free.append((int(a), int(b or a) + last))
    free.sort()
    at = 0
    for a, b in free:
        if a > at:
            print(at * bs, (a - at) * bs)
        at = max(at, b + 1)
    if at < count:
        print(at * bs, (count - at) * bs)


def xfs_db(image, *cmds):
    args = ['xfs_db', '-r']
    for c in cmds:
        args += ['-c', c]
    return subprocess.run(args + [image], capture_output=True, text=True,
                          check=True).stdout


def xfs(image):
    sb = xfs_db(image, 'sb 0', 'p blocksize', 'p agblocks', 'p dblocks',
                'p agcount')
    v = dict(re.findall(r'^(\w+) = (\d+)$', sb, re.M))
    bs, agb, dblocks = int(v['blocksize']), int(v['agblocks']), int(v['dblocks'])
    fl = set()
    for ag in range(int(v['agcount'])):
        a = dict(re.findall(r'^(\w+) = (\d+)$',
                            xfs_db(image, 'agf %d' % ag, 'p flfirst',
                                   'p fllast', 'p flcount'), re.M))
        ent = dict(re.findall(r'(\d+):(\S+)',
                              xfs_db(image, 'agfl %d' % ag, 'p bno')))
        i = int(a['flfirst'])
        for _ in range(int(a['flcount'])):
            fl.add(ag * agb + int(ent[str(i)]))
            i = (i + 1) % len(ent)
    free = set()
    for line in xfs_db(image, 'freesp -d').splitlines():
        f = line.split()
        if len(f) == 3 and f[0].isdigit():
            ag, b, n = map(int, f)
            free.update(ag * agb + b + k for k in range(n))
    free -= fl
    at = 0
    for b in sorted(free) + [dblocks]:
        if b > at:
            print(at * bs, (b - at) * bs)
        at = b + 1


def fat(image):
    env = dict(os.environ, MTOOLS_SKIP_CHECK='1')
    v = subprocess.run(['fsck.fat', '-n', '-v', image], capture_output=True,
                       text=True).stdout
    data = int(re.search(r'^Data area starts at byte (\d+)', v, re.M).group(1))
    cl = int(re.search(r'^\s*(\d+) bytes per cluster', v, re.M).group(1))
    paths = subprocess.run(['mdir', '-i', image, '-/', '-b', '::'],
                           capture_output=True, text=True,
                           env=env).stdout.splitlines()  # 1: empty
    clusters = set()
    for p in ['::'] + [x.rstrip('/') for x in paths if x]:
        out = subprocess.run(['mshowfat', '-i', image, p], capture_output=True,
                             text=True, env=env).stdout
        for a, b in re.findall(r'<(\d+)(?:-(\d+))?>', out):
            clusters.update(range(int(a), int(b or a) + 1))
    ext = [[0, data]]
    for c in sorted(clusters):
        off = data + (c - 2) * cl
        if ext[-1][0] + ext[-1][1] == off:
            ext[-1][1] += cl
        else:
            ext.append([off, cl])
    for a, n in ext:
        print(a, n)


def ntfs(image):
    with open(image, 'rb') as f:
        boot = f.read(512)
    size = os.path.getsize(image)
    bps = int.from_bytes(boot[0x0b:0x0d], 'little')
    spc = boot[0x0d]
    spc = 1 << (256 - spc) if spc > 0x80 else spc
    total = int.from_bytes(boot[0x28:0x30], 'little')
    info = subprocess.run(['ntfsinfo', '-m', image], capture_output=True,
                          text=True, check=True).stdout
    cs = int(re.search(r'^\s*Cluster Size: (\d+)', info, re.M).group(1))
    n = int(re.search(r'^\s*Volume Size in Clusters: (\d+)', info,
                      re.M).group(1))
    if cs != bps * spc or n != total * bps // cs:
        sys.exit('ntfsinfo says %d clusters of %d bytes, the boot sector '
                 '%d sectors of %d, %d per cluster' % (n, cs, total, bps, spc))
    bm = subprocess.run(['ntfscat', image, '$Bitmap'], capture_output=True,
                        check=True).stdout
    if len(bm) * 8 < n:
        sys.exit('$Bitmap: %d bytes for %d clusters' % (len(bm), n))
    ext = []

    def add(a, ln):
        if ext and ext[-1][0] + ext[-1][1] >= a:
            ext[-1][1] = max(ext[-1][1], a + ln - ext[-1][0])
        else:
            ext.append([a, ln])
    add(0, cs)
    for m in re.finditer(rb'[^\x00]+', bm[:(n + 7) // 8]):
        for j in range(m.start(), m.end()):
            for k in range(8):
                if bm[j] >> k & 1 and j * 8 + k < n:
                    add((j * 8 + k) * cs, cs)
    end = n * cs
    for bk in (total * bps, size - max(bps, 512)):
        if not end <= bk < size:
            sys.exit('the backup boot sector at byte %d is not past the '
                     'clusters (%d..%d)' % (bk, end, size))
    add(end, size - end)
    for a, ln in ext:
        print(a, ln)


def exfat(image):
    out = subprocess.run(['dump.exfat', image], capture_output=True,
                         text=True, check=True).stdout

    def field(name):
        return int(re.search(r'^%s:\s*(\d+)' % re.escape(name), out,
                             re.M).group(1))
    heap = field('Cluster Heap Offset (sector offset)') * 512
    cl = field('Cluster size')
    count = field('Total Clusters')
    with open(image, 'rb') as f:
        f.seek(heap + (field('Bitmap start cluster') - 2) * cl)
        bits = f.read((count + 7) // 8)
    ext = [[0, heap]]
    for c in range(count):
        if bits[c // 8] >> (c % 8) & 1:
            off = heap + c * cl
            if ext[-1][0] + ext[-1][1] == off:
                ext[-1][1] += cl
            else:
                ext.append([off, cl])
    for a, n in ext:
        print(a, n)


def swap(image):
    ps = os.sysconf('SC_PAGE_SIZE')
    with open(image, 'rb') as f:
        magic = f.read(ps)[ps - 10:]
    if magic == b'SWAPSPACE2':
        print(0, ps)
    else:
        print(0, os.path.getsize(image))


def merged(ext):
    out = []
    for a, n in sorted(ext):
        if out and out[-1][0] + out[-1][1] >= a:
            out[-1][1] = max(out[-1][0] + out[-1][1], a + n) - out[-1][0]
        elif n:
            out.append([a, n])
    for a, n in out:
        print(a, n)


def lvm(image):
    dev = subprocess.run(['losetup', '-f', '--show', '-r', image],
                         capture_output=True, text=True,
                         check=True).stdout.strip()
    try:
        env = dict(os.environ, LVM_SUPPRESS_FD_WARNINGS='1')
        conf = ['--config', 'devices{filter=["a|^%s$|","r|.*|"] '
                'obtain_device_list_from_udev=0 use_devicesfile=0}' % dev,
                '--nolocking']

        def run(*args):
            return subprocess.run(list(args[:1]) + conf + list(args[1:]),
                                  capture_output=True, text=True, env=env,
                                  check=True).stdout
        head = run('pvs', '--noheadings', '--units', 'b', '--nosuffix', '-o',
                   'pe_start,vg_extent_size', dev).split()
        pe_start, ext = int(head[0]), int(head[1] or 0)
        used = [(0, pe_start)]
        for line in run('pvs', '--noheadings', '--segments', '-o',
                        'pvseg_start,pvseg_size,lv_name', dev).splitlines():
            f = line.split()
            if len(f) == 3:
                used.append((pe_start + int(f[0]) * ext, int(f[1]) * ext))
        hd = run('pvck', '--dump', 'headers', dev)
        offs = dict(re.findall(r'pv_header\.disk_locn\[(\d+)\]\.offset (\d+)', hd))
        sizes = dict(re.findall(r'pv_header\.disk_locn\[(\d+)\]\.size (\d+)', hd))
        for i in re.findall(r'pv_header\.disk_locn\[(\d+)\] at \d+ '
                            r'# location of metadata area', hd):
            if int(offs[i]) >= pe_start:
                used.append((int(offs[i]), int(sizes[i])))
    finally:
        subprocess.run(['losetup', '-d', dev])
    merged(used)


def btrfs(image):
    size = os.path.getsize(image)
    used = [(0, 1 << 20)]
    used += [(o, 4096) for o in (64 << 10, 64 << 20, 256 << 30)
             if o + 4096 <= size]
    out = subprocess.run(['btrfs', 'inspect-internal', 'dump-tree', '-t',
                          'dev', image], capture_output=True, text=True,
                         check=True).stdout
    for off, ln in re.findall(r'key \(\d+ DEV_EXTENT (\d+)\)[^\n]*\n'
                              r'[^\n]*\n[^\n]*length (\d+)', out):
        used.append((int(off), int(ln)))
    merged(used)


def sha(src, off, extents, first=None):
    h = hashlib.sha256()
    with open(src, 'rb', buffering=0) as f, open(extents) as ex:
        for line in ex:
            a, n = map(int, line.split())
            f.seek(off + a)
            data = f.read(n)
            if first and a == 0:
                with open(first[0], 'rb') as g:
                    g.seek(int(first[1]))
                    data = g.read(512) + data[512:]
            h.update(data)
    print(h.hexdigest())


# the contents fix copies by a map of used blocks (lib/scan/used/), by
# fix_mkfs's names
READERS = {'ext4': ext4, 'swap': swap, 'ntfs': ntfs}
READERS.update({'xfs': xfs, 'fat16': fat, 'fat32': fat, 'esp': fat})
READERS.update({'lvm': lvm, 'btrfs': btrfs, 'exfat': exfat})

if len(sys.argv) == 3 and sys.argv[1] in READERS:
    READERS[sys.argv[1]](sys.argv[2])
elif len(sys.argv) == 3 and sys.argv[1] == 'knows':
    sys.exit(0 if sys.argv[2] in READERS else 1)
elif len(sys.argv) >= 5 and sys.argv[1] == 'sha':
    sha(sys.argv[2], int(sys.argv[3]), sys.argv[4],
        sys.argv[5:7] if len(sys.argv) > 5 else None)
else:
    sys.exit('usage: used-extents.py TYPE IMAGE | knows TYPE | '
             'sha SRC OFF EXTENTS [FIRST_SRC FIRST_OFF]')
