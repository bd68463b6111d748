#!/usr/bin/env python3
"""Checks a `drawpipe bench --plot` SVG the way a reader would see it: every bar, line and
label lies inside the canvas, no two labels overlap, every bar has its value printed, and
rsvg-convert renders it to a PNG of the canvas size.

usage: check_svg.py FILE.svg [--bars N]
Text extents are estimated at 0.62 em per character, wider than sans-serif's average glyph."""
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
CHAR = 0.62


def fail(msg):
    print("check_svg: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    path = sys.argv[1]
    want_bars = int(sys.argv[sys.argv.index("--bars") + 1]) if "--bars" in sys.argv else None
    root = ET.parse(path).getroot()
    W, H = float(root.get("width")), float(root.get("height"))
    boxes = []  # text boxes: (x0, y0, x1, y1, text)
    bars = 0
    for el in root.iter():
        tag = el.tag.replace(NS, "")
        if tag == "rect" and el.get("x") is not None:
            x, y = float(el.get("x")), float(el.get("y"))
            w, h = float(el.get("width")), float(el.get("height"))
            if x < 0 or y < 0 or x + w > W + 0.5 or y + h > H + 0.5:
                fail(f"rect {x},{y} {w}x{h} outside the {W}x{H} canvas")
            if el.find(NS + "title") is not None:
                bars += 1
        elif tag == "line":
            for k, lim in (("x1", W), ("x2", W), ("y1", H), ("y2", H)):
                v = float(el.get(k))
                if v < 0 or v > lim + 0.5:
                    fail(f"line {k}={v} outside the {W}x{H} canvas")
        elif tag == "text":
            if el.get("transform"):
                fail("rotated text: " + (el.text or ""))
            size = float(el.get("font-size"))
            x, y, text = float(el.get("x")), float(el.get("y")), el.text or ""
            w = len(text) * size * CHAR
            anchor = el.get("text-anchor", "start")
            x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
            box = (x0, y - size * 0.8, x0 + w, y + size * 0.2, text)
            if box[0] < 0 or box[1] < 0 or box[2] > W + 0.5 or box[3] > H + 0.5:
                fail(f"text '{text}' at {box[:4]} leaves the {W}x{H} canvas")
            boxes.append(box)
    boxes.sort()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if b[0] >= a[2]:
                break
            if b[1] < a[3] and a[1] < b[3]:
                fail(f"labels '{a[4]}' and '{b[4]}' overlap: {a[:4]} {b[:4]}")
    if want_bars is not None and bars != want_bars:
        fail(f"{bars} bars, expected {want_bars}")
    values = sum(1 for b in boxes if b[4].replace(".", "", 1).replace("e-", "", 1).isdigit())
    if values < bars:
        fail(f"{bars} bars but only {values} printed values")
    tool = shutil.which("rsvg-convert")
    if tool:
        png = path + ".png"
        subprocess.run([tool, path, "-o", png], check=True)
        with open(png, "rb") as f:
            head = f.read(24)
        pw, ph = struct.unpack(">II", head[16:24])
        if (pw, ph) != (int(W), int(H)):
            fail(f"rendered {pw}x{ph}, canvas {W}x{H}")
        print(f"check_svg: {bars} bars, {len(boxes)} labels inside {int(W)}x{int(H)}; {png}")
    else:
        print(f"check_svg: {bars} bars, {len(boxes)} labels inside {int(W)}x{int(H)} "
              "(rsvg-convert not installed: not rendered)")


main()
