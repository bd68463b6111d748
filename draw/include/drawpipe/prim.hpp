// Primitive shapes and the order OpenGL gives decomposed primitives.
//
// `first`/`incr`: a primitive type needs `first` vertices for its first primitive and `incr`
// more for each further one. A patch is a list of `patch_vertices` vertices (the draw's
// DrawInfo::patch_vertices); the functions taking it ignore it for every other type. The
// decomposition functions list primitives as positions within one restart-free run, in the order
// and vertex order transform feedback shows (docs/gl-order.md); backends and the GS input assembler
// share them.
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace drawpipe {

struct PrimShape {
    uint32_t first;
    uint32_t incr;
};

// Indexed by Prim, patches aside: a table, not a switch, since the front end asks it a few
// times per draw and a switch compiled to an indirect jump.
inline constexpr PrimShape kPrimShapes[kPrimCount - 1] = {
    {1, 1}, // points
    {2, 2}, // lines
    {2, 1}, // line_loop
    {2, 1}, // line_strip
    {3, 3}, // triangles
    {3, 1}, // triangle_strip
    {3, 1}, // triangle_fan
    {4, 4}, // quads
    {4, 2}, // quad_strip
    {3, 1}, // polygon
    {4, 4}, // lines_adjacency
    {4, 1}, // line_strip_adjacency
    {6, 6}, // triangles_adjacency
    {6, 2}, // triangle_strip_adjacency
};

static_assert(uint32_t(Prim::patches) == kPrimCount - 1,
              "kPrimShapes covers every Prim but patches");

constexpr PrimShape prim_shape(Prim prim, uint32_t patch_vertices = 1) {
    if (prim == Prim::patches) return {patch_vertices, patch_vertices};
    return uint32_t(prim) < uint32_t(Prim::patches) ? kPrimShapes[uint32_t(prim)] : PrimShape{1, 1};
}

constexpr bool is_list(Prim prim) {
    const PrimShape s = prim_shape(prim);
    return s.first == s.incr;
}

// Vertices a segment must rewind when it continues a strip: the overlap at a split.
constexpr uint32_t prim_rollback(Prim prim) {
    const PrimShape s = prim_shape(prim);
    return s.first - s.incr;
}

// n / incr for a primitive's step: the steps of the GL primitives as divisions by constants,
// since one by a run-time value costs about 25 cycles and a small draw's split asks several.
constexpr uint32_t div_by_step(uint32_t n, uint32_t incr) {
    switch (incr) {
    case 1:
        return n;
    case 2:
        return n / 2;
    case 3:
        return n / 3;
    case 4:
        return n / 4;
    case 6:
        return n / 6;
    default:
        return n / incr; // patches
    }
}

// Largest count <= n made of whole primitives (0 when not even one fits).
constexpr uint32_t trim_count(Prim prim, uint32_t n, uint32_t patch_vertices = 1) {
    const PrimShape s = prim_shape(prim, patch_vertices);
    if (n < s.first) return 0;
    const uint32_t after = n - s.first; // positions past the first primitive
    return n - (after - div_by_step(after, s.incr) * s.incr);
}

// GL primitives (before decomposition into points/lines/triangles) in a run of n vertices.
constexpr uint32_t gl_prim_count(Prim prim, uint32_t n, uint32_t patch_vertices = 1) {
    const PrimShape s = prim_shape(prim, patch_vertices);
    if (n < s.first) return 0;
    const uint32_t count = div_by_step(n - s.first, s.incr) + 1;
    return prim == Prim::line_loop ? count + 1 : count; // the closing line
}

// Smallest middle-end limit that still lets a split make progress: two whole primitives
// (one for lists), so strips keep an even triangle count and fans keep their centre.
constexpr uint32_t min_segment_vertices(Prim prim, uint32_t patch_vertices = 1) {
    const PrimShape s = prim_shape(prim, patch_vertices);
    return is_list(prim) ? s.first : s.first + s.incr;
}

// Triangle strips flip winding on odd triangles, so split pieces keep even triangle counts.
constexpr bool has_strip_parity(Prim prim) {
    return prim == Prim::triangle_strip || prim == Prim::triangle_strip_adjacency;
}

// Fans and polygons repeat vertex 0 (the centre) at the head of every later segment.
constexpr bool has_centre(Prim prim) {
    return prim == Prim::triangle_fan || prim == Prim::polygon;
}

// The primitive a geometry shader of input type `gs_input` receives from a draw of `prim`,
// or nullopt when GL rejects the combination. gs_input is points, lines, lines_adjacency,
// triangles or triangles_adjacency.
std::optional<Prim> gs_input_compatible(Prim prim, Prim gs_input);

// Calls emit(n, pos) for each decomposed point (n = 1), line (2) or triangle (3) of a run of
// `count` vertices, pos[] holding positions within the run, in GL order. A line loop closes.
template <class Emit>
void for_each_decomposed(Prim prim, Provoking pv, uint32_t count, Emit&& emit) {
    const bool last = pv == Provoking::last;
    uint32_t v[3];
    auto line = [&](uint32_t a, uint32_t b) { v[0] = a, v[1] = b, emit(2u, v); };
    auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
        v[0] = a, v[1] = b, v[2] = c, emit(3u, v);
    };
    const uint32_t n = trim_count(prim, count);
    switch (prim) {
    case Prim::points:
        for (uint32_t i = 0; i < n; ++i) v[0] = i, emit(1u, v);
        break;
    case Prim::lines:
        for (uint32_t i = 0; i + 1 < n; i += 2) line(i, i + 1);
        break;
    case Prim::line_strip:
    case Prim::line_loop:
        for (uint32_t i = 0; i + 1 < n; ++i) line(i, i + 1);
        if (prim == Prim::line_loop && n >= 2) line(n - 1, 0);
        break;
    case Prim::triangles:
        for (uint32_t i = 0; i + 2 < n; i += 3) tri(i, i + 1, i + 2);
        break;
    case Prim::triangle_strip:
        for (uint32_t i = 0; i + 2 < n; ++i) {
            if ((i & 1) == 0)
                tri(i, i + 1, i + 2);
            else if (last)
                tri(i + 1, i, i + 2);
            else
                tri(i, i + 2, i + 1);
        }
        break;
    case Prim::triangle_fan:
        for (uint32_t i = 0; i + 2 < n; ++i) {
            if (last)
                tri(0, i + 1, i + 2);
            else
                tri(i + 1, i + 2, 0);
        }
        break;
    case Prim::polygon:
        for (uint32_t i = 0; i + 2 < n; ++i) {
            if (last)
                tri(i + 1, i + 2, 0);
            else
                tri(0, i + 1, i + 2);
        }
        break;
    case Prim::quads:
        for (uint32_t q = 0; q + 3 < n; q += 4) {
            if (last)
                tri(q, q + 1, q + 3), tri(q + 1, q + 2, q + 3);
            else
                tri(q, q + 1, q + 2), tri(q, q + 2, q + 3);
        }
        break;
    case Prim::quad_strip:
        for (uint32_t a = 0; a + 3 < n; a += 2) {
            const uint32_t b = a + 1, c = a + 2, d = a + 3;
            if (last)
                tri(c, a, d), tri(a, b, d);
            else
                tri(a, d, c), tri(a, b, d);
        }
        break;
    case Prim::lines_adjacency:
        for (uint32_t i = 0; i + 3 < n; i += 4) line(i + 1, i + 2);
        break;
    case Prim::line_strip_adjacency:
        for (uint32_t i = 0; i + 3 < n; ++i) line(i + 1, i + 2);
        break;
    case Prim::triangles_adjacency:
        for (uint32_t i = 0; i + 5 < n; i += 6) tri(i, i + 2, i + 4);
        break;
    case Prim::patches:
        break; // drawn only through tessellation: nothing to decompose
    case Prim::triangle_strip_adjacency:
        for (uint32_t i = 0; 2 * i + 5 < n; ++i) {
            const uint32_t a = 2 * i, b = a + 2, c = a + 4;
            if ((i & 1) == 0)
                tri(a, b, c);
            else if (last)
                tri(b, a, c);
            else
                tri(a, c, b);
        }
        break;
    }
}

