// Segment structure: flags, sizes, de-duplication, draw elements resolving to indices.
#include "draw/context/validate.hpp"
#include "draw/front_end/front_end.hpp"
#include "drawpipe/prim.hpp"
#include "support/random_draw.hpp"
#include "tools/common/draw_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace drawpipe;

namespace {

struct Collected {
    std::vector<Segment> segs;
    std::vector<std::vector<uint32_t>> fetch;
    std::vector<std::vector<uint16_t>> draw;
    FrontEndStats stats;
};

// FrontEnd::begin checks nothing: the draw is checked first, as a draw entering drawpipe is.
void begin_checked(FrontEnd& fe, const DrawInfo& info, const FrontEndOptions& options) {
    validate_draw(info);
    check_split(info, options);
    check_indices(info, std::nullopt);
    fe.begin(info, options);
}

Collected split(const DrawInfo& info, uint32_t limit, Strategy strategy = {},
                bool instancing = false) {
    FrontEnd fe;
    MiddleEndLimits lim;
    lim.max_vertices = limit;
    lim.handles_instancing = instancing;
    begin_checked(fe, info, {lim, strategy});
    Collected c;
    SegmentStorage st;
    Segment seg;
    while (fe.next(st, seg)) {
        c.segs.push_back(seg);
        std::vector<uint32_t> f;
        for (uint32_t i = 0; i < seg.fetch_count; ++i) f.push_back(seg.vertex_id(i));
        std::vector<uint16_t> dr;
        for (uint32_t i = 0; i < seg.draw_count; ++i) dr.push_back(uint16_t(seg.draw_elt(i)));
        c.fetch.push_back(f);
        c.draw.push_back(dr);
    }
    c.stats = fe.stats();
    return c;
}

DrawDesc list_draw(uint32_t n, uint32_t span, IndexType type) {
    DrawDesc d;
    d.prim = Prim::triangles;
    d.index_type = type;
    std::mt19937 rng(7);
    for (uint32_t i = 0; i < n; ++i) d.indices.push_back(rng() % span);
    d.count = n;
    d.count_given = true;
    return d;
}

} // namespace

TEST(FrontEnd, FlagsAndLimits) {
    std::mt19937 rng(99);
    for (int p = 0; p < kPrimCount; ++p) {
        for (int iter = 0; iter < 40; ++iter) {
            test::RandomDrawOptions o;
            o.allow_restart = false;
            o.max_instances = 1;
            DrawDesc d = test::random_draw(rng, Prim(p), o);
            d.instances = 1;
            const auto b = bind_draw(d);
            const uint32_t limit = min_segment_vertices(Prim(p), d.patch_vertices) + rng() % 20;
            for (const char* s : {"distinct", "vsplit", "exact", "none"}) {
                const Collected c = split(b->info, limit, *Strategy::parse(s));
                for (size_t i = 0; i < c.segs.size(); ++i) {
                    const uint8_t f = c.segs[i].flags;
                    EXPECT_EQ(bool(f & SPLIT_BEFORE), i > 0) << s;
                    EXPECT_EQ(bool(f & SPLIT_AFTER), i + 1 < c.segs.size()) << s;
                    EXPECT_LE(c.segs[i].fetch_count, limit) << s;
                    for (uint16_t e : c.draw[i]) EXPECT_LT(e, c.segs[i].fetch_count);
                }
            }
        }
    }
}

TEST(FrontEnd, CacheFetchesEachVertexOnceAndResolvesBack) {
    for (IndexType type : {IndexType::u8, IndexType::u16, IndexType::u32}) {
        const DrawDesc d = list_draw(3000, type == IndexType::u8 ? 200 : 900, type);
        const auto b = bind_draw(d);
        for (const char* s : {"distinct", "exact", "vsplit", "direct-64", "none"}) {
            const Collected c = split(b->info, 300, *Strategy::parse(s));
            std::vector<uint32_t> resolved;
            for (size_t i = 0; i < c.segs.size(); ++i) {
                const std::set<uint32_t> unique(c.fetch[i].begin(), c.fetch[i].end());
                if (std::string(s) == "exact") {
                    EXPECT_EQ(unique.size(), c.fetch[i].size()) << s;
                }
                if (std::string(s) == "distinct") { // direct-mapped: a collision may refetch
                    EXPECT_LE(c.fetch[i].size(), unique.size() + unique.size() / 20 + 1) << s;
                }
                for (uint16_t e : c.draw[i]) resolved.push_back(c.fetch[i][e]);
            }
            EXPECT_EQ(resolved, d.indices) << s;
        }
    }
}

