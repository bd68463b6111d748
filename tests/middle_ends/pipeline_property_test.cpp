// The pipeline's invariant: for every draw and every thread count, the backend receives
// exactly what the one-thread reference (draw_serial) gives it. Random draws of every primitive,
// index type, restart, base vertex and instancing, with limits small enough to cut them into
// many segments, are traced through Context at 1, 2, 4 and 8 threads with the pipeline forced
// on, alone and queued many to a flush.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/middle_ends.hpp"
#include "drawpipe/prim.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <cstdlib>
#include <memory>
#include <numeric>

using namespace drawpipe;

namespace {

// TBB caps workers at the hardware's thread count unless told otherwise; the tests want 8.
const tbb::global_control g_threads(tbb::global_control::max_allowed_parallelism, 8);

#ifdef __SANITIZE_THREAD__
constexpr int kDrawsPerPrim = 25; // ThreadSanitizer runs ~10x slower
#else
constexpr int kDrawsPerPrim = 160;
#endif

const uint32_t kThreadCounts[] = {1, 2, 4, 8};
const char* kStrategies[] = {"distinct", "vsplit", "direct-16", "exact", "none"};

std::shared_ptr<const MiddleEnd> fetch_shade_with_limit(uint32_t limit) {
    return std::make_shared<FetchShade>(limit);
}

std::string reference_trace(const BoundDraw& bound, uint32_t limit, Strategy strategy) {
    FetchShade middle(limit);
    TraceBackend trace;
    draw_serial({bound.info, bound.input(), nullptr, nullptr}, middle, trace, {strategy, 0});
    return trace.take();
}

// One context per (thread count, strategy), the pipeline forced on even for one thread.
struct Contexts {
    std::vector<std::unique_ptr<Context>> all;
    Context& get(size_t thread_index, size_t strategy_index) {
        return *all[thread_index * 5 + strategy_index];
    }
    Contexts() {
        for (uint32_t threads : kThreadCounts)
            for (const char* name : kStrategies) {
                ContextOptions o;
                o.threads = threads;
                o.draw.strategy = *Strategy::parse(name);
                o.inline_below = 0;
                all.push_back(std::make_unique<Context>(o));
            }
    }
};

class PipelineInvariant : public ::testing::TestWithParam<int> {};

TEST_P(PipelineInvariant, EveryThreadCountGivesTheOneThreadTrace) {
    const Prim prim = Prim(GetParam());
    std::mt19937 rng(777 + GetParam());
    Contexts contexts;
    TraceBackend trace;
    int compared = 0;
    for (int iter = 0; iter < kDrawsPerPrim; ++iter) {
        const DrawDesc d = test::random_draw(rng, prim);
        const auto bound = bind_draw(d);
        const size_t si = iter % 5;
        const Strategy strategy = *Strategy::parse(kStrategies[si]);
        const uint32_t min_limit = min_segment_vertices(prim);
        const uint32_t limit =
            std::uniform_int_distribution<uint32_t>(min_limit, min_limit + 24)(rng);
        const std::string expected = reference_trace(*bound, limit, strategy);
        for (size_t ti = 0; ti < std::size(kThreadCounts); ++ti) {
            Context& ctx = contexts.get(ti, si);
            ctx.bind_middle_end(fetch_shade_with_limit(limit));
            ctx.bind_backend(trace);
            ctx.set_vertex_buffers(bound->buffers);
            ctx.set_vertex_attribs(bound->attribs);
            trace.clear();
            ctx.draw(bound->info);
            ctx.flush();
            ASSERT_EQ(trace.text(), expected) << kThreadCounts[ti] << " threads, strategy "
                                              << kStrategies[si] << ", limit " << limit << "\n"
                                              << format_draw_text(d);
            if (kThreadCounts[ti] == 2) ++compared;
        }
    }
    EXPECT_EQ(compared, kDrawsPerPrim);
}

INSTANTIATE_TEST_SUITE_P(AllPrims, PipelineInvariant, ::testing::Range(0, test::kPrimsWithoutTess),
                         [](const auto& info) { return std::string(prim_name(Prim(info.param))); });

// Draws sharing one vertex input, so a whole queue flushes through one pipeline run.
struct SharedInput {
    std::vector<uint32_t> per_vertex, per_instance;
    std::vector<VertexBuffer> buffers;
    std::vector<VertexAttrib> attribs;
    SharedInput() : per_vertex(1 << 17), per_instance(64) {
        std::iota(per_vertex.begin(), per_vertex.end(), 0u);
        std::iota(per_instance.begin(), per_instance.end(), 1000u);
        buffers.push_back({per_vertex.data(), per_vertex.size() * 4, 4, 0});
        buffers.push_back({per_instance.data(), per_instance.size() * 4, 4, 0});
        attribs.push_back({0, 0, Format::uint32x1, 0});
        attribs.push_back({1, 0, Format::uint32x1, 2});
    }
    VertexInput input() const { return {buffers, attribs}; }
};

TEST(PipelineBatch, QueuedDrawsOfEveryKindShareOnePipelineLaunch) {
    std::mt19937 rng(99);
    const SharedInput shared;
#ifdef __SANITIZE_THREAD__
    const int draws = 120;
#else
    const int draws = 1200;
#endif
    std::vector<std::unique_ptr<BoundDraw>> bound;
    test::RandomDrawOptions o;
    o.allow_attribs = false;
    o.max_count = 120;
    const uint32_t limit = 12; // every primitive's minimum fits
    FetchShade reference_middle(limit);
    TraceBackend expected;
    for (int i = 0; i < draws; ++i) {
        bound.push_back(bind_draw(test::random_draw(rng, Prim(i % test::kPrimsWithoutTess), o)));
        draw_serial({bound.back()->info, shared.input(), nullptr, nullptr}, reference_middle,
                    expected);
    }
    for (uint32_t threads : kThreadCounts) {
        ContextOptions co;
        co.threads = threads;
        co.inline_below = 0;
        Context ctx(co);
        TraceBackend trace;
        ctx.bind_middle_end(fetch_shade_with_limit(limit));
        ctx.bind_backend(trace);
        ctx.set_vertex_buffers(shared.buffers);
        ctx.set_vertex_attribs(shared.attribs);
        for (const auto& b : bound) ctx.draw(b->info);
        ctx.flush();
        ASSERT_EQ(trace.text(), expected.text()) << threads << " threads";
        EXPECT_EQ(ctx.counters().draws, uint64_t(draws));
        EXPECT_EQ(ctx.counters().pipeline_launches, 1u)
            << "the queue should not drain between draws";
        EXPECT_LT(ctx.counters().tokens, uint64_t(draws)) << "small draws should share tokens";
    }
}

// A bound instance is stateless: every queued draw prepares from it, so one pipeline run
// carries the whole queue without draining between draws.
TEST(PipelineBatch, OneBoundInstanceServesEveryDrawInFlight) {
    std::mt19937 rng(5);
    const SharedInput shared;
    test::RandomDrawOptions o;
    o.allow_attribs = false;
    std::vector<std::unique_ptr<BoundDraw>> bound;
    FetchShade reference_middle(8);
    TraceBackend expected;
    for (int i = 0; i < 40; ++i) {
        bound.push_back(bind_draw(test::random_draw(rng, Prim::triangle_strip, o)));
        draw_serial({bound.back()->info, shared.input(), nullptr, nullptr}, reference_middle,
                    expected);
    }
    ContextOptions co;
    co.threads = 4;
    co.inline_below = 0;
    Context ctx(co);
    TraceBackend trace;
    ctx.bind_middle_end(std::make_shared<FetchShade>(8));
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(shared.buffers);
    ctx.set_vertex_attribs(shared.attribs);
    for (const auto& b : bound) ctx.draw(b->info);
    ctx.flush();
    EXPECT_EQ(trace.text(), expected.text());
    EXPECT_EQ(ctx.counters().draws, bound.size());
    EXPECT_EQ(ctx.counters().pipeline_launches, 1u);
}

// A small mesh drawn many times: every instance is its own unit of work, so the threads fill.
TEST(PipelineBatch, InstancedSmallMeshSplitsIntoManyTokens) {
    DrawDesc d;
    d.prim = Prim::triangles;
    d.index_type = IndexType::u16;
    for (uint32_t i = 0; i < 36; ++i) d.indices.push_back((i * 7) % 24);
    d.count = 36;
    d.count_given = true;
    d.instances = 3000;
    d.attrib_divisors = {0, 1};
    const auto bound = bind_draw(d);
    const std::string expected = reference_trace(*bound, 4096, {});
    ContextOptions co;
    co.threads = 2;
    Context ctx(co);
    TraceBackend trace;
    ctx.bind_middle_end(fetch_shade_with_limit(4096));
    ctx.bind_backend(trace);
    ctx.set_vertex_buffers(bound->buffers);
    ctx.set_vertex_attribs(bound->attribs);
    ctx.draw(bound->info);
    const DrawStats stats = ctx.flush();
    EXPECT_EQ(trace.text(), expected);
    EXPECT_EQ(stats.front.segments, 3000u);
    EXPECT_EQ(ctx.counters().pipeline_launches, 1u);
    EXPECT_GE(ctx.counters().tokens, 16u); // many tokens: both threads get work
    EXPECT_LT(ctx.counters().tokens, 3000u);
}

TEST(PipelineContext, StatsMatchTheReference) {
    register_builtin_middle_ends();
    DrawDesc d;
    d.prim = Prim::triangle_fan;
    d.index_type = IndexType::u32;
    std::mt19937 rng(3);
    for (int i = 0; i < 5000; ++i) d.indices.push_back(rng() % 3000);
    d.count = 5000;
    d.count_given = true;
    d.instances = 3;
    const auto bound = bind_draw(d);
    FetchShade reference(4096);
    CountingBackend ref_backend;
    const DrawStats ref =
        draw_serial({bound->info, bound->input(), nullptr, nullptr}, reference, ref_backend);
    ContextOptions co;
    co.threads = 2;
    co.inline_below = 0;
    Context ctx(co);
    CountingBackend backend;
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);
    ctx.set_vertex_buffers(bound->buffers);
    ctx.set_vertex_attribs(bound->attribs);
    ctx.draw(bound->info);
    ctx.draw(bound->info);
    const DrawStats got = ctx.flush();
    EXPECT_EQ(got.front.segments, 2 * ref.front.segments);
    EXPECT_EQ(got.front.indices, 2 * ref.front.indices);
    EXPECT_EQ(got.front.fetched, 2 * ref.front.fetched);
    EXPECT_EQ(backend.totals().triangles, 2 * ref_backend.totals().triangles);
    EXPECT_EQ(ctx.flush().front.segments, 0u) << "flush() reports each draw once";
}

