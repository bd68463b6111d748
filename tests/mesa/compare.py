#!/usr/bin/env python3
"""Random draws through drawpipe and through real Mesa (mesa_trace); reports every difference.

  tests/mesa/compare.py --drawpipe build/default/tools/drawpipe --mesa-trace build/mesa/mesa_trace
                        [--per-prim 500] [--seed 1] [--gs] [--out DIR]

For every primitive type (or, with --gs, every library geometry shader and every primitive
type that can feed it) it generates --per-prim random draw descriptions: every index type,
random start/count (incomplete primitives included), restart on/off with restart values that
do and don't fit the index type, base vertex (index + base vertex stays in [0, buffer)),
0-3 instances, base instance, provoking first/last, 0-2 attributes with divisors 0-3. Each
runs as `drawpipe trace [--max-vertices N] FILE` (N random from the primitive's smallest legal
limit up to 64, or absent) and through mesa_trace; the traces must be equal. lines_adjacency
and line_strip_adjacency without a geometry shader cannot be captured by Mesa's transform
feedback, so for them only the number of lines is compared.

With --xfb each draw is captured into one transform-feedback buffer of a random size (often
too small, ending mid-draw, sometimes not a multiple of a primitive's size or of 4): drawpipe
`trace --xfb-size BYTES --xfb-dump FILE` against mesa_trace's capture of the same size; the
written primitives, GL_PRIMITIVES_GENERATED, GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN and
every byte of the buffer must agree. Without --xfb the traces and GL_PRIMITIVES_GENERATED
must.

With --xfb --variants, --repeat N makes N draws one capture session (each appends after the
last; every second draw runs paused), on both sides.

With --xfb, a draw of a library shader with several vertex streams (streams2, streams4)
captures, --stream-share of the time, one of its streams past 0 instead (`--xfb-stream N`
against mesa_trace's gl_NextBuffer capture), through whichever middle end --variants picks:
the reference, gen7 and the A4xx all deliver every stream. --gs-names keeps only some shaders.

With --multi each draw becomes a multi-draw (`multi_draw` lines) or an indirect draw
(`indirect` records, sometimes with `indirect_count N MAX`) over the same buffers: zero
counts, zero-instance records, a draw count above the maximum or of 0, and now and then a
maximum whose records reach past the buffer (GL_INVALID_OPERATION: both sides must reject
it). mesa_trace draws them with glMultiDraw*Indirect[Count] and captures gl_DrawID; with more
than one sub-draw the traces print vertexid/instanceid/drawid. Records stay inside the index
buffer: past it llvmpipe reads index 0 where drawpipe names the record in an Error.

With --statistics both sides end each trace with their pipeline statistics (drawpipe
`trace --statistics`, mesa_trace's ARB_pipeline_statistics_query counts of the draw alone)
and the counts GL defines exactly must agree as well: ia_vertices, ia_primitives,
gs_invocations and gs_primitives. Two are llvmpipe deviations from GL, which drawpipe does
not copy: llvmpipe counts a geometry shader with `invocations = N` (invocations4) once per
input primitive, so there drawpipe's gs_invocations must be N times llvmpipe's; and llvmpipe
counts primitives of every vertex stream in gs_primitives where GL counts only those
processed further, so gs_primitives is not compared for streams2 and streams4. The rest
(vs_invocations under vertex reuse, the clipper's counts, 0 on both sides here: drawpipe's
trace has no raster state, llvmpipe's rasterizer discard) GL leaves to the implementation.

With --tess the draws are patches (1-6 control points, every index type, instancing, small
limits) through the library's tessellation shaders, one group per mode x spacing x winding x
point mode: default levels (fractional, 0, 1, NaN, infinite, negative, above 64) or the
levels_by_patch control shader, sometimes a geometry shader after the evaluation stage,
through fetch_shade and fetch_shade_simd on 1-3 threads; traces (and with --xfb the bytes)
must agree. GL treats primitive restart as disabled for patches and drawpipe follows GL;
llvmpipe restarts patches anyway, so restart is enabled only with a value the draw never
reads. Every group also checks that the hardware models (mali, gen7, a4xx) refuse patches
with an `unsupported` error.

With --variants each draw also gets a random --strategy, --middle-end, --repeat and --threads.
The reorder strategy changes the order of a triangle list's triangles on purpose (never their
vertices), so its traces are compared with Mesa's as sorted lines.

Each mismatch is shrunk to a small description that still differs and written to --out
(NAME.txt, NAME.orig.txt, NAME.drawpipe, NAME.mesa, NAME.args). Exit status 1 when anything
differed, 77 when mesa_trace finds no usable OpenGL.
"""
import argparse
import collections
import concurrent.futures
import os
import random
import subprocess
import sys
import tempfile