TEST(FrontEnd, VsplitSegmentsMatchMesaCounts) {
    // W4's shape: a 1,000,000-index strip at 1024-index segments makes 979 segments.
    std::vector<uint16_t> idx(1000000);
    for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = uint16_t(i % 65535);
    DrawInfo info;
    info.prim = Prim::triangle_strip;
    info.index_type = IndexType::u16;
    info.indices = idx.data();
    info.index_buffer_count = uint32_t(idx.size());
    info.count = uint32_t(idx.size());
    EXPECT_EQ(split(info, 4096, *Strategy::parse("vsplit")).stats.segments, 979u);
    // Linear triangles, W6's shape: 6,000,000 vertices at 4096 make 1466 segments.
    DrawInfo lin;
    lin.prim = Prim::triangles;
    lin.count = 6000000;
    EXPECT_EQ(split(lin, 4096).stats.segments, 1466u);
    EXPECT_EQ(split(lin, 65536).stats.segments, 92u);
}

TEST(FrontEnd, DistinctStrategyBoundsSegmentsByFetches) {
    // A 64x64 grid of triangles: segments fill up to the limit of distinct vertices.
    std::vector<uint32_t> idx;
    const uint32_t w = 64;
    for (uint32_t y = 0; y + 1 < w; ++y)
        for (uint32_t x = 0; x + 1 < w; ++x) {
            const uint32_t v = y * w + x;
            for (uint32_t i : {v, v + 1, v + w, v + 1, v + w + 1, v + w}) idx.push_back(i);
        }
    DrawInfo info;
    info.prim = Prim::triangles;
    info.index_type = IndexType::u32;
    info.indices = idx.data();
    info.index_buffer_count = uint32_t(idx.size());
    info.count = uint32_t(idx.size());
    const Collected c = split(info, 256);
    for (size_t i = 0; i + 1 < c.segs.size(); ++i) EXPECT_GT(c.segs[i].fetch_count, 250u);
    EXPECT_LT(double(c.stats.fetched) / double(c.stats.indices), 0.30);
}

TEST(FrontEnd, LinearDrawsCopyNoIndices) {
    DrawInfo info;
    info.prim = Prim::triangle_strip;
    info.count = 100;
    const Collected c = split(info, 10);
    for (const Segment& s : c.segs) {
        EXPECT_TRUE(s.linear_fetch());
        EXPECT_TRUE(s.linear_draw());
    }
}

TEST(FrontEnd, InstancingInMiddleEndGivesOnePass) {
    DrawInfo info;
    info.prim = Prim::triangles;
    info.count = 30;
    info.instance_count = 5;
    const Collected per = split(info, 9);
    const Collected all = split(info, 9, {}, true);
    EXPECT_EQ(per.segs.size(), 5 * all.segs.size());
    for (const Segment& s : all.segs) EXPECT_EQ(s.instance_count, 5u);
    EXPECT_EQ(per.segs.back().instance_first, 4u);
}

TEST(FrontEnd, GarbageIndexCostsNothingExtra) {
    const uint32_t idx[] = {0, 0xFFFFFFF0u, 1, 0xFFFFFFFFu, 2, 3};
    DrawInfo info;
    info.prim = Prim::triangles;
    info.index_type = IndexType::u32;
    info.indices = idx;
    info.index_buffer_count = 6;
    info.count = 6;
    const Collected c = split(info, 4096);
    ASSERT_EQ(c.segs.size(), 1u);
    EXPECT_EQ(c.fetch[0], (std::vector<uint32_t>{0, 0xFFFFFFF0u, 1, 0xFFFFFFFFu, 2, 3}));
}

