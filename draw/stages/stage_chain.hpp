// The pipeline stages a draw needs, strung together when it begins, in Mesa's order: clip,
// cull, two-side, offset, flatshade, unfilled, stipple, wide line, wide point, the driver's own
// stages, then emit to the backend. Stages the state does not need are left out; with none needed
// and no vertex outside, DrawSink hands ranges to the backend directly.
#pragma once

#include "draw/shade/raster_plan.hpp"
#include "draw/stages/stages.hpp"
#include "drawpipe/extend/prim_assembly.hpp"
#include "drawpipe/prim.hpp"

#include <optional>
#include <span>

namespace drawpipe {

class StageChain {
  public:
    // `calls` null: the chain records into each batch (DrawBatch::staged) instead.
    explicit StageChain(BackendCalls* calls) : emit_(calls) {}

    // `draw` and `plan` must outlive the draw's batches.
    void begin(const DrawInfo& draw, const RasterPlan& plan, std::span<Stage* const> driver_stages);
    // Whether a batch must go through the stages (else its ranges go straight to the backend).
    bool needed(const DrawBatch& batch) const { return per_primitive_ || batch.clip.clip_or != 0; }
    void batch(DrawBatch& batch, const PrimRange& range,
               QuadStripOrder order = QuadStripOrder::pipeline);
    // Every stream-0 range of `batch` through the chain, then the flush: what the backend is to
    // receive is left in the batch (DrawBatch::staged, clip_delta). For a chain built with
    // null calls.
    void stage(DrawBatch& batch);
    void flush() { first_->flush(); }
    // Primitives the clip stage made minus those it dropped since the last call.
    int64_t take_clip_delta() {
        const int64_t d = clip_delta_;
        clip_delta_ = 0;
        return d;
    }
    void end() { first_->end_draw(); }

  private:
    const DrawInfo* draw_ = nullptr;
    const RasterPlan* plan_ = nullptr;
    std::optional<ClipStage> clip_;
    std::optional<CullStage> cull_;
    std::optional<TwoSideStage> two_side_;
    std::optional<FlatshadeStage> flat_;
    std::optional<UnfilledStage> unfilled_;
    std::optional<WidePointStage> wide_point_;
    std::optional<WideLineStage> wide_line_;
    std::optional<StippleStage> stipple_;
    std::optional<OffsetStage> offset_;
    EmitStage emit_;
    Stage* first_ = nullptr;
    bool per_primitive_ = false;
    // Only the cull stage works on primitives: triangles of a batch with no vertex outside
    // are culled in one loop over their elements, straight into emit.
    bool cull_only_ = false;
    int32_t edge_flag_slot_ = -1;
    int64_t clip_delta_ = 0;
};

} // namespace drawpipe
