// A bound RasterState resolved for one draw: the viewport transform, the clip planes in use,
// and where the per-vertex work runs. The per-vertex step (clip test, perspective divide,
// viewport) runs in the middle end's parallel stage unless stream output is bound, which must
// capture the positions the shader wrote: then the sink runs it after the capture.
#pragma once

#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/raster_state.hpp"

#include <array>
#include <cstdint>
#include <memory>

namespace drawpipe {

// Which z the view volume bounds: GL's -w <= z <= w, clip control's 0 <= z <= w, or none
// (depth clamp).
enum class ZClip : uint8_t { full, half, none };

// One viewport's transform: window = ndc * scale + translate.
struct ViewportXform {
    std::array<float, 3> scale{}, translate{};
};

// MiddleEndDraw::shade_post receives one through its opaque public base.
struct RasterPlan : PostShadeStep {
    RasterState state; // front_face as window-space winding sees it (upper_left flips it)
    VertexLayout layout;
    std::array<float, 3> scale{}, translate{};            // viewport 0's transform
    std::array<ViewportXform, kMaxViewports> viewports{}; // every index's (viewport_at)
    ZClip z_clip = ZClip::full;
    // The last vertex stage writes a viewport index and there is more than one viewport:
    // post_shade places each vertex in its own index's viewport and keeps every clip-space
    // position, and the clip stage moves a primitive's other vertices into its provoking
    // vertex's viewport. Otherwise every vertex takes viewport 0 (the fast path).
    bool viewport_per_primitive = false;
    uint32_t user_planes = 0;   // bits i of enabled user planes / clip distances
    bool parallel = true;       // the per-vertex step runs in the parallel stage
    bool per_primitive = false; // some stage besides clip works on every primitive
    bool wide_lines = false;    // the wide-line stage runs (width above wide_line_threshold)
    // Mesa's draw module would run every triangle through its pipeline for this state, not
    // only runs with a vertex outside (plan_raster says when): quad strips then take the
    // pipeline's order (QuadStripOrder).
    bool triangles_in_pipeline = false;
    // Polygon offset clamps each vertex's depth to [0, 1], as Mesa's draw module does
    // (draw_pipe_offset.c) when llvmpipe leaves offset to it (plan_raster says when).
    bool offset_saturates = false;
    // The two-side stage runs: two_side on with a colour pair given.
    bool two_side = false;

    // The viewport a record's primitive takes when it provokes it (viewport_per_primitive).
    uint32_t viewport_of(const uint32_t* record) const {
        const uint32_t i = record[layout.viewport_slot()];
        return i < state.viewport_count ? i : 0;
    }
    // Signed distance of a clip-space position (and its record) to plane p (< 0: outside).
    float distance(uint32_t plane, const float* pos, const uint32_t* record) const;
};

// The plan behind a shade_post request: the draw module passes nothing else there.
inline const RasterPlan& raster_plan_of(const PostShadeStep& step) {
    return static_cast<const RasterPlan&>(step);
}

// Resolves `state` for a draw whose vertices have `layout`; `capturing`: stream output is
// bound. Throws Error(invalid_value) naming the field for a state GL rejects.
std::shared_ptr<const RasterPlan> plan_raster(const RasterState& state, const VertexLayout& layout,
                                              bool capturing);

// The per-vertex step over a batch: clip masks into `clip`, then window coordinates in every
// record (clip.clip_or and, when it is not 0, clip_mask and clip_pos).
void post_shade(const RasterPlan& plan, ShadedBatch& batch, ClipResults& clip);

// A clip-space position's window coordinates (x_w, y_w, z_w, 1 / w) in viewport `v`, rounded
// as post_shade rounds them.
void window_position(const ViewportXform& v, const float* clip, float* out);

} // namespace drawpipe
