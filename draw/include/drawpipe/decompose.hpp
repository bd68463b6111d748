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

// The same in the order rasterization uses (for_each_rasterized): for backends that draw.
// The draw module hands a backend a quad strip whole only where Mesa's draw module would hand
// it to llvmpipe whole, so the default is llvmpipe's own order for those.
template <class Emit>
void decompose_for_raster(Prim prim, Provoking pv, std::span<const uint32_t> elts, Emit&& emit,
                          QuadStripOrder order = QuadStripOrder::driver) {
    uint32_t mapped[3];
    for_each_rasterized(
        prim, pv, uint32_t(elts.size()),
        [&](uint32_t n, const uint32_t* pos) {
            for (uint32_t i = 0; i < n; ++i) mapped[i] = elts[pos[i]];
            emit(n, static_cast<const uint32_t*>(mapped));
        },
        order);
}

} // namespace drawpipe