TEST(PipelineContext, SmallFlushRunsInlineWithTheSameOutput) {
    DrawDesc d;
    d.prim = Prim::triangle_strip;
    d.count = 100;
    d.count_given = true;
    const auto bound = bind_draw(d);
    ContextOptions co;
    co.threads = 2;
    Context ctx(co);
    TraceBackend trace;
    ctx.bind_middle_end(fetch_shade_with_limit(16));
    ctx.bind_backend(trace);
    ctx.draw(bound->info);
    ctx.flush();
    EXPECT_EQ(trace.text(), reference_trace(*bound, 16, {}));
    EXPECT_EQ(ctx.counters().inline_flushes, 1u);
    EXPECT_EQ(ctx.counters().pipeline_launches, 0u);
    // Many tiny draws: enough work in total, too little per draw.
    DrawDesc tiny;
    tiny.prim = Prim::triangles;
    tiny.count = 6;
    tiny.count_given = true;
    const auto tb = bind_draw(tiny);
    trace.clear();
    TraceBackend expected;
    FetchShade reference(16);
    for (uint64_t i = 0; i < 2 * kInlineDrawWork / 6; ++i) {
        ctx.draw(tb->info);
        draw_serial({tb->info, tb->input(), nullptr, nullptr}, reference, expected);
    }
    ctx.flush();
    EXPECT_EQ(trace.text(), expected.text());
    EXPECT_EQ(ctx.counters().pipeline_launches, 0u);
}

