// Whole-draw benchmarks: front end + fetch_shade with a 4x4-matrix vertex shader + counting
// backend, on W1, W3 and W7 over a 1024 x 1024 grid of float4 positions.
//
//   whole_draw/direct/W*          the stages called directly on this thread (no Context)
//   whole_draw/direct_simd/W*     the same with fetch_shade_simd (the vectorised path)
//   whole_draw/context/W*/T       Context with T threads, defaults (1 thread: inline)
//   whole_draw/context/W*/T      Context with the pipeline forced on, even for 1 thread
//   tiny_draws/...                10,000 draws of 6 indices: ns per draw
//   crossover/{inline,pipeline}/N one draw of N indices at 2 threads (kInlineDrawWork)
//
// Counters: best_ms (fastest iteration, the figure that survives this machine's noisy
// neighbours), ns/draw for the tiny draws. `--smoke` runs everything once on small inputs;
// `--compare ROUNDS` prints the README's table instead (configurations interleaved) and
// `--crossover ROUNDS` the measurements behind kInlineDrawWork; `--single` runs one
// configuration alone (for valgrind).
#include "bench/bench_main.hpp"
#include "bench/matrix_scene.hpp"
#include "bench/rounds.hpp"
#include "draw/front_end/front_end.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "workloads/workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kLimit = 4096;
bool g_smoke = false;
std::deque<Workload> g_workloads; // W1, W3, W7

// The middle end under test: the reference fetch_shade, or fetch_shade_simd.
std::shared_ptr<const MiddleEnd> middle_end(bool simd) {
    if (simd) return std::make_shared<FetchShadeSimd>(kLimit);
    return std::make_shared<FetchShade>(kLimit);
}

// Hands one middle-end batch to a backend, range by range, stream 0 only (no stream output).
void submit_batch(Backend& backend, const ShadedBatch& batch, const VertexLayout& layout) {
    const VertexView view{batch.vertices.data(), batch.vertex_count, layout.stride()};
    for (const PrimRange& r : batch.prims)
        if (r.stream == 0) // the other vertex streams only feed stream output
            backend.draw_elements(r.prim, r.flags, view, batch.elts_of(r));
}

// The stages called directly, with everything kept warm across draws: the baseline.
struct DirectStages {
    explicit DirectStages(bool simd = false) : middle_ptr(middle_end(simd)), middle(*middle_ptr) {}
    std::shared_ptr<const MiddleEnd> middle_ptr;
    const MiddleEnd& middle;
    FrontEnd front;
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
    void draw(const DrawInfo& info, Backend& backend) {
        const DrawState state{info, scene().input(), &scene().vs(), nullptr};
        const auto prepared = middle.prepare(state);
        front.begin(info, {prepared->limits(), {}});
        backend.begin_draw(info, prepared->layout());
        while (front.next(storage, seg)) {
            batch.clear();
            prepared->shade(seg, nullptr, batch);
            submit_batch(backend, batch, prepared->layout());
        }
        backend.end_draw();
    }
};

// A context drawing into `backend`; flushes with less work than `inline_below` run inline.
std::unique_ptr<Context> make_context(uint32_t threads, uint64_t inline_below,
                                      CountingBackend& backend, bool simd = false) {
    ContextOptions o;
    o.threads = threads;
    o.inline_below = inline_below;
    auto ctx = std::make_unique<Context>(o);
    ctx->bind_middle_end(middle_end(simd));
    ctx->bind_backend(backend);
    scene().bind(*ctx);
    return ctx;
}

void whole_direct(benchmark::State& state, const Workload* w, bool simd) {
    DirectStages direct(simd);
    CountingBackend backend;
    const DrawInfo info = w->draw();
    timed_best(state, info.count, [&] { direct.draw(info, backend); });
    benchmark::DoNotOptimize(backend.totals().checksum);
}

void whole_context(benchmark::State& state, const Workload* w, uint32_t threads, bool force) {
    CountingBackend backend;
    auto ctx = make_context(threads, force ? 0 : kInlineDrawWork, backend);
    const DrawInfo info = w->draw();
    timed_best(state, info.count, [&] {
        ctx->draw(info);
        ctx->flush();
    });
    benchmark::DoNotOptimize(backend.totals().checksum);
}

