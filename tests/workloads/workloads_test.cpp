// The generated workloads match the check values and shapes in docs/workloads.md, and the
// measurement of redraws hands out the front end's segments.
#include "workloads/measure.hpp"
#include "workloads/mesh.hpp"
#include "workloads/workloads.hpp"

#include "draw/front_end/front_end.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/split_cache.hpp"
#include "drawpipe/strategy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

namespace drawpipe::workloads {
namespace {

TEST(Workloads, CheckSumsAndCountsMatchWorkloadsMd) {
    struct Expect {
        const char* id;
        uint32_t count;
        uint64_t sum;
        Prim prim;
        IndexType type;
    };
    const Expect table[] = {
        {"W1", 6'279'174, 3292092438525ull, Prim::triangles, IndexType::u32},
        {"W2", 390'150, 12784240125ull, Prim::triangles, IndexType::u16},
        {"W3", 6'000'000, 3146077849994ull, Prim::triangles, IndexType::u32},
        {"W4", 1'000'000, 32354847000ull, Prim::triangle_strip, IndexType::u16},
        {"W5", 1'000'000, 499999500000ull, Prim::triangle_fan, IndexType::u32},
        {"W7", 2'096'126, 5487893413890ull, Prim::triangle_strip, IndexType::u32},
    };
    for (const Expect& e : table) {
        SCOPED_TRACE(e.id);
        const Workload w = make_workload(e.id);
        EXPECT_EQ(w.count, e.count);
        EXPECT_EQ(w.index_sum(), e.sum);
        EXPECT_EQ(w.prim, e.prim);
        EXPECT_EQ(w.index_type, e.type);
        const DrawInfo d = w.draw();
        EXPECT_EQ(d.count, e.count);
        EXPECT_EQ(d.index_buffer_count, e.count);
        EXPECT_NE(d.indices, nullptr);
    }
}

TEST(Workloads, FirstRandomValuesMatch) {
    // docs/workloads.md lists the first three W3 values as 152926, 978023, 154817, but its own
    // definition (seed 1, state advanced before mixing) yields them in the reverse order;
    // the check sum cannot tell. We follow the definition and check the values as a set too.
    const Workload w = make_workload("W3");
    ASSERT_GE(w.indices32.size(), 3u);
    EXPECT_EQ(w.indices32[0], 154817u);
    EXPECT_EQ(w.indices32[1], 978023u);
    EXPECT_EQ(w.indices32[2], 152926u);
    std::vector<uint32_t> first(w.indices32.begin(), w.indices32.begin() + 3);
    std::sort(first.begin(), first.end());
    EXPECT_EQ(first, (std::vector<uint32_t>{152926, 154817, 978023}));

    uint64_t state = 1; // the generator itself, against the same definition
    EXPECT_EQ(splitmix64(state) % 1'048'576, 154817u);
    EXPECT_EQ(state, 1 + 0x9E3779B97F4A7C15ull);
}

TEST(Workloads, LinearAndRestartDraws) {
    const Workload w6 = make_workload("linear-tris");
    EXPECT_EQ(w6.id, "W6");
    EXPECT_EQ(w6.index_type, IndexType::none);
    EXPECT_EQ(w6.draw().count, 6'000'000u);
    EXPECT_EQ(w6.draw().indices, nullptr);

    const Workload w7 = make_workload("w7 STRIP-restart-u32");
    EXPECT_TRUE(w7.draw().primitive_restart);
    EXPECT_EQ(w7.draw().restart_index, 0xFFFFFFFFu);
    EXPECT_EQ(std::count(w7.indices32.begin(), w7.indices32.end(), 0xFFFFFFFFu), 1022);
}

TEST(Workloads, VertexCountBoundsEveryIndex) {
    for (std::string_view id : workload_ids()) {
        SCOPED_TRACE(std::string(id));
        const Workload w = make_workload(id);
        uint32_t max = w.index_type == IndexType::none ? w.count - 1 : 0;
        if (w.index_type == IndexType::u16)
            max = *std::max_element(w.indices16.begin(), w.indices16.end());
        if (w.index_type == IndexType::u32)
            for (uint32_t i : w.indices32)
                if (!(w.primitive_restart && i == w.restart_index)) max = std::max(max, i);
        EXPECT_EQ(w.vertex_count, max + 1);
    }
}

// Segments and fetched vertices per index of one whole draw (they depend on no timing).
struct SplitFigures {
    uint64_t segments;
    double fetched_per_index;
};
SplitFigures split_figures(const Workload& w, const char* strategy, uint32_t limit) {
    FrontEndOptions options;
    options.limits.max_vertices = limit;
    options.strategy = *Strategy::parse(strategy);
    FrontEnd front;
    front.begin(w.draw(), options);
    SegmentStorage storage;
    Segment seg;
    while (front.next(storage, seg)) {
    }
    return {front.stats().segments, double(front.stats().fetched) / w.count};
}

TEST(Workloads, VsplitStrategyReproducesMesasFigures) {
    // docs/workloads.md: Mesa's vsplit at either limit (1024-index segments, index mod 256).
    struct Expect {
        const char* id;
        uint64_t segments;
        double fetched;
    };
    for (const Expect& e :
         {Expect{"W1", 6138, 0.6676}, Expect{"W2", 382, 0.6676}, Expect{"W3", 5866, 0.9998},
          Expect{"W4", 979, 1.0020}, Expect{"W5", 979, 1.0020}, Expect{"W7", 3069, 1.0015}}) {
        SCOPED_TRACE(e.id);
        const Workload w = make_workload(e.id);
        for (uint32_t limit : {4096u, 65536u}) {
            const SplitFigures f = split_figures(w, "vsplit", limit);
            EXPECT_EQ(f.segments, e.segments);
            EXPECT_NEAR(f.fetched_per_index, e.fetched, 0.00005);
        }
    }
}

TEST(Workloads, DefaultStrategyReuseGoals) {
    // Issue goals: W1 at most 0.23 fetched vertices per index at limit 4096 (Mesa: 0.6676),
    // and at most 1% more fetches than exact de-duplication on W1 and W3.
    const Workload w1 = make_workload("W1");
    const SplitFigures d1 = split_figures(w1, "distinct", 4096);
    EXPECT_LE(d1.fetched_per_index, 0.23);
    EXPECT_LE(d1.fetched_per_index, 1.01 * split_figures(w1, "exact", 4096).fetched_per_index);
    const Workload w3 = make_workload("W3");
    EXPECT_LE(split_figures(w3, "distinct", 4096).fetched_per_index,
              1.01 * split_figures(w3, "exact", 4096).fetched_per_index);
}

TEST(Workloads, UnknownIdIsAnError) {
    EXPECT_FALSE(is_workload_id("W8"));
    try {
        make_workload("W8");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::not_found);
        EXPECT_NE(std::string(e.what()).find("W8"), std::string::npos);
    }
}

// Generated spheres (bench inputs "sphere:N[:random]"): about N triangles, every index inside
// the vertex range, no degenerate triangle, and the random order holds the same triangles
// (each with its winding) as the vertex-cache order; malformed specs are errors.
TEST(Workloads, GeneratedSpheres) {
    auto triangles = [](const Workload& w) {
        std::vector<std::array<uint32_t, 3>> t;
        for (uint32_t i = 0; i + 3 <= w.count; i += 3) {
            std::array<uint32_t, 3> v;
            for (uint32_t k = 0; k < 3; ++k)
                v[k] = w.index_type == IndexType::u16 ? w.indices16[i + k] : w.indices32[i + k];
            EXPECT_TRUE(v[0] != v[1] && v[1] != v[2] && v[0] != v[2]);
            for (uint32_t x : v) EXPECT_LT(x, w.vertex_count);
            std::rotate(v.begin(), std::min_element(v.begin(), v.end()), v.end());
            t.push_back(v);
        }
        std::sort(t.begin(), t.end());
        return t;
    };
    for (const char* n : {"sphere:1000", "sphere:20k", "sphere:100k"}) {
        const Workload a = generated_mesh(n), b = generated_mesh(std::string(n) + ":random");
        EXPECT_EQ(a.prim, Prim::triangles);
        EXPECT_EQ(a.positions.size(), size_t(a.vertex_count) * 3);
        const double want =
            double(std::stoi(std::string(n).substr(7))) * (std::string(n).back() == 'k' ? 1000 : 1);
        EXPECT_NEAR(double(a.count / 3), want, want * 0.05) << n;
        EXPECT_EQ(triangles(a), triangles(b)) << n;
    }
    EXPECT_EQ(generated_mesh("sphere:100k").index_type, IndexType::u16); // 50403 vertices
    EXPECT_EQ(generated_mesh("sphere:200k").index_type, IndexType::u32);
    for (const char* bad : {"sphere:", "sphere:12q", "sphere:7", "cube:100", "sphere:100:sorted",
                            "sphere:1000000000"})
        EXPECT_THROW(generated_mesh(bad), Error) << bad;
    EXPECT_EQ(load_input("sphere:1k").id, "sphere:1k");
}

// `drawpipe bench --repeat`'s redraws (DrawSegments, as the pipeline's source stage hands
// them out): a miss then a hit in the split cache, the same segments as the front end alone,
// any limit the front end takes, and a bad draw refused as Context::draw refuses it.
TEST(BenchRedraws, ReplayTheCachedSplitAsTheFrontEndSplitsIt) {
    const Workload w = make_workload("W2");
    SplitCache cache;
    DrawInfo draw = w.draw();
    draw.index_buffer_id = cache.register_buffer();
    const Strategy vsplit = *Strategy::parse("vsplit");
    MiddleEndLimits limits;
    limits.max_vertices = 4096;
    auto sum_of = [&](const DrawInfo& d, const MiddleEndLimits& l) {
        DrawSegments segments(d, l, {vsplit, 0, &cache});
        Segment seg;
        uint64_t sum = 0;
        while (segments.next(seg)) sum += seg.fetch_count + seg.draw_count;
        return sum;
    };
    const uint64_t first = sum_of(draw, limits);
    EXPECT_EQ(sum_of(draw, limits), first);
    EXPECT_EQ(cache.stats().misses, 1u);
    EXPECT_EQ(cache.stats().hits, 1u);

    FrontEndOptions fo;
    fo.limits = limits;
    fo.strategy = vsplit;
    FrontEnd front;
    SegmentStorage storage;
    Segment seg;
    uint64_t sum = 0;
    front.begin(w.draw(), fo);
    while (front.next(storage, seg)) sum += seg.fetch_count + seg.draw_count;
    EXPECT_EQ(first, sum);

    limits.max_vertices = kMaxSegmentVertices;
    EXPECT_NO_THROW(sum_of(draw, limits));
    DrawInfo unregistered = draw;
    unregistered.index_buffer_id = draw.index_buffer_id + 100;
    EXPECT_THROW(sum_of(unregistered, limits), Error);
}

} // namespace
} // namespace drawpipe::workloads
