#include "draw/stages/stage_chain.hpp"

#include "draw/stages/assemble.hpp"

#include <boost/container/small_vector.hpp>

#include <atomic>
#include <memory>
#include <vector>

namespace drawpipe {

void StageChain::begin(const DrawInfo& draw, const RasterPlan& plan,
                       std::span<Stage* const> driver_stages) {
    draw_ = &draw;
    plan_ = &plan;
    const RasterState& s = plan.state;
    boost::container::small_vector<Stage*, 16> chain;
    clip_.emplace(plan);
    chain.push_back(&*clip_);
    cull_.reset();
    if (s.cull != CullFace::none) chain.push_back(&cull_.emplace(plan));
    two_side_.reset();
    if (plan.two_side) chain.push_back(&two_side_.emplace(plan));
    offset_.reset();
    if (s.offset_fill || s.offset_line || s.offset_point) chain.push_back(&offset_.emplace(plan));
    // Flat outputs must be on every vertex before unfilled turns triangles into lines and
    // points, whose provoking vertex is another, and before stipple cuts lines into dashes,
    // whose ends it interpolates (Mesa's precalc_flat).
    const bool unfilled = s.front_mode != PolygonMode::fill || s.back_mode != PolygonMode::fill;
    bool flat_outputs = false;
    for (uint32_t i = 0; i < plan.layout.varying_count(); ++i)
        flat_outputs |= plan.layout.varying(i).interp == Interp::flat;
    flat_.reset();
    if (s.flatshade || ((unfilled || s.line_stipple) && flat_outputs))
        chain.push_back(&flat_.emplace(plan));
    unfilled_.reset();
    if (unfilled) chain.push_back(&unfilled_.emplace(plan));
    stipple_.reset();
    if (s.line_stipple) chain.push_back(&stipple_.emplace(plan));
    wide_line_.reset();
    if (plan.wide_lines) chain.push_back(&wide_line_.emplace(plan));
    wide_point_.reset();
    if (s.point_size != 1.0f || plan.layout.outputs.point_size || s.sprite_coord_varying >= 0)
        chain.push_back(&wide_point_.emplace(plan));
    chain.insert(chain.end(), driver_stages.begin(), driver_stages.end());
    chain.push_back(&emit_);
    for (size_t i = 0; i + 1 < chain.size(); ++i) chain[i]->set_next(chain[i + 1]);
    first_ = chain.front();
    per_primitive_ = plan.per_primitive || !driver_stages.empty();
    // clip, cull, emit; per-primitive viewports need the clip stage on every primitive
    cull_only_ = cull_ && chain.size() == 3 && !plan.viewport_per_primitive;
    edge_flag_slot_ = s.edge_flag_varying < 0
                          ? -1
                          : int32_t(plan.layout.varying_slot(uint32_t(s.edge_flag_varying)));
    const StageDraw sd{&draw, &plan.layout, &s};
    first_->begin_draw(sd);
    first_->reset_stipple(); // each draw starts a new stipple pattern
}

namespace {

// Whether a triangle class primitive decomposes to triangles only (what the cull-only loop
// handles); the others take the stages.
bool triangles_only(Prim prim) {
    switch (prim) {
    case Prim::triangles:
    case Prim::triangle_strip:
    case Prim::triangle_fan:
    case Prim::triangles_adjacency:
    case Prim::triangle_strip_adjacency:
    case Prim::quads:
    case Prim::polygon:
        return true;
    default:
        return false;
    }
}

} // namespace

void StageChain::batch(DrawBatch& batch, const PrimRange& range, QuadStripOrder order) {
    const uint32_t stride = plan_->layout.stride();
    const VertexView view{batch.shaded.vertices.data(), batch.shaded.vertex_count, stride};
    emit_.set_batch(batch);
    if (cull_only_ && batch.clip.clip_or == 0 && triangles_only(range.prim))
        return cull_triangles(plan_->state, range.prim, draw_->provoking, view,
                              batch.shaded.elts_of(range), emit_);
    clip_->set_batch(batch);
    assemble(range.prim, range.flags, draw_->provoking, view, batch.shaded.elts_of(range),
             edge_flag_slot_, *first_, order);
    clip_delta_ += clip_->take_delta();
}

void StageChain::stage(DrawBatch& batch) {
    for (const PrimRange& r : batch.shaded.prims)
        if (r.stream == 0) this->batch(batch, r);
    flush();
    batch.clip_delta = take_clip_delta();
    batch.staged = true; // even when every primitive was culled: nothing is drawn
}

} // namespace drawpipe
