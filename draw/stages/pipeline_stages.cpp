#include "drawpipe/extend/pipeline_stages.hpp"

#include "draw/shade/draw_batch.hpp"
#include "draw/shade/raster_plan.hpp"
#include "draw/stages/stage_chain.hpp"
#include "drawpipe/error.hpp"

#include <memory>
#include <span>
#include <string>
#include <utility>

namespace drawpipe {

PipelineStages::PipelineStages(const RasterState& state, const VertexLayout& layout,
                               Provoking provoking) {
    plan_ = std::make_unique<RasterPlan>(*plan_raster(state, layout, false));
    draw_.provoking = provoking;
}

PipelineStages::~PipelineStages() = default;

void PipelineStages::set_viewport_transform(uint32_t index, const std::array<float, 3>& scale,
                                            const std::array<float, 3>& translate) {
    if (index >= kMaxViewports)
        throw Error(ErrorCode::invalid_value, "set_viewport_transform: index " +
                                                  std::to_string(index) + " is not 0-" +
                                                  std::to_string(kMaxViewports - 1));
    plan_->viewports[index] = {scale, translate};
    // Indices past the state's count take viewport 0's transform (RasterState::viewport_at).
    if (index == 0) {
        plan_->scale = scale, plan_->translate = translate;
        for (uint32_t i = plan_->state.viewport_count; i < kMaxViewports; ++i)
            plan_->viewports[i] = plan_->viewports[0];
    }
}

// Refused where the stipple pattern's place at a range's start can matter: where not every
// primitive restarts the pattern. A line strip's or loop's lines, and the edges of a polygon,
// quad or quad strip in polygon mode line (a polygon restarts it once, a quad at its first
// triangle), carry it on from the primitive before, and when that one is clipped or culled
// away, from the previous run: in Context, from the batch before.
bool PipelineStages::takes(Prim prim) const {
    const RasterState& s = plan_->state;
    if (!s.line_stipple) return true;
    if (prim == Prim::line_strip || prim == Prim::line_loop) return false;
    const bool edges = s.front_mode == PolygonMode::line || s.back_mode == PolygonMode::line;
    return !(edges && (prim == Prim::polygon || prim == Prim::quads || prim == Prim::quad_strip));
}

namespace {

// One batch through `chain`, begun for the draw: the chain records into a DrawBatch (the draw
// module's carrier); the driver's batch and clip results are moved into one and back, so
// nothing is copied.
void stage_batch(StageChain& chain, DrawBatch& carrier, ShadedBatch& batch, ClipResults& clip,
                 StagedLists& out) {
    carrier.clear();
    std::swap(carrier.shaded, batch);
    std::swap(carrier.clip, clip);
    chain.stage(carrier);
    out.clip_delta = carrier.clip_delta;
    out.vertex_count = carrier.staged_vertex_count; // 0 when nothing was kept
    out.ranges.swap(carrier.staged_ranges);
    out.elts.swap(carrier.staged_elts);
    std::swap(carrier.shaded, batch);
    std::swap(carrier.clip, clip);
}

} // namespace

void PipelineStages::run(ShadedBatch& batch, ClipResults& clip, StagedLists& out) const {
    for (const PrimRange& r : batch.prims)
        if (r.stream == 0 && !takes(r.prim))
            throw Error(ErrorCode::unsupported,
                        "line_stipple: " + std::string(prim_name(r.prim)) +
                            " carry the pattern's place on from primitive to primitive, and "
                            "run() keeps nothing from batch to batch (PipelineStages::InOrder)");
    thread_local StageChain chain(nullptr);
    thread_local DrawBatch carrier;
    chain.begin(draw_, *plan_, {});
    stage_batch(chain, carrier, batch, clip, out);
    chain.end();
}

// A chain of its own, begun at a draw's first batch and kept to its last: the stipple
// stage's counter carries on between them.
struct PipelineStages::InOrder::Impl {
    explicit Impl(const PipelineStages& s) : stages(s) {}
    const PipelineStages& stages;
    StageChain chain{nullptr};
    DrawBatch carrier;
    bool begun = false;
};

PipelineStages::InOrder::InOrder(const PipelineStages& stages)
    : impl_(std::make_unique<Impl>(stages)) {}

PipelineStages::InOrder::~InOrder() {
    begin();
}

void PipelineStages::InOrder::begin() {
    if (impl_->begun) impl_->chain.end();
    impl_->begun = false;
}

void PipelineStages::InOrder::run(ShadedBatch& batch, ClipResults& clip, StagedLists& out) {
    Impl& m = *impl_;
    if (!m.begun) m.chain.begin(m.stages.draw_, *m.stages.plan_, {});
    m.begun = true;
    stage_batch(m.chain, m.carrier, batch, clip, out);
}

} // namespace drawpipe
