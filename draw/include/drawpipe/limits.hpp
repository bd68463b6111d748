// Named limits, one line of reason each.
#pragma once

#include <cstdint>

namespace drawpipe {

// Draw elements are u16 positions into a segment's fetched vertices.
inline constexpr uint32_t kMaxSegmentVertices = 65536;
// Mesa's vsplit caps a de-duplicated segment at this many indices.
inline constexpr uint32_t kVsplitSegmentIndices = 1024;
// Mesa's vsplit de-duplicates through a direct-mapped table of this many entries.
inline constexpr uint32_t kVsplitTableEntries = 256;
// Every attribute reaches the middle end as four 32-bit components.
inline constexpr uint32_t kMaxAttribs = 16;
// Dwords before the varyings in a shaded vertex: 4 system values + position.
inline constexpr uint32_t kVertexHeaderDwords = 8;
// Generic vec4 outputs a shader may declare (GL's 128 output components).
inline constexpr uint32_t kMaxVaryings = 32;
// gl_ClipDistance entries (GL's minimum GL_MAX_CLIP_DISTANCES).
inline constexpr uint32_t kMaxClipDistances = 8;
// Most dwords of a shaded vertex record: header, position, varyings, point size, clip
// distances, layer, viewport index.
inline constexpr uint32_t kMaxRecordDwords =
    kVertexHeaderDwords + 4 * kMaxVaryings + 1 + kMaxClipDistances + 2;
// Vertices a vertex shader gets per call: a multiple of every SIMD width in use, small
// enough that one block's inputs and outputs stay in L1.
inline constexpr uint32_t kShaderLanes = 32;
// GL clamps these to the implementation's range; drawpipe's are llvmpipe's. Line widths
// (GL_ALIASED_LINE_WIDTH_RANGE) and point sizes (GL_POINT_SIZE_RANGE), from the state or a
// shader's point-size output:
inline constexpr float kMaxLineWidth = 255.0f;
inline constexpr float kMaxPointSize = 255.0f;
// the viewport's width and height (GL_MAX_VIEWPORT_DIMS) and its corner
// (GL_VIEWPORT_BOUNDS_RANGE, GL's least: twice the dimensions either way).
inline constexpr float kMaxViewportDims = 16384.0f;
inline constexpr float kViewportBoundsMin = -2 * kMaxViewportDims;
inline constexpr float kViewportBoundsMax = 2 * kMaxViewportDims - 1;
// Viewports a raster state holds, selected by the viewport index (GL_MAX_VIEWPORTS, llvmpipe's).
inline constexpr uint32_t kMaxViewports = 16;
// Per-segment counters a middle end may report (MiddleEnd::counters()).
inline constexpr uint32_t kMaxCounters = 8;

} // namespace drawpipe
