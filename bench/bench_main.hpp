// What every Google Benchmark binary here shares: its `--smoke` flag (tiny sizes, so the
// test suite runs each binary and none rots), the best-iteration timer, and the run.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

namespace drawpipe::bench {

// Removes `flag` from `args` (our own flags stay hidden from Google Benchmark's parser);
// returns whether it was there.
inline bool take_flag(std::vector<char*>& args, const char* flag) {
    auto it = std::find_if(args.begin(), args.end(),
                           [&](const char* a) { return std::strcmp(a, flag) == 0; });
    if (it == args.end()) return false;
    args.erase(it);
    return true;
}

// Times `once` per iteration after one warm-up call; reports `items` per call and the best
// iteration in milliseconds (this machine's speed drifts, so the best is the figure to quote).
template <class F> void timed_best(benchmark::State& state, uint64_t items, F&& once) {
    using Clock = std::chrono::steady_clock;
    once();
    double best = 1e30;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        once();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    state.SetItemsProcessed(int64_t(state.iterations() * items));
    state.counters["best_ms"] = best * 1e3;
}

// Hands the remaining arguments to Google Benchmark and runs what is registered; the exit
// status for main().
inline int run_registered_benchmarks(std::vector<char*>& args) {
    int n = int(args.size());
    benchmark::Initialize(&n, args.data());
    if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace drawpipe::bench