PRIMS = [
    "points", "lines", "line_loop", "line_strip", "triangles", "triangle_strip", "triangle_fan",
    "quads", "quad_strip", "polygon", "lines_adjacency", "line_strip_adjacency",
    "triangles_adjacency", "triangle_strip_adjacency",
]
# (first, incr) as in draw/include/drawpipe/prim.hpp: vertices of the first primitive, then of each further one.
SHAPE = {
    "points": (1, 1), "lines": (2, 2), "line_loop": (2, 1), "line_strip": (2, 1),
    "triangles": (3, 3), "triangle_strip": (3, 1), "triangle_fan": (3, 1), "polygon": (3, 1),
    "quads": (4, 4), "quad_strip": (4, 2), "lines_adjacency": (4, 4),
    "line_strip_adjacency": (4, 1), "triangles_adjacency": (6, 6),
    "triangle_strip_adjacency": (6, 2),
}
COUNT_ONLY = {"lines_adjacency", "line_strip_adjacency"}  # without a GS
# Library geometry shaders (tools/common/gs_library.cpp) by input topology, and the draws that feed them.
GS_INPUT = {
    "passthrough_tri": "triangles", "amplify3_layer": "triangles",
    "strip_cut_middle": "triangles", "endprim_before_emit": "triangles", "cull_odd": "triangles",
    "many_cuts64": "triangles", "points_out": "triangles", "line_strip_out": "triangles",
    "lines_in": "lines", "lines_adj_in": "lines_adjacency", "tris_adj_in": "triangles_adjacency",
    "points_in_quad": "points", "invocations4": "triangles", "streams2": "points",
    "color_tri": "triangles", "color_swizzle_lines": "lines", "streams4": "triangles",
}
# Library geometry shaders that read the vertex shader's colour varying (need `vs color`).
GS_READS_COLOR = {"color_tri", "color_swizzle_lines"}
FEEDS = {
    "points": ["points"],
    "lines": ["lines", "line_strip", "line_loop"],
    "lines_adjacency": ["lines_adjacency", "line_strip_adjacency"],
    "triangles": ["triangles", "triangle_strip", "triangle_fan"],
    "triangles_adjacency": ["triangles_adjacency", "triangle_strip_adjacency"],
}
TYPE_MAX = {"u8": 0xFF, "u16": 0xFFFF, "u32": 0xFFFFFFFF}


def min_limit(prim, patch_vertices=1):
    if prim == "patches":
        return patch_vertices
    first, incr = SHAPE[prim]
    return first if first == incr else first + incr


# ---------------------------------------------------------------------------------------------
# Draw descriptions: a dict with the keys of the text format.

def fmt(d):
    lines = [f"prim {d['prim']}", f"index {d['index']}"]
    idx = d["indices"]
    for i in range(0, len(idx), 32):
        lines.append("indices " + " ".join(str(v) for v in idx[i:i + 32]))
    if d["restart"] is not None:
        lines.append(f"restart {d['restart']}")
    multi, indirect = d.get("multi"), d.get("indirect")
    if multi is None and indirect is None:
        lines += [f"start {d['start']}", f"count {d['count']}", f"base_vertex {d['base_vertex']}"]
    if indirect is None:
        lines += [f"instances {d['instances']}", f"base_instance {d['base_instance']}"]
    lines.append(f"provoking {d['provoking']}")
    indexed = d["index"] != "none"
    for start, count, bv in multi or []:
        lines.append(f"multi_draw {start} {count}" + (f" {bv}" if indexed else ""))
    for count, inst, first, bv, bi in indirect or []:
        lines.append(f"indirect {count} {inst} {first}" + (f" {bv}" if indexed else "") + f" {bi}")
    if d.get("indirect_count"):
        lines.append("indirect_count %d %d" % d["indirect_count"])
    lines += [f"attrib {a}" for a in d["attribs"]]
    if d.get("vs"):
        lines.append(f"vs {d['vs']}")
    if d.get("gs"):
        lines.append(f"gs {d['gs']}")
    if d.get("tess"):
        lines.append(f"patch_vertices {d['patch_vertices']}")
        lines.append("tess " + d["tess"])
        lines.append("tess_levels " + " ".join(d["tess_levels"]))
        if d.get("tcs"):
            lines.append(f"tcs {d['tcs']}")
    return "\n".join(lines) + "\n"


def drawn_indices(d):
    """Raw index values the draw reads that are vertices (restart values excluded)."""
    if d["index"] == "none":
        return []
    vals = d["indices"][d["start"]:d["start"] + d["count"]]
    return [v for v in vals if v != d["restart"]]


def sub_draws(d):
    """(start, count, base vertex, instances, base instance) of each sub-draw or record."""
    if d.get("multi") is not None:
        return [(s, c, bv, d["instances"], d["base_instance"]) for s, c, bv in d["multi"]]
    if d.get("indirect") is not None:
        return [(first, c, bv, inst, bi) for c, inst, first, bv, bi in d["indirect"]]
    return [(d["start"], d["count"], d["base_vertex"], d["instances"], d["base_instance"])]


def draw_ids(d):
    """Whether the traces print draw ids: more than one sub-draw or record."""
    return len(d.get("multi") or d.get("indirect") or []) > 1


def valid(d):
    """Keeps every vertex id in [0, 2^24) and the description consistent."""
    if d.get("multi") is not None or d.get("indirect") is not None:
        for start, count, bv, _, _ in sub_draws(d):
            one = dict(d, multi=None, indirect=None, start=start, count=count,
                       base_vertex=bv if d["index"] != "none" else 0)
            if not valid(one):
                return False
        return True
    if d["index"] == "none":
        return d["indices"] == [] and d["start"] + d["count"] < (1 << 24)
    if d["start"] + d["count"] > len(d["indices"]):
        return False
    return all(0 <= v + d["base_vertex"] < (1 << 24) for v in drawn_indices(d))


def fix_base_vertex(rng, d):
    if rng.random() < 0.3:  # shift the indices up so that a negative base vertex fits
        shift = rng.randint(1, 30)
        tmax = TYPE_MAX[d["index"]]
        if all(v == d["restart"] or v + shift <= min(tmax - 1, 100000) for v in d["indices"]):
            d["indices"] = [v if v == d["restart"] else v + shift for v in d["indices"]]
    vals = drawn_indices(d)
    lo = -min(vals) if vals else 0
    d["base_vertex"] = 0 if rng.random() < 0.4 else rng.randint(max(lo, -30), 30)
    if not valid(d):
        d["base_vertex"] = 0


