// Polygon mode line and point (glPolygonMode), separately for front and back faces: a
// triangle becomes its flagged edges as lines (v2-v0, v0-v1, v1-v2, as Mesa's draw pipeline
// orders them) or the vertices its flagged edges start from as points.
#include "draw/internal/stages.hpp"

namespace drawpipe {

void UnfilledStage::triangle(const StagePrim& prim) {
    auto x = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION]); };
    auto y = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION + 1]); };
    const float det = (x(1) - x(0)) * (y(2) - y(0)) - (x(2) - x(0)) * (y(1) - y(0));
    const bool ccw = det >= 0; // y up
    const bool front = (plan_.state.front_face == FrontFace::ccw) == ccw;
    const PolygonMode mode = front ? plan_.state.front_mode : plan_.state.back_mode;
    if (mode == PolygonMode::fill) return next()->triangle(prim);
    StagePrim out;
    if (mode == PolygonMode::line) {
        for (const uint32_t e : {2u, 0u, 1u})
            if (prim.flags & (PRIM_EDGE_0 << e)) {
                out.v[0] = prim.v[e];
                out.v[1] = prim.v[(e + 1) % 3];
                out.flags = 0;
                next()->line(out);
            }
        return;
    }
    for (uint32_t e = 0; e < 3; ++e)
        if (prim.flags & (PRIM_EDGE_0 << e)) {
            out.v[0] = prim.v[e];
            next()->point(out);
        }
}

} // namespace drawpipe
