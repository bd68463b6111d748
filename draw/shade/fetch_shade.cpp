#include "drawpipe/extend/fetch_shade.hpp"

#include "drawpipe/extend/gs_executor.hpp"
#include "drawpipe/extend/plain_draw.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/tess_stages.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/limits.hpp"

#include <iterator>
#include <utility>

namespace drawpipe {

namespace {

// FetchShade::Counter's names, in its order.
constexpr std::string_view kCounterNames[] = {"gs_invocations", "gs_emitted", "gs_dropped"};
static_assert(std::size(kCounterNames) == FetchShade::COUNTER_COUNT &&
              FetchShade::COUNTER_COUNT <= kMaxCounters);

void add_counters(const GsStats& stats, ShadedBatch& out) {
    out.counters[FetchShade::COUNTER_GS_INVOCATIONS] += stats.invocations;
    out.counters[FetchShade::COUNTER_GS_EMITTED] += stats.emitted;
    out.counters[FetchShade::COUNTER_GS_DROPPED] += stats.dropped;
}

// The plain draw through the scalar reference (shade_segment): what every other path,
// PlainDraw's vectorised one included, is checked against.
class ReferenceDraw final : public MiddleEndDraw {
  public:
    ReferenceDraw(const DrawState& state, uint32_t max_vertices)
        : MiddleEndDraw({max_vertices, false, std::nullopt}, vertex_layout_for(state)),
          state_(state) {}

    void shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const override {
        shade_segment(state_, layout(), seg, out);
    }

  private:
    DrawState state_;
};

// Shades the segment's vertices aside, runs the reference executor per input primitive and
// emits its strips.
class GsDraw final : public MiddleEndDraw {
  public:
    GsDraw(const DrawState& state, uint32_t max_vertices)
        : MiddleEndDraw({.max_vertices = gs_segment_vertex_limit(*state.gs, max_vertices),
                         .assemble_as = state.gs->input,
                         .delivers_streams = true}, // the reference keeps every stream for capture
                        gs_output_layout(*state.gs)),
          state_(state), in_layout_(vertex_layout_for(state)) {}

    void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const override {
        const GeometryShader& gs = *state_.gs;
        GsStripWriter writer(gs, out, true);
        GsStats stats;
        for_each_shaded_gs_input(
            state_, in_layout_, seg, static_cast<GsScratch&>(*scratch),
            [&](uint32_t, uint32_t p, std::span<const uint32_t* const> inputs) {
                execute_gs_reference(gs, inputs, in_layout_.stride(), seg.prim_id_first + p, writer,
                                     stats);
            });
        add_counters(stats, out);
    }

  private:
    DrawState state_;
    VertexLayout in_layout_;
};

// Tessellation: the stages of drawpipe/extend/tess_stages.hpp per segment of whole patches, then a
// geometry shader (its input the tessellator's primitives) when one is bound.
class TessDraw final : public MiddleEndDraw {
  public:
    TessDraw(const DrawState& state, const TessStages& stages, uint32_t max_vertices)
        : MiddleEndDraw(
              {.max_vertices = stages.segment_vertex_limit(state.draw.patch_vertices, max_vertices),
               .assemble_as = std::nullopt,
               .delivers_streams = true,
               .work_per_vertex = stages.work_per_vertex(state.draw.patch_vertices)},
              state.gs ? gs_output_layout(*state.gs) : stages.output_layout()),
          state_(state), stages_(stages) {}

    void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const override {
        auto& s = static_cast<TessScratch&>(*scratch);
        if (!state_.gs) return stages_.shade(state_, seg, s, out);
        // The geometry shader sees each tessellated primitive in order.
        s.tessellated.clear();
        stages_.shade(state_, seg, s, s.tessellated);
        const GeometryShader& gs = *state_.gs;
        const uint32_t stride = stages_.output_layout().stride();
        const uint32_t per_prim = gs_input_vertices(gs.input);
        GsStripWriter writer(gs, out, true);
        GsStats stats;
        const uint32_t* inputs[3];
        uint32_t patch = ~0u, instance = ~0u, id = 0;
        for (const PrimRange& r : s.tessellated.prims)
            for (uint32_t k = 0; k + per_prim <= r.count; k += per_prim) {
                for (uint32_t v = 0; v < per_prim; ++v)
                    inputs[v] =
                        &s.tessellated
                             .vertices[size_t(s.tessellated.elts[r.first + k + v]) * stride];
                // gl_PrimitiveIDIn counts the instance's tessellated primitives.
                if (inputs[0][SLOT_VERTEX_ID] != patch || inputs[0][SLOT_INSTANCE_ID] != instance) {
                    patch = inputs[0][SLOT_VERTEX_ID], instance = inputs[0][SLOT_INSTANCE_ID];
                    id = stages_.gs_primitive_base(instance, patch);
                }
                execute_gs_reference(gs, std::span<const uint32_t* const>(inputs, per_prim), stride,
                                     id++, writer, stats);
            }
        add_counters(stats, out);
    }

  private:
    DrawState state_;
    TessStages stages_;
};

} // namespace

std::shared_ptr<const MiddleEndDraw> FetchShade::prepare(const DrawState& state) const {
    if (state.tes) return std::make_shared<TessDraw>(state, TessStages(state), max_vertices_);
    if (!state.gs) return std::make_shared<ReferenceDraw>(state, max_vertices_);
    return std::make_shared<GsDraw>(state, max_vertices_);
}

std::shared_ptr<const MiddleEndDraw> FetchShadeSimd::prepare(const DrawState& state) const {
    if (state.gs || state.tes || state.draw.prim == Prim::patches) return reference_.prepare(state);
    return std::make_shared<PlainDraw>(state, reference_.max_vertices());
}

std::unique_ptr<MiddleEndScratch> FetchShade::make_scratch() const {
    return std::make_unique<TessScratch>();
}

std::span<const std::string_view> FetchShade::counters() const {
    return kCounterNames;
}

} // namespace drawpipe