TEST(FrontEnd, PrimitiveIdsContinueAcrossSegmentsAndRuns) {
    const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 9, 6, 7, 8, 10, 11};
    DrawInfo info;
    info.prim = Prim::triangle_strip;
    info.index_type = IndexType::u8;
    info.indices = idx;
    info.index_buffer_count = 0; // set below
    std::vector<uint8_t> b(std::begin(idx), std::end(idx));
    info.indices = b.data();
    info.index_buffer_count = uint32_t(b.size());
    info.count = uint32_t(b.size());
    info.primitive_restart = true;
    info.restart_index = 9;
    const Collected c = split(info, 4);
    // Run 0: 6 vertices = 4 triangles in pieces of 2; run 1: 5 vertices = 3 triangles.
    std::vector<uint32_t> ids;
    for (const Segment& s : c.segs) ids.push_back(s.prim_id_first);
    EXPECT_EQ(ids, (std::vector<uint32_t>{0, 2, 4, 6}));
}

// Mesa's indexed fast path: a draw that fits one segment, with no restart among its indices
// and a range no wider than its count, fetches [min, max] linearly and draws rebased indices.
TEST(FrontEnd, OneSegmentDrawFetchesItsVertexRange) {
    DrawDesc d = parse_draw_text("prim triangle_strip\nindex u16\nindices 12 10 11 13 14 12\n"
                                 "restart 65535\nbase_vertex 100\n");
    auto b = bind_draw(d);
    Collected c = split(b->info, 64);
    ASSERT_EQ(c.segs.size(), 1u);
    EXPECT_TRUE(c.segs[0].linear_fetch());
    EXPECT_EQ(c.segs[0].flags, 0);
    EXPECT_EQ(c.segs[0].fetch_start, 110u);
    EXPECT_EQ(c.segs[0].fetch_count, 5u);
    EXPECT_EQ(c.draw[0], (std::vector<uint16_t>{2, 0, 1, 3, 4, 2}));
    // Not taken: a restart index among the indices, a range wider than the count or the
    // limit, or the strategy that promises a fetch per index.
    for (const char* text :
         {"prim triangles\nindex u16\nindices 0 1 2 65535 3 4 5\nrestart 65535\n",
          "prim triangles\nindex u16\nindices 0 1 9\n",
          "prim points\nindex u8\nindices 0 1 2 3 4 5 6 7 8 9 10 0 0 0 0\n"}) {
        auto other = bind_draw(parse_draw_text(text));
        for (const Segment& s : split(other->info, 8).segs) EXPECT_FALSE(s.linear_fetch()) << text;
    }
    for (const Segment& s : split(b->info, 64, *Strategy::parse("none")).segs)
        EXPECT_FALSE(s.linear_fetch());
}

