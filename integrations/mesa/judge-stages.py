#!/usr/bin/env python3
"""Large draws under the pipeline stages drawpipe takes over in `whole` (polygon mode line and
point with edge flags, polygon offset, line stipple, two-sided colour, flat shading, culling,
clipping),
rendered by tests/mesa's mesa_render on the built Mesa in `off` and in `whole`: every pixel
must be the same. tests/mesa's own scenes are a few vertices each, which `whole` draws on the
application's thread; these are thousands of indices, which it splits and hands to drawpipe's
threads, so its stages, not Mesa's, make the picture.

  integrations/mesa/judge-stages.py [--scenes N] [--seed S] [--indices K] [--depth24]
                                    [--clip-planes] [--face] [--small] [ENV=VALUE...]

ENV=VALUE pairs go to the `whole` run (DRAWPIPE_MESA_STAGES=0 compares Mesa's own stages,
DRAWPIPE_MESA_MAX_VERTICES=64 cuts finer). --depth24: a 24-bit fixed-point depth buffer (the
polygon offset's constant step) in place of the 32-bit float one (a step per depth).
--clip-planes: half the scenes also have one or two user clip planes, met by the vertex shader
in one of four ways (gl_ClipVertex the position or another point, nothing: the clip-space
position, gl_ClipDistance), and
those may be filled (only the clipper then runs). --face: half the scenes' fragment shader shows
back faces magenta (gl_FrontFacing: Mesa's unfilled stage hands the face to it). --small:
filled triangles, strips and fans of tiny triangles (a random walk of steps from a third of a
pixel to ten pixels, or a fan's spokes that short), drawn with and without indices, so that
`whole` drops most of them before llvmpipe's setup (the small-primitive cull). Prints how many scenes differ and the adapter's
counts (DRAWPIPE_MESA_STATS) of draws taken and refused. Exit 0: none differs.
Needs the default build (mesa_render) and the Mesa build (integrations/mesa/build.sh)."""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
W = H = 96
PRIMS = {"triangles": 3, "triangle_strip": 1, "triangle_fan": 1, "quads": 4, "quad_strip": 2,
         "polygon": 1, "lines": 2, "line_strip": 1}


def culling(rng, d):
    """Sometimes a cull face, sometimes clockwise front faces."""
    if rng.random() < 0.3:
        d.append(f"cull {rng.choice(['front', 'back'])}")
    if rng.random() < 0.5:
        d.append(f"front_face {rng.choice(['ccw', 'cw'])}")


def scene(rng, indices, clip_planes=False, face=False):
    prim = rng.choice(sorted(PRIMS))
    step = PRIMS[prim]
    # Polygons are one primitive: a few hundred vertices keep their edges apart.
    n = (indices if prim != "polygon" else rng.randint(100, 400)) // step * step
    verts = max(8, n // 2)
    d = [f"prim {prim}", f"provoking {rng.choice(['first', 'last'])}", "index u32",
         "indices " + " ".join(str(rng.randrange(verts)) for _ in range(n))]
    # Mostly inside, some across the frustum (x, y to +-1.6 w; z past the near and far planes).
    pos, col, back = [], [], []
    for _ in range(verts):
        w = rng.choice([1.0, 1.0, 0.5, 2.0])
        pos += [round(rng.uniform(-1.6, 1.6) * w, 4), round(rng.uniform(-1.6, 1.6) * w, 4),
                round(rng.uniform(-1.2, 1.2) * w, 4), w]
        col += [rng.randint(0, 8) / 8 for _ in range(3)] + [1.0]
        back += [rng.randint(0, 8) / 8 for _ in range(3)] + [1.0]
    d.append("positions " + " ".join(f"{v:g}" for v in pos))
    d.append("colors " + " ".join(f"{v:g}" for v in col))
    planes = []
    if clip_planes and rng.random() < 0.5:
        # Planes through the view volume, in clip space.
        for _ in range(rng.randint(1, 2)):
            planes.append([round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3),
                           round(rng.uniform(-0.5, 0.5), 3), round(rng.uniform(-0.4, 0.4), 3)])
    modes = [rng.choice(["fill", "line", "point"]) for _ in "fb"]
    if modes == ["fill", "fill"] and not (planes and rng.random() < 0.5):
        modes[rng.randrange(2)] = rng.choice(["line", "point"])
    d.append("polygon_mode " + " ".join(modes))
    d.append("edgeflags " + " ".join(str(int(rng.random() < 0.7)) for _ in range(verts)))
    if rng.random() < 0.5:
        d.append("two_side 1")
        d.append("back_colors " + " ".join(f"{v:g}" for v in back))
    if rng.random() < 0.4:
        d.append("shade flat")
    if face and rng.random() < 0.5:
        d.append("face_color 1")
    culling(rng, d)
    if rng.random() < 0.3:
        d.append(f"point_size {rng.randint(1, 4)}")
    if rng.random() < 0.3:
        d.append(f"line_width {rng.randint(1, 3)}")
    if rng.random() < 0.4:
        d.append(f"line_stipple {rng.randint(1, 3)} {rng.randrange(1, 0x10000):#06x}")
    for p in planes:
        d.append("clip_plane " + " ".join(f"{v:g}" for v in p))
    if planes:
        d.append(f"clip_style {rng.choice(['vertex', 'swapped', 'position', 'distance'])}")
    if rng.random() < 0.6:
        d.append("depth_test less")
        if rng.random() < 0.7:
            d.append(f"polygon_offset {rng.choice([1, 2, -1])} {rng.choice([1, 4, -2])}")
    return "\n".join(d) + "\n"


