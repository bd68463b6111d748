// A split-cache replay reports the totals a fresh split does (segments, fetches, every
// FrontEndStats and DrawStats count) for every strategy, chunk size and middle end, instanced
// draws of every primitive included: the statistics may not depend on whether a split was
// cached.
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/split_cache.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

using namespace drawpipe;

namespace {

void expect_same_totals(const DrawStats& cached, const DrawStats& fresh) {
    EXPECT_EQ(cached.front.segments, fresh.front.segments);
    EXPECT_EQ(cached.front.indices, fresh.front.indices);
    EXPECT_EQ(cached.front.fetched, fresh.front.fetched);
    EXPECT_EQ(cached.front.shaded, fresh.front.shaded);
    EXPECT_EQ(cached.front.ia_vertices, fresh.front.ia_vertices);
    EXPECT_EQ(cached.front.ia_primitives, fresh.front.ia_primitives);
    EXPECT_EQ(cached.counters, fresh.counters);
    EXPECT_EQ(cached.primitives.generated, fresh.primitives.generated);
    EXPECT_EQ(cached.primitives.written, fresh.primitives.written);
    EXPECT_EQ(cached.statistics, fresh.statistics);
}

// Draws `desc` split afresh, then twice from the cache (the miss records, the hit replays),
// and compares the totals; a draw the middle end refuses is skipped.
void check_draw(const DrawDesc& desc, const std::string& middle, Strategy strategy,
                uint32_t chunk) {
    SplitCache cache;
    ContextOptions options;
    options.threads = 1;
    options.draw.strategy = strategy;
    options.draw.chunk_positions = chunk;
    options.draw.split_cache = &cache;
    Context ctx(options);
    ctx.bind_middle_end(middle);
    TraceBackend trace;
    ctx.bind_backend(trace);
    const auto bound = bind_draw(desc);
    DrawStats fresh;
    try {
        ctx.draw(bound->info);
        fresh = ctx.flush();
    } catch (const Error&) {
        return;
    }
    DrawInfo registered = bound->info;
    registered.index_buffer_id = ctx.register_index_buffer();
    for (const char* round : {"miss", "hit"}) {
        SCOPED_TRACE(round);
        ctx.draw(registered);
        expect_same_totals(ctx.flush(), fresh);
    }
    EXPECT_EQ(cache.stats().hits, 1u);
}

std::vector<Strategy> strategies() {
    std::vector<Strategy> out;
    for (const char* name : {"distinct", "vsplit", "direct-16", "exact", "none", "reorder"})
        if (const std::optional<Strategy> s = Strategy::parse(name)) out.push_back(*s);
    return out;
}

std::string where(const DrawDesc& d, const std::string& middle, Strategy s, uint32_t chunk) {
    return middle + ", " + s.name() + ", chunk_positions " + std::to_string(chunk) + "\n" +
           format_draw_text(d);
}

} // namespace

// The fuzzer's find: reorder with two instances through mali over two front-end chunks.
TEST(SplitCacheTotals, ReorderedInstancesOverChunksThroughMali) {
    register_builtin_middle_ends();
    const DrawDesc d = parse_draw_text("prim triangles\nindex u16\nindices 0 1 2 2 1 3\n"
                                       "instances 2\n");
    for (const Strategy& s : strategies()) {
        SCOPED_TRACE(where(d, "mali", s, 4));
        check_draw(d, "mali", s, 4);
    }
}

TEST(SplitCacheTotals, EveryStrategyChunkSizeAndMiddleEnd) {
    register_builtin_middle_ends();
    std::mt19937 rng(41);
    test::RandomDrawOptions small;
    small.max_count = 40;
    small.allow_attribs = false; // the context binds no vertex input
    for (int p = 0; p < test::kPrimsWithoutTess; ++p) {
        DrawDesc d;
        do d = test::random_draw(rng, Prim(p), small);
        while (d.index_type == IndexType::none);
        d.instances = 2;
        for (const char* middle : {"fetch_shade", "mali", "a4xx", "gen7"})
            for (const Strategy& s : strategies())
                for (uint32_t chunk : {0u, 4u, 7u, 12u}) {
                    SCOPED_TRACE(where(d, middle, s, chunk));
                    check_draw(d, middle, s, chunk);
                    if (HasFailure()) return;
                }
    }
}
