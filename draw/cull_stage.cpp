#include "draw/internal/stages.hpp"

namespace drawpipe {

void CullStage::triangle(const StagePrim& prim) {
    auto x = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION]); };
    auto y = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION + 1]); };
    // Twice the signed window-space area; y points up, so counter-clockwise is positive.
    const float det = (x(1) - x(0)) * (y(2) - y(0)) - (x(2) - x(0)) * (y(1) - y(0));
    if (!(det != 0)) return; // no area (or NaN): nothing to draw, and no facing to test
    const bool front = plan_.state.front_face == FrontFace::ccw ? det > 0 : det < 0;
    const CullFace cull = plan_.state.cull;
    if (cull == CullFace::front_and_back || (cull == CullFace::front && front) ||
        (cull == CullFace::back && !front))
        return;
    next()->triangle(prim);
}

} // namespace drawpipe
