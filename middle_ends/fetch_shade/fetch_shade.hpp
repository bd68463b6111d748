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
    void run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const override;

  private:
    uint32_t max_vertices_;
    DrawState state_;
    VertexLayout layout_;
};

// Fills a vertex's header and attributes for (vertex id, instance) and runs the shader:
// shared by middle ends that shade exactly as the reference does.
void shade_vertex(const DrawState& state, const VertexLayout& layout, uint32_t vertex_id,
                  uint32_t instance, uint32_t* out);

// The layout fetch_shade produces for a draw's vertex input.
VertexLayout vertex_layout_for(const VertexInput& input);

} // namespace drawpipe