def random_draw(rng, prim, gs=None):
    d = {"prim": prim, "index": rng.choice(["none", "u8", "u16", "u32"]), "indices": [],
         "restart": None, "start": 0, "base_vertex": 0, "gs": gs,
         "instances": 0 if rng.random() < 0.08 else rng.randint(1, 3),
         "base_instance": 0 if rng.random() < 0.5 else rng.randint(1, 5),
         "provoking": rng.choice(["first", "last"])}
    r = rng.random()
    d["count"] = rng.randint(0, 12) if r < 0.4 else rng.randint(0, 40) if r < 0.85 else \
        rng.randint(0, 150) if r < 0.97 else rng.randint(150, 1000)
    d["attribs"] = [0 if rng.random() < 0.5 else rng.randint(1, 3)
                    for _ in range(rng.randint(0, 2))]
    # The library's colour vertex shader: a float varying written by the VS, through the GS.
    if gs in GS_READS_COLOR or rng.random() < 0.25:
        d["vs"] = "color"
    if d["index"] == "none":
        d["start"] = rng.randint(0, 3) if rng.random() < 0.5 else rng.randint(0, 20)
        if rng.random() < 0.15:  # GL ignores restart for non-indexed draws
            d["restart"] = rng.choice([0, 1, 2, 3, 0xFFFF, 0xFFFFFFFF])
        return d
    tmax = TYPE_MAX[d["index"]]
    d["start"] = 0 if rng.random() < 0.6 else rng.randint(1, 5)
    span = rng.randint(3, 40) if rng.random() < 0.9 else min(tmax - 1, 1 << 20)
    n = d["start"] + d["count"] + rng.randint(0, 3)
    d["indices"] = [rng.randint(0, span) for _ in range(n)]
    ordinary_extra = []  # values that are plain vertices despite looking special
    if rng.random() < 0.55:
        kind = rng.random()
        if kind < 0.3:
            d["restart"] = tmax
        elif kind < 0.65:
            d["restart"] = rng.randint(0, span)
        elif d["index"] != "u32":  # does not fit the type: never matches
            d["restart"] = rng.choice([tmax + 1, 0xFFFF, 0xFFFFFFFF, 0x10000 + 5, 0x1FF])
            if d["restart"] <= tmax:
                d["restart"] = 0xFFFFFFFF
            ordinary_extra.append(d["restart"] & tmax)  # the truncated value is a vertex
        else:
            d["restart"] = rng.randint(span + 1, span + 1000)
        if d["restart"] <= tmax:
            for i in range(n):
                if rng.random() < 0.15:
                    d["indices"][i] = d["restart"]
    if d["index"] in ("u8", "u16") and d["restart"] != tmax:
        ordinary_extra.append(tmax)  # the type's maximum as an ordinary vertex
    for v in ordinary_extra:
        for i in range(n):
            if rng.random() < 0.05:
                d["indices"][i] = v
    fix_base_vertex(rng, d)
    return d


def random_multi(rng, d):
    """Turns a random draw into a multi-draw or an indirect draw over its buffers."""
    indexed = d["index"] != "none"
    if indexed and len(d["indices"]) < 24:  # room for several sub-draws
        plain = [v for v in d["indices"] if v != d["restart"]] or [0]
        d["indices"] += [rng.choice(plain) for _ in range(24 - len(d["indices"]))]
    size = len(d["indices"])
    n = rng.choice([1, 2, 2, 3, 4, 6, 8])
    subs = []
    for _ in range(n):
        if indexed:
            start = rng.randint(0, size)
            count = 0 if rng.random() < 0.15 else rng.randint(0, size - start)
            vals = [v for v in d["indices"][start:start + count] if v != d["restart"]]
            lo = -min(vals) if vals else 0
            bv = 0 if rng.random() < 0.5 else rng.randint(max(lo, -20), 20)
        else:
            start = rng.randint(0, 20)
            count = 0 if rng.random() < 0.15 else rng.randint(0, 40)
            bv = 0
        inst = 0 if rng.random() < 0.15 else rng.randint(1, 3)
        bi = 0 if rng.random() < 0.5 else rng.randint(1, 4)
        subs.append((start, count, bv, inst, bi))
    d["start"], d["count"], d["base_vertex"] = 0, 0, 0
    form = rng.random()
    if form < 0.4:
        d["multi"] = [(s, c, bv) for s, c, bv, _, _ in subs]
    else:
        d["indirect"] = [(c, inst, s, bv, bi) for s, c, bv, inst, bi in subs]
        if form > 0.7:
            r = rng.random()
            mx = rng.randint(n + 1, n + 2) if r < 0.1 else 0 if r < 0.15 else rng.randint(1, n)
            num = 0 if rng.random() < 0.1 else rng.randint(0, n + 3)
            d["indirect_count"] = (num, mx)
    if not valid(d):  # a base vertex pushed an id out of range: drop the base vertices
        if d.get("multi"):
            d["multi"] = [(s, c, 0) for s, c, _ in d["multi"]]
        else:
            d["indirect"] = [(c, i, s, 0, bi) for c, i, s, _, bi in d["indirect"]]


# ---------------------------------------------------------------------------------------------
# Tessellation (--tess): patches through the library's interpolate evaluation shader.

