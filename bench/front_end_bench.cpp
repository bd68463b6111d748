// Front-end benchmarks: W1-W7 at limits 4096 and 65536 through a null middle end, beside
// the two physical-limit proxies of docs/workloads.md measured in the same process.
//
// Counters: segments, fetched/idx (vertices to fetch and shade per index), best_Mi/s (best
// whole draw), proxy_Mi/s (the index-copy proxy's best, run between this benchmark's draws)
// and x_proxy = best_Mi/s / proxy_Mi/s, the figure that survives this machine's drifting
// clock. Times are the draws' own (manual time), without the interleaved proxy runs. `--smoke` runs
// every benchmark once on shortened workloads (for ctest).
#include "bench/bench_main.hpp"
#include "draw/front_end/front_end.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/prim.hpp"
#include "workloads/measure.hpp"
#include "workloads/workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <deque>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

bool g_smoke = false;
std::deque<Workload> g_workloads;      // W1..W7 (shortened in smoke mode)
std::vector<uint32_t> g_proxy_indices; // W1's u32 indices, the proxy's input

// Smoke mode keeps the first `n` indices, trimmed to whole primitives.
void shorten(Workload& w, uint32_t n) {
    n = std::min(n, w.count);
    if (!w.primitive_restart) n = trim_count(w.prim, n);
    if (w.index_type == IndexType::u16) w.indices16.resize(n);
    if (w.index_type == IndexType::u32) w.indices32.resize(n);
    w.count = n;
}

void front_end(benchmark::State& state, const Workload* w, uint32_t limit, Strategy strategy) {
    const DrawInfo draw = w->draw();
    FrontEndOptions options;
    options.limits.max_vertices = limit;
    options.strategy = strategy;

    FrontEnd front;
    SegmentStorage storage;
    TimedDraw last = run_front_end(front, storage, draw, options); // warm-up
    // The proxy reads the draw's own u32 indices when it has them, so both loops see the same
    // cache state; other draws use W1's.
    const std::span<const uint32_t> proxy_in = w->index_type == IndexType::u32
                                                   ? std::span<const uint32_t>(w->indices32)
                                                   : std::span<const uint32_t>(g_proxy_indices);
    double best = last.seconds, proxy_best = 1e30, since_proxy = 1e30;
    uint64_t sink = 0;
    for (auto _ : state) {
        last = run_front_end(front, storage, draw, options);
        state.SetIterationTime(last.seconds);
        best = std::min(best, last.seconds);
        // The proxy runs between draws, so both bests come from the same moments of this
        // machine's drifting speed; after every 5 ms of draws, so tiny draws stay quick.
        since_proxy += last.seconds;
        if (since_proxy >= 0.005 || g_smoke) {
            proxy_best = std::min(proxy_best, proxy_index_copy(proxy_in, sink));
            since_proxy = 0;
        }
    }
    benchmark::DoNotOptimize(sink);
    const double count = std::max<double>(draw.count, 1);
    const double proxy = double(proxy_in.size()) / proxy_best / 1e6;
    state.SetItemsProcessed(int64_t(state.iterations()) * draw.count);
    state.counters["segments"] = double(last.stats.segments);
    state.counters["fetched/idx"] = double(last.stats.fetched) / count;
    state.counters["best_Mi/s"] = count / best / 1e6;
    state.counters["best_us"] = best * 1e6;
    state.counters["proxy_Mi/s"] = proxy;
    state.counters["x_proxy"] = count / best / 1e6 / proxy;
}

