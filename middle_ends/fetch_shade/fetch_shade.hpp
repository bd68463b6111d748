// The GL-semantics reference middle end: fetch every listed vertex with exact GL attribute
// rules, run the vertex shader, and emit the segment's primitives unchanged. Every hardware
// middle end is checked against it.
#pragma once

#include "draw/middle_end.hpp"

namespace drawpipe {

class FetchShade final : public MiddleEnd {
  public:
    explicit FetchShade(uint32_t max_vertices = 4096) : max_vertices_(max_vertices) {}

    std::string_view name() const override { return "fetch_shade"; }
    MiddleEndLimits prepare(const DrawState& state) override;
    const VertexLayout& layout() const override { return layout_; }
    std::unique_ptr<Scratch> make_scratch() const override;
    void run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const override;
    std::span<const std::string_view> counter_names() const override;

  private:
    // With a GS bound: shade the segment's vertices aside, run the reference executor per
    // input primitive (draw/gs_executor.hpp) and emit its strips.
    void run_gs(const Segment& seg, Scratch* scratch, ShadedBatch& out) const;

    uint32_t max_vertices_;
    DrawState state_;
    VertexLayout in_layout_; // the fetched and shaded vertices
    VertexLayout layout_;    // what run() produces (GS output when a GS is bound)
};

// Vertices per segment that keep a GS draw's output near 64K vertices per segment (the
// u16 limit of a backend vertex batch), never below what one input primitive needs and
// never above `cap`. Shared by the GS middle ends.
uint32_t gs_segment_vertex_limit(const GeometryShader& gs, uint32_t cap);

// Fills a vertex's header and attributes for (vertex id, instance) and runs the shader:
// shared by middle ends that shade exactly as the reference does.
void shade_vertex(const DrawState& state, const VertexLayout& layout, uint32_t vertex_id,
                  uint32_t instance, uint32_t* out);

// The layout fetch_shade produces for a draw's vertex input.
VertexLayout vertex_layout_for(const VertexInput& input);

} // namespace drawpipe