TESS_MODES = ["triangles", "quads", "isolines"]
TESS_SPACINGS = ["equal", "fractional_even", "fractional_odd"]
TESS_WINDINGS = ["ccw", "cw"]
# Levels as the text gives them: fractional, 0 and 1, culling values, clamped ones.
SMALL_LEVELS = ["1", "2", "3", "0.5", "1.5", "2.25", "3.7", "4", "5.5"]
ODD_LEVELS = ["0", "-1", "nan", "inf", "-inf", "1e-3", "7.9", "16", "33.3", "64", "70"]
# A geometry shader after the evaluation stage, by what the tessellator makes.
TESS_GS = {"triangles": ["passthrough_tri", "cull_odd", "points_out"],
           "lines": ["lines_in"], "points": ["points_in_quad"]}


def tess_output(mode, point_mode):
    return "points" if point_mode else "lines" if mode == "isolines" else "triangles"


def random_tess_draw(rng, mode, spacing, winding, point_mode):
    d = random_draw(rng, "patches")
    d["vs"] = None
    pv = rng.choice([1, 2, 3, 4]) if rng.random() < 0.8 else rng.randint(5, 32)
    d["patch_vertices"] = pv
    d["tess"] = f"{mode} {spacing} {winding}" + (" point_mode" if point_mode else "")
    big = rng.random() < 0.15  # one level set with large levels: few patches then
    levels = []
    for _ in range(6):
        r = rng.random()
        levels.append(rng.choice(ODD_LEVELS) if r < 0.15 or big else rng.choice(SMALL_LEVELS))
    d["tess_levels"] = levels
    d["tcs"] = "levels_by_patch" if rng.random() < 0.5 else None
    # llvmpipe draws a tessellated draw's vertices with 16-bit indices (docs/tessellation.md):
    # past 65535 vertices it joins the wrong ones. Draws with large levels stay far below.
    large = big or any(l in ("inf", "16", "33.3", "64", "70") for l in levels)
    if large:
        d["instances"] = min(d["instances"], 2)
    d["count"] = min(d["count"], (2 if large else 24) * pv + rng.randint(0, pv - 1))
    if d["index"] != "none":
        d["indices"] = d["indices"][:d["start"] + d["count"] + 3]
        while len(d["indices"]) < d["start"] + d["count"]:
            d["indices"].append(rng.randint(0, 20))
        # GL: restart is off for patches; llvmpipe restarts them anyway (a deviation from
        # GL), so a restart value is enabled only where the draw never reads it.
        # A restart value read is then an ordinary vertex: keep vertex ids small.
        for i in range(d["start"], d["start"] + d["count"]):
            if d["indices"][i] > 1000:
                d["indices"][i] = rng.randint(0, 20)
        fix_base_vertex(rng, d)
        read = d["indices"][d["start"]:d["start"] + d["count"]]
        if d["restart"] is not None and d["restart"] in read:
            d["restart"] = None if rng.random() < 0.5 else max(read) + 1
            if not valid(d):  # its old restart values are vertices now
                d["base_vertex"] = 0
    if rng.random() < 0.25:
        d["gs"] = rng.choice(TESS_GS[tess_output(mode, point_mode)])
    return d


def random_variant(rng, strategies, middle_ends, gs):
    """Other drawpipe paths that must draw the same: strategies, middle ends, cached splits."""
    strategy = rng.choice(strategies)
    if strategy == "direct":
        strategy = f"direct-{2 ** rng.randint(1, 10)}"
    # mali models vertex fetch only: a geometry shader is Error(unsupported) there
    middle = rng.choice([m for m in middle_ends if not (gs and m == "mali")] or ["fetch_shade"])
    return ["--strategy", strategy, "--middle-end", middle, "--repeat", str(rng.randint(1, 3)),
            "--threads", str(rng.choice([1, 2, 3, 8]))]


# Library geometry shaders with several vertex streams (stream N > 0 captures `id` + 500 N).
GS_STREAMS = {"streams2": 2, "streams4": 4}
# Library geometry shaders that capture a layer after the id.
GS_WRITES_LAYER = {"amplify3_layer", "invocations4"}
GS_OUTPUT_VERTICES = {"points_out": 1, "points_in_quad": 3, "streams2": 1, "streams4": 1,
                      "line_strip_out": 2,
                      "lines_in": 2, "lines_adj_in": 2, "color_swizzle_lines": 2}


def record_bytes(d):
    """Bytes per captured vertex: what `drawpipe trace --xfb-size` and mesa_trace capture."""
    gs = d.get("gs")
    colour = 4 if d.get("vs") == "color" else 0
    if gs and d.get("xfb_stream"):
        return 4
    if gs:
        return 4 * (1 + (gs in GS_WRITES_LAYER) + (4 if gs in GS_READS_COLOR else 0))
    if d.get("tess"):  # patch, instance, u, v, then the attributes
        return 4 * (4 + len(d["attribs"]))
    return 4 * (2 + draw_ids(d) + (colour or len(d["attribs"])))


def prim_vertices(d):
    gs = d.get("gs")
    if gs:
        return GS_OUTPUT_VERTICES.get(gs, 3)
    p = d["prim"]
    if d.get("tess"):
        out = tess_output(d["tess"].split()[0], "point_mode" in d["tess"])
        return {"points": 1, "lines": 2, "triangles": 3}[out]
    return 1 if p == "points" else 2 if p in ("lines", "line_loop", "line_strip") else 3


