// Small-primitive culling for a rasterizer with GL's single-sample rules: a triangle samples
// coverage only at pixel centres (x + 0.5, y + 0.5 in window coordinates), so one whose
// bounding box holds no centre draws nothing, and a driver may drop it before its own
// triangle setup (on the threads that shaded it, say). A dense mesh at a small window is
// mostly such triangles: W1's 2M triangles at 320x240 are 2% of a pixel each.
//
// Conservative: positions are taken to 1/256 of a pixel and the box widened by
// kSmallCullMargin, so a rasterizer that snaps vertices to that grid (llvmpipe, rounding) and
// takes a centre on an edge as covered still draws nothing for a triangle culled here. Not for
// multisampling (other sample positions) nor for D3D9's centres at whole numbers.
#pragma once

#include <cstdint>

namespace drawpipe {

// Sub-pixels (1/256) by which the box is widened: our rounding moves a position by at most 1/2
// of one, llvmpipe's snapping of x - 0.5 by at most 1/2 and 1/8 (the float subtraction).
inline constexpr int32_t kSmallCullMargin = 2;

// True when the triangle with window positions (x, y) a, b and c certainly covers no pixel
// centre: along x or along y, the first centre its box reaches (the least position to 1/256
// pixel, less the margin) comes after the last (the greatest, plus the margin). A corner
// outside (-16384, 16384) pixels, or not finite, keeps the triangle.
bool misses_pixel_centres(const float a[2], const float b[2], const float c[2]);

// Keeps the triangles of `elts` (three elements each, indexes of records `stride` floats apart
// in `records`, each starting with its window x and y) that may cover a pixel centre, writing
// their elements in order to `out` (which may be `elts`); returns the triangles kept: those
// misses_pixel_centres keeps, tested a vector of triangles at a time (their corners gathered).
uint32_t cull_small_triangles(const float* records, uint32_t stride, const uint16_t* elts,
                              uint32_t triangles, uint16_t* out);

} // namespace drawpipe
