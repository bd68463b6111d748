#include "draw/internal/stage_chain.hpp"

#include "draw/internal/assemble.hpp"

#include <vector>

namespace drawpipe {

void StageChain::begin(const PreparedDraw& draw, std::span<Stage* const> driver_stages) {
    draw_ = &draw;
    const RasterPlan& plan = *draw.raster;
    const RasterState& s = plan.state;
    std::vector<Stage*> chain;
    clip_.emplace(plan);
    chain.push_back(&*clip_);
    cull_.reset();
    if (s.cull != CullFace::none) chain.push_back(&cull_.emplace(plan));
    offset_.reset();
    if (s.offset_fill || s.offset_line || s.offset_point) chain.push_back(&offset_.emplace(plan));
    // Flat outputs must be on every vertex before unfilled turns triangles into lines and
    // points, whose provoking vertex is another.
    const bool unfilled = s.front_mode != PolygonMode::fill || s.back_mode != PolygonMode::fill;
    bool flat_outputs = false;
    for (uint32_t i = 0; i < plan.layout.varying_count(); ++i)
        flat_outputs |= plan.layout.varying(i).interp == Interp::flat;
    flat_.reset();
    if (s.flatshade || (unfilled && flat_outputs)) chain.push_back(&flat_.emplace(plan));
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
    edge_flag_slot_ = s.edge_flag_varying < 0
                          ? -1
                          : int32_t(plan.layout.varying_slot(uint32_t(s.edge_flag_varying)));
    const StageDraw sd{&draw.state.draw, &plan.layout, &s};
    first_->begin_draw(sd);
    first_->reset_stipple(); // each draw starts a new stipple pattern
}

void StageChain::batch(const ShadedBatch& batch, const PrimRange& range, QuadStripOrder order) {
    clip_->set_batch(batch);
    emit_.set_batch(batch);
    const VertexView view{batch.vertices.data(), batch.vertex_count,
                          draw_->raster->layout.stride()};
    assemble(range.prim, range.flags, draw_->state.draw.provoking, view, batch.elts_of(range),
             edge_flag_slot_, *first_, order);
}

} // namespace drawpipe