// Draw i covers W1's indices [6i, 6i + 6): two triangles of one grid cell.
uint32_t tiny_count() {
    return g_smoke ? 100 : 10000;
}

void tiny_direct(benchmark::State& state) {
    DirectStages direct;
    CountingBackend backend;
    DrawInfo info = g_workloads[0].draw();
    info.count = 6;
    const uint32_t n = tiny_count();
    timed_best(state, n, [&] {
        for (uint32_t i = 0; i < n; ++i) {
            info.start = 6 * i;
            direct.draw(info, backend);
        }
    });
    state.counters["ns/draw"] = state.counters["best_ms"] * 1e6 / n;
}

void tiny_context(benchmark::State& state, uint32_t threads, bool force) {
    CountingBackend backend;
    auto ctx = make_context(threads, force ? 0 : kInlineDrawWork, backend);
    DrawInfo info = g_workloads[0].draw();
    info.count = 6;
    const uint32_t n = tiny_count();
    timed_best(state, n, [&] {
        for (uint32_t i = 0; i < n; ++i) {
            info.start = 6 * i;
            ctx->draw(info);
        }
        ctx->flush();
    });
    state.counters["ns/draw"] = state.counters["best_ms"] * 1e6 / n;
}

void crossover(benchmark::State& state, uint32_t count, bool pipeline) {
    CountingBackend backend;
    auto ctx = make_context(2, pipeline ? 0 : uint64_t(1) << 40, backend);
    DrawInfo info = g_workloads[0].draw();
    info.count = std::min(count, info.count);
    timed_best(state, info.count, [&] {
        ctx->draw(info);
        ctx->flush();
    });
}

void register_all() {
    auto finish = [](benchmark::internal::Benchmark* b) {
        b->Unit(benchmark::kMillisecond)->UseRealTime();
        if (g_smoke) b->Iterations(1);
    };
    for (const Workload& w : g_workloads) {
        const std::string id = w.label();
        finish(benchmark::RegisterBenchmark(("whole_draw/direct/" + id).c_str(), whole_direct, &w,
                                            false));
        finish(benchmark::RegisterBenchmark(("whole_draw/direct_simd/" + id).c_str(), whole_direct,
                                            &w, true));
        for (uint32_t t : {1u, 2u}) {
            const std::string suffix = id + "/threads:" + std::to_string(t);
            finish(benchmark::RegisterBenchmark(("whole_draw/context/" + suffix).c_str(),
                                                whole_context, &w, t, false));
            finish(benchmark::RegisterBenchmark(("whole_draw/context/" + suffix).c_str(),
                                                whole_context, &w, t, true));
        }
    }
    finish(benchmark::RegisterBenchmark("tiny_draws/direct", tiny_direct));
    for (uint32_t t : {1u, 2u}) {
        const std::string suffix = "/threads:" + std::to_string(t);
        finish(benchmark::RegisterBenchmark(("tiny_draws/context" + suffix).c_str(), tiny_context,
                                            t, false));
        finish(benchmark::RegisterBenchmark(("tiny_draws/pipeline" + suffix).c_str(), tiny_context,
                                            t, true));
    }
    for (uint32_t n : {1024u, 4096u, 8192u, 16384u, 32768u, 65536u, 262144u}) {
        if (g_smoke && n > 4096) break;
        finish(benchmark::RegisterBenchmark(("crossover/inline/" + std::to_string(n)).c_str(),
                                            crossover, n, false));
        finish(benchmark::RegisterBenchmark(("crossover/pipeline/" + std::to_string(n)).c_str(),
                                            crossover, n, true));
    }
}

// `--compare ROUNDS`: the figures of the README. Every round runs each configuration once, in
// a rotating order, so a noisy neighbour or a drifting clock hits them alike; the table gives
// each configuration's best and median time and its speed over the direct stages, best time
// against best time and as the median of the rounds' ratios.
struct Config {
    std::string name;
    std::function<void()> run;
    std::vector<double> seconds;
};

// Speed-up of `c` over `base` as the median of per-round ratios: a round's runs are adjacent in
// time, so they share whatever the machine was doing.
double median_ratio(const Config& base, const Config& c) {
    return bench::median_ratio(base.seconds, c.seconds);
}

