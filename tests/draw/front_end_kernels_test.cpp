// The default strategy's triangle loops: every loop (plain, packed, and the lookup bypass
// for draws without reuse) must hand on draw elements that resolve to the draw's indices,
// within the fetch limit, and the bypass must cost little and switch back when reuse returns.
#include "draw/internal/front_end.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace drawpipe;

namespace {

struct Split {
    std::vector<uint32_t> resolved; // vertex id of every draw element, in order
    std::vector<uint32_t> fetched;  // per segment
    std::vector<uint32_t> drawn;    // per segment
    uint64_t total_fetched = 0;
};

Split split(FrontEnd& fe, const DrawInfo& info, uint32_t limit, const char* strategy = "distinct") {
    MiddleEndLimits lim;
    lim.max_vertices = limit;
    fe.begin(info, {lim, *Strategy::parse(strategy)});
    SegmentStorage st;
    Segment seg;
    Split out;
    while (fe.next(st, seg)) {
        EXPECT_LE(seg.fetch_count, limit);
        for (uint32_t i = 0; i < seg.draw_count; ++i) {
            const uint32_t e = seg.draw_elt(i);
            EXPECT_LT(e, seg.fetch_count);
            out.resolved.push_back(seg.vertex_id(e));
        }
        out.fetched.push_back(seg.fetch_count);
        out.drawn.push_back(seg.draw_count);
    }
    out.total_fetched = fe.stats().fetched;
    return out;
}

template <class T> DrawInfo triangles(const std::vector<T>& idx, int32_t base_vertex = 0) {
    DrawInfo info;
    info.index_type = sizeof(T) == 2 ? IndexType::u16 : IndexType::u32;
    info.indices = idx.data();
    info.index_buffer_count = info.count = uint32_t(idx.size());
    info.base_vertex = base_vertex;
    return info;
}

std::vector<uint32_t> expected(const std::vector<uint32_t>& idx, int32_t base_vertex) {
    std::vector<uint32_t> e;
    for (uint32_t v : idx) e.push_back(uint32_t(int64_t(v) + base_vertex));
    return e;
}

std::vector<uint32_t> grid(uint32_t w, uint32_t first_id) {
    std::vector<uint32_t> idx;
    for (uint32_t y = 0; y + 1 < w; ++y)
        for (uint32_t x = 0; x + 1 < w; ++x) {
            const uint32_t v = first_id + y * w + x;
            for (uint32_t i : {v, v + 1, v + w, v + 1, v + w + 1, v + w}) idx.push_back(i);
        }
    return idx;
}

TEST(FrontEndKernels, RandomTrianglesBypassLookupsAndStayCorrect) {
    std::mt19937 rng(11);
    std::vector<uint32_t> idx(60000);
    for (uint32_t& v : idx) v = rng() % (1u << 20);
    for (int32_t bias : {0, 7}) {
        FrontEnd fe;
        const Split d = split(fe, triangles(idx, bias), 1024);
        EXPECT_EQ(d.resolved, expected(idx, bias));
        // Bypassed segments fetch every index: at least one segment of 1024 draws 1024.
        size_t bypassed = 0;
        for (size_t s = 0; s < d.fetched.size(); ++s) bypassed += d.fetched[s] == d.drawn[s];
        EXPECT_GT(bypassed, d.fetched.size() / 2);
        const Split x = split(fe, triangles(idx, bias), 1024, "exact");
        EXPECT_LE(double(d.total_fetched), double(x.total_fetched) * (1 + 1.0 / 256) + 3);
    }
}

TEST(FrontEndKernels, BypassEndsWhenReuseReturns) {
    // Random triangles, then a grid: after at most a few segments, the grid is de-duplicated.
    std::mt19937 rng(5);
    std::vector<uint32_t> idx(30000);
    for (uint32_t& v : idx) v = rng() % (1u << 20);
    const std::vector<uint32_t> g = grid(256, 1u << 21);
    idx.insert(idx.end(), g.begin(), g.end());
    FrontEnd fe;
    const Split d = split(fe, triangles(idx), 1024);
    EXPECT_EQ(d.resolved, idx);
    const Split x = split(fe, triangles(idx), 1024, "exact");
    // The grid alone fetches ~0.2 per index; bypassing all of it would add ~0.8 x 390K.
    EXPECT_LT(double(d.total_fetched), double(x.total_fetched) + 10 * 1024);
}

TEST(FrontEndKernels, PlainAndPackedLoopsResolveAndDeduplicate) {
    // Grids (mostly hits), a shuffled grid (unpredictable), degenerate triangles, u16 and u32.
    std::mt19937 rng(3);
    std::vector<uint32_t> g = grid(128, 0), shuffled = g;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    std::vector<uint32_t> degenerate;
    for (int i = 0; i < 3000; ++i) {
        const uint32_t a = rng() % 500, b = rng() % 2 ? a : rng() % 500;
        for (uint32_t v : {a, b, a}) degenerate.push_back(v);
    }
    for (const auto* idx : {&g, &shuffled, &degenerate}) {
        for (uint32_t limit : {3u, 64u, 4096u}) {
            FrontEnd fe;
            EXPECT_EQ(split(fe, triangles(*idx, 3), limit).resolved, expected(*idx, 3));
            const std::vector<uint16_t> narrow(idx->begin(), idx->end());
            EXPECT_EQ(split(fe, triangles(narrow), limit).resolved, *idx);
        }
    }
    FrontEnd fe;
    const Split d = split(fe, triangles(g), 4096), x = split(fe, triangles(g), 4096, "exact");
    EXPECT_LE(double(d.total_fetched), double(x.total_fetched) * 1.01);
}

TEST(FrontEndKernels, ShrinkingLimitsAcrossDrawsOfOneFrontEnd) {
    // Table positions left by a draw at a large limit must not reach past a smaller draw's
    // fetch lists (each draw here uses fresh, exactly sized storage).
    std::mt19937 rng(9);
    std::vector<uint32_t> idx(30000);
    for (uint32_t& v : idx) v = rng() % 3000;
    FrontEnd fe;
    for (uint32_t limit : {65536u, 4096u, 7u, 65536u, 3u})
        EXPECT_EQ(split(fe, triangles(idx), limit).resolved, idx) << limit;
}

} // namespace
