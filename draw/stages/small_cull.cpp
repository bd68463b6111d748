#include "drawpipe/extend/small_cull.hpp"

#include <algorithm>
#include <cmath>

namespace drawpipe {

namespace {

// Whether the closed interval [lo - margin, hi + margin] of window coordinates holds no pixel
// centre k + 0.5. In double, so that the margin survives coordinates of thousands of pixels.
bool no_centre_between(float lo, float hi) {
    const double from = double(lo) - 0.5 - kSmallCullMargin;
    const double to = double(hi) - 0.5 + kSmallCullMargin;
    return std::floor(to) < std::ceil(from);
}

} // namespace

bool misses_pixel_centres(const float a[2], const float b[2], const float c[2]) {
    // A NaN or infinity anywhere (or a sum past the float range, which is as well kept) makes
    // the sum non-finite: the rasterizer's own snapping of such a position is not to be judged.
    if (!std::isfinite(a[0] + b[0] + c[0] + a[1] + b[1] + c[1])) return false;
    return no_centre_between(std::min({a[0], b[0], c[0]}), std::max({a[0], b[0], c[0]})) ||
           no_centre_between(std::min({a[1], b[1], c[1]}), std::max({a[1], b[1], c[1]}));
}

uint32_t cull_small_triangles(const float* records, uint32_t stride, const uint16_t* elts,
                              uint32_t triangles, uint16_t* out) {
    uint32_t kept = 0;
    for (uint32_t t = 0; t < triangles; ++t) {
        const uint16_t e0 = elts[3 * t], e1 = elts[3 * t + 1], e2 = elts[3 * t + 2];
        if (misses_pixel_centres(records + size_t(e0) * stride, records + size_t(e1) * stride,
                                 records + size_t(e2) * stride))
            continue;
        out[3 * kept] = e0, out[3 * kept + 1] = e1, out[3 * kept + 2] = e2;
        ++kept;
    }
    return kept;
}

} // namespace drawpipe
