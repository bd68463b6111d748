// For middle-end authors: the plain draw, with no geometry shader and no tessellation, shaded
// exactly as the reference does it through the vectorised path (drawpipe/extend/simd_shade.hpp) and
// writing no counters. A hardware model whose plain path is the reference's returns one from
// prepare() rather than writing its own:
//
//     if (!state.gs) return std::make_shared<PlainDraw>(state, max_vertices_);
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/simd_shade.hpp"

#include <cstdint>
#include <optional>
#include <utility>

namespace drawpipe {

class PlainDraw final : public MiddleEndDraw {
  public:
    // Segments of at most `max_vertices` vertices, one instance each. The fetch plan is made
    // here, once per draw; `state` is read as SimdShade reads it.
    PlainDraw(const DrawState& state, uint32_t max_vertices)
        : PlainDraw(max_vertices, SimdShade(state)) {}

    void shade(const Segment& seg, MiddleEndScratch*, ShadedBatch& out) const override {
        shader_.shade_segment(seg, out);
    }
    bool shade_post(const Segment& seg, MiddleEndScratch*, ShadedBatch& out,
                    const PostShadeStep& post, ClipResults& clip) const override {
        return shader_.shade_segment(seg, out, post, clip);
    }

  private:
    PlainDraw(uint32_t max_vertices, SimdShade shader)
        : MiddleEndDraw({max_vertices, false, std::nullopt}, shader.layout()),
          shader_(std::move(shader)) {}

    SimdShade shader_;
};

} // namespace drawpipe