// Which of two orders a quad strip's quads are drawn in. Both split each quad a, b, c, d
// along its a-d diagonal with d provoking; they differ in which triangle comes first, which
// shows where a non-convex quad's two triangles overlap. Mesa's draw pipeline (a run that
// needs clipping or a pipeline stage) draws (c, a, d) then (a, b, d), provoking first
// (d, c, a) then (d, a, b); llvmpipe's own path for runs handed to it whole (lp_setup_vbuf.c)
// draws (a, b, d) then (c, a, d), provoking first (d, a, b) then (d, c, a).
enum class QuadStripOrder : uint8_t { pipeline, driver };

// The decomposition rasterization uses (Mesa's draw pipeline, which llvmpipe's pictures
// follow): as for_each_decomposed, except that quads and quad strips keep their last vertex
// as the provoking one under both conventions (GL's QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION
// false), so under Provoking::first each quad is split along its 1-3 (quad strip: 0-3)
// diagonal with that vertex first, and that quad strips follow `order`. Polygons already take
// vertex 0 under both.
template <class Emit>
void for_each_rasterized(Prim prim, Provoking pv, uint32_t count, Emit&& emit,
                         QuadStripOrder order = QuadStripOrder::pipeline) {
    const bool driver_strip = prim == Prim::quad_strip && order == QuadStripOrder::driver;
    if (!driver_strip &&
        (pv == Provoking::last || (prim != Prim::quads && prim != Prim::quad_strip)))
        return for_each_decomposed(prim, pv, count, emit);
    uint32_t v[3];
    auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
        v[0] = a, v[1] = b, v[2] = c, emit(3u, v);
    };
    const uint32_t n = trim_count(prim, count);
    if (prim == Prim::quads) {
        for (uint32_t q = 0; q + 3 < n; q += 4) tri(q + 3, q, q + 1), tri(q + 3, q + 1, q + 2);
        return;
    }
    for (uint32_t a = 0; a + 3 < n; a += 2) {
        const uint32_t b = a + 1, c = a + 2, d = a + 3;
        if (!driver_strip)
            tri(d, c, a), tri(d, a, b);
        else if (pv == Provoking::last)
            tri(a, b, d), tri(c, a, d);
        else
            tri(d, a, b), tri(d, c, a);
    }
}

