// The counting backend: its fast paths (triangle lists and strips) total and hash exactly
// what the GL decomposition of the same elements gives, and its checksum sees order.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/prim.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace drawpipe;

namespace {

// 64 vertex records whose ids are all different.
struct Records {
    static constexpr uint32_t kStride = kVertexHeaderDwords + 4;
    std::vector<uint32_t> dwords = std::vector<uint32_t>(64 * kStride);
    Records() {
        for (uint32_t v = 0; v < 64; ++v) {
            dwords[v * kStride + SLOT_VERTEX_ID] = 1000 + 7 * v;
            dwords[v * kStride + SLOT_INSTANCE_ID] = v % 3;
        }
    }
    VertexView view() const { return {dwords.data(), 64, kStride}; }
};

CountingBackend::Totals count(Prim prim, Provoking pv, const std::vector<uint32_t>& elts) {
    static const Records records;
    CountingBackend b;
    DrawInfo info;
    info.provoking = pv;
    b.begin_draw(info, {});
    b.draw_elements(prim, 0, records.view(), elts);
    return b.totals();
}

TEST(CountingBackend, EveryPrimitiveHashesAsItsDecomposition) {
    std::mt19937 rng(99);
    for (int p = 0; p < test::kPrimsWithoutTess; ++p)
        for (const Provoking pv : {Provoking::first, Provoking::last})
            for (int iter = 0; iter < 50; ++iter) {
                std::vector<uint32_t> elts(rng() % 40);
                for (uint32_t& e : elts) e = rng() % 64;
                // The same primitives as a list of points, lines or triangles.
                std::vector<uint32_t> list;
                uint32_t size = 0;
                for_each_decomposed(Prim(p), pv, uint32_t(elts.size()),
                                    [&](uint32_t n, const uint32_t* pos) {
                                        size = n;
                                        for (uint32_t i = 0; i < n; ++i)
                                            list.push_back(elts[pos[i]]);
                                    });
                const Prim as = size == 1   ? Prim::points
                                : size == 2 ? Prim::lines
                                            : Prim::triangles;
                const auto got = count(Prim(p), pv, elts);
                const auto want = count(as, pv, list);
                ASSERT_EQ(got.points, want.points) << prim_name(Prim(p));
                ASSERT_EQ(got.lines, want.lines) << prim_name(Prim(p));
                ASSERT_EQ(got.triangles, want.triangles) << prim_name(Prim(p));
                ASSERT_EQ(got.checksum, want.checksum) << prim_name(Prim(p)) << ", " << elts.size();
            }
}

TEST(CountingBackend, ChecksumSeesOrderAndVertexOrder) {
    const std::vector<uint32_t> tris = {0, 1, 2, 3, 4, 5};
    const auto base = count(Prim::triangles, Provoking::last, tris);
    EXPECT_EQ(base.triangles, 2u);
    EXPECT_NE(count(Prim::triangles, Provoking::last, {3, 4, 5, 0, 1, 2}).checksum, base.checksum);
    EXPECT_NE(count(Prim::triangles, Provoking::last, {1, 0, 2, 3, 4, 5}).checksum, base.checksum);
    // A strip's odd triangle is wound differently under each provoking convention.
    EXPECT_NE(count(Prim::triangle_strip, Provoking::first, {0, 1, 2, 3}).checksum,
              count(Prim::triangle_strip, Provoking::last, {0, 1, 2, 3}).checksum);
}

} // namespace
