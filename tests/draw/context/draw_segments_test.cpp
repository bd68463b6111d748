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
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>

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

// A reused DrawSegments takes small indexed draws (the most a driver sends) without building
// the prepared draw, when their fields alone show that every check passes and the draw is one
// range segment. Whatever the draw, options and limits, it must cut and refuse exactly as the
// long way does: the constructor, which never takes that path.
TEST(DrawSegments, SmallDrawsBegunOnAReusedOneCutAndFailAsTheLongWay) {
    std::mt19937 rng(41);
    auto uni = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    SplitCache cache;
    const uint64_t registered = cache.register_buffer();
    DrawSegments reused;
    int one_range_segment = 0, refused = 0;
    // Both ways on one draw; true when the draw is one range segment (the short way's kind).
    const auto compare = [&](const DrawInfo& info, const MiddleEndLimits& limits,
                             const DrawOptions& options, const std::string& what) {
        std::string long_error, short_error;
        std::vector<std::string> long_way, short_way;
        FrontEndStats long_stats, short_stats;
        try {
            DrawSegments fresh(info, limits, options);
            long_way = segments_of(fresh);
            long_stats = fresh.stats();
        } catch (const Error& e) {
            long_error = e.what();
        }
        bool range_fetch = false; // the first segment fetches a range
        try {
            reused.begin(info, limits, options);
            Segment seg;
            while (reused.next(seg)) {
                range_fetch |= short_way.empty() && seg.linear_fetch();
                short_way.push_back(describe(seg));
            }
            short_stats = reused.stats();
        } catch (const Error& e) {
            short_error = e.what();
        }
        EXPECT_EQ(short_error, long_error) << what;
        EXPECT_EQ(short_way, long_way) << what << "limit " << limits.max_vertices;
        expect_same_totals(short_stats, long_stats);
        EXPECT_EQ(short_stats.ia_vertices, long_stats.ia_vertices);
        refused += !long_error.empty();
        return long_error.empty() && long_way.size() == 1 && range_fetch && info.count <= 32;
    };
    for (int iter = 0; iter < 8000 && !HasFailure(); ++iter) {
        test::RandomDrawOptions small;
        small.max_count = 40;
        small.max_instances = 2;
        small.allow_attribs = false; // the split reads no vertex, and binding them costs
        DrawDesc d = test::random_draw(rng, Prim(uni(0, kPrimCount - 1)), small);
        if (d.index_type == IndexType::none) d.index_type = IndexType(uni(1, 3));
        if (d.indices.size() < d.start + d.count) d.indices.resize(d.start + d.count, 1);
        for (auto& v : d.indices) v %= d.index_type == IndexType::u8 ? 256 : 1u << 16;
        if (d.index_type == IndexType::u32 && uni(0, 4) == 0) {
            // The largest index a few below 2^32: a base vertex may carry it past.
            uint32_t top = 0;
            for (uint32_t v : d.indices) top = std::max(top, v);
            for (auto& v : d.indices) v += UINT32_MAX - top - uni(0, 30);
        }
        auto bound = bind_draw(d);
        DrawInfo& info = bound->info;
        if (uni(0, 9) == 0) info.base_vertex = -int32_t(uni(0, 40));                // below 0
        if (uni(0, 19) == 0) info.base_vertex = int32_t(UINT32_MAX >> 1) - 100;     // near 2^31
        if (uni(0, 19) == 0) info.index_buffer_count = info.start + info.count - 1; // overrun
        if (uni(0, 9) == 0) info.index_buffer_id = uni(0, 1) ? registered : registered + 1;

        MiddleEndLimits limits;
        limits.max_vertices = uni(0, 9) == 0 ? uni(0, 4) : uni(1, 80);
        if (uni(0, 9) == 0) limits.assemble_as = Prim::triangles;
        DrawOptions options;
        options.strategy.kind = Strategy::Kind(uni(0, 5));
        if (options.strategy.kind == Strategy::Kind::direct) options.strategy.entries = 64;
        if (uni(0, 4) == 0) options.max_vertices = uni(1, 90); // sometimes above the limit
        if (uni(0, 6) == 0) options.chunk_positions = uni(1, 16);
        if (uni(0, 4) == 0) options.split_cache = &cache;
        options.robust_indices = uni(0, 3) == 0;

        const std::string what = format_draw_text(d);
        if (!compare(info, limits, options, what)) continue;
        ++one_range_segment;
        // A draw the short way may take, with a given index range, which is trusted: one
        // that a base vertex carries past 2^32 where the indices would not go, and one that
        // does not bound the indices (debug builds report it).
        DrawInfo ranged = info;
        ranged.index_range = IndexRange{0, UINT32_MAX - 10};
        ranged.base_vertex = 20;
        compare(ranged, limits, options, what + "index_range wide, base vertex 20\n");
        ranged.index_range = IndexRange{0, 0};
        compare(ranged, limits, options, what + "index_range [0, 0], base vertex 20\n");
        // A base vertex that carries the smallest index below 0, and (u32 indices moved up
        // to just below 2^32) one that carries the largest past 2^32.
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t i = d.start; i < d.start + d.count; ++i)
            lo = std::min(lo, d.indices[i]), hi = std::max(hi, d.indices[i]);
        DrawInfo carried = info;
        carried.base_vertex = -int32_t(lo) - 1;
        compare(carried, limits, options, what + "base vertex below the smallest index\n");
        std::vector<uint32_t> high(d.indices.begin(), d.indices.end());
        for (auto& v : high) v += UINT32_MAX - 5 - hi;
        if (info.index_type == IndexType::u32) {
            carried.indices = high.data();
            carried.base_vertex = 5;
            compare(carried, limits, options, what + "the largest index 2^32 - 1 - 5, bv 5\n");
            carried.base_vertex = 6;
            compare(carried, limits, options, what + "the largest index 2^32 - 1 - 5, bv 6\n");
        }
        // Through a split cache: a buffer it knows (a miss, then replayed) and one it does not.
        DrawOptions cached = options;
        cached.split_cache = &cache;
        DrawInfo known = info;
        known.index_buffer_id = registered;
        compare(known, limits, cached, what + "a registered buffer\n");
        known.index_buffer_id = registered + 1;
        compare(known, limits, cached, what + "an unregistered buffer\n");
    }
    // Both kinds were met often: draws the short way takes, and draws refused by a check.
    EXPECT_GT(one_range_segment, 300) << one_range_segment;
    EXPECT_GT(refused, 1600) << refused;
}