// Positions (within a run of `count` vertices of `prim`) of input primitive k as a geometry
// shader receives it, adjacency included, in GL order; returns how many (1, 2, 3, 4 or 6).
// k < gl_prim_count(prim, count); the caller has checked gs_input_compatible.
inline uint32_t gs_input_prim(Prim prim, Provoking pv, uint32_t count, uint32_t k, uint32_t* v) {
    const bool last = pv == Provoking::last;
    auto set = [&](std::initializer_list<uint32_t> list) {
        uint32_t i = 0;
        for (uint32_t x : list) v[i++] = x;
        return i;
    };
    switch (prim) {
    case Prim::points:
        return set({k});
    case Prim::lines:
        return set({2 * k, 2 * k + 1});
    case Prim::line_strip:
        return set({k, k + 1});
    case Prim::line_loop: {
        const uint32_t n = trim_count(prim, count);
        return k + 1 < n ? set({k, k + 1}) : set({n - 1, 0});
    }
    case Prim::triangles:
        return set({3 * k, 3 * k + 1, 3 * k + 2});
    case Prim::triangle_strip:
        if ((k & 1) == 0) return set({k, k + 1, k + 2});
        return last ? set({k + 1, k, k + 2}) : set({k, k + 2, k + 1});
    case Prim::triangle_fan:
        return last ? set({0, k + 1, k + 2}) : set({k + 1, k + 2, 0});
    case Prim::polygon:
        return last ? set({k + 1, k + 2, 0}) : set({0, k + 1, k + 2});
    case Prim::lines_adjacency:
        return set({4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3});
    case Prim::line_strip_adjacency:
        return set({k, k + 1, k + 2, k + 3});
    case Prim::triangles_adjacency:
        return set({6 * k, 6 * k + 1, 6 * k + 2, 6 * k + 3, 6 * k + 4, 6 * k + 5});
    case Prim::triangle_strip_adjacency: {
        // Main vertices 2k, 2k+2, 2k+4; adjacency 2k-2 (1 for the first triangle), 2k+6
        // (2k+5 for the last) and 2k+3, rotating with the main vertices.
        const uint32_t tris = gl_prim_count(prim, count);
        const uint32_t a = 2 * k, b = a + 2, c = a + 4, mid = a + 3;
        const uint32_t prev = k == 0 ? 1 : a - 2;
        const uint32_t next = k + 1 == tris ? a + 5 : a + 6;
        if ((k & 1) == 0) return set({a, prev, b, next, c, mid});
        return last ? set({b, prev, a, mid, c, next}) : set({a, mid, c, next, b, prev});
    }
    case Prim::quads:
    case Prim::quad_strip:
    case Prim::patches:
        break; // no geometry-shader input type takes these
    }
    return 0;
}

// Calls emit(n, pos) for each geometry-shader input primitive of a run, in order.
template <class Emit> void for_each_gs_input(Prim prim, Provoking pv, uint32_t count, Emit&& emit) {
    uint32_t v[6];
    const uint32_t prims = gl_prim_count(prim, count);
    for (uint32_t k = 0; k < prims; ++k) emit(gs_input_prim(prim, pv, count, k, v), v);
}

} // namespace drawpipe
