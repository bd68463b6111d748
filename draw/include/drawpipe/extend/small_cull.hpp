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

// Sub-pixels (1/256) by which the box is widened: our rounding moves a position by at most 3/4
// of one, llvmpipe's snapping of x - 0.5 by at most 1/2 and 1/8 (the float subtraction).
inline constexpr int32_t kSmallCullMargin = 2;

// The pixel centres a vertex reaches along x and y, margin included: a centre k + 0.5 with
// lo <= k <= hi lies within reach of the vertex, and the centres a triangle's box holds along
// x are those from the least lo_x of its vertices to the greatest hi_x. A vertex outside
// (-16384, 16384) pixels, or not finite, reaches every centre (its triangles are kept). The
// test one triangle at a time; cull_small_triangles below is the list's.
struct CentreRange {
    int16_t lo_x, hi_x, lo_y, hi_y;
};

inline CentreRange centre_range(float x, float y) {
    if (!(x < 16384.0f && x > -16384.0f && y < 16384.0f && y > -16384.0f)) // NaN too
        return {INT16_MIN, INT16_MAX, INT16_MIN, INT16_MAX};
    // Along each axis: the first centre at or past the position less the margin, and the last
    // at or before it plus the margin, centre k sitting at 256 k + 128 sub-pixels; the position
    // to the nearest sub-pixel (ties away from zero; within 3/4 of one after the float add) by
    // a truncating conversion, which needs no library call; an arithmetic shift is a floor.
    const auto reach = [](float v, int16_t& lo, int16_t& hi) {
        const float scaled = v * 256.0f; // exact
        const int32_t s = int32_t(scaled + (scaled >= 0.0f ? 0.5f : -0.5f));
        lo = int16_t((s - kSmallCullMargin - 128 + 255) >> 8);
        hi = int16_t((s + kSmallCullMargin - 128) >> 8);
    };
    CentreRange r;
    reach(x, r.lo_x, r.hi_x);
    reach(y, r.lo_y, r.hi_y);
    return r;
}

// True when the triangle's box holds no pixel centre along x or along y.
inline bool misses_pixel_centres(CentreRange a, CentreRange b, CentreRange c) {
    const auto max3 = [](int16_t p, int16_t q, int16_t r) {
        return p > q ? (p > r ? p : r) : (q > r ? q : r);
    };
    const auto min3 = [](int16_t p, int16_t q, int16_t r) {
        return p < q ? (p < r ? p : r) : (q < r ? q : r);
    };
    return max3(a.hi_x, b.hi_x, c.hi_x) < min3(a.lo_x, b.lo_x, c.lo_x) ||
           max3(a.hi_y, b.hi_y, c.hi_y) < min3(a.lo_y, b.lo_y, c.lo_y);
}

// The same from window positions (x, y).
inline bool misses_pixel_centres(const float a[2], const float b[2], const float c[2]) {
    return misses_pixel_centres(centre_range(a[0], a[1]), centre_range(b[0], b[1]),
                                centre_range(c[0], c[1]));
}

// Keeps the triangles of `elts` (three elements each, indexes of records `stride` floats apart
// in `records`, each starting with its window x and y) that may cover a pixel centre, writing
// their elements in order to `out` (which may be `elts`); returns the triangles kept. A vector
// of triangles at a time (their corners gathered); its positions to the nearest sub-pixel, ties
// to even, where centre_range's go away from zero: both within the margin.
uint32_t cull_small_triangles(const float* records, uint32_t stride, const uint16_t* elts,
                              uint32_t triangles, uint16_t* out);

} // namespace drawpipe
