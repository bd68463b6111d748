// The middle-end check (draw/shade/check_batch.hpp). Its one pass over the elements is a
// maximum per vector of lanes, compiled per Highway target and chosen at run time as
// draw/stages/simd_cull.cpp: with 16-byte vectors alone it was a third of W1's shading time.
#include "draw/shade/check_batch.hpp"

#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "draw/shade/check_batch.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace drawpipe {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

uint32_t MaxElement(const uint32_t* p, size_t n) {
    const hn::ScalableTag<uint32_t> d;
    const size_t lanes = hn::Lanes(d);
    auto m0 = hn::Zero(d), m1 = hn::Zero(d), m2 = hn::Zero(d), m3 = hn::Zero(d);
    size_t i = 0;
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
        m0 = hn::Max(m0, hn::LoadU(d, p + i));
        m1 = hn::Max(m1, hn::LoadU(d, p + i + lanes));
        m2 = hn::Max(m2, hn::LoadU(d, p + i + 2 * lanes));
        m3 = hn::Max(m3, hn::LoadU(d, p + i + 3 * lanes));
    }
    for (; i + lanes <= n; i += lanes) m0 = hn::Max(m0, hn::LoadU(d, p + i));
    // The last partial vector as the last whole one, overlapping (a maximum minds no repeat).
    if (i < n && n >= lanes) m1 = hn::Max(m1, hn::LoadU(d, p + n - lanes)), i = n;
    uint32_t m = hn::GetLane(hn::MaxOfLanes(d, hn::Max(hn::Max(m0, m1), hn::Max(m2, m3))));
    for (; i < n; ++i) m = p[i] > m ? p[i] : m;
    return m;
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
} // namespace HWY_NAMESPACE
} // namespace drawpipe
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "drawpipe/error.hpp"
#include "drawpipe/prim.hpp"

#include <string>

namespace drawpipe {

HWY_EXPORT(MaxElement);

namespace {

[[noreturn]] void broken(const BatchSource& from, const std::string& what) {
    throw Error(ErrorCode::middle_end_failure, "middle end '" + std::string(from.middle_end) +
                                                   "', draw " + std::to_string(from.draw) +
                                                   ", segment " + std::to_string(from.segment) +
                                                   ": " + what);
}

} // namespace

void check_batch(const ShadedBatch& batch, uint32_t stride, const BatchSource& from) {
    const uint64_t dwords = uint64_t(batch.vertex_count) * stride;
    if (batch.vertices.size() != dwords)
        broken(from, "vertex_count " + std::to_string(batch.vertex_count) + " x stride " +
                         std::to_string(stride) + " is " + std::to_string(dwords) +
                         " dwords, but the batch holds " + std::to_string(batch.vertices.size()));
    for (size_t i = 0; i < batch.prims.size(); ++i) {
        const PrimRange& r = batch.prims[i];
        // The text is made only on failure: a sound batch allocates nothing here.
        auto range = [&] { return "primitive range " + std::to_string(i); };
        if (uint32_t(r.prim) >= uint32_t(kPrimCount))
            broken(from, range() + ": prim " + std::to_string(uint32_t(r.prim)) +
                             " is not a primitive type");
        if (r.stream >= kMaxVertexStreams)
            broken(from, range() + ": stream " + std::to_string(r.stream) + " (at most " +
                             std::to_string(kMaxVertexStreams - 1) + ")");
        if (uint64_t(r.first) + r.count > batch.elts.size())
            broken(from, range() + ": elements [" + std::to_string(r.first) + ", " +
                             std::to_string(uint64_t(r.first) + r.count) +
                             ") but the batch holds " + std::to_string(batch.elts.size()));
        if (r.count == 0) continue;
        const uint32_t* e = batch.elts.data() + r.first;
        if (HWY_DYNAMIC_DISPATCH(MaxElement)(e, r.count) >= batch.vertex_count) {
            uint32_t at = 0;
            while (e[at] < batch.vertex_count) ++at;
            broken(from, range() + " (" + std::string(prim_name(r.prim)) + "): element " +
                             std::to_string(e[at]) + " at position " + std::to_string(at) +
                             " is past the batch's " + std::to_string(batch.vertex_count) +
                             " vertices");
        }
    }
}

} // namespace drawpipe
#endif
