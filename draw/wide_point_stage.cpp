// Points larger than one pixel become a square of two triangles, size x size pixels around
// the point in window space. llvmpipe keeps the pixel centres on a wide point's right and top
// edges and drops those on its left and bottom, the opposite of its triangle rule, so the
// square is moved up and right by one subpixel step (1/256 pixel) for the triangle rule to
// pick the same centres.
#include "draw/internal/stages.hpp"

#include <algorithm>

namespace drawpipe {

void WidePointStage::point(const StagePrim& prim) {
    const VertexLayout& l = plan_.layout;
    // A shader's size is clamped as the state's is (NaN stays NaN).
    const float size = l.outputs.point_size
                           ? std::min(dword_float(prim.v[0][l.point_size_slot()]), kMaxPointSize)
                           : plan_.state.point_size;
    if (!(size > 1.0f)) return next()->point(prim); // one pixel (NaN too): the point rule
    constexpr float kSubpixel = 1.0f / 256;
    const float half = size / 2;
    const float x = dword_float(prim.v[0][SLOT_POSITION]) + kSubpixel;
    const float y = dword_float(prim.v[0][SLOT_POSITION + 1]) + kSubpixel;
    const float corner[4][2] = {
        {x - half, y - half}, {x + half, y - half}, {x + half, y + half}, {x - half, y + half}};
    const uint32_t* v[4];
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t* r = new_vertex(prim.v[0]);
        r[SLOT_POSITION] = float_dword(corner[i][0]);
        r[SLOT_POSITION + 1] = float_dword(corner[i][1]);
        v[i] = r;
    }
    StagePrim t;
    t.v[0] = v[0], t.v[1] = v[1], t.v[2] = v[2];
    next()->triangle(t);
    t.v[1] = v[2], t.v[2] = v[3];
    next()->triangle(t);
}

} // namespace drawpipe
