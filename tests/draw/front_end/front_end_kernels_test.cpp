// The default strategy's triangle loops: every loop (plain, packed, and the lookup bypass
// for draws without reuse) must hand on draw elements that resolve to the draw's indices,
// within the fetch limit, and the bypass must cost little and switch back when reuse returns.
#include "draw/front_end/dedup_table.hpp"
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/triangle_loops.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

using namespace drawpipe;

namespace {

struct Split {
    std::vector<uint32_t> resolved;        // vertex id of every draw element, in order
    std::vector<uint32_t> fetched;         // per segment
    std::vector<uint32_t> drawn;           // per segment
    std::vector<uint32_t> strip_triangles; // strips and fans: each segment's, in GL's order
    size_t linear_draws = 0;               // segments without draw elements
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
        // A piece of a strip starts on an even triangle: its odd ones swap two vertices.
        if (seg.prim == Prim::triangle_strip)
            for (uint32_t t = 0; t + 2 < seg.draw_count; ++t) {
                const size_t b = out.resolved.size() - seg.draw_count + t;
                const uint32_t v0 = out.resolved[b], v1 = out.resolved[b + 1];
                const uint32_t v2 = out.resolved[b + 2];
                for (uint32_t v : {v0, t % 2 ? v2 : v1, t % 2 ? v1 : v2})
                    out.strip_triangles.push_back(v);
            }
        if (seg.prim == Prim::triangle_fan)
            for (uint32_t t = 0; t + 2 < seg.draw_count; ++t) {
                const size_t b = out.resolved.size() - seg.draw_count;
                for (size_t v : {b, b + t + 1, b + t + 2})
                    out.strip_triangles.push_back(out.resolved[v]);
            }
        out.fetched.push_back(seg.fetch_count);
        out.drawn.push_back(seg.draw_count);
        out.linear_draws += seg.linear_draw();
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

// The strips of a w x h grid's rows (2w indices each), separated by the restart index.
template <class T> std::vector<T> grid_strips(uint32_t w, uint32_t h, uint32_t restart) {
    std::vector<T> idx;
    for (uint32_t y = 0; y + 1 < h; ++y) {
        if (y) idx.push_back(T(restart));
        for (uint32_t x = 0; x < w; ++x) {
            idx.push_back(T(y * w + x));
            idx.push_back(T((y + 1) * w + x));
        }
    }
    return idx;
}

// The triangles of a restarted strip, unsplit, in GL's order (first-vertex convention).
template <class T>
std::vector<uint32_t> strip_triangles(const std::vector<T>& idx, T restart, int32_t base_vertex) {
    std::vector<uint32_t> out;
    size_t start = 0;
    for (size_t i = 0; i <= idx.size(); ++i) {
        if (i < idx.size() && idx[i] != restart) continue;
        for (size_t t = 0; t + 2 < i - start; ++t) {
            const uint32_t v0 = idx[start + t], v1 = idx[start + t + 1], v2 = idx[start + t + 2];
            for (uint32_t v : {v0, t % 2 ? v2 : v1, t % 2 ? v1 : v2})
                out.push_back(uint32_t(int64_t(v) + base_vertex));
        }
        start = i + 1;
    }
    return out;
}

template <class T> DrawInfo strips(const std::vector<T>& idx, T restart, int32_t base_vertex) {
    DrawInfo info = triangles(idx, base_vertex);
    info.prim = Prim::triangle_strip;
    info.primitive_restart = true;
    info.restart_index = restart;
    return info;
}

// Strips without reuse (a grid's rows) skip the lookups and draw linearly, giving the same
// triangles as looked-up and unsplit strips, at limits that split inside the rows, between
// them and not at all; with odd and even limits (a piece keeps an even triangle count).
TEST(FrontEndKernels, StripsWithoutReuseBypassLookupsAndStayCorrect) {
    for (const uint32_t w : {700u, 1024u, 2500u}) {
        const std::vector<uint32_t> idx = grid_strips<uint32_t>(w, 12, 0xFFFFFFFFu);
        const std::vector<uint16_t> narrow = grid_strips<uint16_t>(w, 12, 0xFFFF);
        for (const uint32_t limit : {999u, 1024u, 4096u, 65536u})
            for (const int32_t bias : {0, 5}) {
                SCOPED_TRACE(std::to_string(w) + " x 12, limit " + std::to_string(limit));
                FrontEnd fe;
                const Split d = split(fe, strips(idx, 0xFFFFFFFFu, bias), limit);
                const Split x = split(fe, strips(idx, 0xFFFFFFFFu, bias), limit, "exact");
                EXPECT_EQ(d.strip_triangles, strip_triangles(idx, 0xFFFFFFFFu, bias));
                EXPECT_EQ(d.strip_triangles, x.strip_triangles);
                EXPECT_EQ(d.total_fetched, x.total_fetched); // nothing repeats
                EXPECT_EQ(x.linear_draws, 0u);
                // After the first segments of at least 1024 indices, most draw linearly.
                if (2 * w >= 1024 && limit >= 1024) {
                    EXPECT_GT(d.linear_draws, d.drawn.size() / 2);
                }
                const Split n = split(fe, strips(narrow, uint16_t(0xFFFF), bias), limit);
                EXPECT_EQ(n.strip_triangles, d.strip_triangles);
            }
    }
}

// Fans without reuse (every rim vertex new, W5) skip the lookups the same way: the centre,
// then the rim in order, drawn linearly; restart runs of several fans, u16 and u32.
TEST(FrontEndKernels, FansWithoutReuseBypassLookupsAndStayCorrect) {
    for (const uint32_t rim : {900u, 3000u, 70000u}) {
        std::vector<uint32_t> idx;
        for (uint32_t f = 0; f < 4; ++f) {
            if (f) idx.push_back(0xFFFFFFFFu);
            for (uint32_t i = 0; i < rim; ++i) idx.push_back(f * 100000 + i);
        }
        std::vector<uint32_t> want; // the unsplit fans' triangles
        for (uint32_t f = 0; f < 4; ++f)
            for (uint32_t t = 0; t + 2 < rim; ++t)
                for (uint32_t v : {0u, t + 1, t + 2}) want.push_back(f * 100000 + v + 3);
        for (const uint32_t limit : {999u, 4096u, 65536u}) {
            SCOPED_TRACE(std::to_string(rim) + " rim vertices, limit " + std::to_string(limit));
            FrontEnd fe;
            DrawInfo info = strips(idx, 0xFFFFFFFFu, 3);
            info.prim = Prim::triangle_fan;
            const Split d = split(fe, info, limit);
            const Split x = split(fe, info, limit, "exact");
            EXPECT_EQ(d.strip_triangles, want);
            EXPECT_EQ(x.strip_triangles, want);
            EXPECT_EQ(d.total_fetched, x.total_fetched);
            if (rim >= 3000 && limit >= 1024) {
                EXPECT_GT(d.linear_draws, d.drawn.size() / 3);
            }
            if (rim < 65536) {
                std::vector<uint16_t> narrow;
                for (uint32_t v : idx) narrow.push_back(uint16_t(v == 0xFFFFFFFFu ? 0xFFFF : v));
                DrawInfo n16 = strips(narrow, uint16_t(0xFFFF), 3);
                n16.prim = Prim::triangle_fan;
                std::vector<uint32_t> want16;
                for (uint32_t v : want) want16.push_back(uint32_t(uint16_t(v - 3)) + 3);
                EXPECT_EQ(split(fe, n16, limit).strip_triangles, want16);
            }
        }
    }
}

TEST(FrontEndKernels, StripBypassEndsWhenReuseReturns) {
    // Grid rows, then long strips over 50 vertices (each vertex drawn ~40 times): once the
    // reuse returns, the strips are de-duplicated again within a few segments.
    std::vector<uint32_t> idx = grid_strips<uint32_t>(2048, 6, 0xFFFFFFFFu);
    std::mt19937 rng(2);
    for (int s = 0; s < 30; ++s) {
        idx.push_back(0xFFFFFFFFu);
        for (int i = 0; i < 2000; ++i) idx.push_back((1u << 20) + rng() % 50);
    }
    FrontEnd fe;
    const Split d = split(fe, strips(idx, 0xFFFFFFFFu, 0), 4096);
    const Split x = split(fe, strips(idx, 0xFFFFFFFFu, 0), 4096, "exact");
    EXPECT_EQ(d.strip_triangles, strip_triangles(idx, 0xFFFFFFFFu, 0));
    EXPECT_GT(d.linear_draws, 0u);
    // Bypassing every repeating strip would fetch ~58,000 more.
    EXPECT_LT(double(d.total_fetched), double(x.total_fetched) + 8 * 2000);
}

// The four lookup loops of the default strategy's table (and the base and BMI2 builds of
// each) write the same fetch list, count and draw elements from the same table state: the
// speed-based choice between them (choose_triangle_loop) can never change a split. Inputs
// from all hits to all misses, carried over several chunks with stale table entries (and,
// for the keyed loop, over its 16-bit epoch's wrap).
TEST(FrontEndKernels, TriangleLoopsWriteTheSameLists) {
    std::mt19937 rng(23);
    using Table = detail::DirectDedup<detail::FibHash>;
    const detail::TriangleLoop loops[] = {detail::TriangleLoop::plain, detail::TriangleLoop::packed,
                                          detail::TriangleLoop::unpredictable,
                                          detail::TriangleLoop::filtered};
    // 9000: segments fill up and the next ones meet their ids again in stale entries.
    for (const uint32_t range : {40u, 400u, 4000u, 9000u, 1u << 30}) {
        std::vector<uint32_t> idx(3 * 6000);
        for (uint32_t& v : idx) v = rng() % range;
        std::vector<uint32_t> want_fetch;
        std::vector<uint16_t> want_draw;
        std::vector<bool> want_evicted;
        size_t want_n = 0;
        for (const auto loop : loops) {
            detail::DedupArena arena;
            detail::TriangleLoopArena loop_arena;
            Table table;
            table.configure(arena, 16384, 4096);
            detail::TriangleLoops<Table> timed(loop_arena);
            timed.force(loop);
            std::vector<uint32_t> fetch(4096 + 1, 0);
            std::vector<uint16_t> draw(idx.size() + 1, 0);
            size_t n = 0, done = 0;
            // The keyed loop's entries carry the segment's epoch, as the splitter sets it.
            const bool keyed = loop == detail::TriangleLoop::unpredictable;
            const bool filtered = loop == detail::TriangleLoop::filtered;
            if (keyed) {
                timed.next_keyed_segment(table.entries()); // epoch 1
                loop_arena.keyed_epoch = 0xFFFE; // the next segments wrap to epoch 1 again
            }
            if (filtered) timed.next_filtered_segment(4096);
            // Chunks that fit for sure, as the splitter cuts them; then a fresh segment.
            while (done < idx.size() / 3) {
                if (4096 - n < 3) { // a new segment: the table's entries go stale
                    n = 0;
                    if (keyed) timed.next_keyed_segment(table.entries());
                    if (filtered) timed.next_filtered_segment(4096);
                }
                const size_t tris = std::min((4096 - n) / 3, idx.size() / 3 - done);
                const size_t chunk = std::min<size_t>(tris, 1 + rng() % 700);
                timed.run(table, idx.data() + 3 * done, chunk, fetch.data(), n,
                          draw.data() + 3 * done);
                done += chunk;
            }
            fetch.resize(n);
            draw.resize(idx.size());
            // Which of the last segment's vertices the table no longer points to (the
            // splitter's collision check, DedupSplitter::after_first_segment), asked of the
            // entries the loop wrote: a thread's timings must not change the answer.
            std::vector<bool> evicted(n);
            for (size_t i = 0; i < n; ++i) evicted[i] = timed.position_of(table, fetch[i]) != i;
            if (loop == loops[0]) {
                want_fetch = fetch, want_draw = draw, want_n = n, want_evicted = evicted;
                continue;
            }
            EXPECT_EQ(evicted, want_evicted) << "range " << range << ", loop " << int(loop);
            EXPECT_EQ(n, want_n) << "range " << range << ", loop " << int(loop);
            EXPECT_EQ(fetch, want_fetch) << "range " << range << ", loop " << int(loop);
            EXPECT_EQ(draw, want_draw) << "range " << range << ", loop " << int(loop);
        }
    }
}

// The choice between loops the miss rate cannot decide: the miss rate settles the clear
// cases; otherwise the faster of a pair runs and the other is probed now and then, rarely
// when it is much slower; a probe that finds it faster flips the choice; the filtered loop
// is a candidate only where offered; and the choice is remembered for the next draw.
TEST(FrontEndKernels, TriangleLoopChoiceProbesInProportionToTheGap) {
    using detail::TriangleLoop;
    const auto runs = [](detail::TriangleLoopTimes t, uint32_t segments, size_t misses,
                         TriangleLoop counted) {
        uint32_t hits = 0;
        for (uint32_t i = 0; i < segments; ++i)
            hits += detail::choose_triangle_loop(t, misses, 1000, true) == counted;
        return hits;
    };
    detail::TriangleLoopTimes t;
    EXPECT_EQ(detail::choose_triangle_loop(t, 100, 1000), TriangleLoop::plain); // 10 % misses
    EXPECT_EQ(detail::choose_triangle_loop(t, 950, 1000), TriangleLoop::packed);
    EXPECT_EQ(t.last, TriangleLoop::packed);
    EXPECT_EQ(detail::choose_triangle_loop(t, 400, 1000), TriangleLoop::plain); // untimed
    t.of(TriangleLoop::plain) = 1000;
    EXPECT_EQ(detail::choose_triangle_loop(t, 400, 1000), TriangleLoop::unpredictable);
    EXPECT_EQ(t.last, TriangleLoop::unpredictable);
    // Keyed 1.5x faster: 640 segments probe the plain loop 10 times.
    t.of(TriangleLoop::unpredictable) = 666;
    EXPECT_EQ(runs(t, 640, 400, TriangleLoop::unpredictable), 640u - 640u / detail::kProbeFar);
    // Within a quarter: probed every kProbeClose-th segment.
    t.of(TriangleLoop::unpredictable) = 900;
    EXPECT_EQ(runs(t, 640, 400, TriangleLoop::unpredictable), 640u - 640u / detail::kProbeClose);
    // Plain faster by 1.5x: the keyed loop is the rare probe.
    t.of(TriangleLoop::unpredictable) = 1500;
    EXPECT_EQ(runs(t, 640, 400, TriangleLoop::unpredictable), 640u / detail::kProbeFar);
    // Mostly misses: packed, or, where offered, the faster of packed and filtered.
    EXPECT_EQ(detail::choose_triangle_loop(t, 950, 1000, false), TriangleLoop::packed);
    EXPECT_EQ(detail::choose_triangle_loop(t, 950, 1000, true), TriangleLoop::packed); // untimed
    t.of(TriangleLoop::packed) = 2000;
    EXPECT_EQ(detail::choose_triangle_loop(t, 950, 1000, true), TriangleLoop::filtered);
    t.of(TriangleLoop::filtered) = 1600;
    EXPECT_EQ(runs(t, 640, 950, TriangleLoop::filtered), 640u - 640u / detail::kProbeClose);
    t.of(TriangleLoop::filtered) = 2600;
    EXPECT_EQ(runs(t, 640, 950, TriangleLoop::filtered), 640u / detail::kProbeFar);
    EXPECT_EQ(runs(t, 64, 950, TriangleLoop::unpredictable), 0u);
}

// The vectorised restart scan finds what std::find finds: every index type, restart values
// at every position of the 64-byte blocks and the tail, several or none, from any start.
template <class T> void check_find_restart(std::mt19937& rng) {
    for (uint32_t n = 0; n < 150; ++n)
        for (int trial = 0; trial < 6; ++trial) {
            std::vector<T> idx(n);
            const uint32_t restart = trial == 5 ? uint32_t(std::numeric_limits<T>::max()) + 1u
                                                : uint32_t(rng() % 4 == 0 ? 0 : T(~T(0)));
            for (T& v : idx) v = T(rng() % 7 == 0 ? T(restart) : T(1 + rng() % 50));
            const uint32_t from = n ? uint32_t(rng() % (n + 1)) : 0;
            uint32_t want = n;
            if (restart <= std::numeric_limits<T>::max())
                want = uint32_t(std::find(idx.begin() + from, idx.end(), T(restart)) - idx.begin());
            ASSERT_EQ(find_restart(idx.data(), from, n, restart), want)
                << sizeof(T) << "-byte indices, n " << n << ", from " << from;
        }
}

TEST(FrontEndKernels, RestartScanFindsTheFirstRestart) {
    std::mt19937 rng(17);
    for (int round = 0; round < 20; ++round) {
        check_find_restart<uint8_t>(rng);
        check_find_restart<uint16_t>(rng);
        check_find_restart<uint32_t>(rng);
    }
}

// The vectorised index bounds equal a plain loop's: every index type, with and without a
// restart value to skip (the type's top value, an ordinary one, one that cannot occur), runs
// of restart values filling whole blocks, values at the type's extremes, any start and end.
template <class T> void check_scan_range(std::mt19937& rng) {
    for (uint32_t n = 0; n < 200; n += 1 + n / 16)
        for (int trial = 0; trial < 8; ++trial) {
            std::vector<T> idx(n);
            const uint32_t top = std::numeric_limits<T>::max();
            const uint32_t rvalue = trial % 4 == 0   ? top
                                    : trial % 4 == 1 ? uint32_t(rng() % 5)
                                    : trial % 4 == 2 ? top + 1u
                                                     : 0;
            const bool restart = trial < 6;
            const uint32_t dense = rng() % 4; // 0: all restart values, 3: none
            for (T& v : idx) {
                const uint32_t pick = rng() % 8;
                v = pick < dense * 2 || (dense == 0 && pick < 7) ? T(rvalue)
                    : pick == 7                                  ? T(rng() % 2 ? top : 0)
                                                                 : T(rng() % (top < 99 ? top : 99));
            }
            const uint32_t b = n ? rng() % (n + 1) : 0, e = b + (n - b ? rng() % (n - b + 1) : 0);
            uint32_t lo = UINT32_MAX, hi = 0;
            for (uint32_t i = b; i < e; ++i) {
                if (restart && rvalue <= top && idx[i] == rvalue) continue;
                lo = std::min<uint32_t>(lo, idx[i]), hi = std::max<uint32_t>(hi, idx[i]);
            }
            const IndexRange r = scan_range(idx.data(), b, e, restart, rvalue);
            ASSERT_EQ(r.min, lo) << sizeof(T) << "-byte indices [" << b << ", " << e << ")";
            ASSERT_EQ(r.max, hi) << sizeof(T) << "-byte indices [" << b << ", " << e << ")";
        }
}

TEST(FrontEndKernels, IndexBoundsEqualAPlainLoop) {
    std::mt19937 rng(19);
    for (int round = 0; round < 20; ++round) {
        check_scan_range<uint8_t>(rng);
        check_scan_range<uint16_t>(rng);
        check_scan_range<uint32_t>(rng);
    }
}

} // namespace

// The default strategy masks vertex ids into its table. A grid whose rows are a multiple of
// the table's size apart (16384 entries at limit 4096) collides under the mask; the first
// segment notices and the rest of the draw goes through the Fibonacci-hashed table, so the
// draw fetches about as few vertices as `exact`. Grids with ordinary rows keep the mask and
// fetch as few as direct-16384 (the same table, masked).
TEST(FrontEndKernels, MaskedTableFallsBackWhenIdsCollide) {
    for (const uint32_t row : {16384u, 32768u, 1000u}) {
        std::vector<uint32_t> idx;
        for (uint32_t y = 0; y + 1 < 64; ++y)
            for (uint32_t x = 0; x + 1 < 64; ++x) {
                const uint32_t v = y * row + x;
                for (uint32_t i : {v, v + 1, v + row, v + 1, v + row + 1, v + row})
                    idx.push_back(i);
            }
        SCOPED_TRACE("row " + std::to_string(row));
        FrontEnd fe;
        const Split d = split(fe, triangles(idx), 4096);
        EXPECT_EQ(d.resolved, idx);
        const Split x = split(fe, triangles(idx), 4096, "exact");
        const Split masked = split(fe, triangles(idx), 4096, "direct-16384");
        EXPECT_LE(double(d.total_fetched), double(x.total_fetched) * 1.02);
        if (row % 16384 == 0)
            EXPECT_GT(double(masked.total_fetched), double(x.total_fetched) * 1.5);
        else
            EXPECT_EQ(d.total_fetched, masked.total_fetched);
    }
}
