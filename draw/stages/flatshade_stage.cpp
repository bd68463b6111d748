#include "draw/stages/stages.hpp"

#include <algorithm>

namespace drawpipe {

FlatshadeStage::FlatshadeStage(const RasterPlan& plan) {
    const VertexLayout& l = plan.layout;
    for (uint32_t i = 0; i < l.varying_count(); ++i)
        if (plan.state.flatshade || l.varying(i).interp == Interp::flat) // flat either way
            for (uint32_t c = 0; c < 4; ++c) flat_dwords_.push_back(l.varying_slot(i) + c);
}

void FlatshadeStage::flatten(const StagePrim& prim, uint32_t n) {
    const VertexScope scope(*this); // this primitive's new vertices, once handed on
    const bool last = draw_.draw->provoking == Provoking::last;
    const uint32_t* provoking = prim.v[last ? n - 1 : 0];
    StagePrim out = prim;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t* v = prim.v[i];
        if (v == provoking || std::all_of(flat_dwords_.begin(), flat_dwords_.end(),
                                          [&](uint32_t d) { return v[d] == provoking[d]; }))
            continue;
        uint32_t* copy = new_vertex(v);
        for (uint32_t d : flat_dwords_) copy[d] = provoking[d];
        out.v[i] = copy;
    }
    if (n == 2)
        next()->line(out);
    else
        next()->triangle(out);
}

} // namespace drawpipe