// The small draw's scan looks for the restart index at every position, the first and the
// last included: a draw it misses would be taken as one range and drawn across its runs.
// Counted against GL: each run between restart indices draws its own whole primitives.
TEST(DrawSegments, ARestartIndexAnywhereInASmallDrawEndsARun) {
    DrawSegments reused;
    for (const Prim prim : {Prim::points, Prim::lines, Prim::line_strip, Prim::triangles,
                            Prim::triangle_strip, Prim::triangle_fan}) {
        for (uint32_t n = 1; n <= 33; ++n) {
            for (uint32_t k = 0; k < n; ++k) {
                // Indices 0, 1, 2... with the restart index, a value from inside their range,
                // at position k: a range narrower than the count, as the range path takes.
                std::vector<uint16_t> idx(n);
                for (uint32_t i = 0; i < n; ++i) idx[i] = uint16_t(i);
                const uint16_t restart = uint16_t(n / 2);
                idx[k] = restart;
                uint64_t expected = 0;
                uint32_t run = 0;
                for (uint32_t i = 0; i <= n; ++i) {
                    if (i == n || idx[i] == restart) {
                        expected += trim_count(prim, run);
                        run = 0;
                    } else {
                        ++run;
                    }
                }
                DrawInfo draw;
                draw.prim = prim;
                draw.index_type = IndexType::u16;
                draw.indices = idx.data();
                draw.index_buffer_count = n;
                draw.count = n;
                draw.primitive_restart = true;
                draw.restart_index = restart;
                reused.begin(draw, MiddleEndLimits{});
                Segment seg;
                while (reused.next(seg)) {
                }
                ASSERT_EQ(reused.stats().ia_vertices, expected)
                    << prim_name(prim) << " " << n << " indices, restart at " << k;
            }
        }
    }
}

