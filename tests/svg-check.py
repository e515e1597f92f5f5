#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""svg-check.py - the layout checks of a chart blkalign drew (used by
tests/ts/pictures/bench-plots).
python3 svg-check.py FILE.svg FILE.png [want...]:
one line per failed check on stdout, exit 1 if any.

Text boxes are estimated as the charts are laid out: a character 0.6 of
the font size wide, from 0.8 of it above the baseline to 0.2 below,
placed per text-anchor.  want: "hatch" (a bar filled with the hatch, the
slower one) and "fast" (a bar in the faster colour), "maxwidth=N".
"""
import importlib.util
import os
import re
import sys
import xml.etree.ElementTree as ET

# one PNG reader for the tests: tests/lib/png-stats.py's (no bytecode
# cache left in the source tree)
sys.dont_write_bytecode = True
_spec = importlib.util.spec_from_file_location(
    "png_stats", os.path.join(os.path.dirname(__file__), "lib", "png-stats.py"))
PNG = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PNG)

NS = "{http://www.w3.org/2000/svg}"
fails = []


def fail(msg):
    fails.append(msg)


def boxes(root):
    fs0 = float(root.get("font-size", "16"))
    out = []
    for t in root.iter(NS + "text"):
        s = "".join(t.itertext())
        fs = float(t.get("font-size", fs0))
        x, y = float(t.get("x")), float(t.get("y"))
        w = len(s) * fs * 0.6
        a = t.get("text-anchor", "start")
        x0 = x - w / 2 if a == "middle" else x - w if a == "end" else x
        out.append((x0, y - 0.8 * fs, x0 + w, y + 0.2 * fs, s, t.get("class")))
    return out


def check_layout(root):
    vb = [float(v) for v in root.get("viewBox").split()]
    bx = boxes(root)
    if not bx:
        fail("no text")
    for b in bx:
        if b[0] < vb[0] - 0.5 or b[1] < vb[1] - 0.5 or \
           b[2] > vb[0] + vb[2] + 0.5 or b[3] > vb[1] + vb[3] + 0.5:
            fail("text outside the viewBox %s: %r at %.1f,%.1f-%.1f,%.1f"
                 % (vb, b[4], b[0], b[1], b[2], b[3]))
    for i in range(len(bx)):
        for j in range(i + 1, len(bx)):
            a, b = bx[i], bx[j]
            if min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and \
               min(a[3], b[3]) - max(a[1], b[1]) > 0.5:
                fail("texts overlap: %r and %r" % (a[4], b[4]))
    # whiskers: "Mx y1Vy2..." paths, vertical, must not cross a text box
    for p in root.iter(NS + "path"):
        m = re.match(r"M([-0-9.]+) ([-0-9.]+)V([-0-9.]+)", p.get("d", ""))
        if not m:
            continue
        x, y1, y2 = (float(v) for v in m.groups())
        lo, hi = min(y1, y2), max(y1, y2)
        for b in bx:
            if b[0] < x < b[2] and min(hi, b[3]) - max(lo, b[1]) > 0.5:
                fail("whisker at x=%.1f (%.1f-%.1f) crosses %r" % (x, lo, hi, b[4]))
    return vb, bx


UNITS = {"B/s": 1, "KiB/s": 2**10, "MiB/s": 2**20, "GiB/s": 2**30,
         "ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def check_ticks(bx):
    ticks = [b[4] for b in bx if b[5] == "tick"]
    if len(ticks) < 3:
        fail("fewer than 3 tick labels: %r" % ticks)
        return
    vals, units = [], set()
    for t in ticks:
        if t == "0":
            vals.append(0.0)
            continue
        m = re.fullmatch(r"(\d+(?:\.\d+)?) (B/s|KiB/s|MiB/s|GiB/s|ns|us|ms|s)", t)
        if not m:
            fail("tick label not a number with a unit: %r" % t)
            return
        vals.append(float(m.group(1)))
        units.add(m.group(2))
    if len(units) != 1:
        fail("tick labels in several units: %r" % ticks)
    if vals[0] != 0:
        fail("the axis does not start at 0: %r" % ticks)
    step = vals[1] - vals[0]
    for i, v in enumerate(vals):
        if abs(v - i * step) > 1e-9 * max(1, v):
            fail("ticks not evenly spaced: %r" % ticks)
            break
    mant = step / 10 ** __import__("math").floor(__import__("math").log10(step))
    if min(abs(mant - k) for k in (1, 2, 5)) > 1e-6:
        fail("tick step %g is not 1, 2 or 5 times a power of ten" % step)


def png_pixels(path):
    """The PNG decoded by tests/lib/png-stats.py's reader, or None."""
    try:
        return PNG.read_png(path)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))
        return None


def main():
    svg, png, want = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        root = ET.parse(svg).getroot()
    except ET.ParseError as e:
        print("%s: not XML: %s" % (svg, e))
        return 1
    vb, bx = check_layout(root)
    check_ticks(bx)
    leg = [g for g in root.iter(NS + "g") if g.get("id") == "legend"]
    if not leg or not list(leg[0].iter(NS + "text")):
        fail("no legend")
    fills = [r.get("fill") for r in root.iter(NS + "rect")]
    if "hatch" in want and "url(#hatch)" not in fills:
        fail("no hatched (slower) bar")
    if "fast" in want and "#009E73" not in fills:
        fail("no bar in the faster colour")
    for w in want:
        if w.startswith("maxwidth=") and vb[2] > float(w[9:]):
            fail("canvas %g wide, more than %s" % (vb[2], w[9:]))
    px = png_pixels(png)
    if px:
        w, h, bpp, rows = px
        ink = sum(1 for r in rows for x in range(0, w * bpp, bpp)
                  if r[x:x + 3] != b"\xff\xff\xff" and (bpp == 3 or r[x + 3]))
        if ink < w * h // 50:
            fail("PNG nearly blank: %d of %d pixels not white" % (ink, w * h))
        if (w, h) != (round(vb[2]), round(vb[3])):
            fail("PNG %dx%d, viewBox %gx%g" % (w, h, vb[2], vb[3]))
    for f in fails:
        print(f)
    return 1 if fails else 0


sys.exit(main())
