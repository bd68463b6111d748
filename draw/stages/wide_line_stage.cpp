// Lines wider than one pixel, as llvmpipe draws non-antialiased wide lines: the thin line's
// pixels along the major axis, repeated `width` pixels across the minor axis, without caps
// or joins. Each repeat is the thin line moved by a whole number of pixels across.
#include "draw/stages/stages.hpp"

#include <cmath>

namespace drawpipe {

void WideLineStage::line(const StagePrim& prim) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    const float width = std::round(plan_.state.line_width);
    if (!(width > 1.0f)) return next()->line(prim);
    auto pos = [&](uint32_t i, uint32_t c) { return dword_float(prim.v[i][SLOT_POSITION + c]); };
    const bool xmajor = std::fabs(pos(1, 0) - pos(0, 0)) >= std::fabs(pos(1, 1) - pos(0, 1));
    const uint32_t minor = xmajor ? 1 : 0;
    const int n = int(width);
    for (int k = 0; k < n; ++k) {
        const float shift = float(k) - float(n - 1) / 2;
        StagePrim out = prim;
        for (uint32_t i = 0; i < 2; ++i) {
            uint32_t* r = new_vertex(prim.v[i]);
            r[SLOT_POSITION + minor] = float_dword(pos(i, minor) + shift);
            out.v[i] = r;
        }
        next()->line(out);
    }
}

} // namespace drawpipe