// A driver's own threads split a large draw chunk by chunk (chunks, begin_chunk): the
// chunks' segments, each chunk split on its own DrawSegments on any thread, in any order,
// put side by side in chunk order, must be exactly the whole draw's segments and totals,
// for every primitive, restart, instancing, and chunks from a few positions up.
TEST(DrawSegments, ChunksSplitApartCutAsTheWholeDraw) {
    std::mt19937 rng(41);
    int chunked = 0, restarted = 0;
    for (int iter = 0; iter < 300; ++iter) {
        const Prim prim = Prim(rng() % kPrimCount);
        const DrawDesc d = test::random_draw(rng, prim);
        const auto bound = bind_draw(d);
        MiddleEndLimits limits;
        limits.max_vertices = std::max(min_segment_vertices(prim), d.patch_vertices) + rng() % 30;
        DrawOptions options;
        options.chunk_positions = 12 * (1 + rng() % 6);
        DrawSegments whole(bound->info, limits, options);
        const std::vector<std::string> expected = segments_of(whole);
        const FrontEndStats totals = whole.stats();

        DrawSegments draw;
        draw.begin(bound->info, limits, options);
        const uint32_t n = draw.chunks(iter % 2 == 0);
        ASSERT_GE(n, 1u);
        EXPECT_EQ(draw.chunks(), n); // asked again: the same, nothing scanned twice
        if (n == 1) {
            EXPECT_EQ(segments_of(draw), expected) << format_draw_text(d);
            EXPECT_THROW(DrawSegments().begin_chunk(draw, 0), Error);
            continue;
        }
        ++chunked;
        restarted += bound->info.primitive_restart;
        std::vector<std::vector<std::string>> parts(n);
        std::vector<FrontEndStats> part_totals(n);
        std::vector<uint32_t> order(n);
        for (uint32_t c = 0; c < n; ++c) order[c] = c;
        std::shuffle(order.begin(), order.end(), rng);
        DrawSegments part;   // reused from chunk to chunk, as a driver's thread would
        if (iter % 3 == 0) { // on oneTBB's threads, all at once (TSan: nothing shared written)
            tbb::parallel_for(uint32_t(0), n, [&](uint32_t c) {
                DrawSegments own;
                own.begin_chunk(draw, c);
                parts[c] = segments_of(own);
                part_totals[c] = own.stats();
            });
        } else {
            for (uint32_t c : order) {
                part.begin_chunk(draw, c);
                parts[c] = segments_of(part);
                part_totals[c] = part.stats();
            }
        }
        std::vector<std::string> got;
        FrontEndStats sum;
        for (uint32_t c = 0; c < n; ++c) {
            got.insert(got.end(), parts[c].begin(), parts[c].end());
            sum.segments += part_totals[c].segments;
            sum.indices += part_totals[c].indices;
            sum.fetched += part_totals[c].fetched;
            sum.shaded += part_totals[c].shaded;
            sum.ia_primitives += part_totals[c].ia_primitives;
        }
        EXPECT_EQ(got, expected) << format_draw_text(d);
        expect_same_totals(sum, totals);
        EXPECT_THROW(part.begin_chunk(draw, n), Error);
    }
    EXPECT_GT(chunked, 100); // the draws were large enough to cut
    EXPECT_GT(restarted, 10);
}
