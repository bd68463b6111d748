// Cached splits across draws: a cached redraw traces exactly like an uncached draw, a
// version bump invalidates, eviction under a tiny budget stays correct, a draw larger than
// the budget is drawn uncached, and threads sharing the cache are race-free.
#include "draw/front_end/split_replay.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/registry.hpp"
#include "support/gl_oracle.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <thread>

using namespace drawpipe;

namespace {

// Traces `desc` through draw_serial, serving the split from `cache` under buffer `id`.
std::string trace_cached(const DrawDesc& desc, SplitCache& cache, uint64_t id, uint32_t limit,
                         const std::vector<uint8_t>* shared_bytes = nullptr) {
    auto bound = bind_draw(desc);
    if (shared_bytes) bound->info.indices = shared_bytes->data(); // the registered buffer itself
    bound->info.index_buffer_id = id;
    DrawState state{bound->info, bound->input(), nullptr, nullptr};
    const TessEvalShader tes = test::patch_ids_tes(desc.patch_vertices);
    if (desc.prim == Prim::patches) state.tes = &tes;
    FetchShade middle(65536);
    TraceBackend trace;
    DrawOptions ro;
    ro.max_vertices = limit;
    ro.split_cache = &cache;
    draw_serial(state, middle, trace, ro);
    return trace.take();
}

DrawDesc indexed_draw(std::mt19937& rng, Prim prim) {
    DrawDesc d;
    do d = test::random_draw(rng, prim);
    while (d.index_type == IndexType::none);
    return d;
}

} // namespace

TEST(SplitCache, CachedRedrawEqualsUncached) {
    std::mt19937 rng(17);
    SplitCache cache;
    for (int p = 0; p < kPrimCount; ++p) {
        for (int iter = 0; iter < 30; ++iter) {
            const DrawDesc d = indexed_draw(rng, Prim(p));
            const uint64_t id = cache.register_buffer();
            const uint32_t limit = min_segment_vertices(Prim(p), d.patch_vertices) + rng() % 30;
            const std::string expected = test::oracle_trace(d);
            ASSERT_EQ(trace_cached(d, cache, id, limit), expected) << format_draw_text(d); // miss
            ASSERT_EQ(trace_cached(d, cache, id, limit), expected) << format_draw_text(d); // hit
        }
    }
    const SplitCacheStats s = cache.stats();
    EXPECT_GT(s.hits, 0u);
    EXPECT_EQ(s.hits, s.misses - s.uncacheable);
}

TEST(SplitCache, BaseVertexAndInstancesReuseOneSplit) {
    SplitCache cache;
    const uint64_t id = cache.register_buffer();
    DrawDesc d = parse_draw_text("prim triangle_strip\nindex u16\nindices 0 1 2 3 4 5 6 7 9 8 7 6\n"
                                 "restart 9\nattrib 0\nattrib 2\n");
    for (int32_t bv : {0, 5, 100, 3})
        for (uint32_t inst : {1u, 3u}) {
            d.base_vertex = bv;
            d.instances = inst;
            EXPECT_EQ(trace_cached(d, cache, id, 4), test::oracle_trace(d));
        }
    EXPECT_EQ(cache.stats().misses, 1u);
    EXPECT_EQ(cache.stats().hits, 7u);
    // The cached range still guards base vertex overflow.
    d.base_vertex = -1;
    EXPECT_THROW(trace_cached(d, cache, id, 4), Error);
}

TEST(SplitCache, InstancingMiddleEndKeepsGlOrderOnReplay) {
    // Mali takes every instance at once only for one-segment draws; a replay must too.
    register_builtin_middle_ends();
    SplitCache cache;
    const uint64_t id = cache.register_buffer();
    DrawDesc d = parse_draw_text("prim triangles\nindex u16\nindices 0 1 2 2 1 3 3 4 5 5 6 7\n"
                                 "instances 3\nattrib 0\nattrib 1\n");
    for (uint32_t limit : {3u, 64u})
        for (int pass = 0; pass < 2; ++pass) {
            auto bound = bind_draw(d);
            bound->info.index_buffer_id = id;
            auto middle = MiddleEndRegistry::global().find("mali");
            TraceBackend trace;
            DrawOptions ro;
            ro.max_vertices = limit;
            ro.split_cache = &cache;
            draw_serial({bound->info, bound->input(), nullptr, nullptr}, *middle, trace, ro);
            EXPECT_EQ(trace.text(), test::oracle_trace(d)) << "limit " << limit << " pass " << pass;
        }
    EXPECT_EQ(cache.stats().hits, 2u);
}

