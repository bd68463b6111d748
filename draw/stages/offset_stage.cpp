// Polygon offset (glPolygonOffset): each triangle whose polygon mode has offset enabled
// (fill, line or point, by its facing) moves every vertex's window depth by
// factor * max(|dz/dx|, |dz/dy|) + units * r, r the depth buffer's resolvable difference
// (RasterState::offset_units_r, or for a float buffer 2^(e - 23) at the triangle's largest
// depth), capped or floored by offset_clamp. It runs before unfilled, so the edges and points
// of an offset polygon move with it. The arithmetic is Mesa's draw module's
// (draw_pipe_offset.c: slopes through the determinant's reciprocal, r from the exponent bits),
// so that a driver handing its offset here gets llvmpipe's depths bit for bit.
#include "draw/stages/stages.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

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
    // A triangle without area has no depth slope. Where Mesa's draw module applies the offset
    // (offset_saturates) it divides by the zero determinant all the same, and its saturation
    // sends the infinite or NaN depths that gives to 1 or 0: followed, as llvmpipe draws it.
    // Elsewhere such a triangle draws nothing and keeps its depths.
    if (!on || (!(det != 0) && !plan_.offset_saturates)) return next()->triangle(prim);
    const float inv_det = 1.0f / det;
    const float dzdx = std::fabs((ey * fz - ez * fy) * inv_det);
    const float dzdy = std::fabs((ez * fx - ex * fz) * inv_det);
    float r = s.offset_units_r;
    if (r == 0) {
        // 2^(e - 23): the largest depth's exponent bits lowered by 23, none left below 2^-103.
        const float zmax = std::max({std::fabs(p(0, 2)), std::fabs(p(1, 2)), std::fabs(p(2, 2))});
        const int32_t bits = int32_t(std::bit_cast<uint32_t>(zmax) & (0xFFu << 23)) - (23 << 23);
        r = std::bit_cast<float>(std::max(bits, 0));
    }
    // The comparisons as Mesa writes them, so that a NaN slope or offset goes the same way.
    float offset = s.offset_units * r + s.offset_factor * (dzdx > dzdy ? dzdx : dzdy);
    if (s.offset_clamp < 0) offset = offset > s.offset_clamp ? offset : s.offset_clamp;
    if (s.offset_clamp > 0) offset = offset < s.offset_clamp ? offset : s.offset_clamp;
    StagePrim out = prim;
    for (uint32_t i = 0; i < 3; ++i) {
        uint32_t* v = new_vertex(prim.v[i]);
        const float z = p(i, 2) + offset;
        // Mesa's SATURATE: NaN goes to 0.
        v[SLOT_POSITION + 2] =
            float_dword(plan_.offset_saturates ? (z > 0 ? (z > 1 ? 1.0f : z) : 0.0f) : z);
        out.v[i] = v;
    }
    next()->triangle(out);
}

} // namespace drawpipe