// A draw of one instance that is one range segment skips the front end's state machine
// (find_range_draw). The same draw with two instances goes through it, range splitter and
// all, one pass per instance: its first pass must be exactly the one-instance draw, segment
// and totals, for every primitive, index type, base vertex, restart and limit.
TEST(FrontEnd, RangeDrawShortcutSplitsAsTheStateMachine) {
    std::mt19937 rng(99);
    int shortcuts = 0;
    for (int iter = 0; iter < 3000; ++iter) {
        const Prim prim = Prim(rng() % kPrimCount);
        if (prim == Prim::patches) continue;
        DrawDesc d = test::random_draw(rng, prim);
        if (d.index_type == IndexType::none) continue;
        d.instances = 1;
        auto one = bind_draw(d);
        DrawInfo two_info = one->info;
        two_info.instance_count = 2;
        const uint32_t limit = std::max<uint32_t>(min_segment_vertices(prim), rng() % 80);
        const Collected a = split(one->info, limit);
        const Collected b = split(two_info, limit);
        ASSERT_EQ(b.segs.size(), 2 * a.segs.size()) << format_draw_text(d);
        const bool shortcut = a.segs.size() == 1 && a.segs[0].linear_fetch();
        shortcuts += shortcut;
        for (size_t i = 0; i < a.segs.size(); ++i) {
            const Segment &x = a.segs[i], &y = b.segs[i];
            ASSERT_EQ(x.prim, y.prim) << format_draw_text(d);
            ASSERT_EQ(x.flags, y.flags);
            ASSERT_EQ(x.prim_id_first, y.prim_id_first);
            ASSERT_EQ(x.instance_first, y.instance_first);
            ASSERT_EQ(x.instance_count, y.instance_count);
            ASSERT_EQ(x.sequence, y.sequence);
            ASSERT_EQ(x.linear_fetch(), y.linear_fetch());
            ASSERT_EQ(a.fetch[i], b.fetch[i]);
            ASSERT_EQ(a.draw[i], b.draw[i]);
        }
        ASSERT_EQ(2 * a.stats.ia_vertices, b.stats.ia_vertices) << format_draw_text(d);
        ASSERT_EQ(2 * a.stats.ia_primitives, b.stats.ia_primitives) << format_draw_text(d);
        ASSERT_EQ(2 * a.stats.segments, b.stats.segments);
        ASSERT_EQ(2 * a.stats.indices, b.stats.indices);
        ASSERT_EQ(2 * a.stats.fetched, b.stats.fetched);
        ASSERT_EQ(2 * a.stats.shaded, b.stats.shaded);
    }
    EXPECT_GT(shortcuts, 300); // the shortcut was exercised, not only the state machine
}

// Non-indexed lists and strips: after a run's first segment the front end writes segments in
// closed form. Every segment must still name the GL primitive id of its first primitive (its
// first vertex's offset in primitives) and the instance pass it belongs to, at every limit.
TEST(FrontEnd, ClosedFormSegmentsNamePrimitiveIdsAndInstances) {
    std::mt19937 rng(11);
    const Prim prims[] = {Prim::points,
                          Prim::lines,
                          Prim::line_strip,
                          Prim::triangles,
                          Prim::triangle_strip,
                          Prim::quads,
                          Prim::quad_strip,
                          Prim::lines_adjacency,
                          Prim::line_strip_adjacency,
                          Prim::triangles_adjacency,
                          Prim::triangle_strip_adjacency};
    uint32_t multi = 0;
    for (int round = 0; round < 400; ++round) {
        DrawInfo info;
        info.prim = prims[rng() % std::size(prims)];
        info.start = rng() % 50;
        info.count = rng() % 300;
        info.instance_count = 1 + rng() % 3;
        const uint32_t limit = min_segment_vertices(info.prim) + rng() % 20;
        const bool instancing = rng() % 2;
        SCOPED_TRACE(std::string(prim_name(info.prim)) + " start " + std::to_string(info.start) +
                     " count " + std::to_string(info.count) + " limit " + std::to_string(limit));
        const Collected c = split(info, limit, {}, instancing);
        const PrimShape ps = prim_shape(info.prim);
        uint32_t pass = 0, next_id = 0, drawn = 0;
        for (const Segment& s : c.segs) {
            ASSERT_TRUE(s.linear_fetch() && s.linear_draw());
            if (s.prim_id_first == 0 && !c.segs.empty() && &s != &c.segs.front()) {
                ++pass; // a new instance pass starts over
                next_id = 0;
            }
            EXPECT_EQ(s.prim_id_first, (s.fetch_start - info.start) / ps.incr);
            EXPECT_EQ(s.prim_id_first, next_id);
            EXPECT_EQ(s.instance_first, instancing ? 0u : pass);
            EXPECT_EQ(s.flags & SPLIT_BEFORE, s.prim_id_first > 0 ? SPLIT_BEFORE : 0);
            next_id = s.prim_id_first + gl_prim_count(s.prim, s.draw_count);
            drawn += gl_prim_count(s.prim, s.draw_count);
        }
        const uint32_t passes = c.segs.empty() ? 0 : (instancing ? 1 : info.instance_count);
        EXPECT_EQ(drawn, passes * gl_prim_count(info.prim, info.count));
        EXPECT_EQ(c.stats.segments, c.segs.size());
        multi += c.segs.size() > 2;
    }
    EXPECT_GT(multi, 100u); // most draws were cut into several segments
}

