// DrawSegments, the public way to a draw's segments: the same segments and totals as the
// front end (the private reference) cuts, with or without a middle end; a redraw replayed
// from the split cache the same again; and the checks of Context::draw as Errors.
#include "draw/front_end/front_end.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/split_cache.hpp"
#include "support/random_draw.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace drawpipe;

namespace {

// A segment's fields and lists in one line, so that two lists of segments compare whole.
std::string describe(const Segment& s) {
    std::string out = std::to_string(int(s.prim)) + " f" + std::to_string(s.flags) + " i" +
                      std::to_string(s.instance_first) + "+" + std::to_string(s.instance_count) +
                      " p" + std::to_string(s.prim_id_first) + " q" + std::to_string(s.sequence) +
                      " fetch";
    for (uint32_t i = 0; i < s.fetch_count; ++i) out += ' ' + std::to_string(s.vertex_id(i));
    out += " draw";
    for (uint32_t i = 0; i < s.draw_count; ++i) out += ' ' + std::to_string(s.draw_elt(i));
    return out;
}

std::vector<std::string> segments_of(DrawSegments& source) {
    std::vector<std::string> out;
    Segment seg;
    while (source.next(seg)) out.push_back(describe(seg));
    return out;
}

std::vector<std::string> front_end_segments(const DrawInfo& draw, const MiddleEndLimits& limits,
                                            FrontEndStats& stats) {
    FrontEnd front;
    front.begin(draw, FrontEndOptions{limits, Strategy{}});
    std::vector<std::string> out;
    SegmentStorage storage;
    Segment seg;
    while (front.next(storage, seg)) out.push_back(describe(seg));
    stats = front.stats();
    return out;
}

void expect_same_totals(const FrontEndStats& a, const FrontEndStats& b) {
    EXPECT_EQ(a.segments, b.segments);
    EXPECT_EQ(a.indices, b.indices);
    EXPECT_EQ(a.fetched, b.fetched);
    EXPECT_EQ(a.shaded, b.shaded);
    EXPECT_EQ(a.ia_primitives, b.ia_primitives);
}

} // namespace

TEST(DrawSegments, CutAsTheFrontEndCutsForLimitsAndForAMiddleEnd) {
    std::mt19937 rng(33);
    for (int p = 0; p < int(Prim::patches); ++p) { // patches need tessellation shaders
        for (int iter = 0; iter < 20; ++iter) {
            const DrawDesc d = test::random_draw(rng, Prim(p));
            const auto bound = bind_draw(d);
            MiddleEndLimits limits;
            limits.max_vertices = min_segment_vertices(Prim(p)) + rng() % 30;
            FrontEndStats expected_stats;
            const std::vector<std::string> expected =
                front_end_segments(bound->info, limits, expected_stats);

            DrawSegments bare(bound->info, limits);
            EXPECT_EQ(segments_of(bare), expected) << format_draw_text(d);
            expect_same_totals(bare.stats(), expected_stats);

            // fetch_shade's limits are its vertex count and nothing else.
            const FetchShade middle(limits.max_vertices);
            DrawSegments shaded({bound->info, bound->input(), nullptr, nullptr}, middle);
            EXPECT_EQ(segments_of(shaded), expected) << format_draw_text(d);
            expect_same_totals(shaded.stats(), expected_stats);
        }
    }
}

TEST(DrawSegments, RedrawReplayedFromTheSplitCacheIsTheSame) {
    const DrawDesc d = parse_draw_text("prim triangle_strip\nindex u16\n"
                                       "indices 0 1 2 3 4 5 6 7 9 8 7 6 5 4 3\nrestart 9\n");
    auto bound = bind_draw(d);
    SplitCache cache;
    bound->info.index_buffer_id = cache.register_buffer();
    MiddleEndLimits limits;
    limits.max_vertices = 4;
    const DrawOptions options{Strategy{}, 0, &cache};
    DrawSegments first(bound->info, limits, options);
    const std::vector<std::string> recorded = segments_of(first);
    DrawSegments again(bound->info, limits, options);
    EXPECT_EQ(segments_of(again), recorded);
    expect_same_totals(again.stats(), first.stats());
    EXPECT_GT(recorded.size(), 1u);
    EXPECT_EQ(cache.stats().misses, 1u);
    EXPECT_EQ(cache.stats().hits, 1u);
}

TEST(DrawSegments, ChecksAsContextDrawChecks) {
    const DrawDesc d = parse_draw_text("prim triangles\nindex u16\nindices 0 1 2 2 1 3\n");
    auto bound = bind_draw(d);
    MiddleEndLimits limits;
    limits.max_vertices = 2; // below a triangle's 3
    EXPECT_THROW(check_split_limits(bound->info, limits), Error);
    EXPECT_THROW(DrawSegments(bound->info, limits), Error);
    limits.max_vertices = 3;
    EXPECT_NO_THROW(check_split_limits(bound->info, limits));
    // A forced limit above the middle end's.
    EXPECT_THROW(check_split_limits(bound->info, limits, {Strategy{}, 4}), Error);
    // A buffer the split cache never registered.
    SplitCache cache;
    bound->info.index_buffer_id = 7;
    EXPECT_THROW(DrawSegments(bound->info, limits, {Strategy{}, 0, &cache}), Error);
    bound->info.index_buffer_id = 0;
    // check_draw: an attribute reading a vertex buffer that is not bound.
    const FetchShade middle;
    VertexAttrib attrib;
    attrib.buffer = 3;
    const DrawState unbound{bound->info, {{}, {&attrib, 1}}, nullptr, nullptr};
    EXPECT_THROW(check_draw(unbound, middle), Error);
    EXPECT_NO_THROW(check_draw({bound->info, bound->input(), nullptr, nullptr}, middle));
}

// One DrawSegments begun draw after draw (as a driver's front end keeps it) cuts each draw as
// a fresh one does; a draw that fails its checks leaves nothing to hand out.
TEST(DrawSegments, ReusedForDrawAfterDrawCutsAsAFreshOne) {
    std::mt19937 rng(39);
    DrawSegments reused;
    Segment seg;
    EXPECT_FALSE(reused.next(seg)); // nothing begun yet
    for (int iter = 0; iter < 60; ++iter) {
        const Prim prim = Prim(rng() % int(Prim::patches));
        const DrawDesc d = test::random_draw(rng, prim);
        const auto bound = bind_draw(d);
        MiddleEndLimits limits;
        limits.max_vertices = min_segment_vertices(prim) + rng() % 30;
        DrawSegments fresh(bound->info, limits);
        reused.begin(bound->info, limits);
        EXPECT_EQ(segments_of(reused), segments_of(fresh)) << format_draw_text(d);
        expect_same_totals(reused.stats(), fresh.stats());
        if (iter % 10 == 0) { // a draw the checks refuse, begun half-way through a good one
            reused.begin(bound->info, limits);
            limits.max_vertices = 0; // below any primitive's minimum
            EXPECT_THROW(reused.begin(bound->info, limits), Error);
            EXPECT_FALSE(reused.next(seg));
        }
    }
}
