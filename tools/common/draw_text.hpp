// The draw description text format used by the CLI and the tests:
//
//   prim triangle_strip   index u16   indices 0 1 2 ...   restart 65535   start 0   count 8
//   base_vertex 0   instances 1   base_instance 0   provoking last   attrib 0   vs NAME
//   gs NAME
//   patch_vertices 4   tess quads equal ccw [point_mode]   tess_levels 4 4 4 4 2 2
//   tcs levels_by_patch                                      (tessellation: prim patches)
//
// one key per line, `#` starts a comment, keys in any order, `indices` and `attrib` repeat.
// An `attrib D` is a uint32 attribute with instance divisor D whose element k holds k.
#pragma once

#include "drawpipe/raster_state.hpp"
#include "drawpipe/tessellator.hpp"
#include "drawpipe/types.hpp"
#include "tools/common/multi_draw_text.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

// Every key a description may hold, for help texts.
inline constexpr const char* kDescriptionKeys =
    "prim, index, indices, restart, start, count, base_vertex, instances, base_instance, "
    "provoking, attrib, vs, multi_draw, indirect, indirect_count, patch_vertices, tess, "
    "tess_levels, tcs, gs; for drawpipe render: positions, colors, edgeflags, viewport, "
    "depth_range, polygon_mode, cull, front_face, shade, line_stipple, line_width, point_size, "
    "point_sprite, clip_plane, clip_style, depth_test, polygon_offset, viewport_array, "
    "depth_clamp, clip_control, two_side, back_colors";

// What the viewport-array and clip-convention keys mean, for help texts.
inline constexpr const char* kConventionKeysHelp =
    "viewport_array I X Y W H [NEAR FAR]: viewport I (0-15; glViewportIndexedf and "
    "glDepthRangeIndexed), one line each; the indices not given keep `viewport` and "
    "`depth_range` (else the whole image, 0..1); the last vertex stage's gl_ViewportIndex "
    "(e.g. gs viewport_select: gl_PrimitiveIDIn % 4) picks one per primitive, by its provoking "
    "vertex, an index of 16 or more viewport 0. depth_clamp 1: GL_DEPTH_CLAMP, no near or far "
    "clipping, depths clamped to the primitive's depth range. clip_control lower_left|upper_left "
    "negative_one_to_one|zero_to_one: glClipControl (upper_left flips y and keeps facing; "
    "zero_to_one clips at 0 <= z <= w and maps depth without the 0.5 scale).";

// What `drawpipe render` draws besides the draw: per-vertex positions, colours and edge
// flags, and the rasterizer state. Positions default to (0, 0, 0, 1), colours to opaque
// white, edge flags to 1.
struct RenderDesc {
    std::vector<float> positions; // 4 per vertex id
    std::vector<float> colors;    // 4 per vertex id
    // 4 per vertex id: the colours `two_side 1` gives back faces, opaque white by default
    std::vector<float> back_colors;
    std::vector<float> edgeflags; // 1 per vertex id
    bool viewport_given = false;  // else the whole image
    bool point_sprite = false;    // the colour output carries the point coordinates
    // `clip_style swapped`: the planes measure a clip vertex (gl_ClipVertex) of the position
    // with x and y swapped (`vertex` and `position`: the position itself).
    bool clip_vertex_swapped = false;
    RasterState raster;
    bool depth_test = false;
    // `viewport_array I X Y W H [NEAR FAR]` lines (glViewportIndexedf, glDepthRangeIndexed):
    // with any, the state holds all kMaxViewports viewports, those not given as viewport 0
    // (`viewport`, else the whole image, and `depth_range`), as glViewport and glDepthRange
    // set every one.
    struct IndexedViewport {
        uint32_t index = 0;
        Viewport viewport;
        bool depth_given = false;
    };
    std::vector<IndexedViewport> viewport_array;
};

struct DrawDesc {
    Prim prim = Prim::triangles;
    IndexType index_type = IndexType::none;
    std::vector<uint32_t> indices;
    bool restart = false;
    uint32_t restart_index = 0;
    uint32_t start = 0;
    uint32_t count = 0;
    bool count_given = false; // when absent, count = indices.size() - start for indexed draws
    int32_t base_vertex = 0;
    uint32_t instances = 1;
    uint32_t base_instance = 0;
    Provoking provoking = Provoking::last;
    std::vector<uint32_t> attrib_divisors;
    std::string gs; // geometry shader name, empty for none
    std::string vs; // vertex shader name (tools/common/vs_library.hpp), empty: pass-through
    // Tessellation (tools/common/tess_library.hpp): `tess` binds the interpolate evaluation
    // shader with this state; `tess_levels` are the patch default levels; `tcs` names a
    // library control shader.
    uint32_t patch_vertices = 3;
    std::optional<TessState> tess;
    TessLevels tess_levels;
    std::string tcs;
    RenderDesc render;
    MultiDrawDesc multi; // multi_draw, indirect, indirect_count (multi_draw_text.hpp)
};

// Parses a description; throws Error(parse_error) naming the line and key.
DrawDesc parse_draw_text(std::string_view text);
// Writes a description that parses back to the same draw.
std::string format_draw_text(const DrawDesc& desc);

// A description bound to memory: index buffer, attribute buffers and the DrawInfo over them.
// Attribute buffers hold every element the draw can read, up to 2^24 (at most 64 MiB, shared
// by all attributes): elements past that read as zero, as any out-of-buffer read does.
struct BoundDraw {
    DrawInfo info;
    std::vector<uint8_t> index_bytes;
    std::vector<std::vector<uint32_t>> attrib_data;
    std::vector<VertexBuffer> buffers;
    std::vector<VertexAttrib> attribs;
    BoundMultiDraw multi; // the sub-draws or indirect records, when the description has them
    VertexInput input() const { return {buffers, attribs}; }
};
std::unique_ptr<BoundDraw> bind_draw(const DrawDesc& desc);

} // namespace drawpipe
