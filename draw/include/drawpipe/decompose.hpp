// Decomposes an element list of any primitive type into points, lines and triangles in
// GL order (<drawpipe/prim.hpp>), handing the backend's vertex indices to `emit(n, v)`.
#pragma once

#include "drawpipe/prim.hpp"

#include <span>

namespace drawpipe {

template <class Emit>
void decompose_elements(Prim prim, Provoking pv, std::span<const uint32_t> elts, Emit&& emit) {
    uint32_t mapped[3];
    for_each_decomposed(prim, pv, uint32_t(elts.size()), [&](uint32_t n, const uint32_t* pos) {
        for (uint32_t i = 0; i < n; ++i) mapped[i] = elts[pos[i]];
        emit(n, static_cast<const uint32_t*>(mapped));
    });
}

// The decomposition a rasterizer handed a run whole uses (llvmpipe's own path for such runs,
// lp_setup_vbuf.c, which its pictures follow): as for_each_decomposed, except that quads and
// quad strips keep their last vertex as the provoking one under both conventions (GL's
// QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION false), so under Provoking::first each quad is
// split along its 1-3 diagonal with that vertex first; a quad strip's quad a, b, c, d is
// split along a-d with d provoking, (a, b, d) then (c, a, d), provoking first (d, a, b) then
// (d, c, a). Polygons already take vertex 0 under both.
template <class Emit>
void for_each_rasterized_whole(Prim prim, Provoking pv, uint32_t count, Emit&& emit) {
    if (prim != Prim::quad_strip && (pv == Provoking::last || prim != Prim::quads))
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
        if (pv == Provoking::last)
            tri(a, b, d), tri(c, a, d);
        else
            tri(d, a, b), tri(d, c, a);
    }
}

// The same in the order rasterization uses (for_each_rasterized_whole): for backends that
// draw. The draw module hands a backend a quad strip whole only where Mesa's draw module
// would hand it to llvmpipe whole, so this is llvmpipe's own order for those.
template <class Emit>
void decompose_for_raster(Prim prim, Provoking pv, std::span<const uint32_t> elts, Emit&& emit) {
    uint32_t mapped[3];
    for_each_rasterized_whole(prim, pv, uint32_t(elts.size()),
                              [&](uint32_t n, const uint32_t* pos) {
                                  for (uint32_t i = 0; i < n; ++i) mapped[i] = elts[pos[i]];
                                  emit(n, static_cast<const uint32_t*>(mapped));
                              });
}

} // namespace drawpipe