void measure(std::vector<Config>& configs, int rounds) {
    for (Config& c : configs) c.run(); // warm-up
    for (int r = 0; r < rounds; ++r)
        for (size_t k = 0; k < configs.size(); ++k) {
            Config& c = configs[(k + r) % configs.size()];
            const auto t0 = Clock::now();
            c.run();
            c.seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        }
}

void compare(int rounds) {
    std::printf("whole draw: front end + fetch_shade (4x4 matrix VS, limit %u) + counting backend; "
                "%d rounds; simd = fetch_shade_simd on %s\n",
                kLimit, rounds, std::string(simd_target()).c_str());
    std::printf("%-24s %-18s %9s %10s %9s %11s %10s\n", "workload", "config", "best ms",
                "median ms", "M idx/s", "best/best", "per-round");
    for (const Workload& w : g_workloads) {
        const DrawInfo info = w.draw();
        DirectStages direct, direct_simd(true);
        CountingBackend b0, b1, b2, b3, b4, b5;
        auto ctx1 = make_context(1, kInlineDrawWork, b1), pipe1 = make_context(1, 0, b2),
             pipe2 = make_context(2, kInlineDrawWork, b3),
             simd_pipe2 = make_context(2, kInlineDrawWork, b5, true);
        auto draw = [&info](Context& c) {
            c.draw(info);
            c.flush();
        };
        std::vector<Config> configs = {{"direct", [&] { direct.draw(info, b0); }, {}},
                                       {"context/1 thread", [&] { draw(*ctx1); }, {}},
                                       {"pipeline/1 thread", [&] { draw(*pipe1); }, {}},
                                       {"pipeline/2 threads", [&] { draw(*pipe2); }, {}},
                                       {"simd direct", [&] { direct_simd.draw(info, b4); }, {}},
                                       {"simd pipeline/2 thr", [&] { draw(*simd_pipe2); }, {}}};
        measure(configs, rounds);
        for (const Config& c : configs)
            std::printf("%-24s %-18s %9.2f %10.2f %9.1f %10.3fx %9.3fx\n", w.label().c_str(),
                        c.name.c_str(), best_of(c.seconds) * 1e3, median_of(c.seconds) * 1e3,
                        info.count / best_of(c.seconds) / 1e6,
                        best_of(configs[0].seconds) / best_of(c.seconds),
                        median_ratio(configs[0], c));
        if (b1.totals().checksum != b0.totals().checksum ||
            b3.totals().checksum != b0.totals().checksum ||
            b4.totals().checksum != b0.totals().checksum ||
            b5.totals().checksum != b0.totals().checksum)
            std::printf("  CHECKSUM MISMATCH\n");
    }

    const uint32_t n = tiny_count();
    std::printf("\ntiny draws: %u draws of 6 indices, queued then flushed; ns per draw\n", n);
    DirectStages direct;
    CountingBackend b0, b1, b2, b3, b4;
    auto ctx1 = make_context(1, kInlineDrawWork, b1), ctx2 = make_context(2, kInlineDrawWork, b2),
         pipe1 = make_context(1, 0, b3), pipe2 = make_context(2, 0, b4);
    DrawInfo info = g_workloads[0].draw();
    info.count = 6;
    auto tiny = [&](Context& c) {
        for (uint32_t i = 0; i < n; ++i) {
            info.start = 6 * i;
            c.draw(info);
        }
        c.flush();
    };
    std::vector<Config> configs = {{"direct",
                                    [&] {
                                        for (uint32_t i = 0; i < n; ++i) {
                                            info.start = 6 * i;
                                            direct.draw(info, b0);
                                        }
                                    },
                                    {}},
                                   {"context/1 thread", [&] { tiny(*ctx1); }, {}},
                                   {"context/2 threads", [&] { tiny(*ctx2); }, {}},
                                   {"pipeline/1 thread", [&] { tiny(*pipe1); }, {}},
                                   {"pipeline/2 threads", [&] { tiny(*pipe2); }, {}}};
    measure(configs, rounds);
    for (const Config& c : configs)
        std::printf("%-24s %-16s %10.1f ns/draw (median %.1f)\n", "tiny_draws", c.name.c_str(),
                    best_of(c.seconds) * 1e9 / n, median_of(c.seconds) * 1e9 / n);
}

