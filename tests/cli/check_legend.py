#!/usr/bin/env python3
"""Checks the key drawn into a `drawpipe render --color-by` or `drawpipe demo` PNG.

usage: check_legend.py PNG legend SWATCHES   the box at the top left: a dark panel, white
                                             text, and the swatches of keys 0..SWATCHES-1 in
                                             their exact key colours (tools/common/colour_stages.hpp)
       check_legend.py PNG caption           a dark band with white text along the bottom

Exit status 1 with the reason when the key is missing or wrong. Standard library only.
"""
import math
import struct
import sys
import zlib


def read_png(path):
    """(width, height, rows of (r, g, b, a) tuples), for the 8-bit RGBA PNGs drawpipe writes."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour != 6:
                sys.exit(f"{path}: not 8-bit RGBA")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * 4:x * 4 + 4]) for x in range(width)])
        prev = line
    return width, height, rows


def key_colour(key):
    """colour_stages.hpp's key_colour, as bytes."""
    h = math.fmod(key * 0.6180339887498949, 1.0) * 6.0
    s, v = 0.7, 0.95
    f = h - math.floor(h)
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    rgb = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][int(h) % 6]
    return tuple(int(math.floor(c * 255 + 0.5)) for c in rgb)


def main():
    path, mode = sys.argv[1], sys.argv[2]
    width, height, rows = read_png(path)
    if mode == "legend":
        region = [p for row in rows[:height // 4] for p in row[:width * 3 // 4]]
    else:
        region = [p for row in rows[height - height // 12:] for p in row]
    dark = sum(1 for p in region if max(p[:3]) < 40 and p[3] == 255)
    white = sum(1 for p in region if min(p[:3]) == 255)
    if dark < len(region) // 10 or white < 200:
        sys.exit(f"{path}: no {mode} ({dark} panel and {white} text pixels of {len(region)})")
    if mode == "legend":
        present = {p[:3] for p in region if p[3] == 255}
        for key in range(int(sys.argv[3])):
            if key_colour(key) not in present:
                sys.exit(f"{path}: no swatch for key {key} {key_colour(key)} in the legend")
    print(f"{path}: {mode} with {dark} panel and {white} text pixels")


main()
