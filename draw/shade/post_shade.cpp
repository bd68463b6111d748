// The per-vertex step after shading, with a RasterState bound: the clip test against the
// view volume and the enabled user planes, then the perspective divide and viewport
// transform into window coordinates (drawpipe/raster_state.hpp). Only batches with a vertex
// outside keep their clip-space positions, for the clip stage.
#include "draw/shade/raster_plan.hpp"

#include "drawpipe/error.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace drawpipe {

float RasterPlan::distance(uint32_t plane, const float* p, const uint32_t* record) const {
    switch (plane) {
    case 0:
    case 1:
        return p[plane] + p[3];
    case 2: // the near plane: z >= -w, or z >= 0 under clip control's zero_to_one
        return z_clip == ZClip::half ? p[2] : p[2] + p[3];
    case 3:
    case 4:
    case 5:
        return p[3] - p[plane - 3];
    default: {
        const uint32_t i = plane - kViewPlanes;
        if (i < layout.outputs.clip_distances)
            return dword_float(record[layout.clip_distance_slot() + i]);
        const auto& c = state.clip_planes[i];
        float cv[4];
        if (state.clip_vertex_varying >= 0) {
            std::memcpy(cv, record + layout.varying_slot(uint32_t(state.clip_vertex_varying)), 16);
            p = cv;
        }
        return c[0] * p[0] + c[1] * p[1] + c[2] * p[2] + c[3] * p[3];
    }
    }
}

