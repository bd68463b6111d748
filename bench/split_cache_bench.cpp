// Redrawing a static index buffer: the front end's cost when the split comes from the
// SplitCache (hit) against splitting it again (miss), on W1 and W7 at limit 4096.
//
// Both sides hand every segment to a consumer that reads only its header (counts), so the
// figure is the front end's own work: on a miss, reading every index and writing the fetch
// and draw lists; on a hit, handing out the recorded segments. Counters: miss_us and hit_us
// (best of runs), hit_x = miss / hit, measured in the same benchmark, and uncached_us, the
// same draw split by a plain FrontEnd with no cache (what recording adds to a miss).
#include "bench/bench_main.hpp"
#include "draw/front_end/split_replay.hpp"
#include "workloads/workloads.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;

namespace {

bool g_smoke = false;
std::vector<Workload> g_workloads;

uint64_t consume(const Segment& seg) {
    return uint64_t(seg.fetch_count) + seg.draw_count + seg.flags;
}

// Best time of `reps` calls of `f`, each after an untimed `setup`.
template <class S, class F> double best_seconds(S&& setup, F&& f, int reps) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        setup();
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

void redraw(benchmark::State& state, const Workload* w) {
    SplitCache cache;
    DrawInfo draw = w->draw();
    draw.index_buffer_id = cache.register_buffer();
    MiddleEndLimits limits;
    limits.max_vertices = 4096;
    const FrontEndOptions options{limits, Strategy{}};
    uint64_t sink = 0;
    auto one_draw = [&] {
        SplitReplay replay(acquire_split(cache, draw, options), draw,
                           options.limits); // fits 64 MiB
        Segment seg;
        while (replay.next(seg)) sink += consume(seg);
    };
    const int reps = g_smoke ? 1 : 5;
    // The buffer was rewritten: split again (freeing the old entry is not timed).
    const double miss =
        best_seconds([&] { cache.bump_version(draw.index_buffer_id); }, one_draw, reps);
    FrontEnd front;
    SegmentStorage storage;
    const double uncached = best_seconds([] {},
                                         [&] {
                                             front.begin(draw, options);
                                             Segment seg;
                                             while (front.next(storage, seg)) sink += consume(seg);
                                         },
                                         reps);
    one_draw(); // cached now
    double hit = 1e30;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        one_draw();
        hit = std::min(
            hit, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    benchmark::DoNotOptimize(sink);
    const SplitCacheStats s = cache.stats();
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(w->count));
    state.counters["miss_us"] = miss * 1e6;
    state.counters["hit_us"] = hit * 1e6;
    state.counters["hit_x"] = miss / hit;
    state.counters["uncached_us"] = uncached * 1e6;
    state.counters["entry_KiB"] = double(s.bytes) / 1024.0;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args(argv, argv + argc);
    g_smoke = take_flag(args, "--smoke");
    for (const char* id : {"W1", "W7"}) g_workloads.push_back(make_workload(id));
    for (const Workload& w : g_workloads) {
        auto* b = benchmark::RegisterBenchmark(
            ("split_cache/redraw/" + w.label() + "/4096").c_str(), redraw, &w);
        b->Unit(benchmark::kMicrosecond);
        if (g_smoke) b->Iterations(1);
    }
    return run_registered_benchmarks(args);
}
