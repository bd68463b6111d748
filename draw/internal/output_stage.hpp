// What happens to a shaded batch after the middle end, in draw order: stream output
// captures it (and the generated count is kept), then, unless rasterizer discard is on, the
// backend receives stream 0. The pipeline's sink and draw_serial both go through DrawSink,
// so their output cannot differ.
#pragma once

#include "draw/internal/prepared_draw.hpp"
#include "draw/internal/stage_chain.hpp"
#include "draw/internal/submit.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/serial.hpp"
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

// The shade step of one segment into `batch` (cleared first), on whichever thread runs it:
// the middle end, then the per-vertex clip test and viewport, unless stream output must first
// capture the shader's positions (then the sink runs them). A middle end shading through
// SimdShade does that step in its own pass over each block (ShadedBatch::post_plan).
inline void shade_step(const PreparedDraw& draw, const Segment& seg, MiddleEndScratch* scratch,
                       ShadedBatch& batch) {
    batch.clear();
    const RasterPlan* r = draw.raster && draw.raster->parallel ? draw.raster.get() : nullptr;
    batch.post_plan = r;
    draw.middle->shade(seg, scratch, batch);
    if (r && !batch.post_shaded) post_shade(*r, batch);
}

class DrawSink {
  public:
    DrawSink(Backend& backend, const OutputOptions& out)
        : backend_(backend), out_(out), chain_(backend) {}

    void begin(const PreparedDraw& draw) {
        draw_ = &draw;
        if (out_.rasterizer_discard) return;
        backend_.begin_draw(draw.state.draw, draw.middle->layout());
        if (draw.raster) chain_.begin(draw, out_.stages);
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
        if (out_.rasterizer_discard) return;
        const RasterPlan* raster = draw_->raster.get();
        if (raster && !raster->parallel) post_shade(*raster, batch);
        const bool staged = raster && chain_.needed(batch);
        // Only stream 0 goes on to rasterization (GL: the other streams are captured only).
        for (const PrimRange& r : batch.prims) {
            if (r.stream != 0) continue;
            if (staged)
                chain_.batch(batch, r);
            else
                backend_.draw_elements(r.prim, r.flags, view, batch.elts_of(r));
        }
        if (staged) chain_.flush();
    }
    void end() {
        if (out_.rasterizer_discard) return;
        if (draw_->raster) chain_.end();
        backend_.end_draw();
    }

  private:
    Backend& backend_;
    OutputOptions out_;
    StageChain chain_;
    const PreparedDraw* draw_ = nullptr;
};

} // namespace drawpipe