namespace {

// Every field and list of a segment, to compare segments written by different calls.
std::string describe(const Segment& s) {
    std::string out = std::to_string(int(s.prim)) + " f" + std::to_string(s.flags) + " i" +
                      std::to_string(s.instance_first) + "+" + std::to_string(s.instance_count) +
                      " p" + std::to_string(s.prim_id_first) + " q" + std::to_string(s.sequence) +
                      " b" + std::to_string(s.fetch_bias) + " v";
    if (s.linear_fetch())
        out += std::to_string(s.fetch_start) + "+" + std::to_string(s.fetch_count);
    for (uint32_t v : s.fetch_elts) out += "," + std::to_string(v);
    out += " d" + std::to_string(s.draw_count) + (s.linear_draw() ? "L" : "");
    for (uint16_t e : s.draw_elts) out += "," + std::to_string(e);
    return out;
}

// A segment full of values no front end writes, as a consumer's scratch object might hold.
Segment poisoned() {
    static const uint32_t junk_fetch[3] = {7, 7, 7};
    static const uint16_t junk_draw[2] = {9, 9};
    Segment s;
    s.prim = Prim::polygon;
    s.flags = 0xff;
    s.instance_first = s.instance_count = s.prim_id_first = 0xdeadbeef;
    s.fetch_start = s.fetch_count = s.draw_count = s.fetch_bias = 0xdeadbeef;
    s.fetch_elts = junk_fetch;
    s.draw_elts = junk_draw;
    s.sequence = ~0ull;
    return s;
}

} // namespace

// next() into one object, next() into alternating objects the caller scribbles on, and drain()
// hand out the same segments and the same totals; the totals count what was handed out.
TEST(FrontEnd, NextAndDrainAgreeWhateverObjectTheyWrite) {
    std::mt19937 rng(23);
    for (int iter = 0; iter < 1500; ++iter) {
        const Prim prim = Prim(rng() % kPrimCount);
        test::RandomDrawOptions o;
        o.max_count = 400;
        DrawDesc d = test::random_draw(rng, prim, o);
        if (iter % 2) d.index_type = IndexType::none, d.indices.clear();
        const auto b = bind_draw(d);
        MiddleEndLimits lim;
        lim.max_vertices = min_segment_vertices(prim, d.patch_vertices) + rng() % 24;
        lim.handles_instancing = rng() % 2;
        const FrontEndOptions options{lim, {}};
        SCOPED_TRACE(format_draw_text(d) + " limit " + std::to_string(lim.max_vertices));

        FrontEnd fe;
        SegmentStorage st;
        std::vector<std::string> one, two, drained;
        Segment seg;
        begin_checked(fe, b->info, options);
        while (fe.next(st, seg)) one.push_back(describe(seg));
        const FrontEndStats s1 = fe.stats();

        Segment ab[2] = {poisoned(), poisoned()};
        begin_checked(fe, b->info, options);
        for (uint32_t i = 0; fe.next(st, ab[i % 2]); ++i) {
            two.push_back(describe(ab[i % 2]));
            ab[(i + 1) % 2] = poisoned();
        }
        const FrontEndStats s2 = fe.stats();

        Segment target = poisoned();
        begin_checked(fe, b->info, options);
        uint64_t indices = 0, fetched = 0;
        fe.drain(st, target, [&](const Segment& s) {
            drained.push_back(describe(s));
            indices += s.draw_count;
            fetched += s.fetch_count;
        });
        const FrontEndStats s3 = fe.stats();

        ASSERT_EQ(one, two);
        ASSERT_EQ(one, drained);
        for (const FrontEndStats& s : {s1, s2, s3}) {
            EXPECT_EQ(s.segments, drained.size());
            EXPECT_EQ(s.indices, indices);
            EXPECT_EQ(s.fetched, fetched);
        }
    }
}