std::shared_ptr<const RasterPlan> plan_raster(const RasterState& s, const VertexLayout& layout,
                                              bool capturing) {
    auto bad = [](const std::string& what) { throw Error(ErrorCode::invalid_value, what); };
    if (s.viewport_count < 1 || s.viewport_count > kMaxViewports)
        bad("viewport_count: " + std::to_string(s.viewport_count) + " is not 1-" +
            std::to_string(kMaxViewports));
    for (uint32_t i = 0; i < s.viewport_count; ++i) {
        const Viewport& v = s.viewport_at(i);
        if (!(v.width >= 0) || !(v.height >= 0))
            bad(i == 0 ? std::string("viewport: width and height must not be negative")
                       : "extra_viewports[" + std::to_string(i - 1) + "] (viewport " +
                             std::to_string(i) + "): width and height must not be negative");
        if (std::isnan(v.x) || std::isnan(v.y) || std::isnan(v.near) || std::isnan(v.far))
            bad("viewport " + std::to_string(i) + ": a corner or depth range is NaN");
    }
    if (uint32_t(s.clip_origin) > uint32_t(ClipOrigin::upper_left))
        bad("clip_origin: not a ClipOrigin");
    if (uint32_t(s.clip_depth) > uint32_t(ClipDepth::zero_to_one))
        bad("clip_depth: not a ClipDepth");
    if (!(s.line_width > 0)) bad("line_width: must be positive");
    if (!(s.point_size > 0)) bad("point_size: must be positive");
    if (s.stipple_factor < 1 || s.stipple_factor > 256) bad("stipple_factor: must be 1-256");
    if (!(s.offset_units_r >= 0) || !std::isfinite(s.offset_units_r))
        bad("offset_units_r: must be 0 or a positive finite step");
    if (std::isnan(s.offset_clamp)) bad("offset_clamp: is NaN");
    if (uint32_t(s.front_face) > uint32_t(FrontFace::cw)) bad("front_face: not a FrontFace");
    if (uint32_t(s.cull) > uint32_t(CullFace::front_and_back)) bad("cull: not a CullFace");
    if (uint32_t(s.front_mode) > uint32_t(PolygonMode::point) ||
        uint32_t(s.back_mode) > uint32_t(PolygonMode::point))
        bad("front_mode, back_mode: not a PolygonMode");
    if (s.clip_plane_enable >> kMaxClipDistances)
        bad("clip_plane_enable: planes past " + std::to_string(kMaxClipDistances - 1));
    if (s.sprite_coord_varying >= int32_t(layout.varying_count()))
        bad("sprite_coord_varying: " + std::to_string(s.sprite_coord_varying) +
            " is not an output of the last shader stage");
    if (s.clip_vertex_varying >= int32_t(layout.varying_count()))
        bad("clip_vertex_varying: " + std::to_string(s.clip_vertex_varying) +
            " is not an output of the last shader stage");
    if (s.front_face_varying >= int32_t(layout.varying_count()))
        bad("front_face_varying: " + std::to_string(s.front_face_varying) +
            " is not an output of the last shader stage");
    if (s.edge_flag_varying >= int32_t(layout.varying_count()))
        bad("edge_flag_varying: " + std::to_string(s.edge_flag_varying) +
            " is not an output of the last shader stage");
    if (s.two_side) {
        const auto n = int32_t(layout.varying_count());
        int32_t fronts[kMaxTwoSideColors];
        for (uint32_t i = 0; i < kMaxTwoSideColors; ++i) {
            const ColorPair& c = s.two_side_colors[i];
            fronts[i] = c.front;
            if (c.front < 0 && c.back < 0) continue;
            const std::string name = "two_side_colors[" + std::to_string(i) + "]: ";
            if (c.front < 0 || c.back < 0 || c.front >= n || c.back >= n)
                bad(name + "front " + std::to_string(c.front) + " and back " +
                    std::to_string(c.back) + " must both be outputs of the last shader stage (0-" +
                    std::to_string(n - 1) + ")");
            if (c.front == c.back) bad(name + "front and back are the same output");
            if (layout.varying(uint32_t(c.front)).type != layout.varying(uint32_t(c.back)).type)
                bad(name + "front and back outputs differ in type");
            for (uint32_t j = 0; j < i; ++j)
                if (fronts[j] == c.front)
                    bad(name + "front output " + std::to_string(c.front) + " is also pair " +
                        std::to_string(j) + "'s");
        }
    }
    auto plan = std::make_shared<RasterPlan>();
    plan->state = s;
    plan->layout = layout;
    // GL clamps widths, sizes and the viewport to the implementation's limits (limits.hpp);
    // it also keeps window coordinates small enough for a rasterizer's fixed point.
    plan->state.line_width = std::min(s.line_width, kMaxLineWidth);
    plan->state.point_size = std::min(s.point_size, kMaxPointSize);
    const bool upper_left = s.clip_origin == ClipOrigin::upper_left;
    const bool zero_to_one = s.clip_depth == ClipDepth::zero_to_one;
    for (uint32_t i = 0; i < kMaxViewports; ++i) {
        Viewport& vp = i == 0 ? plan->state.viewport : plan->state.extra_viewports[i - 1];
        const Viewport v = vp;
        vp.width = std::min(v.width, kMaxViewportDims);
        vp.height = std::min(v.height, kMaxViewportDims);
        vp.x = std::clamp(v.x, kViewportBoundsMin, kViewportBoundsMax);
        vp.y = std::clamp(v.y, kViewportBoundsMin, kViewportBoundsMax);
        // GL's depth range is clamped to [0, 1].
        vp.near = std::clamp(v.near, 0.0f, 1.0f), vp.far = std::clamp(v.far, 0.0f, 1.0f);
        const float n = vp.near, f = vp.far, half_h = vp.height / 2;
        // upper_left negates y_ndc: the picture flips about the viewport's centre line.
        ViewportXform& x = plan->viewports[i];
        x.scale = {vp.width / 2, upper_left ? -half_h : half_h, zero_to_one ? f - n : (f - n) / 2};
        x.translate = {vp.x + vp.width / 2, vp.y + half_h, zero_to_one ? n : (n + f) / 2};
    }
    // Indices past the count take viewport 0 (RasterState::viewport_at).
    for (uint32_t i = s.viewport_count; i < kMaxViewports; ++i)
        plan->viewports[i] = plan->viewports[0];
    plan->scale = plan->viewports[0].scale;
    plan->translate = plan->viewports[0].translate;
    plan->z_clip = s.depth_clamp ? ZClip::none : zero_to_one ? ZClip::half : ZClip::full;
    plan->viewport_per_primitive = layout.outputs.viewport_index && s.viewport_count > 1;
    // ARB_clip_control: upper_left negates the area facing is decided by, so that a triangle
    // keeps its facing though its window-space winding turned (Mesa's state tracker flips
    // front_ccw likewise). The stages decide facing by window-space winding, so they get the
    // other front face.
    if (upper_left)
        plan->state.front_face = s.front_face == FrontFace::ccw ? FrontFace::cw : FrontFace::ccw;
    plan->user_planes = s.clip_plane_enable;
    plan->parallel = !capturing;
    const bool filled = s.front_mode == PolygonMode::fill && s.back_mode == PolygonMode::fill;
    plan->wide_lines = std::round(plan->state.line_width) > s.wide_line_threshold;
    const bool offset = s.offset_fill || s.offset_line || s.offset_point;
    // Interp::flat outputs need no stage while primitives reach the backend whole: it reads
    // them from the provoking vertex. The flat shade model does (the backend sees only the
    // outputs' own qualifiers).
    // Mesa's draw_need_pipeline for triangles, with the polygon modes as Mesa's GL state
    // tracker simplifies them (a culled face takes the other face's mode): polygon mode line
    // or point, or polygon offset when llvmpipe leaves that to the draw module, which it does
    // only while the draw module must run its pipeline anyway (llvmpipe_create_rasterizer_state:
    // polygon mode line or point, or line stipple); otherwise llvmpipe offsets filled
    // triangles itself.
    PolygonMode front = s.front_mode, back = s.back_mode;
    if (s.cull == CullFace::front || s.cull == CullFace::front_and_back) front = back;
    if (s.cull == CullFace::back || s.cull == CullFace::front_and_back) back = front;
    const bool unfilled = front != PolygonMode::fill || back != PolygonMode::fill;
    // Per-primitive viewports need the clip stage on every primitive, quad strips included
    // (a run held for the driver's order keeps no clip-space positions).
    plan->triangles_in_pipeline =
        unfilled || (offset && s.line_stipple) || plan->viewport_per_primitive;
    plan->offset_saturates = unfilled || s.line_stipple;
    plan->two_side = false;
    if (s.two_side)
        for (const ColorPair& c : s.two_side_colors) plan->two_side |= c.front >= 0;
    plan->per_primitive = plan->viewport_per_primitive || plan->two_side || !filled ||
                          s.cull != CullFace::none || s.line_stipple || plan->wide_lines ||
                          s.point_size != 1.0f || layout.outputs.point_size ||
                          s.sprite_coord_varying >= 0 || offset || s.flatshade;
    return plan;
}

