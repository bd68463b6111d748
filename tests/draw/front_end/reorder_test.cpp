// The reorder strategy: its invariant is that splitting the reordered index buffer draws
// exactly what the unsplit reordered buffer draws, and the reordered buffer holds the same
// triangles (each with its vertex order) as the original, only in another order.
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/reorder.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "support/gl_oracle.hpp"
#include "support/gs_trace_util.hpp"
#include "support/random_draw.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>

using namespace drawpipe;

namespace {

using Tri = std::array<uint32_t, 3>;

std::vector<Tri> triangles_of(const std::vector<uint32_t>& idx, size_t first, size_t n) {
    std::vector<Tri> t;
    for (size_t i = first; i + 3 <= first + n; i += 3)
        t.push_back({idx[i], idx[i + 1], idx[i + 2]});
    std::sort(t.begin(), t.end());
    return t;
}

// The same draw with its indices replaced by the reordered u32 buffer.
DrawDesc with_indices(const DrawDesc& d, const std::vector<uint32_t>& re) {
    DrawDesc r = d;
    r.index_type = IndexType::u32;
    r.indices = re;
    r.start = 0;
    r.count = uint32_t(re.size());
    r.count_given = true;
    r.restart = false;
    return r;
}

TEST(Reorder, SplitTraceEqualsUnsplitReorderedTrace) {
    std::mt19937 rng(4242);
    int reordered = 0;
    for (int iter = 0; iter < 400; ++iter) {
        test::RandomDrawOptions o;
        o.max_count = 600;
        const DrawDesc d = test::random_draw(rng, Prim::triangles, o);
        const auto bound = bind_draw(d);
        std::vector<uint32_t> re;
        const bool ok = reorder_for_vertex_cache(bound->info, re);
        const DrawDesc target = ok ? with_indices(d, re) : d;
        const std::string expected = test::oracle_trace(target);
        if (ok) {
            ++reordered;
            // Same triangles, each with its own vertex order: only the order of triangles moved.
            const uint32_t n = d.count - d.count % 3;
            EXPECT_EQ(triangles_of(re, 0, re.size()), triangles_of(d.indices, d.start, n))
                << format_draw_text(d);
        }
        const uint32_t limit = std::uniform_int_distribution<uint32_t>(3, 60)(rng);
        ASSERT_EQ(test::trace_of(d, limit, *Strategy::parse("reorder")), expected)
            << "limit " << limit << "\n"
            << format_draw_text(d);
        ASSERT_EQ(test::trace_of(d, 3, *Strategy::parse("reorder")), expected)
            << format_draw_text(d);
    }
    EXPECT_GT(reordered, 100); // the property is not vacuous
}

TEST(Reorder, OtherDrawsFallBackToExact) {
    std::mt19937 rng(77);
    for (Prim prim : {Prim::triangle_strip, Prim::triangle_fan, Prim::lines, Prim::points}) {
        for (int iter = 0; iter < 40; ++iter) {
            const DrawDesc d = test::random_draw(rng, prim);
            std::vector<uint32_t> re;
            EXPECT_FALSE(reorder_for_vertex_cache(bind_draw(d)->info, re));
            EXPECT_TRUE(re.empty());
            const uint32_t limit = std::uniform_int_distribution<uint32_t>(6, 40)(rng);
            ASSERT_EQ(test::trace_of(d, limit, *Strategy::parse("reorder")), test::oracle_trace(d))
                << format_draw_text(d);
        }
    }
    // A restart index among triangle indices keeps the runs apart: no reordering.
    DrawDesc d;
    d.index_type = IndexType::u16;
    d.indices = {0, 1, 2, 65535, 3, 4, 5};
    d.restart = true;
    d.restart_index = 65535;
    d.count = 7;
    d.count_given = true;
    std::vector<uint32_t> re;
    EXPECT_FALSE(reorder_for_vertex_cache(bind_draw(d)->info, re));
    d.indices = {0, 1, 2, 3, 4, 5}; // restart enabled but absent: reordered
    d.count = 6;
    EXPECT_TRUE(reorder_for_vertex_cache(bind_draw(d)->info, re));
    // An index range far wider than the draw: meshoptimizer's scratch would be huge.
    d.index_type = IndexType::u32;
    d.indices = {0, 1, 0xFFFFFFF0u};
    d.count = 3;
    EXPECT_FALSE(reorder_for_vertex_cache(bind_draw(d)->info, re));
}

TEST(Reorder, ShuffledGridFetchesFewerVerticesThanExact) {
    // A 64 x 64 grid with its triangles in random order: reordering restores locality.
    const uint32_t w = 64;
    std::vector<Tri> tris;
    for (uint32_t y = 0; y + 1 < w; ++y)
        for (uint32_t x = 0; x + 1 < w; ++x) {
            const uint32_t v = y * w + x;
            tris.push_back({v, v + 1, v + w});
            tris.push_back({v + 1, v + w + 1, v + w});
        }
    std::shuffle(tris.begin(), tris.end(), std::mt19937(5));
    std::vector<uint32_t> idx;
    for (const Tri& t : tris) idx.insert(idx.end(), t.begin(), t.end());
    DrawInfo info;
    info.index_type = IndexType::u32;
    info.indices = idx.data();
    info.index_buffer_count = info.count = uint32_t(idx.size());
    auto fetched = [&](const char* strategy) {
        FrontEnd fe;
        MiddleEndLimits lim;
        lim.max_vertices = 256;
        fe.begin(info, {lim, *Strategy::parse(strategy)});
        SegmentStorage st;
        Segment seg;
        while (fe.next(st, seg)) {
        }
        return fe.stats().fetched;
    };
    EXPECT_LT(fetched("reorder") * 2, fetched("exact"));
}

TEST(Reorder, NameRoundTrips) {
    const auto s = Strategy::parse("reorder");
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->kind, Strategy::Kind::reorder);
    EXPECT_EQ(s->name(), "reorder");
}

// Issue 18: a geometry shader sees primitive ids, so `reorder` must not reorder the
// triangles it reads; through every middle end that runs geometry shaders, split or not.
TEST(Reorder, GeometryShaderSeesTheDrawsOrder) {
    register_builtin_middle_ends();
    const DrawDesc d = parse_draw_text("prim triangles\nindex u8\nindices 0 1 2 3 4 5 0 1 3\n"
                                       "gs passthrough_tri\n");
    const Strategy reorder = *Strategy::parse("reorder");
    // What OpenGL draws (docs/gl-order.md): triangle p's vertices come out as 1000 p + i.
    const std::string expected = "tri 0 1 2\ntri 1003 1004 1005\ntri 2000 2001 2003\n";
    int middles = 0;
    for (const auto& entry : MiddleEndRegistry::global().entries()) {
        if (entry.name == "mali") continue; // no geometry shaders
        ++middles;
        for (const uint32_t limit : {0u, 3u, 6u})
            EXPECT_EQ(test::gs_trace_with(d, *entry.middle, limit, reorder), expected)
                << entry.name << ", limit " << limit;
    }
    EXPECT_GE(middles, 3);
}

} // namespace
