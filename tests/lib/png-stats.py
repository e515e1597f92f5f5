#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# png-stats.py PNG [R,G,B...]: what a screenshot holds, with python3
# alone (zlib): "WIDTH HEIGHT NONWHITE DISTINCT" - pixels that are not
# white, distinct colours - then, for each R,G,B given, how many pixels
# are exactly that colour.  8-bit RGB or RGBA, not interlaced (what
# chromium --screenshot writes); anything else: a line on stderr, exit 2.
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unsupported PNG (depth %d, colour type %d)" %
                         (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                line[x] = (line[x] + paeth(a, b, c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    try:
        w, h, bpp, rows = read_png(sys.argv[1])
    except (OSError, ValueError, zlib.error, struct.error, TypeError) as e:
        print("png-stats: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 2
    want = [tuple(int(v) for v in a.split(",")) for a in sys.argv[2:]]
    counts = dict.fromkeys(want, 0)
    colours, nonwhite = set(), 0
    for line in rows:
        for x in range(0, w * bpp, bpp):
            px = tuple(line[x:x + 3])
            colours.add(px)
            if px != (255, 255, 255):
                nonwhite += 1
            if px in counts:
                counts[px] += 1
    print(w, h, nonwhite, len(colours), *[counts[c] for c in want])
    return 0


if __name__ == "__main__":
    sys.exit(main())
