"""Tessellated scenes for compare_render.py --tess: patches through the library's interpolate
evaluation shader (and the levels_by_patch control shader), drawn by `drawpipe render` and by
mesa_render, one group per mode x spacing x winding x point mode.

A scene is 1-4 patches whose control points sit on pixel corners: triangles and convex quads
of either orientation, isoline segments; some reach past the view. The level set cycles through
four families scene by scene within a group: whole levels, fractional ones, all 1, and sets
with a used outer level of 0, -1 or NaN (the patch culled; with levels_by_patch, which adds
gl_PrimitiveID % 3, only some patches). Each scene may add instances, the control shader, the
viewport_select geometry shader after the evaluation stage (with a viewport array), polygon
modes line and point with edge flags (which GL does not give tessellated primitives), culling
with either front face, two-sided colour, flat shading, wide and stippled lines, wide points
and point sprites, a user clip plane, the depth test, a viewport.

llvmpipe's deviation, which mesa_render works around: with an edge flag array enabled, polygon
modes line and point draw nothing after tessellation (mesa_render enables none there)."""
import struct
import subprocess
from fractions import Fraction

from compare import TESS_MODES, TESS_SPACINGS, TESS_WINDINGS

# Control points each mode's interpolate reads.
NEED = {"triangles": 3, "quads": 4, "isolines": 2}
WHOLE = ["1", "2", "3", "4", "5", "6"]
FRACTIONAL = ["1.5", "2.25", "2.5", "3.7", "4.75", "5.5"]
CULLING = ["0", "-1", "nan"]
# The outer levels each mode uses (a 0 among them culls the patch).
USED_OUTER = {"triangles": 3, "quads": 4, "isolines": 2}


def groups():
    return [(m, s, w, pm) for m in TESS_MODES for s in TESS_SPACINGS for w in TESS_WINDINGS
            for pm in (False, True)]


def output(mode, point_mode):
    return "points" if point_mode else "lines" if mode == "isolines" else "triangles"


def corner(rng, W, H, outside):
    """A pixel corner as clip-space x, y; `outside`: up to 6 pixels past the view."""
    lo, hi = (-6, W + 6) if outside else (0, W)
    return rng.randint(lo, hi), rng.randint(lo, hi)


def area2(p):
    return sum(p[i][0] * p[(i + 1) % len(p)][1] - p[(i + 1) % len(p)][0] * p[i][1]
               for i in range(len(p)))


def convex(p):
    """Every turn of the polygon the same way, none straight."""
    turns = []
    for i in range(len(p)):
        a, b, c = p[i], p[(i + 1) % len(p)], p[(i + 2) % len(p)]
        turns.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    return all(t > 0 for t in turns) or all(t < 0 for t in turns)


def patch_corners(rng, mode, W, H):
    """Window corners of one patch: a triangle or a convex quad of at least a few pixels (either
    orientation), or a segment."""
    outside = rng.random() < 0.3
    while True:
        if mode == "isolines":
            p = [corner(rng, W, H, outside) for _ in range(2)]
            if p[0] != p[1]:
                return p
        elif mode == "triangles":
            p = [corner(rng, W, H, outside) for _ in range(3)]
            if abs(area2(p)) >= 40:
                return p
        else:
            x0, y0 = corner(rng, W, H, outside)
            w, h = rng.randint(4, W // 2), rng.randint(4, H // 2)
            p = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]
            p = [(x + rng.randint(-2, 2), y + rng.randint(-2, 2)) for x, y in p]
            if rng.random() < 0.5:  # clockwise in the window: the other facing
                p = [p[1], p[0], p[3], p[2]]
            if convex(p):
                return p


def levels(rng, family, mode):
    if family == 0:
        lv = [rng.choice(WHOLE) for _ in range(6)]
    elif family == 1:
        lv = [rng.choice(FRACTIONAL) for _ in range(6)]
    elif family == 2:
        lv = ["1"] * 6
    else:
        lv = [rng.choice(WHOLE + FRACTIONAL) for _ in range(6)]
        lv[rng.randrange(USED_OUTER[mode])] = rng.choice(CULLING)
    return lv


