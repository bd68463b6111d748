// Primitive assembly for middle-end and stage authors: which primitives a geometry shader
// receives from a run (gs_input_prim, for_each_gs_input) and the order the stages rasterize a
// run in (for_each_rasterized, QuadStripOrder). Positions are within one restart-free run, as
// in drawpipe/prim.hpp; a backend needs none of this (drawpipe/decompose.hpp).
#pragma once

#include "drawpipe/decompose.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/types.hpp"

#include <cstdint>
#include <initializer_list>

namespace drawpipe {

// Which of two orders a quad strip's quads are drawn in. Both split each quad a, b, c, d
// along its a-d diagonal with d provoking; they differ in which triangle comes first, which
// shows where a non-convex quad's two triangles overlap. Mesa's draw pipeline (a run that
// needs clipping or a pipeline stage) draws (c, a, d) then (a, b, d), provoking first
// (d, c, a) then (d, a, b); llvmpipe's own path for runs handed to it whole (lp_setup_vbuf.c)
// draws (a, b, d) then (c, a, d), provoking first (d, a, b) then (d, c, a).
enum class QuadStripOrder : uint8_t { pipeline, driver };

// The decomposition the stages rasterize a run in (Mesa's draw pipeline, which llvmpipe's
// pictures follow): for_each_rasterized_whole (drawpipe/decompose.hpp), except that a quad
// strip follows `order`: the pipeline's draws quad a, b, c, d as for_each_decomposed does,
// (c, a, d) then (a, b, d), and under Provoking::first (d, c, a) then (d, a, b).
template <class Emit>
void for_each_rasterized(Prim prim, Provoking pv, uint32_t count, Emit&& emit,
                         QuadStripOrder order = QuadStripOrder::pipeline) {
    if (prim != Prim::quad_strip || order == QuadStripOrder::driver)
        return for_each_rasterized_whole(prim, pv, count, emit);
    if (pv == Provoking::last) return for_each_decomposed(prim, pv, count, emit);
    uint32_t v[3];
    auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
        v[0] = a, v[1] = b, v[2] = c, emit(3u, v);
    };
    const uint32_t n = trim_count(prim, count);
    for (uint32_t a = 0; a + 3 < n; a += 2) {
        const uint32_t b = a + 1, c = a + 2, d = a + 3;
        tri(d, c, a), tri(d, a, b);
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
