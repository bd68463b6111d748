// Polygon mode line and point (glPolygonMode), separately for front and back faces: a
// triangle becomes its flagged edges as lines (v2-v0, v0-v1, v1-v2, as Mesa's draw pipeline
// orders them) or the vertices its flagged edges start from as points. With a front-face
// varying, those points and lines carry the triangle's facing in it (Mesa's
// inject_front_face_info), on copies of its vertices: another triangle may share them.
#include "draw/stages/stages.hpp"

namespace drawpipe {

void UnfilledStage::triangle(const StagePrim& prim) {
    auto x = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION]); };
    auto y = [&](uint32_t i) { return dword_float(prim.v[i][SLOT_POSITION + 1]); };
    const float det = window_det(x(0), y(0), x(1), y(1), x(2), y(2));
    const bool front = front_by_winding(plan_.state, det);
    // With a face culled, both faces take the other one's mode, as Mesa's GL state tracker
    // sets them: only a triangle without area can still arrive as the culled face.
    const CullFace cull = plan_.state.cull;
    PolygonMode front_mode = plan_.state.front_mode, back_mode = plan_.state.back_mode;
    if (cull == CullFace::front) front_mode = back_mode;
    if (cull == CullFace::back) back_mode = front_mode;
    const PolygonMode mode = front ? front_mode : back_mode;
    if (mode == PolygonMode::fill) return next()->triangle(prim);
    const VertexScope scope(*this); // the copies below, once handed on
    StagePrim faced = prim;
    if (plan_.state.front_face_varying >= 0) {
        // 1 front, 0 back; a triangle without area faces neither, so 0 (Mesa's rule for the
        // value, though its mode is chosen as the winding's).
        const uint32_t face = float_dword(front && det != 0 ? 1.0f : 0.0f);
        const uint32_t slot = plan_.layout.varying_slot(uint32_t(plan_.state.front_face_varying));
        for (uint32_t i = 0; i < 3; ++i) {
            uint32_t* r = new_vertex(prim.v[i]);
            for (uint32_t c = 0; c < 4; ++c) r[slot + c] = face;
            faced.v[i] = r;
        }
    }
    StagePrim out;
    if (mode == PolygonMode::line) {
        if (prim.flags & PRIM_RESET_STIPPLE) next()->reset_stipple();
        for (const uint32_t e : {2u, 0u, 1u})
            if (prim.flags & (PRIM_EDGE_0 << e)) {
                out.v[0] = faced.v[e];
                out.v[1] = faced.v[(e + 1) % 3];
                out.flags = 0;
                next()->line(out);
            }
        return;
    }
    for (uint32_t e = 0; e < 3; ++e)
        if (prim.flags & (PRIM_EDGE_0 << e)) {
            out.v[0] = faced.v[e];
            next()->point(out);
        }
}

} // namespace drawpipe