def scene(rng, group, family, W, H):
    """One description (text) of group (mode, spacing, winding, point_mode)."""
    mode, spacing, winding, point_mode = group
    out = output(mode, point_mode)
    pv = NEED[mode] + (rng.randint(1, 2) if rng.random() < 0.2 else 0)
    patches = rng.randint(1, 4)
    depth = rng.random() < 0.15
    pos, col = [], []
    for _ in range(patches):
        w = rng.choice([1.0, 1.0, 1.0, 0.5, 2.0])  # one w per patch: exact window corners
        pts = patch_corners(rng, mode, W, H)
        pts += [corner(rng, W, H, False) for _ in range(pv - len(pts))]  # read by no one
        for x, y in pts:
            z = rng.choice([-0.5, -0.25, 0.0, 0.25, 0.5, 0.75])
            pos += [(2 * x / W - 1) * w, (2 * y / H - 1) * w, z * w, w]
            col += [rng.randint(0, 8) / 8 for _ in range(3)] + [1.0]
    n = patches * pv
    d = ["prim patches", f"patch_vertices {pv}",
         f"tess {mode} {spacing} {winding}" + (" point_mode" if point_mode else ""),
         "tess_levels " + " ".join(levels(rng, family, mode)),
         f"provoking {rng.choice(['first', 'last'])}"]
    order = list(range(n))
    count = n + (rng.randint(1, pv - 1) if pv > 1 and rng.random() < 0.2 else 0)  # leftovers
    if rng.random() < 0.6:
        # The patches in another order through indices (the leftovers repeat vertex 0).
        ps = list(range(patches))
        rng.shuffle(ps)
        order = [p * pv + k for p in ps for k in range(pv)] + [0] * (count - n)
        d.append(f"index {rng.choice(['u8', 'u16', 'u32'])}")
        d.append("indices " + " ".join(map(str, order)))
    else:
        d.append(f"count {count}")
        if count > n:
            pos += [0, 0, 0, 1] * (count - n)
            col += [1, 1, 1, 1] * (count - n)
    if rng.random() < 0.5:
        d.append("tcs levels_by_patch")
    if rng.random() < 0.3:
        d.append(f"instances {rng.randint(2, 3)}")
    d.append("positions " + " ".join(f"{v:g}" for v in pos))
    d.append("colors " + " ".join(f"{v:g}" for v in col))
    gs = out == "triangles" and rng.random() < 0.2
    if gs:
        d.append("gs viewport_select")
        for i in rng.sample(range(4), rng.randint(1, 3)):
            d.append(f"viewport_array {i} {rng.randint(0, 16)} {rng.randint(0, 16)} "
                     f"{rng.choice([8, 16, 24])} {rng.choice([8, 16])}")
    modes = ["fill", "fill"]
    if out == "triangles" and rng.random() < 0.5:
        modes = [rng.choice(["fill", "line", "point"]) for _ in "fb"]
        d.append("polygon_mode " + " ".join(modes))
        if rng.random() < 0.5:  # GL gives tessellated primitives no edge flags: all ignored
            d.append("edgeflags " + " ".join(str(int(rng.random() < 0.5)) for _ in range(n)))
    if out == "triangles" and rng.random() < 0.35:
        d.append(f"cull {rng.choice(['front', 'back', 'front_and_back'])}")
        d.append(f"front_face {rng.choice(['ccw', 'cw'])}")
    if out == "triangles" and not gs and rng.random() < 0.3:
        back = [c for _ in range(n) for c in [rng.randint(0, 8) / 8 for _ in range(3)] + [1]]
        d.append("two_side 1")
        d.append("back_colors " + " ".join(f"{v:g}" for v in back))
    if rng.random() < 0.3:
        d.append("shade flat")
    lines = out == "lines" or "line" in modes
    points = out == "points" or "point" in modes
    if lines and rng.random() < 0.4:
        d.append(f"line_width {rng.randint(1, 4)}")
    if lines and rng.random() < 0.3:
        d.append(f"line_stipple {rng.randint(1, 3)} {rng.randrange(1, 0x10000):#06x}")
    if points and rng.random() < 0.5:
        d.append(f"point_size {rng.randint(1, 5)}")
    if (out == "points" or modes == ["point", "point"]) and rng.random() < 0.3:
        d.append(f"point_sprite {rng.choice(['upper_left', 'lower_left'])}")
    if rng.random() < 0.15:
        c = 2 * rng.randint(4, W - 4) / W - 1
        d.append(rng.choice([f"clip_plane 1 0 0 {-c:g}", f"clip_plane -1 0 0 {c:g}",
                             f"clip_plane 0 1 0 {-c:g}", f"clip_plane 0 -1 0 {c:g}"]))
    if depth:
        d.append("depth_test less")
    if not gs and rng.random() < 0.1:
        d.append(f"viewport {rng.randint(0, 8)} {rng.randint(0, 8)} {rng.choice([8, 16, 24])} "
                 f"{rng.choice([8, 16, 24])}")
    return "\n".join(d) + "\n"


