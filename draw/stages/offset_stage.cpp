// Polygon offset (glPolygonOffset): each triangle whose polygon mode has offset enabled
// (fill, line or point, by its facing) moves every vertex's window depth by
// factor * max(|dz/dx|, |dz/dy|) + units * r, where r is the depth buffer's resolvable
// difference at the triangle's largest depth (a float buffer: 2^(e - 23) for e the exponent
// of that depth). It runs before unfilled, so the edges and points of an offset polygon move
// with it.
#include "draw/stages/stages.hpp"

#include <algorithm>
#include <cmath>

namespace drawpipe {

void OffsetStage::triangle(const StagePrim& prim) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    auto p = [&](uint32_t i, uint32_t c) { return dword_float(prim.v[i][SLOT_POSITION + c]); };
    const float ex = p(0, 0) - p(2, 0), ey = p(0, 1) - p(2, 1), ez = p(0, 2) - p(2, 2);
    const float fx = p(1, 0) - p(2, 0), fy = p(1, 1) - p(2, 1), fz = p(1, 2) - p(2, 2);
    const float det = ex * fy - ey * fx; // window_det
    const RasterState& s = plan_.state;
    const bool front = front_by_winding(s, det);
    const PolygonMode mode = front ? s.front_mode : s.back_mode;
    const bool on = mode == PolygonMode::fill   ? s.offset_fill
                    : mode == PolygonMode::line ? s.offset_line
                                                : s.offset_point;
    if (!on || !(det != 0)) return next()->triangle(prim);
    const float dzdx = std::fabs((ez * fy - ey * fz) / det);
    const float dzdy = std::fabs((ex * fz - ez * fx) / det);
    const float zmax = std::max({std::fabs(p(0, 2)), std::fabs(p(1, 2)), std::fabs(p(2, 2))});
    int e = 0;
    std::frexp(zmax, &e); // zmax = m * 2^e, m in [0.5, 1): the exponent of GL's is e - 1
    const float r = zmax > 0 ? std::ldexp(1.0f, e - 1 - 23) : std::ldexp(1.0f, -149);
    const float offset = s.offset_factor * std::max(dzdx, dzdy) + s.offset_units * r;
    StagePrim out = prim;
    for (uint32_t i = 0; i < 3; ++i) {
        uint32_t* v = new_vertex(prim.v[i]);
        const float z = p(i, 2) + offset;
        v[SLOT_POSITION + 2] = float_dword(plan_.offset_saturates ? std::clamp(z, 0.0f, 1.0f) : z);
        out.v[i] = v;
    }
    next()->triangle(out);
}

} // namespace drawpipe