TEST(PipelineContext, BadDrawThrowsAtDrawAndTheBackendSeesNothing) {
    ContextOptions co;
    co.threads = 2;
    co.inline_below = 0;
    Context ctx(co);
    TraceBackend trace;
    EXPECT_THROW(ctx.draw(DrawInfo{}), Error) << "no middle end bound";
    ctx.bind_middle_end(fetch_shade_with_limit(64));
    EXPECT_THROW(ctx.draw(DrawInfo{}), Error) << "no backend bound";
    ctx.bind_backend(trace);
    const std::vector<uint16_t> indices(10, 1);
    DrawInfo bad;
    bad.index_type = IndexType::u16;
    bad.indices = indices.data();
    bad.index_buffer_count = 10;
    bad.count = 11; // past the index buffer
    try {
        ctx.draw(bad);
        FAIL() << "expected index_buffer_overrun";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::index_buffer_overrun);
    }
    ctx.flush();
    EXPECT_TRUE(trace.text().empty());
    EXPECT_EQ(ctx.counters().draws, 0u);
    EXPECT_THROW(ctx.bind_middle_end("no_such_middle_end"), Error);
}

// Throws from shade() on one segment: the exception reaches flush(), the context stays usable.
class ThrowingDraw final : public MiddleEndDraw {
  public:
    ThrowingDraw(std::shared_ptr<const MiddleEndDraw> inner, uint64_t bad_sequence)
        : MiddleEndDraw({16, false, std::nullopt}, inner->layout()), inner_(std::move(inner)),
          bad_(bad_sequence) {}
    void shade(const Segment& seg, MiddleEndScratch* s, ShadedBatch& out) const override {
        if (seg.sequence == bad_)
            throw Error(ErrorCode::middle_end_failure, "segment: injected failure");
        inner_->shade(seg, s, out);
    }

