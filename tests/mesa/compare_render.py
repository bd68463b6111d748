#!/usr/bin/env python3
"""drawpipe render against Mesa llvmpipe, pixel by pixel (issue 15's arbiter).

Generates seeded random scenes chosen so that rasterisation leaves no doubt: triangle
vertices on pixel corners, line and point vertices on pixel centres, clip-space w a power of
two (so window coordinates are exact), colours in 1/8 steps; then renders each with
`drawpipe render --pixels` (through a forced small limit, a strategy and 1-2 threads, so
every strip, fan, polygon and loop is split) and with mesa_render, and compares every pixel.

With --two-side every scene has two-sided colour on (`two_side 1`, random `back_colors`,
GL_VERTEX_PROGRAM_TWO_SIDE with gl_BackColor in mesa_render) and a random front face, and
30 % of the triangle scenes polygon mode line or point: back faces must show the back colour
in every polygon mode, culled or not, flat (the provoking vertex's) or smooth; lines and
points the front colour.

With --tess the scenes are patches through the library's tessellation shaders, cycling through
every mode x spacing x winding x point mode (render_tess.py says what they hold), drawn through
fetch_shade and fetch_shade_simd.

usage: compare_render.py --drawpipe PATH --mesa-render PATH [--scenes N] [--seed S]
       [--out DIR] [--unfilled] [--two-side] [--limits] [--conventions] [--tess] [--prims LIST]
Exit status: 0 no pixel differs, 1 some differ (scenes saved under --out), 77 no OpenGL."""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction

import render_tess
from compare import read_batch  # the `--batch` output format mesa_trace shares

W = H = 32
PRIMS = ["points", "lines", "line_loop", "line_strip", "triangles", "triangle_strip",
         "triangle_fan", "quads", "quad_strip", "polygon", "lines_adjacency",
         "line_strip_adjacency", "triangles_adjacency", "triangle_strip_adjacency"]
FIRST = {"points": 1, "lines": 2, "line_loop": 2, "line_strip": 2, "triangles": 3,
         "triangle_strip": 3, "triangle_fan": 3, "quads": 4, "quad_strip": 4, "polygon": 3,
         "lines_adjacency": 4, "line_strip_adjacency": 4, "triangles_adjacency": 6,
         "triangle_strip_adjacency": 6}
UNFILLED = False  # --unfilled: polygon mode line and point scenes too
TWO_SIDE = False  # --two-side: two-sided colour in every scene
# --limits: a 256 x 256 image, and line widths, point sizes and viewports past what GL lets an
# implementation draw (llvmpipe: 255, 255, 16384 with the corner in +-32768), which both sides
# must clamp alike. Viewports stay multiples of 256 or clamp to 16384, so window coordinates
# stay exact.
LIMITS = False
WIDTHS = [1, 3, 200, 255, 256, 300, 1000, 1e6]
VIEWPORT_SIZES = [256, 16384, 20000, 40000, 1e6]
VIEWPORT_CORNERS = [0, -8192, -16384, -20480, -32768, -40960]
# --conventions: viewport arrays (the viewport_select geometry shader picks viewport
# gl_PrimitiveIDIn % 4 for every triangle), depth clamp with primitives crossing the near and
# far planes, both clip-control origins and depth modes.
CONVENTIONS = False
GS_PRIMS = ("triangles", "triangle_strip", "triangle_fan")  # what a triangles GS takes
STRATEGIES = ["distinct", "vsplit", "direct-256", "exact", "none"]
MIDDLE_ENDS = ["fetch_shade", "fetch_shade_simd", "a4xx", "gen7", "mali"]


def is_line(prim):
    return prim in ("lines", "line_loop", "line_strip", "lines_adjacency", "line_strip_adjacency")


