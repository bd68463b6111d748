#include "draw/internal/stages.hpp"

#include <span>

namespace drawpipe {

void EmitStage::add(Prim prim, const StagePrim& p, uint32_t n) {
    if (runs_.empty() || runs_.back().prim != prim)
        runs_.push_back({prim, uint32_t(elts_.size()), 0});
    const uint32_t stride = draw_.layout->stride();
    const uint32_t* base = batch_->vertices.data();
    const uint32_t* end = base + size_t(batch_->vertex_count) * stride;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t* v = p.v[i];
        if (v >= base && v < end) {
            elts_.push_back(uint32_t(size_t(v - base) / stride));
        } else { // a vertex a stage made: copied after the batch's
            elts_.push_back(batch_->vertex_count + uint32_t(extra_.size() / stride));
            extra_.insert(extra_.end(), v, v + stride);
        }
    }
    runs_.back().count += n;
}

void EmitStage::flush() {
    if (!runs_.empty()) {
        const uint32_t stride = draw_.layout->stride();
        VertexView view{batch_->vertices.data(), batch_->vertex_count, stride};
        if (!extra_.empty()) {
            joined_.assign(batch_->vertices.data(),
                           batch_->vertices.data() + size_t(batch_->vertex_count) * stride);
            joined_.insert(joined_.end(), extra_.begin(), extra_.end());
            view = {joined_.data(), uint32_t(joined_.size() / stride), stride};
        }
        for (const Run& r : runs_)
            backend_.draw_elements(r.prim, 0, view,
                                   std::span<const uint32_t>(elts_.data() + r.first, r.count));
    }
    runs_.clear();
    elts_.clear();
    extra_.clear();
    Stage::flush();
}

} // namespace drawpipe
