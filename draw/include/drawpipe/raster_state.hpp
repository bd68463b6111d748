// Rasterizer state: what the pipeline stages after stream output need (GL's viewport,
// clipping, culling, polygon mode, stipple, widths, offset). Bound with
// Context::set_raster_state; without it the backend receives positions as the last shader
// stage wrote them (clip space) and no stage runs.
//
// With it bound, the backend receives window coordinates in the position slot:
// (x_w, y_w, z_w, 1 / w_clip), x and y in pixels with y up and pixel centres at
// half-integers, z in the depth range. Every decomposed primitive keeps its provoking vertex
// first (Provoking::first) or last (Provoking::last), so a backend finds it without knowing
// the primitive type it came from.
#pragma once

#include "drawpipe/limits.hpp"

#include <array>
#include <cstdint>

namespace drawpipe {

struct Viewport {
    float x = 0, y = 0, width = 0, height = 0; // glViewport
    float near = 0, far = 1;                   // glDepthRange
};

// glClipControl (and Vulkan's conventions: upper_left, zero_to_one). upper_left flips y about
// the viewport's centre and keeps every triangle's facing; zero_to_one clips at 0 <= z <= w
// and maps z to the depth range without GL's halving.
enum class ClipOrigin : uint8_t { lower_left, upper_left };
enum class ClipDepth : uint8_t { negative_one_to_one, zero_to_one };

enum class PolygonMode : uint8_t { fill, line, point };
enum class CullFace : uint8_t { none, front, back, front_and_back };
enum class FrontFace : uint8_t { ccw, cw };

// A front colour output and the back one that replaces it on back faces (two-sided colour).
struct ColorPair {
    int32_t front = -1, back = -1; // generic outputs of the last shader stage; -1: unused
};
inline constexpr uint32_t kMaxTwoSideColors = 2; // primary and secondary colour

struct RasterState {
    Viewport viewport; // viewport 0: every primitive's, unless the shader selects another
    // ARB_viewport_array: viewports 1 to viewport_count - 1 are extra_viewports[0 ..]. A
    // primitive takes the viewport its provoking vertex's viewport-index output names (the
    // last vertex stage's gl_ViewportIndex); an index of viewport_count or more, or a stage
    // that writes none, takes viewport 0 (GL leaves an index >= 16 undefined; llvmpipe uses 0).
    // GL gives every index a viewport, the framebuffer's until one is set: a GL driver passes
    // all 16 whenever the shader writes the index.
    uint32_t viewport_count = 1; // 1 to kMaxViewports
    std::array<Viewport, kMaxViewports - 1> extra_viewports{};
    ClipOrigin clip_origin = ClipOrigin::lower_left;
    ClipDepth clip_depth = ClipDepth::negative_one_to_one;
    // GL_DEPTH_CLAMP: no near or far clipping; the backend clamps each fragment's depth to
    // its primitive's depth range (drawpipe/backends/raster.hpp, RasterOptions::depth_clamp).
    bool depth_clamp = false;
    FrontFace front_face = FrontFace::ccw;
    CullFace cull = CullFace::none;
    PolygonMode front_mode = PolygonMode::fill;
    PolygonMode back_mode = PolygonMode::fill;
    // glShadeModel(GL_FLAT): every output takes the provoking vertex's value. Outputs
    // declared Interp::flat always do.
    bool flatshade = false;
    // glLineStipple; stipple_factor 1-256, bit i of the pattern covers fragment i / factor.
    bool line_stipple = false;
    uint32_t stipple_factor = 1;
    uint16_t stipple_pattern = 0xFFFF;
    float line_width = 1.0f;
    // The driver's, not GL's (Mesa's draw_wide_line_threshold): lines whose width rounds to
    // at most this reach the backend whole, for it to draw at line_width itself; wider ones
    // become thin lines in the wide-line stage. llvmpipe draws every width itself (10000).
    float wide_line_threshold = 1.0f;
    float point_size = 1.0f; // used unless the last shader stage writes a point size
    // GL_POINT_SPRITE (gl_PointCoord, or a texture coordinate with COORD_REPLACE): every point
    // of every size is drawn as its square, whose fragments get (s, t, 0, 1) in this generic
    // output: s from 0 at the point's left edge to 1 at its right, t from 0 at its top to 1
    // at its bottom (GL_POINT_SPRITE_COORD_ORIGIN's GL_UPPER_LEFT), or from its bottom with
    // sprite_origin_lower_left. -1: no point sprites.
    int32_t sprite_coord_varying = -1;
    bool sprite_origin_lower_left = false;
    float offset_factor = 0.0f; // glPolygonOffset, applied when any offset_* is on
    float offset_units = 0.0f;
    // The depth buffer's r, the step offset_units count in: 0 for a floating-point buffer,
    // where r follows each triangle's largest depth (2^(e - 23) for e its exponent, 0 below
    // 2^-103, as llvmpipe); else a fixed-point buffer's constant (GL's 2^-24 for 24 bits;
    // Mesa's draw module uses 2 / (2^24 - 1)).
    float offset_units_r = 0.0f;
    // glPolygonOffsetClamp: a positive clamp caps the offset, a negative one floors it; 0: none.
    float offset_clamp = 0.0f;
    bool offset_fill = false, offset_line = false, offset_point = false;
    // GL_CLIP_DISTANCEi / GL_CLIP_PLANEi: bit i of clip_plane_enable keeps the vertices whose
    // distance i is >= 0, that is gl_ClipDistance[i] when the last shader stage writes it, else
    // dot(clip_planes[i], position) in clip space.
    uint32_t clip_plane_enable = 0;
    std::array<std::array<float, 4>, kMaxClipDistances> clip_planes{};
    // gl_ClipVertex: the generic output (four floats) the planes are measured against in place
    // of the position, where the last stage writes no clip distance; -1: the position.
    int32_t clip_vertex_varying = -1;
    // The generic output carrying the per-vertex edge flag (x != 0: boundary edge), as a
    // vertex shader passes glEdgeFlagPointer's attribute on; -1: every edge flag is true.
    int32_t edge_flag_varying = -1;
    // gl_FrontFacing under polygon mode line or point: the generic output (four floats) the
    // unfilled stage writes each triangle's facing into (1.0 front, 0.0 back or without
    // area, every component) on the points and lines it makes, for a backend that cannot tell
    // a line's or point's facing from its own winding; -1: none.
    int32_t front_face_varying = -1;
    // GL_VERTEX_PROGRAM_TWO_SIDE (gl_FrontColor / gl_BackColor and the secondary pair): a
    // back-facing triangle, after culling and in every polygon mode, takes each pair's back
    // output in place of its front one, on every vertex, so the provoking vertex's back colour
    // is its flat one; points and lines keep the front. A pair's outputs have the same type.
    bool two_side = false;
    std::array<ColorPair, kMaxTwoSideColors> two_side_colors{};

    // The viewport index `i` selects (viewport 0 past viewport_count).
    const Viewport& viewport_at(uint32_t i) const {
        return i == 0 || i >= viewport_count || i >= kMaxViewports ? viewport
                                                                   : extra_viewports[i - 1];
    }
};

} // namespace drawpipe
