// Ordering under stress: a middle end that sleeps, spins or yields a random time on every
// segment finishes segments far out of order, yet the backend must still receive exactly the
// one-thread trace, at every thread count.
#include "drawpipe/backends/trace.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/prim.hpp"
#include "support/random_draw.hpp"
#include "support/tess_util.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <atomic>
#include <chrono>
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

// fetch_shade with a random delay per segment (a function of the segment and a per-draw seed).
class DawdlingMiddleEnd final : public MiddleEnd {
  public:
    explicit DawdlingMiddleEnd(uint32_t limit) : inner_(limit) {}
    std::string_view name() const override { return "dawdling"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        return std::make_shared<Draw>(inner_.prepare(state),
                                      state.draw.count * 31 + state.draw.start);
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return inner_.make_scratch();
    }

  private:
    struct Draw final : MiddleEndDraw {
        Draw(std::shared_ptr<const MiddleEndDraw> in, uint64_t s)
            : MiddleEndDraw(in->limits(), in->layout()), inner(std::move(in)), seed(s) {}
        void shade(const Segment& seg, MiddleEndScratch* s, ShadedBatch& out) const override;
        std::shared_ptr<const MiddleEndDraw> inner;
        uint64_t seed;
    };
    FetchShade inner_;
};

void DawdlingMiddleEnd::Draw::shade(const Segment& seg, MiddleEndScratch* s,
                                    ShadedBatch& out) const {
    {
        const uint64_t r = mix(seed + seg.sequence * 0x9E3779B97F4A7C15ull + seg.instance_first);
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
    }
    inner->shade(seg, s, out);
    out.counters[0] = seg.sequence; // summed in the sink
}

class PipelineStress : public ::testing::TestWithParam<int> {};

TEST_P(PipelineStress, RandomDelaysStillGiveTheOneThreadTrace) {
    const Prim prim = Prim(GetParam());
    std::mt19937 rng(4242 + GetParam());
    test::RandomDrawOptions o;
    o.max_count = 300;
    for (int iter = 0; iter < kDrawsPerPrim; ++iter) {
        const DrawDesc desc = test::random_draw(rng, prim, o);
        const auto bound = bind_draw(desc);
        const uint32_t limit = min_segment_vertices(prim) + iter % 4;
        FetchShade reference(limit);
        TraceBackend expected;
        const DrawStats ref =
            draw_serial({bound->info, bound->input(), nullptr, nullptr}, reference, expected);
        const uint64_t segments = ref.front.segments;
        const uint64_t sequence_sum =
            segments * (segments - (segments > 0)) / 2; // 0 + 1 + ... + S-1
        for (uint32_t n : {2u, 4u, 8u}) {
            ContextOptions co;
            co.threads = n;
            co.inline_below = 0;
            Context ctx(co);
            TraceBackend trace;
            ctx.bind_middle_end(std::make_shared<DawdlingMiddleEnd>(limit));
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
}

// The middle-end stage really runs segments at once: the first segment waits (up to 10 s,
// far beyond any scheduling delay) until another segment is running on another thread.
class RendezvousMiddleEnd final : public MiddleEnd {
  public:
    explicit RendezvousMiddleEnd(std::atomic<int>* others) : others_(others) {}
    std::string_view name() const override { return "rendezvous"; }
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override {
        return std::make_shared<Draw>(inner_.prepare(state), others_);
    }
    std::unique_ptr<MiddleEndScratch> make_scratch() const override {
        return inner_.make_scratch();
    }

  private:
    struct Draw final : MiddleEndDraw {
        Draw(std::shared_ptr<const MiddleEndDraw> in, std::atomic<int>* o)
            : MiddleEndDraw({3, false, std::nullopt}, in->layout()), inner(std::move(in)),
              others(o) {}
        void shade(const Segment& seg, MiddleEndScratch* s, ShadedBatch& out) const override {
            if (seg.sequence == 0) {
                const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                while (others->load() == 0 && std::chrono::steady_clock::now() < give_up)
                    std::this_thread::yield();
                out.counters[0] = others->load() > 0;
            } else {
                others->fetch_add(1);
            }
            inner->shade(seg, s, out);
        }
        std::shared_ptr<const MiddleEndDraw> inner;
        std::atomic<int>* others;
    };
    FetchShade inner_;
    std::atomic<int>* others_;
};

TEST(PipelineStress, SegmentsOfOneDrawRunConcurrently) {
    DrawDesc d;
    d.prim = Prim::triangles;
    d.count = 300;
    d.count_given = true;
    const auto bound = bind_draw(d);
    for (uint32_t n : {2u, 4u}) {
        std::atomic<int> others{0};
        ContextOptions co;
        co.threads = n;
        co.inline_below = 0;
        Context ctx(co);
        TraceBackend trace;
        ctx.bind_middle_end(std::make_shared<RendezvousMiddleEnd>(&others));
        ctx.bind_backend(trace);
        ctx.draw(bound->info);
        EXPECT_EQ(ctx.flush().counters[0], 1u)
            << n << " threads: segment 0 never overlapped another";
        FetchShade reference(3);
        TraceBackend expected;
        draw_serial({bound->info, bound->input(), nullptr, nullptr}, reference, expected);
        EXPECT_EQ(trace.text(), expected.text());
    }
}

INSTANTIATE_TEST_SUITE_P(AllPrims, PipelineStress, ::testing::Range(0, test::kPrimsWithoutTess),
                         [](const auto& info) { return std::string(prim_name(Prim(info.param))); });

} // namespace