// `--crossover ROUNDS`: where the 2-thread pipeline starts to beat the inline loop, for one
// draw of N indices (kInlineDrawWork) and for 2000 queued draws of N indices each.
void crossover_table(int rounds) {
    std::printf("%-28s %12s %12s %8s\n", "2 threads", "inline us", "pipeline us", "ratio");
    for (uint32_t draws : {1u, 2000u})
        for (uint32_t n : {6u, 24u, 48u, 96u, 384u, 1536u, 4096u, 8192u, 12288u, 16384u, 24576u,
                           32768u, 131072u}) {
            if (uint64_t(draws) * n > 4000000 || (draws == 1 && n < 384)) continue;
            CountingBackend b0, b1;
            auto inl = make_context(2, uint64_t(1) << 40, b0), pipe = make_context(2, 0, b1);
            DrawInfo info = g_workloads[0].draw();
            info.count = n;
            auto run = [&](Context& c) {
                for (uint32_t i = 0; i < draws; ++i) {
                    info.start = (i * n) % (g_workloads[0].count - n) / 6 * 6;
                    c.draw(info);
                }
                c.flush();
            };
            std::vector<Config> configs = {{"inline", [&] { run(*inl); }, {}},
                                           {"pipeline", [&] { run(*pipe); }, {}}};
            measure(configs, rounds);
            const double a = best_of(configs[0].seconds), b = best_of(configs[1].seconds);
            const std::string label =
                std::to_string(draws) + " x " + std::to_string(n) + " indices";
            std::printf("%-28s %12.1f %12.1f %7.2fx\n", label.c_str(), a * 1e6, b * 1e6, a / b);
        }
}

// `--single CONFIG ID N`: N whole draws of workload ID (W1, W3 or W7) by one configuration
// (direct, direct_simd, context1, pipeline1, pipeline2) and nothing else, for instruction counts:
// `valgrind --tool=callgrind pipeline_bench --single context1 W1 3`, minus the same with N = 1.
int single(const std::string& config, const std::string& id, int n) {
    const Workload* w = nullptr;
    for (const Workload& x : g_workloads)
        if (x.id == id) w = &x;
    if (!w) return 2;
    const DrawInfo info = w->draw();
    CountingBackend backend;
    if (config == "direct" || config == "direct_simd") {
        DirectStages direct(config == "direct_simd");
        for (int i = 0; i < n; ++i) direct.draw(info, backend);
    } else {
        const uint32_t threads = config == "pipeline2" ? 2 : 1;
        if (config != "context1" && config != "pipeline1" && config != "pipeline2") return 2;
        auto ctx = make_context(threads, config == "context1" ? kInlineDrawWork : 0, backend);
        for (int i = 0; i < n; ++i) {
            ctx->draw(info);
            ctx->flush();
        }
    }
    std::printf("%s %s x%d: checksum %llx\n", config.c_str(), id.c_str(), n,
                (unsigned long long)backend.totals().checksum);
    return 0;
}

// Smoke mode keeps the first `n` indices (W7's rows end in restarts, so any cut is legal).
void shorten(Workload& w, uint32_t n) {
    n = std::min(n, w.count);
    if (!w.primitive_restart) n -= n % 3;
    w.indices32.resize(n);
    w.count = n;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args;
    int compare_rounds = 0, crossover_rounds = 0;
    std::vector<std::string> single_args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0)
            g_smoke = true;
        else if (std::strcmp(argv[i], "--compare") == 0 && i + 1 < argc)
            compare_rounds = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--crossover") == 0 && i + 1 < argc)
            crossover_rounds = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--single") == 0 && i + 3 < argc) {
            single_args = {argv[i + 1], argv[i + 2], argv[i + 3]};
            i += 3;
        } else
            args.push_back(argv[i]);
    }
    for (const char* id : {"W1", "W3", "W7"}) {
        g_workloads.push_back(make_workload(id));
        if (g_smoke) shorten(g_workloads.back(), 60000);
    }
    scene(); // made before anything is timed
    if (!single_args.empty())
        return single(single_args[0], single_args[1], std::atoi(single_args[2].c_str()));
    if (compare_rounds > 0 || crossover_rounds > 0) {
        if (compare_rounds > 0) compare(compare_rounds);
        if (crossover_rounds > 0) crossover_table(crossover_rounds);
        return 0;
    }
    register_all();
    return run_registered_benchmarks(args);
}
