// What happens to a shaded batch after the middle end, in draw order: stream output
// captures it (and the generated count is kept), then, unless rasterizer discard is on, the
// backend receives stream 0. The pipeline's sink and draw_serial both go through DrawSink,
// so their output cannot differ.
#pragma once

#include "draw/pipeline/backend_calls.hpp"
#include "draw/pipeline/prepared_draw.hpp"
#include "draw/shade/check_batch.hpp"
#include "draw/stages/stage_chain.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/stream_output.hpp"

namespace drawpipe {

// Resolves the bound RasterState for a prepared draw (its plan); nothing to do when none is
// bound or rasterizer discard is on. Throws Error for a state GL rejects.
void prepare_raster(PreparedDraw& draw, const OutputOptions& out);

// Resolves the bound stream output for a prepared draw (its plan), or throws Error: an
// output the last vertex stage does not write, or a middle end that drops the vertex
// streams the capture needs. Nothing to do when no stream output is bound.
void prepare_stream_output(PreparedDraw& draw, const StreamOutput* so);

// The options a draw is split with while stream output is bound: the reorder strategy draws
// triangles out of GL's order on purpose, and captured bytes must keep that order, so it
// falls back to `exact` (the de-duplication reorder itself uses).
inline DrawOptions capture_options(DrawOptions options, const StreamOutput* so) {
    if (so && options.strategy.kind == Strategy::Kind::reorder)
        options.strategy = Strategy{Strategy::Kind::exact, 0};
    return options;
}

// Whether a draw's pipeline stages may run on the shading threads, batch by batch: nothing in
// its chain depends on an earlier batch. Not with stream output (the capture reads the
// positions first, in order), line stipple (its counter runs on along a strip), a driver's
// stage that cannot be copied (Stage::clone: it runs in order) or quad strips (a run's path
// depends on its later pieces, DrawSink::quad_strip).
bool stages_order_free(const PreparedDraw& draw, const OutputOptions& out);
// The driver's stages of `out` as a set the shading threads clone (PreparedDraw::driver_stages).
std::shared_ptr<const PreparedDraw::DriverStages> driver_stage_set(std::span<Stage* const> stages);

// Sets PreparedDraw::parallel_backend: `backend` when it takes parallel batches and nothing
// ordered runs between the shading and it for this draw.
void prepare_delivery(PreparedDraw& draw, const OutputOptions& out, Backend& backend);

// Hands a shaded (and, where the stages ran on its thread, staged) batch's stream-0
// primitives to the backend: the staged ranges, else the batch's own ranges.
inline void deliver_batch(BackendCalls& calls, const ShadedBatch& batch, uint32_t stride) {
    calls.begin_batch(batch.sequence);
    if (batch.staged) {
        const VertexView view{batch.vertices.data(), batch.staged_vertex_count, stride};
        for (const StagedRange& r : batch.staged_ranges)
            calls(r.prim, 0, view, {batch.staged_elts.data() + r.first, r.count});
        return;
    }
    const VertexView view{batch.vertices.data(), batch.vertex_count, stride};
    for (const PrimRange& r : batch.prims)
        if (r.stream == 0) calls(r.prim, r.flags, view, batch.elts_of(r));
}

// Runs the draw's pipeline stages over every stream-0 range of `batch` on this thread (a chain
// per thread), leaving what the backend is to receive in the batch (ShadedBatch::staged).
// Nothing to do for a batch that needs no stage.
void stage_batch(const PreparedDraw& draw, ShadedBatch& batch);

// The shade step of one segment into `batch` (cleared first), on whichever thread runs it:
// the middle end, then the per-vertex clip test and viewport, unless stream output must first
// capture the shader's positions (then the sink runs them), then the pipeline stages when
// they are order-free. A middle end shading through SimdShade does the per-vertex step in its
// own pass over each block (ShadedBatch::post_plan).
inline void shade_step(const PreparedDraw& draw, const Segment& source_seg,
                       MiddleEndScratch* scratch, ShadedBatch& batch) {
    batch.clear();
    const RasterPlan* r = draw.raster && draw.raster->parallel ? draw.raster.get() : nullptr;
    batch.post_plan = r;
    // The draw id is set here, the one place every segment passes, rather than by each
    // source: the front end, the split cache and closed-form runs then need not know it.
    Segment seg = source_seg;
    seg.draw_id = draw.state.draw.draw_id;
    draw.middle->shade(seg, scratch, batch);
    if (draw.check_batches)
        check_batch(batch, draw.middle->layout().stride(),
                    {draw.middle_name, draw.ordinal, seg.sequence});
    batch.sequence = seg.sequence;
    if (r && !batch.post_shaded) post_shade(*r, batch);
    if (draw.stages_in_shade) stage_batch(draw, batch);
    if (draw.parallel_backend) {
        BackendCalls calls(*draw.parallel_backend);
        calls.begin_draw(draw.state.draw, draw.ordinal);
        deliver_batch(calls, batch, draw.middle->layout().stride());
        batch.delivered = true;
    }
}

class DrawSink {
  public:
    DrawSink(Backend& backend, const OutputOptions& out)
        : backend_(backend), out_(out), calls_(backend), chain_(&calls_) {}