TEST(SplitCache, VersionBumpInvalidates) {
    SplitCache cache;
    const uint64_t id = cache.register_buffer();
    DrawDesc d = parse_draw_text("prim triangles\nindex u32\nindices 0 1 2 3 4 5\n");
    auto bytes = bind_draw(d)->index_bytes; // the driver's buffer, rewritten in place below
    EXPECT_EQ(trace_cached(d, cache, id, 6, &bytes), test::oracle_trace(d));
    const uint32_t changed[6] = {7, 8, 9, 1, 2, 3};
    std::memcpy(bytes.data(), changed, sizeof changed);
    d.indices.assign(std::begin(changed), std::end(changed));
    cache.bump_version(id);
    EXPECT_EQ(cache.stats().entries, 0u);
    EXPECT_EQ(trace_cached(d, cache, id, 6, &bytes), test::oracle_trace(d));
    EXPECT_EQ(cache.stats().misses, 2u);
    EXPECT_THROW(cache.bump_version(12345), Error);
}

TEST(SplitCache, TinyBudgetEvictsAndStaysCorrect) {
    std::mt19937 rng(3);
    SplitCache cache(6000);
    std::vector<std::pair<DrawDesc, uint64_t>> draws;
    for (int i = 0; i < 12; ++i)
        draws.emplace_back(indexed_draw(rng, Prim::triangles), cache.register_buffer());
    for (int round = 0; round < 3; ++round)
        for (const auto& [d, id] : draws)
            ASSERT_EQ(trace_cached(d, cache, id, 5), test::oracle_trace(d));
    const SplitCacheStats s = cache.stats();
    EXPECT_GT(s.evictions, 0u);
    EXPECT_LE(s.bytes, 6000u);
    cache.set_budget(0);
    EXPECT_EQ(cache.stats().bytes, 0u);
}

TEST(SplitCache, DrawLargerThanBudgetIsDrawnUncached) {
    SplitCache cache(512);
    const uint64_t id = cache.register_buffer();
    DrawDesc d;
    d.prim = Prim::triangles;
    d.index_type = IndexType::u16;
    for (uint32_t i = 0; i < 3000; ++i) d.indices.push_back((i * 7919) % 1000);
    d.count = 3000;
    d.count_given = true;
    EXPECT_EQ(trace_cached(d, cache, id, 64), test::oracle_trace(d));
    EXPECT_EQ(trace_cached(d, cache, id, 64), test::oracle_trace(d));
    EXPECT_EQ(cache.stats().uncacheable, 2u);
    EXPECT_EQ(cache.stats().bytes, 0u);
    // Recording stops at the budget instead of building the whole split first.
    auto bound = bind_draw(d);
    bound->info.index_buffer_id = id;
    FrontEndOptions fo;
    fo.limits.max_vertices = 64;
    EXPECT_EQ(acquire_split(cache, bound->info, fo), nullptr);
    EXPECT_EQ(record_split(bound->info, fo, 512), nullptr);
    const auto full = record_split(bound->info, fo);
    ASSERT_NE(full, nullptr);
    EXPECT_GT(full->bytes, 512u);
    EXPECT_GE(full->bytes, full->draw.size() * sizeof(uint16_t) + full->fetch.size() * 4);
}

TEST(SplitCache, UnregisteredBufferIsAnError) {
    SplitCache cache;
    const DrawDesc d = parse_draw_text("prim points\nindex u8\nindices 1 2\n");
    EXPECT_THROW(trace_cached(d, cache, 99, 8), Error);
}

TEST(SplitCache, ThreadsShareTheCache) {
    SplitCache cache(20000);
    std::mt19937 rng(11);
    std::vector<std::pair<DrawDesc, uint64_t>> draws;
    for (int i = 0; i < 16; ++i)
        draws.emplace_back(indexed_draw(rng, Prim(i % kPrimCount)), cache.register_buffer());
    std::vector<std::string> expected;
    for (const auto& [d, id] : draws) expected.push_back(test::oracle_trace(d));
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 5; ++round)
                for (size_t i = 0; i < draws.size(); ++i) {
                    const size_t k = (i + size_t(t) * 5) % draws.size();
                    const uint32_t limit =
                        min_segment_vertices(draws[k].first.prim, draws[k].first.patch_vertices) +
                        6;
                    if (trace_cached(draws[k].first, cache, draws[k].second, limit) != expected[k])
                        ++failures;
                    if (t == 0 && round == 2 && i == 3) cache.bump_version(draws[k].second);
                }
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    // Every draw went through the cache; how many hit under this tiny budget depends on how
    // the threads interleave, so hits are checked after them, with room to keep an entry.
    EXPECT_EQ(cache.stats().hits + cache.stats().misses, 4u * 5u * draws.size());
    cache.set_budget(SplitCache::kDefaultBudget);
    const auto& [d, id] = draws[1];
    const uint32_t limit = min_segment_vertices(d.prim, d.patch_vertices) + 6;
    const uint64_t hits = cache.stats().hits;
    EXPECT_EQ(trace_cached(d, cache, id, limit), expected[1]);
    EXPECT_EQ(trace_cached(d, cache, id, limit), expected[1]);
    EXPECT_GT(cache.stats().hits, hits);
}

