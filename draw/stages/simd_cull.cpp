// The cull loop over a triangle list (cull_triangles, draw/stages/cull_stage.cpp), a vector of
// triangles at a time: gather the window x and y of their corners, the signed area with the
// scalar loop's operations in its order (the library is built without contraction, so the
// bits and the verdicts are the same), then compress the kept triangles' elements to the
// output. Compiled per Highway target and chosen at run time, as draw/shade/simd_shade.cpp.
#include "draw/stages/simd_cull.hpp"

#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "draw/stages/simd_cull.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace drawpipe {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

} // namespace

CullResult CullTriangleList(const CullJob& job) {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::RebindToUnsigned<decltype(df)> du;
    const uint32_t n = uint32_t(hn::Lanes(df));
    const float* x = reinterpret_cast<const float*>(job.positions);
    const float* y = x + 1;
    const auto stride = hn::Set(di, int32_t(job.stride));
    const auto sign = hn::Set(df, job.sign);
    const auto zero = hn::Zero(df);
    uint32_t kept = 0, t = 0;
    for (; t + n <= job.triangles; t += n) {
        hn::Vec<decltype(du)> a, b, c;
        hn::LoadInterleaved3(du, job.elts + 3 * size_t(t), a, b, c);
        const auto oa = hn::Mul(hn::BitCast(di, a), stride);
        const auto ob = hn::Mul(hn::BitCast(di, b), stride);
        const auto oc = hn::Mul(hn::BitCast(di, c), stride);
        const auto xa = hn::GatherIndex(df, x, oa), ya = hn::GatherIndex(df, y, oa);
        const auto xb = hn::GatherIndex(df, x, ob), yb = hn::GatherIndex(df, y, ob);
        const auto xc = hn::GatherIndex(df, x, oc), yc = hn::GatherIndex(df, y, oc);
        const auto det = hn::Sub(hn::Mul(hn::Sub(xa, xc), hn::Sub(yb, yc)),
                                 hn::Mul(hn::Sub(ya, yc), hn::Sub(xb, xc)));
        const auto signed_det = hn::Mul(sign, det);
        const auto keep = hn::RebindMask(du, job.keep_front ? hn::Gt(signed_det, zero)
                                                            : hn::Le(signed_det, zero));
        // Room for a whole vector of triangles past `kept` is there: kept <= t.
        hn::StoreInterleaved3(hn::Compress(a, keep), hn::Compress(b, keep), hn::Compress(c, keep),
                              du, job.out + 3 * size_t(kept));
        kept += uint32_t(hn::CountTrue(du, keep));
    }
    return {kept, t}; // triangles [t, triangles) are left to the scalar loop
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
} // namespace HWY_NAMESPACE
} // namespace drawpipe
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace drawpipe {

HWY_EXPORT(CullTriangleList);

CullResult cull_triangle_list(const CullJob& job) {
    return HWY_DYNAMIC_DISPATCH(CullTriangleList)(job);
}

} // namespace drawpipe
#endif