// A floor for de-duplicating a random triangle list in segments of `limit` vertices, not a
// split: the least work a splitter that finds repeats must do. Each index tests and sets one
// bit for its id (16 per fetchable vertex, the least state that tells whether a random id
// was met) and is written to both lists; nothing uses the answer but a count of repeats,
// so the loop has neither the branch nor the dependency chain through the fetch count that
// a real compaction needs, and no table of positions. Segments close where the default
// strategy's would (whole triangles, `limit` vertices once the repeats are left out) and
// pass through the same null middle end. Its x_proxy bounds what a splitter fetching within
// a few per mille of `exact` can reach on this machine.
void seen_bits_floor(benchmark::State& state, const Workload* w, uint32_t limit) {
    const std::span<const uint32_t> idx(w->indices32);
    const uint32_t bits = std::bit_ceil(limit) * 16;
    std::vector<uint64_t> seen(bits / 64);
    std::vector<uint32_t> fetch(3 * size_t(limit) + 3);
    std::vector<uint16_t> draw(3 * size_t(limit) + 3);
    const auto once = [&] {
        NullMiddleEnd null;
        uint64_t fetched = 0;
        const auto t0 = Clock::now();
        const uint32_t* src = idx.data();
        const uint32_t* const end = src + idx.size() / 3 * 3;
        while (src != end) {
            std::fill(seen.begin(), seen.end(), 0);
            size_t nd = 0, repeats = 0;
            // Chunks of triangles sure to fit, as the splitter cuts them.
            for (size_t room; (room = (limit - (nd - repeats)) / 3) > 0 && src != end;) {
                const uint32_t* const stop = src + 3 * std::min<size_t>(room, (end - src) / 3);
                for (; src != stop; ++src, ++nd) {
                    const uint32_t v = *src, b = v & (bits - 1);
                    const uint64_t word = seen[b >> 6], bit = uint64_t(1) << (b & 63);
                    seen[b >> 6] = word | bit;
                    repeats += (word & bit) != 0;
                    fetch[nd] = v;
                    draw[nd] = uint16_t(nd);
                }
            }
            const size_t n = nd - repeats;
            Segment seg;
            seg.prim = Prim::triangles;
            seg.fetch_count = uint32_t(n);
            seg.fetch_elts = {fetch.data(), n};
            seg.draw_count = uint32_t(nd);
            seg.draw_elts = {draw.data(), nd};
            null.consume(seg);
            fetched += n;
        }
        benchmark::DoNotOptimize(null.sum);
        return std::pair{std::chrono::duration<double>(Clock::now() - t0).count(), fetched};
    };
    auto [best, fetched] = once();
    double proxy_best = 1e30;
    uint64_t sink = 0;
    for (auto _ : state) {
        const double t = once().first;
        state.SetIterationTime(t);
        best = std::min(best, t);
        proxy_best = std::min(proxy_best, proxy_index_copy(idx, sink));
    }
    benchmark::DoNotOptimize(sink);
    const double count = std::max<double>(double(idx.size()), 1);
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(idx.size()));
    state.counters["fetched/idx"] = double(fetched) / count;
    state.counters["best_us"] = best * 1e6;
    state.counters["x_proxy"] = proxy_best / best; // the same indices on both sides
}

// A driver's small draws (Mesa's llvmpipe through integrations/mesa, glmark2's scenes): 64
// draws of 12 u16 indices (4 triangles over 6 vertices) through one reused DrawSegments, as
// a driver's front end begins every draw on one, beside the least a one-segment split of
// such a draw does (vsplit's fast path: scan the indices' range, rebase them to u16), run in
// the same loop. x_floor = the floor's time / drawpipe's: what the per-draw setup costs.
void small_draws(benchmark::State& state) {
    constexpr uint32_t kDraws = 64, kCount = 12;
    std::vector<uint16_t> idx;
    for (uint32_t d = 0; d < kDraws; ++d)
        for (uint16_t k : {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5}) idx.push_back(uint16_t(6 * d + k));
    DrawInfo draw;
    draw.prim = Prim::triangles;
    draw.index_type = IndexType::u16;
    draw.indices = idx.data();
    draw.index_buffer_count = uint32_t(idx.size());
    draw.count = kCount;
    MiddleEndLimits limits;
    DrawSegments segments;
    Segment seg;
    NullMiddleEnd null;
    std::vector<uint16_t> rebased(kCount);
    const auto ours = [&] {
        for (uint32_t d = 0; d < kDraws; ++d) {
            draw.start = d * kCount;
            segments.begin(draw, limits);
            while (segments.next(seg)) null.consume(seg);
        }
    };
    const auto floor = [&] {
        for (uint32_t d = 0; d < kDraws; ++d) {
            const uint16_t* src = idx.data() + d * kCount;
            uint32_t lo = 0xffff, hi = 0;
            for (uint32_t i = 0; i < kCount; ++i) {
                lo = std::min<uint32_t>(lo, src[i]);
                hi = std::max<uint32_t>(hi, src[i]);
            }
            for (uint32_t i = 0; i < kCount; ++i) rebased[i] = uint16_t(src[i] - lo);
            seg.fetch_start = lo;
            seg.fetch_count = hi - lo + 1;
            seg.fetch_elts = {};
            seg.draw_count = kCount;
            seg.draw_elts = {rebased.data(), kCount};
            null.consume(seg);
        }
    };
    const auto time = [](auto&& f) {
        const auto t0 = Clock::now();
        f();
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    ours();
    floor();
    double best = 1e30, floor_best = 1e30;
    for (auto _ : state) {
        const double t = time(ours);
        state.SetIterationTime(t);
        best = std::min(best, t);
        floor_best = std::min(floor_best, time(floor));
    }
    benchmark::DoNotOptimize(null.sum);
    state.SetItemsProcessed(int64_t(state.iterations()) * kDraws);
    state.counters["ns/draw"] = best / kDraws * 1e9;
    state.counters["floor_ns/draw"] = floor_best / kDraws * 1e9;
    state.counters["x_floor"] = floor_best / best;
}

void proxy_index_copy_bm(benchmark::State& state) {
    uint64_t sink = 0;
    double best = 1e30;
    for (auto _ : state) best = std::min(best, proxy_index_copy(g_proxy_indices, sink));
    benchmark::DoNotOptimize(sink);
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(g_proxy_indices.size()));
    state.counters["best_Mi/s"] = double(g_proxy_indices.size()) / best / 1e6;
}