    void begin(const PreparedDraw& draw) {
        draw_ = &draw;
        if (out_.rasterizer_discard) return;
        {
            const detail::CallbackScope in("begin_draw");
            backend_.begin_draw(draw.state.draw, draw.middle->layout());
        }
        calls_.begin_draw(draw.state.draw, draw.ordinal);
        chain_open_ = draw.raster && !draw.stages_in_shade;
        if (chain_open_) chain_.begin(draw, out_.stages);
        held_.clear();
        run_in_pipeline_ = false;
    }
    // One batch of the current draw; adds its primitive counts to `counts`. With a raster
    // state and stream output both bound, the batch's positions become window coordinates
    // here, after the capture has read them.
    void batch(ShadedBatch& batch, StreamOutputCounts& counts) {
        const VertexLayout& layout = draw_->middle->layout();
        const VertexView view{batch.vertices.data(), batch.vertex_count, layout.stride()};
        const Provoking pv = draw_->state.draw.provoking;
        for (const PrimRange& r : batch.prims) {
            if (out_.stream_output && draw_->stream_output)
                out_.stream_output->write(*draw_->stream_output, r.stream, r.prim, r.flags, pv,
                                          view, batch.elts_of(r), counts);
            else
                counts.generated[r.stream] += drawn_prim_count(r.prim, r.count, r.flags);
        }
        if (out_.rasterizer_discard || batch.delivered) return;
        if (batch.staged) return deliver_batch(calls_, batch, layout.stride());
        calls_.begin_batch(batch.sequence);
        const RasterPlan* raster = draw_->raster.get();
        if (raster && !raster->parallel) post_shade(*raster, batch);
        const bool staged = chain_open_ && chain_.needed(batch);
        // Only stream 0 goes on to rasterization (GL: the other streams are captured only).
        for (const PrimRange& r : batch.prims) {
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
    void end() {
        if (out_.rasterizer_discard) return;
        if (chain_open_) {
            release_held(QuadStripOrder::driver); // a run cut short: none in a valid draw
            close_chain();
            chain_.end();
        }
        const detail::CallbackScope in("end_draw");
        backend_.end_draw();
    }

    // Primitives the clip stage made minus those it dropped here since the last call.
    int64_t take_clip_delta() { return chain_.take_clip_delta(); }

  private:
    // Quad strips, run by run as Mesa's draw module decides for llvmpipe: a restart run goes
    // through the draw pipeline, and takes its order, when the state needs the pipeline for
    // triangles or any vertex the run draws is outside a clip plane; otherwise the driver
    // draws it whole, in its own order (QuadStripOrder). Whether a run has a vertex outside is
    // known only at its end, so pieces of a split run are held (copied) until a later piece
    // has one or the run ends; the pieces of a run are always drawn in draw order.
    void quad_strip(ShadedBatch& batch, const PrimRange& r, bool staged) {
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
    // Whether a vertex the range draws (a trailing vertex no quad uses is never shaded in
    // Mesa) has a clip mask.
    static bool any_outside(const ShadedBatch& batch, const PrimRange& r) {
        if (batch.clip_or == 0) return false;
        const std::span<const uint32_t> elts = batch.elts_of(r);
        const uint32_t n = trim_count(r.prim, uint32_t(elts.size()));
        for (uint32_t i = 0; i < n; ++i)
            if (batch.clip_mask[elts[i]] != 0) return true;
        return false;
    }
    // A copy of the range (with every vertex of its batch, whose records then hold window
    // coordinates) kept for release_held. None of the vertices it draws is outside.
    void hold(const ShadedBatch& batch, const PrimRange& r) {
        const uint32_t stride = draw_->middle->layout().stride();
        const uint32_t base = held_.vertex_count;
        held_.vertices.insert(held_.vertices.end(), batch.vertices.begin(),
                              batch.vertices.begin() + size_t(batch.vertex_count) * stride);
        held_.vertex_count += batch.vertex_count;
        PrimRange h = r;
        h.first = uint32_t(held_.elts.size());
        for (const uint32_t e : batch.elts_of(r)) held_.elts.push_back(base + e);
        held_.prims.push_back(h);
    }
    void release_held(QuadStripOrder order) {
        if (held_.prims.empty()) return;
        const bool staged = order == QuadStripOrder::pipeline || chain_.needed(held_);
        for (const PrimRange& r : held_.prims) {
            if (staged)
                to_chain(held_, r, order);
            else
                to_backend(held_, r);
        }
        close_chain(); // the chain holds pointers into held_
        held_.clear();
    }
    // Ranges go through the stages one batch at a time: the chain is flushed before another
    // batch's range enters it and before anything goes to the backend directly, so the
    // backend receives every primitive in draw order.
    void to_chain(ShadedBatch& batch, const PrimRange& r, QuadStripOrder order) {
        if (chain_batch_ != &batch) close_chain();
        chain_batch_ = &batch;
        chain_.batch(batch, r, order);
    }
    void to_backend(const ShadedBatch& batch, const PrimRange& r) {
        close_chain();
        const VertexView view{batch.vertices.data(), batch.vertex_count,
                              draw_->middle->layout().stride()};
        calls_(r.prim, r.flags, view, batch.elts_of(r));
    }
    void close_chain() {
        if (chain_batch_) chain_.flush();
        chain_batch_ = nullptr;
    }

    Backend& backend_;
    OutputOptions out_;
    BackendCalls calls_;
    StageChain chain_;
    const PreparedDraw* draw_ = nullptr;
    const ShadedBatch* chain_batch_ = nullptr; // the batch whose ranges the chain holds
    ShadedBatch held_;                         // pieces of a quad strip run not drawn yet
    bool run_in_pipeline_ = false;             // the current quad strip run's path
    bool chain_open_ = false;                  // this draw's stages run here, in order
};

} // namespace drawpipe
