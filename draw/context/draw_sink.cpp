#include "draw/context/draw_sink.hpp"

#include "draw/context/shade_step.hpp"

namespace drawpipe {

void DrawSink::begin(const PreparedDraw& draw) {
    draw_ = &draw;
    if (out_.rasterizer_discard) return;
    {
        const detail::CallbackScope in("begin_draw");
        backend_.begin_draw(draw.state.draw, draw.middle->layout());
    }
    calls_.begin_draw(draw.state.draw, draw.ordinal);
    chain_open_ = draw.raster && !draw.stages_in_shade;
    if (chain_open_) chain_.begin(draw.state.draw, *draw.raster, out_.stages);
    held_.clear();
    run_in_pipeline_ = false;
}

void DrawSink::batch(DrawBatch& batch, StreamOutputCounts& counts) {
    const VertexLayout& layout = draw_->middle->layout();
    const VertexView view{batch.shaded.vertices.data(), batch.shaded.vertex_count, layout.stride()};
    const Provoking pv = draw_->state.draw.provoking;
    for (const PrimRange& r : batch.shaded.prims) {
        if (out_.stream_output && draw_->stream_output)
            out_.stream_output->write(*draw_->stream_output, r.stream, r.prim, r.flags, pv, view,
                                      batch.shaded.elts_of(r), counts);
        else
            counts.generated[r.stream] += drawn_prim_count(r.prim, r.count, r.flags);
    }
    if (out_.rasterizer_discard || batch.delivered) return;
    if (batch.staged) return deliver_batch(calls_, batch, layout.stride());
    calls_.begin_batch(batch.sequence);
    const RasterPlan* raster = draw_->raster.get();
    if (raster && !raster->parallel) post_shade(*raster, batch.shaded, batch.clip);
    const bool staged = chain_open_ && chain_.needed(batch);
    // Only stream 0 goes on to rasterization (GL: the other streams are captured only).
    for (const PrimRange& r : batch.shaded.prims) {
        if (r.stream != 0) continue;
        if (chain_open_ && r.prim == Prim::quad_strip)
            quad_strip(batch, r, staged);
        else if (staged)
            to_chain(batch, r, QuadStripOrder::pipeline);
        else
            to_backend(batch, r);
    }
    close_chain();
}

void DrawSink::end() {
    if (out_.rasterizer_discard) return;
    if (chain_open_) {
        release_held(QuadStripOrder::driver); // a run cut short: none in a valid draw
        close_chain();
        chain_.end();
    }
    const detail::CallbackScope in("end_draw");
    backend_.end_draw();
}

void DrawSink::quad_strip(DrawBatch& batch, const PrimRange& r, bool staged) {
    if (!(r.flags & SPLIT_BEFORE)) {
        release_held(QuadStripOrder::driver);
        run_in_pipeline_ = draw_->raster->triangles_in_pipeline;
    }
    if (!run_in_pipeline_ && any_outside(batch, r)) {
        run_in_pipeline_ = true;
        release_held(QuadStripOrder::pipeline);
    }
    if (run_in_pipeline_) return to_chain(batch, r, QuadStripOrder::pipeline);
    if (r.flags & SPLIT_AFTER) return hold(batch, r);
    release_held(QuadStripOrder::driver);
    if (staged)
        to_chain(batch, r, QuadStripOrder::driver);
    else
        to_backend(batch, r);
}

bool DrawSink::any_outside(const DrawBatch& batch, const PrimRange& r) {
    if (batch.clip.clip_or == 0) return false;
    const std::span<const uint32_t> elts = batch.shaded.elts_of(r);
    const uint32_t n = trim_count(r.prim, uint32_t(elts.size()));
    for (uint32_t i = 0; i < n; ++i)
        if (batch.clip.clip_mask[elts[i]] != 0) return true;
    return false;
}

void DrawSink::hold(const DrawBatch& batch, const PrimRange& r) {
    const uint32_t stride = draw_->middle->layout().stride();
    const uint32_t base = held_.shaded.vertex_count;
    held_.shaded.vertices.insert(held_.shaded.vertices.end(), batch.shaded.vertices.begin(),
                                 batch.shaded.vertices.begin() +
                                     size_t(batch.shaded.vertex_count) * stride);
    held_.shaded.vertex_count += batch.shaded.vertex_count;
    PrimRange h = r;
    h.first = uint32_t(held_.shaded.elts.size());
    for (const uint32_t e : batch.shaded.elts_of(r)) held_.shaded.elts.push_back(base + e);
    held_.shaded.prims.push_back(h);
}

void DrawSink::release_held(QuadStripOrder order) {
    if (held_.shaded.prims.empty()) return;
    const bool staged = order == QuadStripOrder::pipeline || chain_.needed(held_);
    for (const PrimRange& r : held_.shaded.prims) {
        if (staged)
            to_chain(held_, r, order);
        else
            to_backend(held_, r);
    }
    close_chain(); // the chain holds pointers into held_
    held_.clear();
}

void DrawSink::to_chain(DrawBatch& batch, const PrimRange& r, QuadStripOrder order) {
    if (chain_batch_ != &batch) close_chain();
    chain_batch_ = &batch;
    chain_.batch(batch, r, order);
}

void DrawSink::to_backend(const DrawBatch& batch, const PrimRange& r) {
    close_chain();
    const VertexView view{batch.shaded.vertices.data(), batch.shaded.vertex_count,
                          draw_->middle->layout().stride()};
    calls_(r.prim, r.flags, view, batch.shaded.elts_of(r));
}

} // namespace drawpipe
