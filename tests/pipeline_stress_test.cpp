// Ordering under stress: a middle end that sleeps, spins or yields a random time on every
// segment finishes segments far out of order, yet the backend must still receive exactly the
// one-thread trace, at every thread count.
#include "backends/trace.hpp"
#include "draw/context.hpp"
#include "draw/prim.hpp"
#include "middle_ends/fetch_shade/fetch_shade.hpp"
#include "support/random_draw.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using namespace drawpipe;

namespace {

const tbb::global_control g_threads(tbb::global_control::max_allowed_parallelism, 8);

#ifdef __SANITIZE_THREAD__
constexpr int kDrawsPerPrim = 4;
#else
constexpr int kDrawsPerPrim = 12;
#endif

uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// fetch_shade with a random delay per segment (a function of the segment and a per-draw
// seed), and a record of the threads that ran segments.
class DawdlingMiddleEnd final : public MiddleEnd {
  public:
    DawdlingMiddleEnd(uint32_t limit, std::set<std::thread::id>* threads, std::mutex* lock)
        : inner_(limit), threads_(threads), lock_(lock) {}
    std::string_view name() const override { return "dawdling"; }
    MiddleEndLimits prepare(const DrawState& state) override {
        seed_ = state.draw->count * 31 + state.draw->start;
        return inner_.prepare(state);
    }
    const VertexLayout& layout() const override { return inner_.layout(); }
    void run(const Segment& seg, Scratch* s, ShadedBatch& out) const override {
        const uint64_t r = mix(seed_ + seg.sequence * 0x9E3779B97F4A7C15ull + seg.instance_first);
        const auto delay = std::chrono::microseconds(r % 100);
        switch ((r >> 32) % 3) {
        case 0:
            std::this_thread::sleep_for(delay);
            break;
        case 1: {
            const auto until = std::chrono::steady_clock::now() + delay;
            while (std::chrono::steady_clock::now() < until) {
            }
            break;
        }
        default:
            std::this_thread::yield();
            break;
        }
        inner_.run(seg, s, out);
        out.counters[0] = seg.sequence; // summed in the sink
        std::lock_guard guard(*lock_);
        threads_->insert(std::this_thread::get_id());
    }

  private:
    FetchShade inner_;
    uint64_t seed_ = 0;
    std::set<std::thread::id>* threads_;
    std::mutex* lock_;
};

class PipelineStress : public ::testing::TestWithParam<int> {};

TEST_P(PipelineStress, RandomDelaysStillGiveTheOneThreadTrace) {
    const Prim prim = Prim(GetParam());
    std::mt19937 rng(4242 + GetParam());
    std::set<std::thread::id> threads;
    std::mutex lock;
    test::RandomDrawOptions o;
    o.max_count = 300;
    for (int iter = 0; iter < kDrawsPerPrim; ++iter) {
        const DrawDesc desc = test::random_draw(rng, prim, o);
        const auto bound = bind_draw(desc);
        const uint32_t limit = min_segment_vertices(prim) + iter % 4;
        FetchShade reference(limit);
        TraceBackend expected;
        const DrawStats ref =
            run_draw({&bound->info, bound->input(), nullptr, nullptr}, reference, expected);
        const uint64_t segments = ref.front.segments;
        const uint64_t sequence_sum =
            segments * (segments - (segments > 0)) / 2; // 0 + 1 + ... + S-1
        for (uint32_t n : {2u, 4u, 8u}) {
            ContextOptions co;
            co.threads = n;
            co.inline_below = 0;
            Context ctx(co);
            TraceBackend trace;
            ctx.bind_middle_end(
                [&, limit] { return std::make_unique<DawdlingMiddleEnd>(limit, &threads, &lock); });
            ctx.bind_backend(trace);
            ctx.set_vertex_buffers(bound->buffers);
            ctx.set_vertex_attribs(bound->attribs);
            ctx.draw(bound->info);
            const DrawStats stats = ctx.flush();
            ASSERT_EQ(trace.text(), expected.text()) << n << " threads\n" << format_draw_text(desc);
            EXPECT_EQ(stats.front.segments, segments);
            EXPECT_EQ(stats.counters[0], sequence_sum) << "counters are summed once per segment";
        }
    }
    // With every segment dawdling, more than one thread must have run segments.
    EXPECT_GE(threads.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(AllPrims, PipelineStress, ::testing::Range(0, kPrimCount),
                         [](const auto& info) { return std::string(prim_name(Prim(info.param))); });

} // namespace