// Through the parallel pipeline: queued redraws of registered buffers replay cached splits,
// and a budget so small that entries are evicted while their draws are in flight still
// draws every draw right (each draw in flight holds its entry).
TEST(SplitCache, ContextRedrawsThroughThePipeline) {
    register_builtin_middle_ends();
    std::mt19937 rng(23);
    std::vector<DrawDesc> descs;
    for (int i = 0; i < 20; ++i) {
        DrawDesc d = indexed_draw(rng, Prim(i % test::kPrimsWithoutTess));
        d.attrib_divisors.clear(); // one vertex input serves the whole queue
        descs.push_back(d);
    }
    for (size_t budget : {size_t(64) << 20, size_t(3000)}) {
        SplitCache cache(budget);
        ContextOptions options;
        options.threads = 2;
        options.inline_below = 0; // always the pipeline
        options.draw.split_cache = &cache;
        options.draw.max_vertices = 9;
        Context ctx(options);
        ctx.bind_middle_end("fetch_shade");
        TraceBackend trace;
        ctx.bind_backend(trace);
        std::vector<std::unique_ptr<BoundDraw>> bound;
        std::string expected;
        for (const DrawDesc& d : descs) {
            bound.push_back(bind_draw(d));
            bound.back()->info.index_buffer_id = ctx.register_index_buffer();
        }
        for (int round = 0; round < 3; ++round)
            for (size_t i = 0; i < descs.size(); ++i) {
                ctx.draw(bound[i]->info);
                expected += test::oracle_trace(descs[i]);
            }
        ctx.flush();
        EXPECT_EQ(trace.text(), expected) << "budget " << budget;
        const SplitCacheStats s = cache.stats();
        if (budget > 3000)
            EXPECT_EQ(s.hits, 2 * descs.size());
        else
            EXPECT_GT(s.evictions, 0u);
        // An unregistered id is refused when queued, before the backend sees anything.
        DrawInfo bad = bound[0]->info;
        bad.index_buffer_id = 987654;
        EXPECT_THROW(ctx.draw(bad), Error);
        ctx.bump_index_buffer(bound[0]->info.index_buffer_id);
        ctx.draw(bound[0]->info);
        ctx.flush();
        EXPECT_EQ(cache.stats().misses, s.misses + 1);
    }
}

TEST(SplitCache, UncachedDrawAfterReplayCarriesNoStaleBias) {
    // A replayed segment carries base vertex as fetch_bias; an uncached draw whose segment
    // reuses the same pipeline slot must not inherit it.
    register_builtin_middle_ends();
    SplitCache cache;
    ContextOptions options;
    options.threads = 1;
    options.inline_below = 0; // always the pipeline, whose tokens are reused
    options.draw.split_cache = &cache;
    options.draw.max_vertices = 4;
    Context ctx(options);
    ctx.bind_middle_end("fetch_shade");
    TraceBackend trace;
    ctx.bind_backend(trace);
    DrawDesc cached = parse_draw_text("prim triangles\nindex u16\nindices 0 1 2 2 1 3 3 4 5\n"
                                      "base_vertex 7\n");
    DrawDesc plain = parse_draw_text("prim triangles\nindex u16\nindices 0 1 2 2 1 3 3 4 5\n");
    auto a = bind_draw(cached), b = bind_draw(plain);
    a->info.index_buffer_id = ctx.register_index_buffer(); // b stays unregistered: no cache
    std::string expected;
    for (int round = 0; round < 12; ++round) {
        ctx.draw(round % 3 == 2 ? b->info : a->info);
        expected += test::oracle_trace(round % 3 == 2 ? plain : cached);
        if (round % 2) ctx.flush();
    }
    ctx.flush();
    EXPECT_EQ(trace.text(), expected);
}
