#include "draw/internal/stages.hpp"

namespace drawpipe {

void CullStage::triangle(const StagePrim& prim) {
    auto x = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION]); };
    auto y = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION + 1]); };
    // Twice the signed window-space area, as Mesa's cull stage computes it (edges from v2);
    // y points up, so counter-clockwise is positive.
    const float det = (x(0) - x(2)) * (y(1) - y(2)) - (y(0) - y(2)) * (x(1) - x(2));
    if (det != det) return; // NaN: nothing to draw, and no facing to test
    const CullFace cull = plan_.state.cull;
    if (cull == CullFace::front_and_back) return;
    // A triangle without area is culled as a back face whatever the winding, as llvmpipe
    // (Mesa 22.3) does: it draws nothing filled, but its edges and vertices in polygon mode
    // line and point (UnfilledStage then takes it as counter-clockwise).
    const bool front = det != 0 && (plan_.state.front_face == FrontFace::ccw ? det > 0 : det < 0);
    if ((cull == CullFace::front && front) || (cull == CullFace::back && !front)) return;
    next()->triangle(prim);
}

} // namespace drawpipe