def random_xfb_size(rng, d):
    """A buffer size that often ends mid-draw, sometimes on a primitive boundary, sometimes
    not a multiple of a primitive (or of 4), sometimes large enough for everything."""
    prim_bytes = record_bytes(d) * prim_vertices(d)
    amplify = 3 if d.get("gs") else 1
    if d.get("tess"):
        amplify = 40
    vertices = sum(c * max(inst, 1) for _, c, _, inst, _ in sub_draws(d))
    full = max(1, vertices * amplify) * prim_bytes
    r = rng.random()
    if r < 0.15:
        size = rng.randint(0, 2 * prim_bytes)
    elif r < 0.35:
        size = prim_bytes * rng.randint(0, max(1, full // prim_bytes))
    elif r < 0.8:
        size = 4 * rng.randint(0, full // 4 + 1)
    else:
        size = full * 2 + 64
    if rng.random() < 0.1:
        size += rng.randint(1, 3)
    return size


def random_limit(rng, prim):
    if rng.random() < 0.2:
        return 0  # the middle end's own limit
    lo = min_limit(prim)
    return rng.randint(lo, lo + 6) if rng.random() < 0.6 else rng.randint(lo, 64)


# ---------------------------------------------------------------------------------------------
# Running both sides.

def read_batch(stdout):
    """{file: (status, text)} from the output of `mesa_trace --batch` or `mesa_render --batch`:
    each file's text after a line `== FILE status S`."""
    out, cur = {}, None
    for line in stdout.splitlines(keepends=True):
        if line.startswith("== "):
            _, name, _, status = line.split()
            cur = name
            out[cur] = [int(status), []]
        else:
            out[cur][1].append(line)  # joined once: += on a long text is quadratic
    return {k: (v[0], "".join(v[1])) for k, v in out.items()}


class Runner:
    def __init__(self, args, tmp):
        self.drawpipe = args.drawpipe
        self.mesa = args.mesa_trace
        self.tmp = tmp
        self.n = 0
        self.statistics = args.statistics

    def write(self, d):
        self.n += 1
        path = os.path.join(self.tmp, f"d{self.n}.txt")
        with open(path, "w") as f:
            f.write(fmt(d))
        return path

    def drawpipe_trace(self, path, limit, extra=(), xfb=None, stream=0):
        cmd = [self.drawpipe, "trace", path] + list(extra)
        if xfb is not None:
            cmd += ["--xfb-size", str(xfb), "--xfb-dump", path + ".dp.bin"]
        if stream:
            cmd += ["--xfb-stream", str(stream)]
        if "--threads" not in extra:
            cmd += ["--threads", "2"]
        if self.statistics:
            cmd += ["--statistics"]
        if limit:
            cmd += ["--max-vertices", str(limit)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return None, p.stderr.strip()
        # The header line says what the fields are; mesa_trace prints the records only.
        return "".join(l for l in p.stdout.splitlines(True) if not l.startswith("# trace: ")), ""

    def mesa_batch(self, paths):
        """{path: (status, text)} from one mesa_trace process. A path may be
        `FILE,BYTES,DUMP`: FILE captured into a buffer of BYTES bytes, dumped to DUMP."""
        out = {}
        for i in range(0, len(paths), 300):
            chunk = paths[i:i + 300]
            flags = ["--batch"] + (["--statistics"] if self.statistics else [])
            p = subprocess.run([self.mesa] + flags + chunk, capture_output=True, text=True)
            if p.returncode == 2:  # no usable OpenGL here: a skip, not a failure
                print(f"SKIP: mesa_trace: {p.stderr.strip()}")
                sys.exit(77)
            if p.returncode != 0:
                sys.exit(f"mesa_trace failed ({p.returncode}): {p.stderr.strip()}")
            out.update(read_batch(p.stdout))
        return out


def mesa_arg(path, d):
    if d.get("xfb") is None:
        return path
    return f"{path},{d['xfb']},{path}.mesa.bin,{d.get('xfb_stream', 0)},{d.get('repeat', 1)}"


# The pipeline statistics GL defines exactly (--statistics), and the geometry shaders for which
# llvmpipe deviates from GL: it counts one invocation per input primitive whatever the
# shader's `invocations`, and the primitives of every vertex stream.
GL_STATISTICS = ("ia_vertices", "ia_primitives", "gs_invocations", "gs_primitives")
GS_INVOCATIONS = {"invocations4": 4}


def split_statistics(text):
    """(text without its `# statistics` line, {name: count} or None)."""
    if text is None:
        return None, None
    rest, stats = [], None
    for line in text.splitlines(True):
        if line.startswith("# statistics "):
            w = line.split()[2:]
            stats = {w[i]: int(w[i + 1]) for i in range(0, len(w), 2)}
        else:
            rest.append(line)
    return "".join(rest), stats


def statistics_verdict(d, dp_stats, mesa_stats):
    if dp_stats is None or mesa_stats is None:
        return f"statistics missing (drawpipe {dp_stats}, Mesa {mesa_stats})"
    gs = d.get("gs")
    for k in GL_STATISTICS:
        want = mesa_stats[k]
        if k == "gs_invocations":
            want *= GS_INVOCATIONS.get(gs, 1)
        if k == "gs_primitives" and gs in GS_STREAMS:
            continue
        if dp_stats[k] != want:
            return f"statistics {k}: drawpipe {dp_stats[k]}, want {want} (Mesa {mesa_stats[k]})"
    return None


def verdict(d, limit, dp, dp_err, mesa, extra=(), path=None):
    """None when both agree, else a one-line reason. The reorder strategy draws the same
    primitives in vertex-cache order, so there the traces are compared as multisets of lines
    (not when capturing: stream output keeps GL's order, so drawpipe splits `exact` then)."""
    status, text = mesa
    if "# statistics " in text or (dp is not None and "# statistics " in dp):
        dp, dp_stats = split_statistics(dp)
        text, mesa_stats = split_statistics(text)
        if dp is not None and status in (0, 4):
            why = statistics_verdict(d, dp_stats, mesa_stats)
            if why:
                return why
    xfb = d.get("xfb") is not None
    if "reorder" in extra and dp is not None and status == 0 and not xfb:
        dp, text = "".join(sorted(dp.splitlines(True))), "".join(sorted(text.splitlines(True)))
    if status == 4:  # count only
        want = int(text.split(": ")[1].split()[0])
        if dp is None:
            return f"drawpipe failed: {dp_err}"
        got = sum(1 for l in dp.splitlines() if l.startswith("line "))
        bad = [l for l in dp.splitlines() if not l.startswith("line ") and not l.startswith("#")]
        generated = [l for l in dp.splitlines() if l.startswith("# primitives_generated ")]
        if got != want or bad or generated != [f"# primitives_generated {want}"]:
            return f"line count: drawpipe {got} ({generated}), Mesa generated {want}"
        return None
    if status != 0:
        if dp is None:
            return None  # both reject
        return f"Mesa rejected the draw (status {status}: {text.strip()}), drawpipe drew it"
    if dp is None:
        return f"drawpipe failed: {dp_err}"
    if dp != text:
        return "traces differ"
    if xfb:
        with open(path + ".dp.bin", "rb") as f:
            dp_bytes = f.read()
        with open(path + ".mesa.bin", "rb") as f:
            mesa_bytes = f.read()
        if dp_bytes != mesa_bytes:
            at = next((i for i, (a, b) in enumerate(zip(dp_bytes, mesa_bytes)) if a != b),
                      min(len(dp_bytes), len(mesa_bytes)))
            return f"buffer bytes differ from byte {at} ({len(dp_bytes)} vs {len(mesa_bytes)})"
    return None


def check_one(runner, d, limit, extra=()):
    path = runner.write(d)
    dp, err = runner.drawpipe_trace(path, limit, extra, d.get("xfb"), d.get("xfb_stream", 0))
    mesa = runner.mesa_batch([mesa_arg(path, d)])[path]
    return verdict(d, limit, dp, err, mesa, extra, path), dp, err, mesa


def shrink(runner, d, limit, extra):
    """Greedy shrinking: keep any simplification that still differs."""
    def still(c, lim):
        return valid(c) and check_one(runner, c, lim, extra)[0] is not None

    def candidates(c, lim):
        for k in ("multi", "indirect"):  # fewer sub-draws or records
            for i in range(len(c.get(k) or [])):
                yield dict(c, **{k: c[k][:i] + c[k][i + 1:]}), lim
        if c.get("indirect_count"):
            yield dict(c, indirect_count=None), lim
        for k in ("attribs",):
            for i in range(len(c[k])):
                yield dict(c, attribs=c[k][:i] + c[k][i + 1:]), lim
        if c["instances"] > 1:
            yield dict(c, instances=1), lim
            yield dict(c, instances=c["instances"] - 1), lim
        if c["base_instance"]:
            yield dict(c, base_instance=0), lim
        if lim:
            yield c, 0
        if c["base_vertex"]:
            yield dict(c, base_vertex=0), lim
        if c["index"] != "none":
            idx = c["indices"]
            # drop unread indices past the end, then before the start
            if len(idx) > c["start"] + c["count"]:
                yield dict(c, indices=idx[:c["start"] + c["count"]]), lim
            if c["start"]:
                yield dict(c, indices=idx[c["start"]:], start=0), lim
            for step in (8, 4, 2, 1):
                for i in range(0, c["count"] - step + 1, step):
                    s = c["start"] + i
                    yield dict(c, indices=idx[:s] + idx[s + step:], count=c["count"] - step), lim
            # smaller values: renumber the vertices densely in order of first use
            used = sorted(set(v for v in idx if v != c["restart"]))
            remap = {v: i for i, v in enumerate(used)}
            ren = [v if v == c["restart"] else remap[v] for v in idx]
            if ren != idx:
                yield dict(c, indices=ren, base_vertex=0), lim
            if c["restart"] is not None and c["restart"] not in idx:
                yield dict(c, restart=None), lim
            if c["restart"] is None and c["index"] != "u8" and max(idx, default=0) < 255:
                yield dict(c, index="u8"), lim
            read = idx[c["start"]:c["start"] + c["count"]]
            if c["restart"] is None and read and read == list(range(read[0], read[0] + len(read))):
                yield dict(c, index="none", indices=[], start=read[0] + c["base_vertex"],
                           base_vertex=0), lim
        else:
            if c["start"]:
                yield dict(c, start=0), lim
            for step in (8, 4, 2, 1):
                if c["count"] >= step:
                    yield dict(c, count=c["count"] - step), lim
            if c["restart"] is not None:
                yield dict(c, restart=None), lim
        if c["provoking"] == "first":
            yield dict(c, provoking="last"), lim
        if lim and lim > min_limit(c["prim"], c.get("patch_vertices", 1)):
            yield c, lim - 1

    progress = True
    while progress:
        progress = False
        for c, lim in candidates(d, limit):
            if (c, lim) != (d, limit) and still(c, lim):
                d, limit = c, lim
                progress = True
                break
    return d, limit


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--drawpipe", default="build/default/tools/drawpipe")
    ap.add_argument("--mesa-only", action="store_true",
                    help="run only the GL side (integrations/mesa/record_gl.py records it)")
    ap.add_argument("--mesa-trace", default="build/mesa/mesa_trace")
    ap.add_argument("--per-prim", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gs", action="store_true", help="library geometry shaders instead")
    ap.add_argument("--tess", action="store_true",
                    help="patches through the library's tessellation shaders instead")
    ap.add_argument("--prims", default="", help="comma-separated subset of primitive types")
    ap.add_argument("--gs-names", default="",
                    help="with --gs: comma-separated subset of the library's geometry shaders")
    ap.add_argument("--stream-share", type=float, default=0.5,
                    help="with --xfb: share of draws of a multi-stream shader that capture a "
                         "stream past 0 (the stream picked at random)")
    ap.add_argument("--out", default="mesa_mismatches")
    ap.add_argument("--variants", action="store_true",
                    help="also pick a random --strategy, --middle-end and --repeat per draw")
    ap.add_argument("--strategies", default="distinct,vsplit,exact,none,reorder,direct",
                    help="--variants picks from these (direct: direct-2 .. direct-1024)")
    ap.add_argument("--middle-ends", default="fetch_shade,fetch_shade_simd,mali,gen7,a4xx,a4xx_naive",
                    help="--variants picks from these (never mali with a geometry shader)")
    ap.add_argument("--multi", action="store_true",
                    help="multi-draws and indirect draws (multi_draw, indirect, indirect_count)")
    ap.add_argument("--xfb", action="store_true",
                    help="capture into a random-sized buffer; compare bytes and query counts")
    ap.add_argument("--statistics", action="store_true",
                    help="also compare the pipeline statistics GL defines exactly")
    ap.add_argument("--max-report", type=int, default=40,
                    help="mismatches shrunk and written (all are counted)")
    args = ap.parse_args()
    rng = random.Random(args.seed)

    if args.tess:
        groups = [(f"{m}-{s}-{w}" + ("-point_mode" if pm else ""), "patches", (m, s, w, pm))
                  for m in TESS_MODES for s in TESS_SPACINGS for w in TESS_WINDINGS
                  for pm in (False, True)]
    elif args.gs:
        groups = [(f"{gs}<-{p}", p, gs) for gs, inp in GS_INPUT.items() for p in FEEDS[inp]]
    else:
        groups = [(p, p, None) for p in PRIMS]
    if args.xfb:  # Mesa does not capture line adjacency without a geometry shader
        groups = [g for g in groups if g[2] or g[1] not in COUNT_ONLY]
    if args.prims:
        keep = set(args.prims.split(","))
        groups = [g for g in groups if g[1] in keep]
    if args.gs_names:
        keep = set(args.gs_names.split(","))
        unknown = keep - set(GS_INPUT)
        if unknown:
            sys.exit(f"--gs-names: unknown geometry shaders {sorted(unknown)}")
        groups = [g for g in groups if g[2] in keep]

    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mesa_compare_") as tmp:
        runner = Runner(args, tmp)
        jobs = []  # (group, desc, limit, path, extra drawpipe arguments)
        refused = collections.Counter()  # --tess: hardware models that refuse patches
        for name, prim, gs in groups:
            for k in range(args.per_prim):
                if args.tess:
                    d = random_tess_draw(rng, *gs)
                    if k == 0 and not refused:  # once: the hardware models refuse patches
                        path = runner.write(d)
                        for hw in ("mali", "gen7", "a4xx"):
                            _, err = runner.drawpipe_trace(path, 0, ["--middle-end", hw])
                            refused["unsupported" in err] += 1
                    if args.xfb:
                        d["xfb"] = random_xfb_size(rng, d)
                    lim = 0 if rng.random() < 0.3 else rng.randint(1, 4) * d["patch_vertices"]
                    extra = ["--middle-end", rng.choice(["fetch_shade", "fetch_shade_simd"]),
                             "--threads", str(rng.choice([1, 2, 3]))]
                    jobs.append((name, d, lim, runner.write(d), extra))
                    continue
                d = random_draw(rng, prim, gs)
                if args.multi:
                    random_multi(rng, d)
                if args.xfb:
                    if gs in GS_STREAMS and rng.random() < args.stream_share:
                        d["xfb_stream"] = rng.randint(1, GS_STREAMS[gs] - 1)
                    d["xfb"] = random_xfb_size(rng, d)
                lim = random_limit(rng, prim)
                extra = random_variant(rng, args.strategies.split(","),
                                       args.middle_ends.split(","), gs) if args.variants else []
                if args.xfb and "--repeat" in extra:
                    # A capture session of that many draws, every second one paused.
                    d["repeat"] = int(extra[extra.index("--repeat") + 1])
                jobs.append((name, d, lim, runner.write(d), extra))
        mesa = runner.mesa_batch([mesa_arg(j[3], j[1]) for j in jobs])
        if args.mesa_only:
            print(f"total {len(jobs)} draws drawn by {args.mesa_trace} alone")
            return 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            dps = list(pool.map(
                lambda j: runner.drawpipe_trace(j[3], j[2], j[4], j[1].get("xfb"),
                                                j[1].get("xfb_stream", 0)), jobs))

        cover = collections.Counter()  # what the draws exercised
        for name, d, lim, path, extra in jobs:
            subs = sub_draws(d)  # the draw, or each sub-draw or record
            read = [v for st, c, _, _, _ in subs for v in d["indices"][st:st + c]]
            cover["restart value hit"] += d["index"] != "none" and d["restart"] in read
            cover["restart value not fitting the type"] += (
                d["index"] != "none" and d["restart"] is not None
                and d["restart"] > TYPE_MAX[d["index"]])
            cover["split (limit below count)"] += any(0 < lim < c for _, c, _, _, _ in subs)
            cover["negative base vertex"] += any(bv < 0 for _, _, bv, _, _ in subs)
            cover["instanced attribute"] += any(d["attribs"])
            cover["base instance"] += d["base_instance"] > 0
            cover["non-empty Mesa trace"] += mesa[path][0] == 0 and mesa[path][1] != ""
            if args.tess:
                cover["control shader"] += bool(d.get("tcs"))
                cover["geometry shader after"] += bool(d.get("gs"))
                cover["culling or odd level"] += any(l in ODD_LEVELS for l in d["tess_levels"])
                cover["restart enabled (value not read)"] += d["restart"] is not None
            if args.xfb and mesa[path][0] == 0:
                counts = dict(l[2:].split() for l in mesa[path][1].splitlines()
                              if l.startswith("# primitives_"))
                w, g = int(counts["primitives_written"]), int(counts["primitives_generated"])
                cover["buffer full mid-draw"] += 0 < w < g
                cover["nothing fit"] += w == 0 < g
                cover["buffer size not a multiple of 4"] += d["xfb"] % 4 != 0
                cover["vertex stream past 0 captured"] += d.get("xfb_stream", 0) > 0
                if d.get("xfb_stream") and "--middle-end" in extra:
                    middle = extra[extra.index("--middle-end") + 1]
                    cover[f"stream past 0 through {middle}"] += 1
                cover["session of several draws with pause/resume"] += d.get("repeat", 1) > 1
            if args.multi:
                cover["multi_draw"] += d.get("multi") is not None
                cover["indirect"] += d.get("indirect") is not None
                cover["several sub-draws"] += len(subs) > 1
                cover["zero-count sub-draw"] += any(c == 0 for _, c, _, _, _ in subs)
                cover["zero-instance record"] += d.get("indirect") is not None and any(
                    i == 0 for _, _, _, i, _ in subs)
                ic = d.get("indirect_count")
                cover["indirect_count"] += ic is not None
                cover["draw count above max"] += ic is not None and ic[0] > ic[1]
                cover["draw count or max 0"] += ic is not None and 0 in ic
                cover["max records past the buffer (both reject)"] += (
                    ic is not None and ic[1] > len(subs) and mesa[path][0] == 3)
        per_group = collections.Counter()
        bad_group = collections.Counter()
        both_reject = collections.Counter()
        mismatches = []
        for (name, d, lim, path, extra), (dp, err) in zip(jobs, dps):
            per_group[name] += 1
            why = verdict(d, lim, dp, err, mesa[path], extra, path)
            if why is None and dp is None:
                both_reject[name] += 1
            if why is not None:
                bad_group[name] += 1
                mismatches.append((name, d, lim, why, extra))

        print(f"{'group':40} {'draws':>6} {'differ':>6} {'both reject':>11}")
        for name, _, _ in groups:
            print(f"{name:40} {per_group[name]:6} {bad_group[name]:6} {both_reject[name]:11}")
        if args.tess:
            print(f"hardware models refusing patches with 'unsupported': {refused[True]} of "
                  f"{refused[True] + refused[False]}")
            if refused[False]:
                mismatches.append(("refusal", {}, 0, "a hardware model drew patches", []))
        print(f"total {sum(per_group.values())} draws, {len(mismatches)} differ")
        print("coverage: " + ", ".join(f"{k} {v}" for k, v in cover.items()))

        reported = collections.Counter()
        for k, (name, d, lim, why, extra) in enumerate(mismatches):
            if k >= args.max_report or not d:
                break
            d2, lim2 = shrink(runner, d, lim, extra)
            why2, dp, err, (mstatus, mtext) = check_one(runner, d2, lim2, extra)
            if why2 is None:  # flaky: keep the original
                d2, lim2 = d, lim
                why2, dp, err, (mstatus, mtext) = check_one(runner, d2, lim2, extra)
            reported[name] += 1
            base = os.path.join(args.out, f"{name.replace('<-', '_from_')}_{reported[name]}")
            with open(base + ".txt", "w") as f:
                f.write(fmt(d2))
            with open(base + ".orig.txt", "w") as f:
                f.write(fmt(d))
            with open(base + ".drawpipe", "w") as f:
                f.write(dp if dp is not None else f"ERROR: {err}\n")
            with open(base + ".mesa", "w") as f:
                f.write(mtext if mstatus in (0, 4) else f"status {mstatus}: {mtext}")
            xfb_args = ["--xfb-size", str(d2["xfb"])] if d2.get("xfb") is not None else []
            if d2.get("xfb_stream"):
                xfb_args += ["--xfb-stream", str(d2["xfb_stream"])]
            with open(base + ".args", "w") as f:
                f.write(" ".join(extra + xfb_args +
                                 (["--max-vertices", str(lim2)] if lim2 else [])) + "\n")
            cli = " ".join(extra + xfb_args + (["--max-vertices", str(lim2)] if lim2 else []))
            print(f"\n=== {name}: {why2} (originally: {why}; drawpipe trace {cli or '(no options)'})")
            print(fmt(d2), end="")
            print("--- drawpipe")
            print(dp if dp is not None else f"ERROR: {err}", end="" if dp else "\n")
            print("--- mesa")
            print(mtext, end="")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
