#include "drawpipe/extend/small_cull.hpp"

namespace drawpipe {

void centre_ranges(const float* records, uint32_t stride, uint32_t count, CentreRange* out) {
    for (uint32_t v = 0; v < count; ++v, records += stride)
        out[v] = centre_range(records[0], records[1]);
}

uint32_t cull_small_triangles(const CentreRange* ranges, const uint16_t* elts, uint32_t triangles,
                              uint16_t* out) {
    uint32_t kept = 0;
    for (uint32_t t = 0; t < triangles; ++t, elts += 3) {
        const uint16_t e0 = elts[0], e1 = elts[1], e2 = elts[2];
        // Written unconditionally, counted only when kept: no branch on the outcome to mispredict.
        out[3 * kept] = e0, out[3 * kept + 1] = e1, out[3 * kept + 2] = e2;
        kept += !misses_pixel_centres(ranges[e0], ranges[e1], ranges[e2]);
    }
    return kept;
}

} // namespace drawpipe
