// Points larger than one pixel become a square of two triangles, size x size pixels around
// the point in window space. llvmpipe keeps the pixel centres on a wide point's right and top
// edges and drops those on its left and bottom, the opposite of its triangle rule, so the
// square is moved up (down under clip control's upper_left, where llvmpipe flips its rule)
// and right by one subpixel step (1/256 pixel) for the triangle rule to
// pick the same centres. With point sprites llvmpipe draws every point, one pixel too, as
// that square unmoved, under the triangle rule (Gallium's point_quad_rasterization, which
// Mesa sets for sprites), and its corners carry GL's point coordinates.
#include "draw/stages/stages.hpp"

#include <algorithm>

namespace drawpipe {

void WidePointStage::point(const StagePrim& prim) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    const VertexLayout& l = plan_.layout;
    const RasterState& s = plan_.state;
    // A shader's size is clamped as the state's is (NaN stays NaN).
    float size = l.outputs.point_size
                     ? std::min(dword_float(prim.v[0][l.point_size_slot()]), kMaxPointSize)
                     : s.point_size;
    const bool sprite = s.sprite_coord_varying >= 0;
    if (sprite && size < 1.0f) size = 1.0f;
    if (!(size > 1.0f) && !(sprite && size == 1.0f))
        return next()->point(prim); // one pixel (NaN too): the point rule
    constexpr float kSubpixel = 1.0f / 256;
    const float half = size / 2;
    const float px = dword_float(prim.v[0][SLOT_POSITION]);
    const float py = dword_float(prim.v[0][SLOT_POSITION + 1]);
    // Under clip control's upper_left llvmpipe flips its vertical tie rule (top edges own
    // centres, RasterOptions::top_edge_rule), and its points keep the bottom edge's instead:
    // the square moves down.
    const float up = s.clip_origin == ClipOrigin::upper_left ? -kSubpixel : kSubpixel;
    const float x = sprite ? px : px + kSubpixel, y = sprite ? py : py + up;
    const float corner[4][2] = {
        {x - half, y - half}, {x + half, y - half}, {x + half, y + half}, {x - half, y + half}};
    const uint32_t* v[4];
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t* r = new_vertex(prim.v[0]);
        r[SLOT_POSITION] = float_dword(corner[i][0]);
        r[SLOT_POSITION + 1] = float_dword(corner[i][1]);
        if (sprite) {
            // GL's s = 1/2 + (x - x_point) / size at each corner, so that interpolation gives
            // every pixel centre GL's value; t runs down from the top.
            const float sc = 0.5f + (corner[i][0] - px) / size;
            const float up = 0.5f + (corner[i][1] - py) / size;
            uint32_t* out = r + l.varying_slot(uint32_t(s.sprite_coord_varying));
            out[0] = float_dword(sc);
            out[1] = float_dword(s.sprite_origin_lower_left ? up : 1.0f - up);
            out[2] = float_dword(0.0f);
            out[3] = float_dword(1.0f);
        }
        v[i] = r;
    }
    StagePrim t;
    t.v[0] = v[0], t.v[1] = v[1], t.v[2] = v[2];
    next()->triangle(t);
    t.v[1] = v[2], t.v[2] = v[3];
    next()->triangle(t);
}

} // namespace drawpipe
