#!/usr/bin/env python3
"""Checks a `drawpipe bench --plot` SVG the way a reader would see it: every bar, line and
label lies inside the canvas, no two labels overlap, no label lies on a bar, every bar has its
value printed, and rsvg-convert renders it to a PNG of the canvas size whose border is blank
(nothing drawn runs off the edge) and whose inside is not.

usage: check_svg.py FILE.svg [--bars N]
Text extents are estimated at 0.62 em per character, wider than sans-serif's average glyph."""
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
CHAR = 0.62


def fail(msg):
    print("check_svg: " + msg, file=sys.stderr)
    sys.exit(1)


def png_rows(path):
    """The rows of an 8-bit, non-interlaced RGB or RGBA PNG as lists of (r, g, b) pixels."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace or colour not in (2, 6):
                fail(f"{path}: PNG depth {depth} colour type {colour} interlace {interlace}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                cur[i] = (cur[i] + a) & 255
            elif kind == 2:
                cur[i] = (cur[i] + b) & 255
            elif kind == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(cur[x * channels:x * channels + 3]) for x in range(width)])
        prev = cur
    return rows


def check_rendered(path, W, H):
    """The rendered picture: its size is the canvas's, its outermost 4 pixels are white all
    round (anything running off the canvas would show there), and something is drawn."""
    rows = png_rows(path)
    if (len(rows[0]), len(rows)) != (int(W), int(H)):
        fail(f"rendered {len(rows[0])}x{len(rows)}, canvas {W}x{H}")
    white = (255, 255, 255)
    band = 4
    for y, row in enumerate(rows):
        xs = range(len(row)) if y < band or y >= len(rows) - band else \
            list(range(band)) + list(range(len(row) - band, len(row)))
        for x in xs:
            if row[x] != white:
                fail(f"rendered pixel ({x}, {y}) on the canvas's border is {row[x]}, not white: "
                     "the drawing runs off the canvas")
    if all(p == white for row in rows for p in row):
        fail("rendered picture is blank")


def main():
    path = sys.argv[1]
    want_bars = int(sys.argv[sys.argv.index("--bars") + 1]) if "--bars" in sys.argv else None
    root = ET.parse(path).getroot()
    W, H = float(root.get("width")), float(root.get("height"))
    boxes = []  # text boxes: (x0, y0, x1, y1, text)
    bars = 0
    bar_boxes = []  # (x0, y0, x1, y1)
    for el in root.iter():
        tag = el.tag.replace(NS, "")
        if tag == "rect" and el.get("x") is not None:
            x, y = float(el.get("x")), float(el.get("y"))
            w, h = float(el.get("width")), float(el.get("height"))
            if x < 0 or y < 0 or x + w > W + 0.5 or y + h > H + 0.5:
                fail(f"rect {x},{y} {w}x{h} outside the {W}x{H} canvas")
            if el.find(NS + "title") is not None:
                bars += 1
                bar_boxes.append((x, y, x + w, y + h))
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
    for b in boxes:
        for r in bar_boxes:
            if b[0] < r[2] and r[0] < b[2] and b[1] < r[3] and r[1] < b[3]:
                fail(f"label '{b[4]}' {b[:4]} lies on a bar {r}")
    if want_bars is not None and bars != want_bars:
        fail(f"{bars} bars, expected {want_bars}")
    values = sum(1 for b in boxes if b[4].replace(".", "", 1).replace("e-", "", 1).isdigit())
    if values < bars:
        fail(f"{bars} bars but only {values} printed values")
    tool = shutil.which("rsvg-convert")
    if not tool:
        fail("rsvg-convert is needed to render the plot (quickstart.sh installs librsvg2-bin)")
    png = path + ".png"
    subprocess.run([tool, path, "-o", png], check=True)
    check_rendered(png, W, H)
    print(f"check_svg: {bars} bars, {len(boxes)} labels inside {int(W)}x{int(H)}; {png}")

main()