namespace {

// One position (x, y, z, w) as a vector (GCC/Clang vector extensions: SSE, NEON, or scalar
// code where there is neither).
using F4 = float __attribute__((vector_size(16)));
using I4 = int32_t __attribute__((vector_size(16)));

F4 load4(const uint32_t* p) {
    F4 v;
    std::memcpy(&v, p, 16);
    return v;
}

} // namespace

void post_shade(const RasterPlan& plan, ShadedBatch& batch, ClipResults& clip_out) {
    const uint32_t n = batch.vertex_count, stride = plan.layout.stride();
    uint32_t* rec = batch.vertices.data();
    const uint32_t user = plan.user_planes;
    clip_out.clip_mask.resize(n);
    // A lane is outside when it fails `>= -w` (or `<= w`), so NaN counts as outside.
    uint32_t clip_or = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t* r = rec + size_t(i) * stride;
        const F4 p = load4(r + SLOT_POSITION);
        const F4 w = {p[3], p[3], p[3], p[3]};
        const I4 below = ~(p >= -w), above = ~(p <= w);
        uint32_t m = uint32_t((below[0] & 1) | (below[1] & 2) | (below[2] & 4) | (above[0] & 8) |
                              (above[1] & 16) | (above[2] & 32));
        const I4 finite = (p - p) == F4{0, 0, 0, 0}; // x - x is NaN for NaN and both infinities
        if (!(finite[0] & finite[1] & finite[2] & finite[3])) m |= CLIP_NONFINITE;
        if (plan.z_clip != ZClip::full) {
            m &= ~uint32_t(CLIP_NEAR | CLIP_FAR);
            if (plan.z_clip == ZClip::half)
                m |= (p[2] >= 0.0f ? 0u : uint32_t(CLIP_NEAR)) | uint32_t(above[2] & CLIP_FAR);
        }
        if (user) {
            const float pos[4] = {p[0], p[1], p[2], p[3]};
            for (uint32_t u = user; u; u &= u - 1) {
                const uint32_t k = uint32_t(__builtin_ctz(u));
                m |= uint32_t(!(plan.distance(kViewPlanes + k, pos, r) >= 0)) << (kViewPlanes + k);
            }
        }
        clip_out.clip_mask[i] = uint16_t(m);
        clip_or |= m;
    }
    clip_out.clip_or = clip_or;
    // With per-primitive viewports the clip stage may place any vertex again.
    if (clip_or || plan.viewport_per_primitive) {
        clip_out.clip_pos.resize(size_t(n) * 4);
        for (uint32_t i = 0; i < n; ++i)
            std::memcpy(&clip_out.clip_pos[4 * size_t(i)], rec + size_t(i) * stride + SLOT_POSITION,
                        16);
    }
    // Window coordinates: xyz / w * scale + translate, and 1 / w in the w slot. The
    // multiply-add is rounded once, as llvmpipe's draw module does it (its generated vertex
    // code uses LLVM's fmuladd, which is one FMA instruction on every CPU that has one).
    if (plan.viewport_per_primitive) {
        // Each vertex in its own index's viewport, which is its primitive's when it provokes
        // it; the clip stage moves the others.
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t* r = rec + size_t(i) * stride;
            float clip[4];
            std::memcpy(clip, r + SLOT_POSITION, 16);
            window_position(plan.viewports[plan.viewport_of(r)], clip,
                            reinterpret_cast<float*>(r + SLOT_POSITION));
        }
        return;
    }
    const F4 scale = {plan.scale[0], plan.scale[1], plan.scale[2], 0.0f};
    const F4 translate = {plan.translate[0], plan.translate[1], plan.translate[2], 0.0f};
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t* r = rec + size_t(i) * stride + SLOT_POSITION;
        const F4 v = load4(r);
        const float iw = 1.0f / v[3];
        const F4 ndc = v * iw;
        F4 win;
        for (int c = 0; c < 3; ++c) win[c] = std::fma(ndc[c], scale[c], translate[c]);
        win[3] = iw;
        std::memcpy(r, &win, 16);
    }
}

void window_position(const ViewportXform& v, const float* clip, float* out) {
    // The same operations as post_shade's loop: 1 / w, ndc = p * (1 / w), one fused step.
    const float iw = 1.0f / clip[3];
    float win[4];
    for (int c = 0; c < 3; ++c) win[c] = std::fma(clip[c] * iw, v.scale[c], v.translate[c]);
    win[3] = iw;
    std::memcpy(out, win, 16);
}

} // namespace drawpipe