  private:
    std::shared_ptr<const MiddleEndDraw> inner_;
    uint64_t bad_;
};

class ThrowingMiddleEnd final : public MiddleEnd {
  public:
    explicit ThrowingMiddleEnd(uint64_t bad_sequence) : bad_(bad_sequence) {}
    std::string_view name() const override { return "throwing"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        return std::make_shared<ThrowingDraw>(inner_.prepare(state), bad_);
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return inner_.make_scratch();
    }

  private:
    uint64_t bad_;
    FetchShade inner_;
};

TEST(PipelineContext, MiddleEndExceptionPropagatesAndTheContextRecovers) {
    DrawDesc d;
    d.prim = Prim::triangles;
    d.count = 3000;
    d.count_given = true;
    const auto bound = bind_draw(d);
    for (uint32_t threads : {1u, 2u, 4u}) {
        ContextOptions co;
        co.threads = threads;
        co.inline_below = 0;
        Context ctx(co);
        TraceBackend trace;
        ctx.bind_backend(trace);
        ctx.bind_middle_end(std::make_shared<ThrowingMiddleEnd>(40));
        ctx.draw(bound->info);
        try {
            ctx.flush();
            FAIL() << "expected the injected failure";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::middle_end_failure);
        }
        trace.clear();
        ctx.bind_middle_end(std::make_shared<ThrowingMiddleEnd>(~0ull));
        ctx.draw(bound->info);
        ctx.flush();
        EXPECT_EQ(trace.text(), reference_trace(*bound, 16, {})) << threads << " threads";
    }
}

TEST(PipelineContext, ThreadCountComesFromTheEnvironment) {
    const char* old = std::getenv("DRAWPIPE_THREADS");
    const std::string saved = old ? old : "";
    ASSERT_EQ(setenv("DRAWPIPE_THREADS", "3", 1), 0);
    EXPECT_EQ(Context().threads(), 3u);
    ContextOptions co;
    co.threads = 5;
    EXPECT_EQ(Context(co).threads(), 5u) << "an explicit count wins";
    ASSERT_EQ(setenv("DRAWPIPE_THREADS", "two", 1), 0);
    EXPECT_THROW(Context(), Error);
    ASSERT_EQ(unsetenv("DRAWPIPE_THREADS"), 0);
    EXPECT_GE(Context().threads(), 1u);
    if (old) setenv("DRAWPIPE_THREADS", saved.c_str(), 1);
}

} // namespace
