#include "draw/stages/stages.hpp"

#include <span>

namespace drawpipe {

void EmitStage::add(Prim prim, const StagePrim& p, uint32_t n) {
    if (lists_.empty() || lists_.back().prim != prim)
        lists_.push_back({prim, uint32_t(out_->size()), 0});
    const uint32_t stride = draw_.layout->stride();
    const uint32_t* base = batch_->shaded.vertices.data();
    const uint32_t* end = base + size_t(batch_->shaded.vertex_count) * stride;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t* v = p.v[i];
        if (v >= base && v < end) {
            out_->push_back(uint32_t(size_t(v - base) / stride));
        } else { // a vertex a stage made: copied after the batch's
            out_->push_back(batch_->shaded.vertex_count + uint32_t(extra_.size() / stride));
            extra_.insert(extra_.end(), v, v + stride);
        }
    }
    lists_.back().count += n;
    // Mid-batch, the batch's records are still being read, so the delivery joins a copy.
    if (calls_ && extra_.size() >= size_t(kMaxHeldRecords) * stride) {
        joined_.assign(base, end);
        joined_.insert(joined_.end(), extra_.begin(), extra_.end());
        deliver({joined_.data(), uint32_t(joined_.size() / stride), stride});
    }
}

void EmitStage::deliver(const VertexView& view) {
    for (const List& r : lists_)
        if (r.count > 0) // the cull loop may have kept nothing of its list
            (*calls_)(r.prim, 0, view, std::span<const uint32_t>(elts_.data() + r.first, r.count));
    lists_.clear();
    elts_.clear();
    extra_.clear();
}

void EmitStage::flush() {
    if (!lists_.empty()) {
        // The batch is done with: new records go straight after its own (no copy of the
        // batch), where a later flush of the same batch writes its own over them.
        const uint32_t stride = draw_.layout->stride();
        const uint32_t count = batch_->shaded.vertex_count + uint32_t(extra_.size() / stride);
        batch_->shaded.vertices.resize(size_t(batch_->shaded.vertex_count) * stride);
        batch_->shaded.vertices.insert(batch_->shaded.vertices.end(), extra_.begin(), extra_.end());
        if (calls_) {
            deliver({batch_->shaded.vertices.data(), count, stride});
        } else {
            batch_->staged = true;
            batch_->staged_vertex_count = count;
            for (const List& r : lists_)
                if (r.count > 0) batch_->staged_ranges.push_back({r.prim, r.first, r.count});
            lists_.clear();
            extra_.clear();
        }
    }
    Stage::flush();
}

} // namespace drawpipe
