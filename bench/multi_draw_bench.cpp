// Multi-draw and indirect draws (issue 30) against the same draws issued one by one: 8192
// draws of 6 indices (two triangles of one W1 grid cell each), a 4x4-matrix vertex shader,
// counting backend, through Context.
//
//   multi_draw/one_by_one/T   Context::draw per draw (draw ids set), then flush
//   multi_draw/multi/T        one Context::draw(span) of the 8192 draws
//   multi_draw/indirect/T     one Context::draw_indirect over 8192 packed records
//
// Counters: best_ms, ns/draw. `--smoke` runs each once on 100 draws; `--compare ROUNDS` prints
// the README's table: the configurations interleaved round by round (this machine is shared
// and noisy), with each one's median per round and the median of the per-round ratios.
#include "bench/bench_main.hpp"
#include "bench/matrix_scene.hpp"
#include "bench/rounds.hpp"
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "workloads/workloads.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace drawpipe;
using namespace drawpipe::bench;
using namespace drawpipe::workloads;
using Clock = std::chrono::steady_clock;

bool g_smoke = false;
Workload g_w1;

uint32_t draw_count() {
    return g_smoke ? 100 : 8192;
}

// The draws, each with its draw id, and the same as indirect records.
struct Draws {
    DrawInfo base;
    std::vector<DrawInfo> draws;
    std::vector<DrawElementsIndirectCommand> records;
    IndirectDraws indirect;
    Draws() {
        base = g_w1.draw();
        for (uint32_t i = 0; i < draw_count(); ++i) {
            DrawInfo d = base;
            d.start = 6 * i;
            d.count = 6;
            d.draw_id = i;
            draws.push_back(d);
            records.push_back({6, 1, 6 * i, 0, 0});
        }
        indirect.buffer = {records.data(), records.size() * sizeof(records[0])};
        indirect.draw_count = uint32_t(records.size());
    }
};

std::unique_ptr<Context> make_context(uint32_t threads, CountingBackend& backend) {
    ContextOptions o;
    o.threads = threads;
    auto ctx = std::make_unique<Context>(o);
    ctx->bind_middle_end(std::make_shared<FetchShadeSimd>(4096));
    ctx->bind_backend(backend);
    scene().bind(*ctx);
    return ctx;
}

enum class Kind { one_by_one, multi, indirect };

void run(Context& ctx, const Draws& d, Kind kind) {
    switch (kind) {
    case Kind::one_by_one:
        for (const DrawInfo& info : d.draws) ctx.draw(info);
        break;
    case Kind::multi:
        ctx.draw(std::span<const DrawInfo>(d.draws));
        break;
    case Kind::indirect:
        ctx.draw_indirect(d.base, d.indirect);
        break;
    }
    ctx.flush();
}

void timed(benchmark::State& state, uint32_t threads, Kind kind) {
    CountingBackend backend;
    auto ctx = make_context(threads, backend);
    const Draws d;
    timed_best(state, d.draws.size(), [&] { run(*ctx, d, kind); });
    state.counters["ns/draw"] = state.counters["best_ms"] * 1e6 / double(d.draws.size());
}

void compare(int rounds) {
    const Draws d;
    std::printf("%u draws of 6 indices (W1 cells), 4x4 matrix VS, fetch_shade_simd, counting "
                "backend; %d rounds, configurations interleaved\n",
                draw_count(), rounds);
    std::printf("%-10s %-12s %12s %12s %14s\n", "threads", "config", "median ns/draw",
                "best ns/draw", "ratio (median)");
    for (const uint32_t threads : {1u, 2u}) {
        CountingBackend b[3];
        std::unique_ptr<Context> ctx[3];
        for (int k = 0; k < 3; ++k) ctx[k] = make_context(threads, b[k]);
        struct Config {
            const char* name;
            Kind kind;
            std::vector<double> seconds;
        };
        std::vector<Config> configs = {{"one_by_one", Kind::one_by_one, {}},
                                       {"multi", Kind::multi, {}},
                                       {"indirect", Kind::indirect, {}}};
        for (int k = 0; k < 3; ++k) run(*ctx[k], d, configs[k].kind); // warm-up
        for (int r = 0; r < rounds; ++r)
            for (int j = 0; j < 3; ++j) { // a different order each round
                const int k = (j + r) % 3;
                const auto t0 = Clock::now();
                run(*ctx[k], d, configs[k].kind);
                configs[k].seconds.push_back(
                    std::chrono::duration<double>(Clock::now() - t0).count());
            }
        const double n = double(d.draws.size());
        const char* ratio_names[3] = {"", "multi/one", "indirect/multi"};
        for (int k = 0; k < 3; ++k) {
            std::printf("%-10u %-12s %12.1f %12.1f", threads, configs[k].name,
                        median_of(configs[k].seconds) * 1e9 / n,
                        best_of(configs[k].seconds) * 1e9 / n);
            if (k > 0)
                std::printf("   %s %.3f", ratio_names[k],
                            median_ratio(configs[k].seconds, configs[k - 1].seconds));
            std::printf("\n");
        }
        if (b[1].totals().checksum != b[0].totals().checksum ||
            b[2].totals().checksum != b[0].totals().checksum)
            std::printf("  CHECKSUM MISMATCH\n");
    }
}

} // namespace

int main(int argc, char** argv) {
    std::vector<char*> args;
    int rounds = 0;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--smoke") == 0)
            g_smoke = true;
        else if (std::strcmp(argv[i], "--compare") == 0 && i + 1 < argc)
            rounds = std::atoi(argv[++i]);
        else
            args.push_back(argv[i]);
    }
    g_w1 = make_workload("W1");
    scene(); // made before anything is timed
    if (rounds > 0) {
        compare(rounds);
        return 0;
    }
    for (const uint32_t t : {1u, 2u})
        for (const auto& [name, kind] :
             {std::pair{"one_by_one", Kind::one_by_one}, std::pair{"multi", Kind::multi},
              std::pair{"indirect", Kind::indirect}}) {
            auto* b = benchmark::RegisterBenchmark(
                ("multi_draw/" + std::string(name) + "/threads:" + std::to_string(t)).c_str(),
                timed, t, kind);
            b->Unit(benchmark::kMillisecond)->UseRealTime();
            if (g_smoke) b->Iterations(1);
        }
    return run_registered_benchmarks(args);
}
