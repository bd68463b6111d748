// Primitive shapes and the order OpenGL gives decomposed primitives.
//
// `first`/`incr`: a primitive type needs `first` vertices for its first primitive and `incr`
// more for each further one. A patch is a list of `patch_vertices` vertices (the draw's
// DrawInfo::patch_vertices); the functions taking it ignore it for every other type. The
// decomposition functions list primitives as positions within one restart-free run, in the order
// and vertex order transform feedback shows (docs/gl-order.md); backends (drawpipe/decompose.hpp)
// and the draw module share them. How the stages and a geometry shader see a run is an
// author's matter: drawpipe/extend/prim_assembly.hpp.
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>
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

// Vertices of each point, line or triangle `prim` decomposes into (GL's transform-feedback
// primitive for it: a quad or a polygon decomposes into triangles, adjacency drops its extra
// vertices).
constexpr uint32_t decomposed_vertices(Prim prim) {
    switch (prim) {
    case Prim::points:
        return 1;
    case Prim::lines:
    case Prim::line_loop:
    case Prim::line_strip:
    case Prim::lines_adjacency:
    case Prim::line_strip_adjacency:
        return 2;
    default:
        return 3;
    }
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

} // namespace drawpipe