def limit(rng, text):
    """A split limit for the scene: none, or a few whole patches."""
    pv = int(next(l for l in text.splitlines() if l.startswith("patch_vertices")).split()[1])
    return rng.choice([0, pv, pv + 1, 2 * pv, 3 * pv + 2])


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def interpolate(mode, cps, u, v, w):
    """drawpipe's interpolate (tools/common/tess_library.cpp), float by float."""
    out = []
    for c in range(4):
        p = [cp[c] for cp in cps]
        if mode == "triangles":
            x = f32(f32(f32(u * p[0]) + f32(v * p[1])) + f32(w * p[2]))
        elif mode == "quads":
            a = f32(f32(f32(1 - u) * p[0]) + f32(u * p[1]))
            b = f32(f32(f32(1 - u) * p[3]) + f32(u * p[2]))
            x = f32(f32(f32(1 - v) * a) + f32(v * b))
        else:
            x = f32(f32(f32(1 - u) * p[0]) + f32(u * p[1]))
        out.append(x)
    return out


def zero_area_in_doubt(drawpipe, path):
    """Whether a tessellated triangle of the scene has zero area (its three clip-space
    positions, as both sides compute them in float, on one line through the eye) where that
    leaves the picture to rounding: when clipped, or when its facing matters. The
    tessellator's own degenerate triangles (a repeated domain point) are not in doubt."""
    text = open(path).read()
    facing = any(k in text for k in ("cull ", "polygon_mode", "two_side 1"))
    keys = {}
    for l in text.splitlines():
        w = l.split()
        if w:
            keys.setdefault(w[0], w[1:])
    mode = keys["tess"][0]
    if mode == "isolines" or "point_mode" in keys["tess"]:
        return False
    pv = int(keys["patch_vertices"][0])
    pos = [f32(float(x)) for x in keys["positions"]]
    verts = [pos[i:i + 4] for i in range(0, len(pos), 4)]
    order = [int(x) for x in keys["indices"]] if "indices" in keys else range(len(verts))
    order = list(order)
    # Without the geometry shader, which passes every triangle on as it came.
    plain = "".join(l + "\n" for l in text.splitlines() if not l.startswith("gs "))
    with open(path + ".nogs", "w") as f:
        f.write(plain)
    r = subprocess.run([drawpipe, "trace", path + ".nogs"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if not line.startswith("tri "):
            continue
        tri = []
        for t in line.split()[1:4]:
            patch = int(t[1:t.index("/")])
            u, v, w = (f32(float(x)) for x in t[t.index("(") + 1:t.index(")")].split(","))
            cps = [verts[order[patch * pv + k]] for k in range(NEED[mode])]
            tri.append([Fraction(x) for x in interpolate(mode, cps, u, v, w)])
        det = (tri[0][0] * (tri[1][1] * tri[2][3] - tri[1][3] * tri[2][1]) -
               tri[0][1] * (tri[1][0] * tri[2][3] - tri[1][3] * tri[2][0]) +
               tri[0][3] * (tri[1][0] * tri[2][1] - tri[1][1] * tri[2][0]))
        distinct = tri[0] != tri[1] and tri[1] != tri[2] and tri[0] != tri[2]
        clipped = not all(q[3] > 0 and all(-q[3] <= c <= q[3] for c in q[:3]) for q in tri)
        if det == 0 and distinct and (facing or clipped or "clip_plane" in text):
            return True
    return False


def coverage(scenes):
    """What the scenes exercised, from (description text, limit, Mesa's lit pixels) each; every
    count must be above 0 for the run to say anything about it."""
    cover = {k: 0 for k in (
        "lit", "nothing lit", "whole levels", "fractional levels", "all levels 1",
        "culling level", "control shader", "instances", "geometry shader after", "point mode",
        "isolines", "polygon mode line or point", "edge flags given", "cull", "two-sided colour",
        "flat", "split (limit below the draw)", "clip plane", "depth test")}
    for text, lim, lit in scenes:
        keys = {l.split()[0]: l.split()[1:] for l in text.splitlines() if l.split()}
        lv = keys["tess_levels"]
        count = len(keys["indices"]) if "indices" in keys else int(keys["count"][0])
        cover["lit"] += lit > 0
        cover["nothing lit"] += lit == 0
        cover["whole levels"] += all(l in WHOLE for l in lv)
        cover["fractional levels"] += all(l in FRACTIONAL for l in lv)
        cover["all levels 1"] += lv == ["1"] * 6
        cover["culling level"] += any(l in CULLING for l in lv)
        cover["control shader"] += "tcs" in keys
        cover["instances"] += "instances" in keys
        cover["geometry shader after"] += "gs" in keys
        cover["point mode"] += "point_mode" in keys["tess"]
        cover["isolines"] += keys["tess"][0] == "isolines"
        cover["polygon mode line or point"] += "polygon_mode" in keys and \
            keys["polygon_mode"] != ["fill", "fill"]
        cover["edge flags given"] += "edgeflags" in keys
        cover["cull"] += "cull" in keys
        cover["two-sided colour"] += "two_side" in keys
        cover["flat"] += "shade" in keys
        cover["split (limit below the draw)"] += 0 < lim < count
        cover["clip plane"] += "clip_plane" in keys
        cover["depth test"] += "depth_test" in keys
    return cover
