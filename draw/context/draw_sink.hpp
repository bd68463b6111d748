// What happens to a shaded batch after the per-segment step, in draw order: stream output
// captures it (and the generated count is kept), then, unless rasterizer discard is on, the
// stages that must run in order and the backend receive stream 0. The pipeline's ordered
// stage and draw_serial both go through DrawSink, so their output cannot differ.
#pragma once

#include "draw/context/prepared_draw.hpp"
#include "draw/stages/backend_calls.hpp"
#include "draw/stages/stage_chain.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/stream_output.hpp"

namespace drawpipe {

class DrawSink {
  public:
    DrawSink(Backend& backend, const OutputOptions& out)
        : backend_(backend), out_(out), calls_(backend), chain_(&calls_) {}

    void begin(const PreparedDraw& draw);
    // One batch of the current draw; adds its primitive counts to `counts`. With a raster
    // state and stream output both bound, the batch's positions become window coordinates
    // here, after the capture has read them.
    void batch(DrawBatch& batch, StreamOutputCounts& counts);
    void end();

    // Primitives the clip stage made minus those it dropped here since the last call.
    int64_t take_clip_delta() { return chain_.take_clip_delta(); }

  private:
    // Quad strips, run by run as Mesa's draw module decides for llvmpipe: a restart run goes
    // through the draw pipeline, and takes its order, when the state needs the pipeline for
    // triangles or any vertex the run draws is outside a clip plane; otherwise the driver
    // draws it whole, in its own order (QuadStripOrder). Whether a run has a vertex outside is
    // known only at its end, so pieces of a split run are held (copied) until a later piece
    // has one or the run ends; the pieces of a run are always drawn in draw order.
    void quad_strip(DrawBatch& batch, const PrimRange& r, bool staged);
    // Whether a vertex the range draws (a trailing vertex no quad uses is never shaded in
    // Mesa) has a clip mask.
    static bool any_outside(const DrawBatch& batch, const PrimRange& r);
    // A copy of the range (with every vertex of its batch, whose records then hold window
    // coordinates) kept for release_held. None of the vertices it draws is outside.
    void hold(const DrawBatch& batch, const PrimRange& r);
    void release_held(QuadStripOrder order);
    // Ranges go through the stages one batch at a time: the chain is flushed before another
    // batch's range enters it and before anything goes to the backend directly, so the
    // backend receives every primitive in draw order.
    void to_chain(DrawBatch& batch, const PrimRange& r, QuadStripOrder order);
    void to_backend(const DrawBatch& batch, const PrimRange& r);
    void close_chain() {
        if (chain_batch_) chain_.flush();
        chain_batch_ = nullptr;
    }

    Backend& backend_;
    OutputOptions out_;
    BackendCalls calls_;
    StageChain chain_;
    const PreparedDraw* draw_ = nullptr;
    const DrawBatch* chain_batch_ = nullptr; // the batch whose ranges the chain holds
    DrawBatch held_;                         // pieces of a quad strip run not drawn yet
    bool run_in_pipeline_ = false;           // the current quad strip run's path
    bool chain_open_ = false;                // this draw's stages run here, in order
};

} // namespace drawpipe