def small_scene(rng, indices):
    """Filled triangles, strips or fans whose triangles are mostly smaller than a pixel."""
    prim = rng.choice(["triangles", "triangle_strip", "triangle_fan"])
    n = indices // 3 * 3
    px = 2.0 / W  # a pixel in normalised device coordinates
    step = rng.choice([0.3, 0.6, 1.0, 3.0, 10.0]) * px
    pos, col = [], []
    x, y = rng.uniform(-0.9, 0.9), rng.uniform(-0.9, 0.9)
    cx, cy = x, y
    for i in range(n):
        if prim == "triangle_fan" and i:
            # Spokes of up to `step` around the first vertex, turning a little each time.
            r, a = rng.uniform(0, step), i * 0.05
            x, y = cx + r * (1 if a % 6.28 < 3.14 else -1), cy + r * rng.uniform(-1, 1)
        elif i:
            x = min(1.3, max(-1.3, x + rng.uniform(-step, step)))
            y = min(1.3, max(-1.3, y + rng.uniform(-step, step)))
        w = rng.choice([1.0, 1.0, 0.5, 2.0])
        pos += [round(x * w, 6), round(y * w, 6), round(rng.uniform(-0.9, 0.9) * w, 4), w]
        col += [rng.randint(0, 8) / 8 for _ in range(3)] + [1.0]
    d = [f"prim {prim}", f"provoking {rng.choice(['first', 'last'])}"]
    if rng.random() < 0.5:
        d += ["index none", f"count {n}"]
    else:
        # In order, now and then a vertex again from a little before (a mesh's reuse).
        idx = [i if i < 3 or rng.random() < 0.8 else rng.randrange(max(0, i - 8), i)
               for i in range(n)]
        d += ["index u32", "indices " + " ".join(map(str, idx))]
    d.append("positions " + " ".join(f"{v:g}" for v in pos))
    d.append("colors " + " ".join(f"{v:g}" for v in col))
    d.append("polygon_mode fill fill")
    if rng.random() < 0.4:
        d.append("shade flat")
    culling(rng, d)
    if rng.random() < 0.6:
        d.append("depth_test less")
    return "\n".join(d) + "\n"


def render(mode, env, files, depth24):
    e = dict(os.environ, DRAWPIPE_MESA_STATS="1", **env)
    p = subprocess.run([os.path.join(HERE, "run.sh"), mode, RENDER, "--width", str(W),
                        "--height", str(H), "--batch"] + (["--depth24"] if depth24 else []) +
                       files, capture_output=True, text=True, env=e)
    if p.returncode != 0:
        sys.exit(f"mesa_render in {mode} failed ({p.returncode}): {p.stderr[-2000:]}")
    out, cur = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("== "):
            cur = line.split()[1]
            out[cur] = [line]
        elif cur is not None:
            out[cur].append(line)
    return out, p.stderr


def main():
    global RENDER
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--indices", type=int, default=3000)
    ap.add_argument("--depth24", action="store_true")
    ap.add_argument("--clip-planes", action="store_true")
    ap.add_argument("--face", action="store_true")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "default"))
    ap.add_argument("env", nargs="*", help="ENV=VALUE for the whole run")
    a = ap.parse_args()
    RENDER = os.path.join(a.build, "tests", "mesa", "mesa_render")
    env = dict(kv.split("=", 1) for kv in a.env)
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="judge-stages-")
    files = []
    for i in range(a.scenes):
        path = os.path.join(tmp, f"scene{i:03}.txt")
        with open(path, "w") as f:
            f.write(small_scene(rng, a.indices) if a.small else
                    scene(rng, a.indices, a.clip_planes, a.face))
        files.append(path)
    off, _ = render("off", {}, files, a.depth24)
    whole, stats = render("whole", env, files, a.depth24)
    differ = [f for f in files if off.get(f) != whole.get(f)]
    drawn = sum(1 for f in files if len(off.get(f, [])) > 1)
    depth = "24-bit" if a.depth24 else "float"
    print(f"judge-stages: {len(files)} scenes ({drawn} with pixels, {depth} depth), "
          f"{len(differ)} differ between off and whole {' '.join(a.env)}".rstrip())
    for f in differ[:10]:
        print(f"  differs: {f}")
    counts = {}
    for line in stats.splitlines():
        if (line.startswith("drawpipe: whole:") or line.startswith("drawpipe: shade: ")) and not line.endswith(" threads"):
            n, what = line.split(":", 2)[2].strip().split(" ", 1)
            counts[what] = counts.get(what, 0) + int(n)
    for what, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        if n:
            print(f"  {n:6} {what}")
    print(f"(scenes in {tmp})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