def position(rng, prim, unfilled=False):
    """A clip-space position rasterisation cannot be in doubt about: triangles on pixel
    corners (exact window coordinates), points on pixel centres, line ends off every centre
    and boundary (GL leaves a line end on a centre to the direction it is drawn in); a few
    outside the view or behind the eye."""
    line = is_line(prim) or unfilled  # polygon mode line and point draw lines and points
    centre = prim == "points"
    lo, hi = (-6, W + 6) if rng.random() < 0.3 else (0, W)
    px = rng.randint(lo, hi - 1) + (0.5 if centre else 0.3 if line else 0.0)
    py = rng.randint(lo, hi - 1) + (0.5 if centre else 0.6 if line else 0.0)
    x, y = 2 * px / W - 1, 2 * py / H - 1
    z = rng.choice([-0.5, -0.25, 0.0, 0.25, 0.5, 0.75])
    if CONVENTIONS and rng.random() < 0.3:
        z = rng.choice([-2.0, -1.5, 1.5, 2.0])  # past near or far: clipped, or clamped
    w = rng.choice([1.0, 1.0, 1.0, 0.5, 2.0, 4.0])
    if not centre and not line and rng.random() < 0.05:
        w = -w  # behind the eye: the clipper's
    return [x * w, y * w, z * w, w]


def conventions(rng, prim, d):
    """--conventions: a viewport array (with the viewport_select GS for triangles), depth
    clamp, clip control; returns whether the scene has the geometry shader."""
    gs = prim in GS_PRIMS and rng.random() < 0.6
    if gs:
        d.append("gs viewport_select")
    if gs or rng.random() < 0.2:
        # Some of indices 0-3 (and sometimes past them); the rest keep glViewport's.
        for i in rng.sample(range(6), rng.randint(1, 4)):
            vx, vy = rng.randint(0, 16), rng.randint(0, 16)
            line = f"viewport_array {i} {vx} {vy} {rng.choice([8, 16, 24])} {rng.choice([8, 16])}"
            if rng.random() < 0.5:
                near, far = rng.sample([0, 0.25, 0.5, 0.75, 1], 2)  # reversed ranges too
                line += f" {near:g} {far:g}"
            d.append(line)
    if rng.random() < 0.5:
        d.append("clip_control " + rng.choice(["lower_left", "upper_left"]) + " " +
                 rng.choice(["negative_one_to_one", "zero_to_one"]))
    if rng.random() < 0.5:
        d.append("depth_clamp 1")
    return gs


