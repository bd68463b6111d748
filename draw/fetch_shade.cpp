#include "drawpipe/fetch_shade.hpp"

#include "drawpipe/gs.hpp"
#include "drawpipe/gs_executor.hpp"
#include "drawpipe/shading.hpp"
#include "drawpipe/simd_shade.hpp"

#include <utility>

namespace drawpipe {

namespace {

constexpr std::string_view kGsCounters[] = {"gs_invocations", "gs_emitted", "gs_dropped"};

class PlainDraw final : public MiddleEndDraw {
  public:
    PlainDraw(const DrawState& state, uint32_t max_vertices)
        : MiddleEndDraw({max_vertices, false, std::nullopt}, vertex_layout_for(state)),
          state_(state) {}

    void shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const override {
        shade_segment(state_, layout(), seg, out);
    }

  private:
    DrawState state_;
};

// The plain path through the vectorised kernels, its fetch plan made once here.
class SimdDraw final : public MiddleEndDraw {
  public:
    SimdDraw(uint32_t max_vertices, SimdShade shader)
        : MiddleEndDraw({max_vertices, false, std::nullopt}, shader.layout()),
          shader_(std::move(shader)) {}

    void shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const override {
        shader_.shade_segment(seg, out);
    }

  private:
    SimdShade shader_; // its plan copies the bindings; the memory is the driver's
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
        for_each_gs_input(state_, in_layout_, seg, static_cast<GsScratch&>(*scratch),
                          [&](uint32_t, uint32_t p, std::span<const uint32_t* const> inputs) {
                              execute_gs_reference(gs, inputs, in_layout_.stride(),
                                                   seg.prim_id_first + p, writer, stats);
                          });
        out.counters[0] += stats.invocations;
        out.counters[1] += stats.emitted;
        out.counters[2] += stats.dropped;
    }

  private:
    DrawState state_;
    VertexLayout in_layout_;
};

} // namespace

std::shared_ptr<const MiddleEndDraw> FetchShade::prepare(const DrawState& state) const {
    if (!state.gs) return std::make_shared<PlainDraw>(state, max_vertices_);
    validate_gs(*state.gs);
    check_gs_draw(*state.gs, state.draw.prim);
    return std::make_shared<GsDraw>(state, max_vertices_);
}

std::shared_ptr<const MiddleEndDraw> FetchShadeSimd::prepare(const DrawState& state) const {
    if (state.gs) return reference_.prepare(state);
    return std::make_shared<SimdDraw>(reference_.max_vertices(), SimdShade(state));
}

std::unique_ptr<MiddleEndScratch> FetchShade::make_scratch() const {
    return std::make_unique<GsScratch>();
}

std::span<const std::string_view> FetchShade::counters() const {
    return kGsCounters;
}

} // namespace drawpipe