void proxy_memcpy_bm(benchmark::State& state) {
    const size_t bytes = g_smoke ? (size_t(1) << 20) : (size_t(64) << 20);
    std::vector<std::byte> src(bytes, std::byte{1}), dst(bytes, std::byte{0});
    double best = proxy_memcpy(src, dst);
    for (auto _ : state) best = std::min(best, proxy_memcpy(src, dst));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
    state.counters["best_GB/s"] = double(bytes) / best / 1e9;
}

void register_all() {
    auto finish = [](benchmark::internal::Benchmark* b) {
        b->Unit(benchmark::kMillisecond);
        if (g_smoke) b->Iterations(1);
    };
    finish(benchmark::RegisterBenchmark("proxy/memcpy_64MiB", proxy_memcpy_bm)->UseRealTime());
    finish(benchmark::RegisterBenchmark("proxy/index_copy_u32_to_u32_u16", proxy_index_copy_bm)
               ->UseRealTime());
    finish(benchmark::RegisterBenchmark("small_draws/DrawSegments/12xu16", small_draws)
               ->UseManualTime()
               ->Unit(benchmark::kMicrosecond));
    // The default strategy on every workload at both limits, then the others at 4096.
    const Strategy def{};
    for (const Workload& w : g_workloads)
        for (uint32_t limit : {4096u, 65536u}) {
            const std::string name =
                "front_end/" + w.label() + "/" + def.name() + "/" + std::to_string(limit);
            finish(benchmark::RegisterBenchmark(name.c_str(), front_end, &w, limit, def)
                       ->UseManualTime());
        }
    // W3 (the third workload) at 65536, where the bits hold every id it has (2^20).
    finish(benchmark::RegisterBenchmark("floor/W3 seen-bits/65536", seen_bits_floor,
                                        &g_workloads[2], 65536u)
               ->UseManualTime());
    for (const char* s : {"exact", "vsplit", "direct-4096", "none"})
        for (const Workload& w : g_workloads) {
            const std::string name = "front_end/" + w.label() + "/" + s + "/4096";
            finish(benchmark::RegisterBenchmark(name.c_str(), front_end, &w, 4096u,
                                                *Strategy::parse(s))
                       ->UseManualTime());
        }
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args(argv, argv + argc);
    g_smoke = take_flag(args, "--smoke");
    for (std::string_view id : workload_ids()) {
        g_workloads.push_back(make_workload(id));
        if (g_smoke) shorten(g_workloads.back(), 20000);
    }
    g_proxy_indices = g_workloads.front().indices32;
    register_all();
    return run_registered_benchmarks(args);
}