def scene(rng, prim):
    n = rng.randint(FIRST[prim], FIRST[prim] * 4 + 6)
    verts = rng.randint(max(3, n // 2), n + 2)
    d = [f"prim {prim}", f"provoking {rng.choice(['first', 'last'])}"]
    gs = CONVENTIONS and conventions(rng, prim, d)
    depth = rng.random() < (0.5 if CONVENTIONS else 0.2)
    # A line loop of two vertices draws its segment twice, the second time backwards: with the
    # depth test, which copy wins is float rounding.
    loop2 = depth and prim == "line_loop"
    if loop2:
        n = max(n, 3)
    if depth:
        # With the depth test, a triangle drawn twice (a strip repeating vertices) ties with
        # itself, and which copy wins is float rounding: every index once, so none repeats.
        verts = max(verts, n)
        idx = rng.sample(range(verts), n)
    else:
        idx = [rng.randrange(verts) for _ in range(n)]
    # Not with a geometry shader: edge flags do not pass one (llvmpipe reads a wrong slot).
    unfilled = UNFILLED and not gs and not is_line(prim) and prim != "points" and \
        rng.random() < 0.3
    pos, col = [], []
    for _ in range(verts):
        pos += position(rng, prim, unfilled)
        col += [rng.randint(0, 8) / 8 for _ in range(3)] + [1.0]
    if rng.random() < 0.3 and not loop2:  # restart runs
        for k in range(rng.randint(1, 3)):
            idx.insert(rng.randrange(len(idx) + 1), 65535)
        d += ["index u16", "restart 65535"]
    else:
        d.append(f"index {rng.choice(['u8', 'u16', 'u32'])}")
    d.append("indices " + " ".join(map(str, idx)))
    d.append("positions " + " ".join(f"{v:g}" for v in pos))
    d.append("colors " + " ".join(f"{v:g}" for v in col))
    if TWO_SIDE:
        back = [c for _ in range(verts) for c in [rng.randint(0, 8) / 8 for _ in range(3)] + [1]]
        d.append("two_side 1")
        d.append("back_colors " + " ".join(f"{v:g}" for v in back))
    if rng.random() < 0.4:
        d.append(f"shade {rng.choice(['flat', 'smooth'])}")
    if (is_line(prim) or unfilled) and rng.random() < 0.4:
        d.append(f"line_width {rng.choice(WIDTHS) if LIMITS else rng.randint(1, 4):g}")
    if (is_line(prim) or unfilled) and rng.random() < 0.4:
        d.append(f"line_stipple {rng.randint(1, 3)} {rng.randrange(1, 0x10000):#06x}")
    if (prim == "points" or unfilled) and rng.random() < 0.5:
        d.append(f"point_size {rng.choice(WIDTHS) if LIMITS else rng.randint(1, 5):g}")
    modes = [rng.choice(["fill", "line", "point"]) for _ in "fb"] if unfilled else []
    if unfilled:
        d.append("polygon_mode " + " ".join(modes))
        d.append("edgeflags " + " ".join(str(int(rng.random() < 0.7)) for _ in range(verts)))
    # Point sprites: the colour becomes the point coordinates (mesa_render writes gl_PointCoord),
    # so only where every primitive drawn is a point.
    if (prim == "points" or modes == ["point", "point"]) and rng.random() < 0.3:
        d.append(f"point_sprite {rng.choice(['upper_left', 'lower_left'])}")
    if prim not in ("points",) and not is_line(prim) and rng.random() < 0.4:
        d.append(f"cull {rng.choice(['front', 'back', 'front_and_back'])}")
        d.append(f"front_face {rng.choice(['ccw', 'cw'])}")
    elif TWO_SIDE and rng.random() < 0.5:
        d.append(f"front_face {rng.choice(['ccw', 'cw'])}")
    if rng.random() < 0.2:
        # A plane on pixel boundaries: x_ndc >= c (or <=), in clip space a*x + d*w >= 0.
        c = 2 * rng.randint(4, W - 4) / W - 1
        d.append(rng.choice([f"clip_plane 1 0 0 {-c:g}", f"clip_plane -1 0 0 {c:g}",
                             f"clip_plane 0 1 0 {-c:g}", f"clip_plane 0 -1 0 {c:g}"]))
        # gl_ClipVertex the position with x and y swapped: the plane bounds the other axis.
        if not gs and rng.random() < 0.5:
            d.append("clip_style swapped")
    if depth:
        d.append("depth_test less")
        if rng.random() < 0.4:
            d.append(f"polygon_offset {rng.choice([0, 1, 2, -1])} {rng.choice([0, 1, 4, -2])}")
    if not any(l.startswith("viewport_array") for l in d) and \
            rng.random() < (0.5 if LIMITS else 0.15):
        if LIMITS:
            d.append("viewport " + " ".join(f"{rng.choice(VIEWPORT_CORNERS):g}" for _ in "xy") +
                     " " + " ".join(f"{rng.choice(VIEWPORT_SIZES):g}" for _ in "wh"))
        else:
            vx, vy = rng.randint(0, 8), rng.randint(0, 8)
            d.append(f"viewport {vx} {vy} {rng.choice([8, 16, 24])} {rng.choice([8, 16, 24])}")
    return "\n".join(d) + "\n"


# Nudges to every window depth: depth ranges scale them all by a hair, a polygon offset
# factor of +-1/1024 moves each triangle by its own depth slope (a few 1e-5 here). A scene
# whose picture changes under any of them has two primitives at (nearly) the same depth at
# some pixel centre, where the winner is each implementation's arithmetic: GL leaves it open.
NUDGED_DEPTH_RANGES = ["0.000244140625 1", "0 0.999755859375", "0.0001220703125 0.99951171875"]
NUDGED_OFFSET_FACTORS = [1 / 1024, -1 / 1024]
# And each vertex's own depth moved by up to 2^-14 of itself, three ways (lines too: two
# lines from a shared vertex can meet again at the same depth).
NUDGED_VERTEX_DEPTHS = 3


def nudged(text):
    """The scene's description with its depths nudged, one variant per nudge."""
    lines = text.splitlines()
    offset = [l for l in lines if l.startswith("polygon_offset ")]
    factor, units = (float(offset[0].split()[1]), offset[0].split()[2]) if offset else (0.0, "0")
    rest = "\n".join(l for l in lines if not l.startswith("polygon_offset ")) + "\n"
    for r in NUDGED_DEPTH_RANGES:
        yield text + f"depth_range {r}\n"
    for df in NUDGED_OFFSET_FACTORS:
        yield rest + f"polygon_offset {factor + df!r} {units}\n"
    nudge = random.Random(text)
    for _ in range(NUDGED_VERTEX_DEPTHS):
        out = []
        for l in lines:
            if l.startswith("positions "):
                v = [float(x) for x in l.split()[1:]]
                for i in range(2, len(v), 4):
                    v[i] *= 1 + nudge.uniform(-1, 1) / 16384
                l = "positions " + " ".join(repr(x) for x in v)
            out.append(l)
        yield "\n".join(out) + "\n"


def depth_ties(drawpipe, path):
    """Whether the scene's picture depends on depths within a nudge of each other."""
    text = open(path).read()
    if "depth_test less" not in text:
        return False

    def render(desc):
        with open(path + ".nudge", "w") as f:
            f.write(desc)
        r = subprocess.run([drawpipe, "render", path + ".nudge", "--pixels", "--width", str(W),
                            "--height", str(H)], capture_output=True, text=True)
        return r.returncode, r.stdout

    base = render(text)
    return any(render(n) != base for n in nudged(text))


def inside(v):
    x, y, z, w = v
    return w > 0 and all(-w <= c <= w for c in (x, y, z))


def zero_area_in_doubt(drawpipe, path):
    """Whether a triangle of the scene has zero area in exact arithmetic (its three window
    points on one line) where that leaves the picture to rounding: when the clipper must cut
    it (its pieces get whatever area and colours the rounding of the crossing points gives
    them; llvmpipe's own colour there changes with the triangle's first vertex and the
    provoking convention), or when its facing matters (cull, polygon mode line or point: with
    line-end positions the window coordinates are rounded, and the sign of a determinant that
    should be 0 is the rounding's). GL leaves both open. Two copies of one vertex
    compute alike, so a triangle with a repeated vertex is not in doubt, nor is one wholly
    inside a plain filled scene (exact window coordinates here: it lights nothing)."""
    text = open(path).read()
    if "gs viewport_select" in text:  # it passes every triangle on: trace them without it
        text = "".join(l + "\n" for l in text.splitlines() if not l.startswith("gs "))
        with open(path + ".nogs", "w") as f:
            f.write(text)
        path = path + ".nogs"
    pos = [l for l in text.splitlines() if l.startswith("positions ")]
    v = [Fraction(x) for x in pos[0].split()[1:]] if pos else []
    verts = [v[i:i + 4] for i in range(0, len(v) - 3, 4)]
    planes = "clip_plane" in text
    facing = "cull " in text or "polygon_mode" in text or "two_side 1" in text
    # Depth clamp or zero_to_one move the z planes: any vertex past a z plane counts.
    loose_z = "depth_clamp 1" in text or "zero_to_one" in text
    r = subprocess.run([drawpipe, "trace", path], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if not line.startswith("tri "):
            continue
        ids = [int(t.split("/")[0]) for t in line.split()[1:4]]
        p = [verts[i] if i < len(verts) else [0, 0, 0, 1] for i in ids]
        det = (p[0][0] * (p[1][1] * p[2][3] - p[1][3] * p[2][1]) -
               p[0][1] * (p[1][0] * p[2][3] - p[1][3] * p[2][0]) +
               p[0][3] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]))
        distinct = p[0] != p[1] and p[1] != p[2] and p[0] != p[2]
        if det == 0 and distinct and (facing or planes or loose_z or
                                      not all(inside(q) for q in p)):
            return True
    return False


def limit_for(rng, prim):
    first = FIRST[prim]
    lo = first if prim in ("points", "lines", "triangles", "quads", "lines_adjacency",
                           "triangles_adjacency") else first + (2 if prim in (
                               "quad_strip", "triangle_strip_adjacency") else 1)
    if prim == "quad_strip":
        lo = 6
    if prim == "triangle_strip_adjacency":
        lo = 8
    return rng.choice([0, lo, lo + 1, lo + 3, 16])


def same_image(want, got, flat):
    """Same pixels lit, same colours; smooth-shaded colours may differ by one step of 255 per
    channel (llvmpipe interpolates with its own plane equations and rounding)."""
    w = dict(l.split(" ", 2)[0:2] and ((l.split()[0], l.split()[1]), l.split()[2])
             for l in want.splitlines())
    g = dict(((l.split()[0], l.split()[1]), l.split()[2]) for l in got.splitlines())
    if w.keys() != g.keys():
        return False
    for k, a in w.items():
        b = g[k]
        for c in range(0, 8, 2):
            d = abs(int(a[c:c + 2], 16) - int(b[c:c + 2], 16))
            if d > (0 if flat else 1):
                return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--drawpipe", required=True)
    ap.add_argument("--mesa-only", action="store_true",
                    help="run only the GL side (integrations/mesa/record_gl.py records it)")
    ap.add_argument("--mesa-render", required=True)
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--unfilled", action="store_true",
                    help="also polygon mode line / point scenes, with random edge flags")
    ap.add_argument("--two-side", action="store_true",
                    help="two-sided colour in every scene, polygon mode line / point in 30 %% "
                         "of the triangle scenes")
    ap.add_argument("--limits", action="store_true",
                    help="a 256 x 256 image with line widths, point sizes and viewports past "
                         "the implementation's limits")
    ap.add_argument("--conventions", action="store_true",
                    help="viewport arrays (with the viewport_select GS), depth clamp and clip "
                         "control in random scenes")
    ap.add_argument("--tess", action="store_true",
                    help="tessellated scenes: every mode x spacing x winding x point mode")
    ap.add_argument("--prims", default="all",
                    help="comma-separated primitive types, 'all', or 'filled'")
    a = ap.parse_args()
    global UNFILLED, TWO_SIDE, LIMITS, CONVENTIONS, W, H
    UNFILLED = a.unfilled or a.two_side
    TWO_SIDE = a.two_side
    CONVENTIONS = a.conventions
    LIMITS = a.limits
    if LIMITS:
        W = H = 256
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="render_cmp_")
    scenes = []
    # "filled": every type but lines and quad strips (the two that once differed most; the
    # ctest now checks every type with --prims all).
    prims = PRIMS if a.prims == "all" else [
        p for p in PRIMS if not is_line(p) and p != "quad_strip"] \
        if a.prims == "filled" else a.prims.split(",")
    if CONVENTIONS and a.prims == "all":
        prims = prims + [p for p in GS_PRIMS] * 2  # more scenes through viewport_select
    ties = slivers = 0
    groups = render_tess.groups()
    for i in range(a.scenes):
        prim = prims[i % len(prims)]
        path = os.path.join(tmp, f"s{i}.txt")
        # Scenes whose depth test meets a tie, or with a triangle of zero area that rounding
        # decides, are drawn again: rasterisation must leave no doubt.
        for attempt in range(20):
            with open(path, "w") as f:
                if a.tess:  # group by group, the level family changing every round
                    f.write(render_tess.scene(rng, groups[i % len(groups)],
                                              (i // len(groups)) % 4, W, H))
                else:
                    f.write(scene(rng, prim))
            if depth_ties(a.drawpipe, path):
                ties += 1
            elif (render_tess.zero_area_in_doubt if a.tess else zero_area_in_doubt)(
                    a.drawpipe, path):
                slivers += 1
            else:
                break
        text = open(path).read()
        # mali models vertex fetch only: a geometry shader is Error(unsupported) there; only
        # the reference middle ends have tessellation stages.
        middles = [m for m in MIDDLE_ENDS if m != "mali" or "gs " not in text]
        if a.tess:
            middles = ["fetch_shade", "fetch_shade_simd"]
        lim = render_tess.limit(rng, text) if a.tess else limit_for(rng, prim)
        opts = ["--max-vertices", str(lim), "--strategy", rng.choice(STRATEGIES),
                "--threads", str(rng.choice([1, 2])), "--middle-end", rng.choice(middles),
                "--width", str(W), "--height", str(H)]
        scenes.append((path, opts))
    p = subprocess.run([a.mesa_render, "--width", str(W), "--height", str(H), "--batch"] +
                       [s[0] for s in scenes], capture_output=True, text=True)
    if p.returncode == 2:
        print(f"SKIP: mesa_render: {p.stderr.strip()}")
        return 77
    if p.returncode != 0:
        sys.exit(f"mesa_render failed ({p.returncode}): {p.stderr.strip()}")
    mesa = read_batch(p.stdout)
    if a.mesa_only:
        print(f"total {len(scenes)} scenes drawn by {a.mesa_render} alone")
        return 0
    bad = 0
    pixels = 0
    for path, opts in scenes:
        status, want = mesa[path]
        dp = subprocess.run([a.drawpipe, "render", path, "--pixels"] + opts, capture_output=True,
                            text=True)
        if status != 0 or dp.returncode != 0:
            if status != 0 and dp.returncode != 0:
                continue
            bad += 1
            print(f"{path} {' '.join(opts)}: mesa status {status}, drawpipe exit {dp.returncode}:"
                  f" {dp.stderr.strip()} {want.strip()[:200]}")
            continue
        pixels += want.count("\n")
        # Flat colours must be equal, sprite coordinates are interpolated even then.
        text = open(path).read()
        if not same_image(want, dp.stdout, "shade flat" in text and "point_sprite" not in text):
            bad += 1
            w, g = set(want.splitlines()), set(dp.stdout.splitlines())
            print(f"{path} {' '.join(opts)}: {len(w - g)} pixels only in Mesa, {len(g - w)} only "
                  f"in drawpipe, e.g. {sorted(w - g)[:3]} / {sorted(g - w)[:3]}")
    print(f"{len(scenes)} scenes, {pixels} lit pixels in Mesa's images, {bad} scenes differ "
          f"(drawn again: {ties} scenes with depth ties, {slivers} with a triangle of zero area "
          f"clipped or facing)")
    if a.tess:
        cover = render_tess.coverage(
            [(open(p).read(), int(o[o.index("--max-vertices") + 1]), mesa[p][1].count("\n"))
             for p, o in scenes])
        print("coverage: " + ", ".join(f"{k} {v}" for k, v in cover.items()))
        missing = [k for k, v in cover.items() if v == 0]
        if missing:
            print(f"no scene exercised: {', '.join(missing)}")
            bad += 1
    if bad and a.out:
        os.makedirs(a.out, exist_ok=True)
        for path, _ in scenes:
            os.replace(path, os.path.join(a.out, os.path.basename(path)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
