// The vectorised fetch / shade / emit path: what shade_vertices / shade_segment
// (drawpipe/extend/shading.hpp) do, bit for bit, with the per-draw decisions taken once.
//
// A SimdShade is built once per draw (in a middle end's prepare()): it resolves each
// attribute's buffer address, stride, format and robust-access bound into a fetch plan. Its
// shade functions then fetch a block of kShaderLanes vertices into the shader's structure of
// arrays with SIMD loads (fast kernels for 32-bit float / int components; every other format
// through fetch_attrib), run the vertex shader once per block, and transpose the block into
// the records. The kernels are compiled for every x86 SIMD level and chosen at run time
// (Google Highway). Middle ends whose plain path is shade_segment use it the same way:
// `SimdShade shader(state)` in prepare(), `shader.shade_segment(seg, out)` in shade().
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/segment.hpp"
#include "drawpipe/extend/shaded.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

class SimdShade {
  public:
    // For the records of vertex_layout_for(state). The state's buffers, attributes and
    // shader are read when shading, as DrawState promises they stay valid.
    explicit SimdShade(const DrawState& state);
    ~SimdShade();
    SimdShade(SimdShade&&) noexcept;
    SimdShade& operator=(SimdShade&&) noexcept;

    const VertexLayout& layout() const { return layout_; }

    // As shade_vertices(state, layout(), ids, n, instance, draw_id, out).
    void shade_vertices(const uint32_t* ids, uint32_t n, uint32_t instance, uint32_t draw_id,
                        uint32_t* out) const;
    // As shade_fetched(state, layout(), seg, instance, out).
    void shade_fetched(const Segment& seg, uint32_t instance, uint32_t* out) const;
    // As shade_segment(state, layout(), seg, out).
    void shade_segment(const Segment& seg, ShadedBatch& out) const;
    // The same and, in the same pass over each block, the draw module's per-vertex step
    // `post` (MiddleEndDraw::shade_post): the positions written are then window coordinates,
    // which a middle end hands on unchanged. Returns false, having only shaded, for a segment
    // the fused pass does not take (more than one instance, or an empty one).
    bool shade_segment(const Segment& seg, ShadedBatch& out, const PostShadeStep& post,
                       ClipResults& clip) const;

  private:
    void emit_segment(const Segment& seg, uint32_t first_vertex, ShadedBatch& out) const;
    void shade_post(const Segment& seg, ShadedBatch& out, const PostShadeStep& post,
                    ClipResults& clip) const;

    struct Plan; // the draw's fetch plan, resolved once (draw/shade/fetch_plan.cpp)
    VertexLayout layout_;
    std::unique_ptr<const Plan> plan_;
};

// The SIMD level the kernels run at on this CPU ("AVX3" is AVX-512, "AVX2", "SSE4", ...).
std::string_view simd_target();
// The levels this build has kernels for and this CPU runs, best first.
std::vector<std::string> simd_targets();
// Runs every SIMD kernel of the draw module (fetch and shade, emit, the cull loop, the
// middle-end check) at `name`, one of simd_targets() (case ignored), or at the best again
// for "". Process-wide; call it while nothing draws. A Context made while the environment
// variable DRAWPIPE_SIMD_TARGET is set calls it with that value, so that tests and fuzzers
// can compare every level with the scalar reference. Throws Error(invalid_value) naming the
// levels there are.
void pin_simd_target(std::string_view name);

} // namespace drawpipe
