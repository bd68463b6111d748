// Two-sided colour: back faces take the back colour outputs (GL_VERTEX_PROGRAM_TWO_SIDE).
#include "draw/stages/stages.hpp"

namespace drawpipe {

TwoSideStage::TwoSideStage(const RasterPlan& plan) : plan_(plan) {
    const VertexLayout& l = plan.layout;
    for (const ColorPair& c : plan.state.two_side_colors)
        if (c.front >= 0)
            for (uint32_t d = 0; d < 4; ++d)
                copies_.emplace_back(l.varying_slot(uint32_t(c.front)) + d,
                                     l.varying_slot(uint32_t(c.back)) + d);
}

void TwoSideStage::triangle(const StagePrim& prim) {
    // A triangle without area (or a facing) keeps the front colours, as Mesa's two-side stage
    // keeps them for every triangle its determinant does not make a back face.
    if (!(facing_det(plan_.state, prim) < 0)) return next()->triangle(prim);
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    StagePrim out = prim;
    for (uint32_t i = 0; i < 3; ++i) {
        uint32_t* copy = new_vertex(prim.v[i]);
        for (const auto& [front, back] : copies_) copy[front] = prim.v[i][back];
        out.v[i] = copy;
    }
    next()->triangle(out);
}

} // namespace drawpipe
