// Small-primitive culling for a rasterizer with GL's single-sample rules: a triangle samples
// coverage only at pixel centres (x + 0.5, y + 0.5 in window coordinates), so one whose
// bounding box holds no centre draws nothing, and a driver may drop it before its own
// triangle setup (on the threads that shaded it, say). A dense mesh at a small window is
// mostly such triangles: W1's 2M triangles at 320x240 are 2% of a pixel each.
//
// Conservative: the box is widened by kSmallCullMargin first, so a rasterizer that snaps
// vertices to a sub-pixel grid (llvmpipe: 1/256 of a pixel, rounded) or tests a centre on an
// edge as covered still draws nothing for a triangle culled here. Not for multisampling (other
// sample positions) nor for the D3D9 convention of centres at whole numbers.
#pragma once

#include <cstdint>

namespace drawpipe {

// Pixels by which the bounding box is widened: 4x llvmpipe's snapping error (1/512).
inline constexpr float kSmallCullMargin = 1.0f / 128;

// True when the triangle with window positions (x, y) a, b and c certainly covers no pixel
// centre. False for a non-finite position (the rasterizer decides).
bool misses_pixel_centres(const float a[2], const float b[2], const float c[2]);

// Keeps the triangles of `elts` (three elements each, indexes of records `stride` floats apart
// in `records`, each starting with its window x and y) that may cover a pixel centre, writing
// their elements in order to `out` (which may be `elts`); returns the triangles kept.
uint32_t cull_small_triangles(const float* records, uint32_t stride, const uint16_t* elts,
                              uint32_t triangles, uint16_t* out);

} // namespace drawpipe
