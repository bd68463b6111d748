// The middle-end interface, as its author implements it: fetch, shade and emit one
// segment at a time (a driver holds a MiddleEnd through <drawpipe/middle_end.hpp>).
//
// A middle end is stateless. prepare() receives a validated draw state and returns an
// immutable per-draw object, MiddleEndDraw, whose shade() runs on many threads at once, each with
// scratch of its own from make_scratch(). So one bound middle end serves every draw in flight.
#pragma once

#include "drawpipe/extend/segment.hpp"
#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/middle_end.hpp"
#include "drawpipe/tessellator.hpp"
#include "drawpipe/types.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

class GeometryShader;     // drawpipe/gs.hpp
struct TessControlShader; // drawpipe/tess.hpp
struct TessEvalShader;

// Everything a middle end may read about one draw. The spans and pointers stay valid until
// the draw has reached the backend.
struct DrawState {
    DrawInfo draw;
    VertexInput input;
    const VertexShader* vs = nullptr;   // null: attributes pass through, position = attrib 0
    const GeometryShader* gs = nullptr; // null: no geometry stage
    // Tessellation (drawpipe/tess.hpp): both null without it; a control shader only with an
    // evaluation shader. The default levels apply to patches without a control shader.
    const TessControlShader* tcs = nullptr;
    const TessEvalShader* tes = nullptr;
    TessLevels patch_default_levels = {};
};

struct MiddleEndLimits {
    uint32_t max_vertices = 4096;    // most vertices one segment may ask to fetch
    bool handles_instancing = false; // segments carry every instance at once
    // Deliver whole input primitives of this list type (points, lines, lines_adjacency,
    // triangles, triangles_adjacency), as a geometry shader consumes them.
    std::optional<Prim> assemble_as;
    // With handles_instancing: keep GL order (all of instance 0 first) by giving every
    // instance at once only to a draw that is one segment; a draw that splits gets one
    // pass per instance instead.
    bool instancing_single_segment_only = false;
    // Delivers every vertex stream of a geometry shader (PrimRange::stream), not only stream
    // 0: required to capture a stream past 0 with stream output.
    bool delivers_streams = false;
    // What one fetched vertex costs relative to a plain one: a stage that multiplies its
    // input (tessellation) says how much, so the draw module sizes its tokens and decides
    // whether to use its threads by the work shaded, not by the vertices fetched.
    uint32_t work_per_vertex = 1;
};

// Per-thread working memory of a middle end, reused from segment to segment and draw to draw.
struct MiddleEndScratch {
    virtual ~MiddleEndScratch() = default;
};

// A middle end prepared for one draw: immutable, shared by every thread shading its segments.
class MiddleEndDraw {
  public:
    MiddleEndDraw(const MiddleEndLimits& limits, const VertexLayout& layout)
        : limits_(limits), layout_(layout) {}
    virtual ~MiddleEndDraw() = default;

    const MiddleEndLimits& limits() const { return limits_; }
    // Layout of the vertices shade() produces.
    const VertexLayout& layout() const { return layout_; }
    // Fetches, shades and assembles one segment into `out` (cleared by the caller). Called
    // concurrently, each call with its own scratch (made by the same middle end) and `out`.
    virtual void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const = 0;
    // As shade(), asked also to run the draw module's per-vertex step `post` (clip test,
    // divide, viewport) while the positions are at hand, its results into `clip`. Returns
    // whether it did; if not, the draw module runs the step after. The draw module asks only
    // for draws whose step may run per vertex, each vertex in viewport 0 (decided once per
    // draw). The default shades and returns false; SimdShade::shade_segment does the step.
    virtual bool shade_post(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out,
                            const PostShadeStep& post, ClipResults& clip) const {
        (void)post;
        (void)clip;
        shade(seg, scratch, out);
        return false;
    }

  private:
    MiddleEndLimits limits_;
    VertexLayout layout_;
};

} // namespace drawpipe
