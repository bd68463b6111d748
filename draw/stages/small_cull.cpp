// Small-primitive culling over a triangle list, a vector of triangles at a time: gather the
// window x and y of their corners, take the box's extremes to 1/256 pixel, compare the first
// and last pixel centre each reaches, then compress the kept triangles' elements to the output.
// Compiled per Highway target and chosen at run time, as draw/stages/simd_cull.cpp.
#include "drawpipe/extend/small_cull.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "draw/stages/small_cull.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace drawpipe {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

uint32_t CullSmallTriangles(const float* records, uint32_t stride, const uint16_t* elts,
                            uint32_t triangles, uint16_t* out) {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Rebind<uint16_t, decltype(df)> d16;
    const uint32_t n = uint32_t(hn::Lanes(df));
    const float* x = records;
    const float* y = records + 1;
    const auto stride_v = hn::Set(di, int32_t(stride));
    const auto limit = hn::Set(df, 16384.0f);
    const auto scale = hn::Set(df, 256.0f);
    const auto to_lo = hn::Set(di, 255 - 128 - kSmallCullMargin);
    const auto to_hi = hn::Set(di, kSmallCullMargin - 128);
    // Whether no centre lies between the extremes: the last centre the greatest reaches comes
    // before the first the least reaches (centre k at 256 k + 128 sub-pixels; the shift is a
    // floor below zero too). NearestInt rounds to the nearest sub-pixel, as llvmpipe snaps.
    const auto misses = [&](auto lo, auto hi) {
        const auto first = hn::ShiftRight<8>(hn::Add(hn::NearestInt(hn::Mul(lo, scale)), to_lo));
        const auto last = hn::ShiftRight<8>(hn::Add(hn::NearestInt(hn::Mul(hi, scale)), to_hi));
        return hn::RebindMask(df, hn::Lt(last, first));
    };
    uint32_t kept = 0, t = 0;
    for (; t + n <= triangles; t += n) {
        hn::Vec<decltype(d16)> a16, b16, c16;
        hn::LoadInterleaved3(d16, elts + 3 * size_t(t), a16, b16, c16);
        const auto oa = hn::Mul(hn::PromoteTo(di, a16), stride_v);
        const auto ob = hn::Mul(hn::PromoteTo(di, b16), stride_v);
        const auto oc = hn::Mul(hn::PromoteTo(di, c16), stride_v);
        const auto xa = hn::GatherIndex(df, x, oa), ya = hn::GatherIndex(df, y, oa);
        const auto xb = hn::GatherIndex(df, x, ob), yb = hn::GatherIndex(df, y, ob);
        const auto xc = hn::GatherIndex(df, x, oc), yc = hn::GatherIndex(df, y, oc);
        // Every corner inside +-16384 pixels (a NaN is not): else the triangle is kept. Each
        // corner, not the extremes: Min and Max may pass a NaN over.
        const auto within = [&](auto v) { return hn::Lt(hn::Abs(v), limit); };
        const auto inside =
            hn::And(hn::And(hn::And(within(xa), within(xb)), hn::And(within(xc), within(ya))),
                    hn::And(within(yb), within(yc)));
        const auto x0 = hn::Min(hn::Min(xa, xb), xc), x1 = hn::Max(hn::Max(xa, xb), xc);
        const auto y0 = hn::Min(hn::Min(ya, yb), yc), y1 = hn::Max(hn::Max(ya, yb), yc);
        const auto cull = hn::And(inside, hn::Or(misses(x0, x1), misses(y0, y1)));
        const auto keep = hn::RebindMask(di, hn::Not(cull));
        // Room for a whole vector of triangles past `kept` is there: kept <= t.
        const auto ka = hn::Compress(hn::PromoteTo(di, a16), keep);
        const auto kb = hn::Compress(hn::PromoteTo(di, b16), keep);
        const auto kc = hn::Compress(hn::PromoteTo(di, c16), keep);
        hn::StoreInterleaved3(hn::DemoteTo(d16, ka), hn::DemoteTo(d16, kb), hn::DemoteTo(d16, kc),
                              d16, out + 3 * size_t(kept));
        kept += uint32_t(hn::CountTrue(di, keep));
    }
    for (; t < triangles; ++t) { // the rest, one by one
        const uint16_t* e = elts + 3 * size_t(t);
        const uint16_t e0 = e[0], e1 = e[1], e2 = e[2];
        out[3 * kept] = e0, out[3 * kept + 1] = e1, out[3 * kept + 2] = e2;
        kept += !misses_pixel_centres(records + size_t(e0) * stride, records + size_t(e1) * stride,
                                      records + size_t(e2) * stride);
    }
    return kept;
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
} // namespace HWY_NAMESPACE
} // namespace drawpipe
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace drawpipe {

namespace {

// One axis of the vector test: no centre between the extremes, the positions rounded to the
// nearest sub-pixel in the current (ties-to-even) mode as NearestInt rounds them.
bool no_centre_between(float lo, float hi) {
    const int32_t first =
        (int32_t(std::nearbyint(lo * 256.0f)) + 255 - 128 - kSmallCullMargin) >> 8;
    const int32_t last = (int32_t(std::nearbyint(hi * 256.0f)) + kSmallCullMargin - 128) >> 8;
    return last < first;
}

} // namespace

bool misses_pixel_centres(const float a[2], const float b[2], const float c[2]) {
    for (const float v : {a[0], a[1], b[0], b[1], c[0], c[1]})
        if (!(std::fabs(v) < 16384.0f)) return false; // NaN too
    return no_centre_between(std::min({a[0], b[0], c[0]}), std::max({a[0], b[0], c[0]})) ||
           no_centre_between(std::min({a[1], b[1], c[1]}), std::max({a[1], b[1], c[1]}));
}

HWY_EXPORT(CullSmallTriangles);

uint32_t cull_small_triangles(const float* records, uint32_t stride, const uint16_t* elts,
                              uint32_t triangles, uint16_t* out) {
    return HWY_DYNAMIC_DISPATCH(CullSmallTriangles)(records, stride, elts, triangles, out);
}

} // namespace drawpipe
#endif
