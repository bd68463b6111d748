// `drawpipe bench INPUT... [--strategy NAME|all]... [--max-vertices N]... [--threads N]
//  [--plot out.svg] [--json out.json]`: the front end alone on workloads (W1-W7) and real
// meshes (anything assimp reads), one row per input, limit and strategy: best M indices/s
// through a null middle end, segments, fetched vertices per index and the ACMR of the
// index buffer, beside the physical-limit proxies measured in the same run.
//
// The front end splits one draw on one thread. --threads N adds a column: the whole draw
// (front end, fetch_shade, counting backend) through a drawpipe::Context of N threads.
// --repeat N draws each indexed row N more times from a registered index buffer through one
// SplitCache shared by the run: the first draw records the split (a miss), the others
// replay it (hits); the table gains both times and the cache's statistics follow it.
#include "drawpipe/backends/counting.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/prim.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"
#include "tools/bench_report.hpp"
#include "tools/commands.hpp"
#include "tools/common/files.hpp"
#include "tools/inputs.hpp"
#include "tools/progress.hpp"
#include "tools/render_mesh.hpp"
#include "workloads/measure.hpp"
#include "workloads/mesh.hpp"

#include <meshoptimizer.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace drawpipe::cli {

namespace {

using workloads::Workload;
using Clock = std::chrono::steady_clock;

volatile uint64_t g_sink; // what the timed loops read lands here, so none is optimised away

const char* const kAllStrategies[] = {"distinct", "vsplit", "direct-256", "direct-8192",
                                      "exact",    "none",   "reorder"};

struct BenchArgs {
    std::vector<std::string> inputs;
    std::vector<std::string> strategies{"distinct"};
    std::vector<uint32_t> limits{4096};
    uint32_t threads = 0;
    uint32_t repeat = 0; // redraws through the split cache (0: none)
    uint32_t min_reps = 5;
    double min_time = 0.3;
    std::optional<std::string> plot, json; // given: even empty, which is an error
    bool no_progress = false;
    std::string command;
};

// Average cache miss ratio (vertices transformed per triangle) of a 16-entry FIFO
// post-transform cache over these triangles; nullopt when there are none.
std::optional<double> acmr_of(const std::vector<uint32_t>& tris) {
    if (tris.empty()) return std::nullopt;
    const uint32_t vmax = *std::max_element(tris.begin(), tris.end());
    if (vmax >= workloads::kReorderIndexRange)
        return std::nullopt; // the analyser keeps a table per vertex
    return meshopt_analyzeVertexCache(tris.data(), tris.size(), size_t(vmax) + 1, 16, 0, 0).acmr;
}

std::string machine_description() {
    std::string cpu = "unknown CPU";
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);)
        if (line.rfind("model name", 0) == 0) {
            cpu = line.substr(line.find(':') + 2);
            break;
        }
    return cpu + ", " + std::to_string(std::thread::hardware_concurrency()) + " threads, gcc " +
           __VERSION__
#ifdef NDEBUG
           + ", NDEBUG"
#endif
        ;
}

// Times `draw` until both min_reps and min_time are reached; returns the best seconds. With
// `proxy_best`, the index-copy proxy runs on `proxy_in` between draws (after every 5 ms of
// them), so its best comes from the same moments of the machine's drifting speed.
// With `progress`, the row's estimate follows from the warm-up draw's time.
template <class Fn>
double best_time(const BenchArgs& a, uint32_t& reps, Fn&& draw,
                 std::span<const uint32_t> proxy_in = {}, double* proxy_best = nullptr,
                 Progress* progress = nullptr) {
    const auto warm = Clock::now();
    draw(); // warm-up
    if (progress) {
        const double once = std::chrono::duration<double>(Clock::now() - warm).count();
        // The warm-up, the timed draws, the one that ends past min_time, and the proxy runs.
        progress->estimate(2 * once + 1.1 * std::max(a.min_time, once * a.min_reps));
    }
    double best = 1e30, since_proxy = 1e30;
    uint64_t sink = 0;
    const auto start = Clock::now();
    for (reps = 0; reps < 100000; ++reps) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (reps >= a.min_reps && elapsed >= a.min_time) break;
        const auto t0 = Clock::now();
        draw();
        const double t = std::chrono::duration<double>(Clock::now() - t0).count();
        best = std::min(best, t);
        since_proxy += t;
        if (proxy_best && since_proxy >= 0.005) {
            *proxy_best = std::min(*proxy_best, workloads::proxy_index_copy(proxy_in, sink));
            since_proxy = 0;
        }
    }
    return best;
}

// The whole draw through a Context: float4 positions per vertex, fetch_shade, counting.
double context_mips(const BenchArgs& a, const Workload& w, const Strategy& s, uint32_t limit) {
    std::vector<float> pos(size_t(w.vertex_count) * 4, 1.0f);
    for (size_t v = 0; v < w.vertex_count; ++v)
        for (size_t c = 0; c < 3; ++c)
            pos[v * 4 + c] = w.positions.empty() ? float(v % 1024 + c) : w.positions[v * 3 + c];
    const VertexBuffer buffer{pos.data(), pos.size() * sizeof(float), 16, 0};
    const VertexAttrib attrib{0, 0, Format::float32x4, 0};
    ContextOptions o;
    o.threads = a.threads;
    o.draw.strategy = s;
    o.draw.max_vertices = limit;
    Context ctx(o);
    CountingBackend backend;
    ctx.set_vertex_buffers({&buffer, 1});
    ctx.set_vertex_attribs({&attrib, 1});
    ctx.bind_middle_end("fetch_shade");
    ctx.bind_backend(backend);
    const DrawInfo d = w.draw();
    uint32_t reps = 0;
    const double best = best_time(a, reps, [&] {
        ctx.draw(d);
        ctx.flush();
    });
    return w.count / best / 1e6;
}

// Draws `draw` (its buffer registered in `cache`) through the split cache 1 + a.repeat
// times: the first draw's time (a miss: split and recorded) and the best redraw's (hits,
// unless the split is larger than the cache's budget). Only segment headers are read, so
// the times are the front end's own work, not a middle end's reading of the lists. Each
// draw is prepared as Context::draw prepares it (its checks, the cache lookup) and cut by the
// pipeline's own segment source.
void time_redraws(const BenchArgs& a, SplitCache& cache, const DrawInfo& draw,
                  const MiddleEndLimits& limits, const Strategy& strategy, BenchRow& row) {
    uint64_t sink = 0;
    auto once = [&] {
        DrawSegments segments(draw, limits, {strategy, 0, &cache});
        Segment seg;
        while (segments.next(seg)) sink += seg.fetch_count + seg.draw_count;
    };
    auto seconds = [&] {
        const auto t0 = Clock::now();
        once();
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
    row.first_seconds = seconds();
    double best = 1e30;
    for (uint32_t i = 0; i < a.repeat; ++i) best = std::min(best, seconds());
    row.redraw_seconds = best;
    g_sink = sink;
}

void print_row(const BenchRow& r, bool with_context) {
    char acmr[16] = "-";
    if (r.acmr) std::snprintf(acmr, sizeof acmr, "%.3f", *r.acmr);
    std::printf("%-24s %-12s %6u %9.1f %7.3f %9llu %10.4f %7s", r.input.c_str(), r.strategy.c_str(),
                r.limit, r.mips, r.x_proxy, (unsigned long long)r.segments, r.fetched_per_index,
                acmr);
    if (with_context) std::printf(" %9.1f", r.context_mips.value_or(0));
    if (r.first_seconds)
        std::printf(" %10.3f %10.2f %9.0fx", *r.first_seconds * 1e3, *r.redraw_seconds * 1e6,
                    *r.first_seconds / *r.redraw_seconds);
    std::printf("\n");
    std::fflush(stdout);
}

// Every limit against every input, before anything is timed: below what a primitive type
// needs or (with --threads) above what fetch_shade accepts, each an error naming both
// numbers. Limits above the 2^16 vertices a segment's 16-bit draw elements reach were refused
// with the other options.
void check_limits(const BenchArgs& a, const std::vector<Workload>& inputs,
                  const std::vector<Strategy>& strategies) {
    for (const Workload& w : inputs)
        for (const uint32_t limit : a.limits) {
            const DrawInfo draw = w.draw();
            for (const Strategy& s : strategies) {
                MiddleEndLimits limits;
                limits.max_vertices = limit;
                check_split_limits(draw, limits, {s});
            }
            if (a.threads) {
                const float position[4] = {0, 0, 0, 1};
                const VertexBuffer buffer{position, sizeof position, 16, 0};
                const VertexAttrib attrib{0, 0, Format::float32x4, 0};
                const DrawState state{draw, {{&buffer, 1}, {&attrib, 1}}, nullptr, nullptr};
                check_draw(state, *MiddleEndRegistry::global().find("fetch_shade"),
                           {strategies.front(), limit});
            }
        }
}

// Below this many timed draws a row's best is not a stable figure: the first draws run on
// cold caches and a page-faulting allocator (the bunny: 8.4 M indices/s at one draw, 296 at
// the default).
constexpr uint32_t kStableReps = 5;

void print_table_header(const BenchArgs& a) {
    std::printf(
        "front end alone, one thread, null middle end summing every element; best draw.\n"
        "x proxy: against the index-copy proxy run between the row's draws, on the draw's own\n"
        "u32 indices (W1's for u16 and non-indexed draws)\n\n");
    std::printf("%-24s %-12s %6s %9s %7s %9s %10s %7s%s%s\n", "input", "strategy", "limit",
                "M idx/s", "x proxy", "segments", "fetched/ix", "ACMR",
                a.threads ? "   ctx M/s" : "",
                a.repeat ? "   first ms  redraw us  first/redraw" : "");
    std::fflush(stdout);
}

void run_bench(const BenchArgs& a) {
    // Every option and every input's kind before anything is loaded or generated.
    std::vector<Strategy> strategies;
    for (const std::string& name : a.strategies) {
        if (name == "all") {
            for (const char* s : kAllStrategies) strategies.push_back(*Strategy::parse(s));
            continue;
        }
        strategies.push_back(parse_strategy_option(name));
    }
    if (!std::isfinite(a.min_time) || a.min_time < 0 || a.min_time > 3600)
        throw Error(ErrorCode::invalid_value,
                    "--min-time: " + std::to_string(a.min_time) +
                        (a.min_time < 0 ? " is negative" : " is not a number of seconds 0..3600"));
    for (const uint32_t limit : a.limits)
        if (limit > kMaxSegmentVertices)
            throw Error(ErrorCode::invalid_value,
                        "--max-vertices: " + std::to_string(limit) + " is above the " +
                            std::to_string(kMaxSegmentVertices) +
                            " vertices per segment the front end accepts (draw elements "
                            "are 16-bit)");
    if (a.plot) check_output_path(*a.plot, "--plot", ".svg");
    if (a.json) check_output_path(*a.json, "--json", ".json");
    for (const std::string& in : a.inputs) check_input(in, "bench", false, true);
    // Every input is drawn as triangles (lists, strips or fans): the limits are checked on one
    // before anything is generated, and again on each input once loaded.
    {
        Workload one;
        one.id = one.name = "triangle";
        one.count = one.vertex_count = 3;
        check_limits(a, {one}, strategies);
    }

    BenchReport report;
    report.machine = machine_description();
    report.command = a.command;
    report.threads = a.threads;
    Progress progress(!a.no_progress);
    std::vector<Workload> inputs;
    for (const std::string& in : a.inputs)
        inputs.push_back(load_with_progress(in, progress, false));
    check_limits(a, inputs, strategies);
    if (a.min_reps < kStableReps)
        std::fprintf(stderr,
                     "drawpipe bench: warning: --reps %u: a best of fewer than %u timed draws is "
                     "not a stable figure (the first draws run on cold caches); rows that time "
                     "fewer are counted at the end\n",
                     a.min_reps, kStableReps);

    // The proxies, before and after the table; the best of both is in the JSON.
    progress.phase("measuring the proxies");
    const std::vector<uint32_t> proxy_indices = workloads::make_workload("W1").indices32;
    report.index_copy_mips = workloads::best_index_copy_mips(proxy_indices, 15);
    report.memcpy_gbps = workloads::best_memcpy_gbps(10);
    progress.done();
    std::printf("machine: %s\n", report.machine.c_str());
    std::printf("proxies (before the rows): memcpy 64 MiB %.2f GB/s, index copy "
                "(u32 -> u32 + u16) %.1f M indices/s\n",
                report.memcpy_gbps, report.index_copy_mips);
    print_table_header(a);

    // Rows are printed as they finish, so that an interrupted run keeps the finished ones.
    const size_t total_rows = inputs.size() * a.limits.size() * strategies.size();
    const auto run_start = Clock::now();
    SplitCache cache;
    for (const Workload& w : inputs) {
        const DrawInfo draw = w.draw();
        DrawInfo registered = draw; // the same buffer, known to the split cache
        if (a.repeat && draw.index_type != IndexType::none)
            registered.index_buffer_id = cache.register_buffer();
        progress.phase("vertex-cache analysis of " + w.id);
        const std::vector<uint32_t> tris = decomposed_triangles(w);
        const std::optional<double> acmr = acmr_of(tris);
        progress.done();
        std::optional<std::optional<double>> reordered_acmr; // computed on first use
        for (uint32_t limit : a.limits)
            for (const Strategy& s : strategies) {
                const std::string label = w.id == w.name || w.name == "mesh" ? w.id : w.label();
                const size_t done = report.rows.size();
                // "row 3/14 (about 40 s in all) W1 grid-tris-u32 distinct 4096": the figures first,
                // so that a narrow line cuts the label.
                std::string what =
                    "row " + std::to_string(done + 1) + "/" + std::to_string(total_rows);
                if (done > 0) {
                    const double per_row =
                        std::chrono::duration<double>(Clock::now() - run_start).count() /
                        double(done);
                    what += " (about " + Progress::duration(per_row * double(total_rows - done)) +
                            " left in all)";
                }
                what += " " + label + " " + s.name() + " " + std::to_string(limit);
                progress.phase(what, 0, std::max(a.min_time, 0.05));
                MiddleEndLimits limits;
                limits.max_vertices = limit;
                workloads::FrontEndTimer front;
                workloads::TimedDraw last;
                BenchRow row;
                row.input = label;
                row.strategy = s.name();
                row.limit = limit;
                row.indices = w.count;
                // The proxy reads the draw's own u32 indices when it has them (same cache state).
                const std::span<const uint32_t> proxy_in =
                    w.index_type == IndexType::u32 ? std::span<const uint32_t>(w.indices32)
                                                   : std::span<const uint32_t>(proxy_indices);
                double proxy_best = 1e30;
                row.best_seconds = best_time(
                    a, row.reps, [&] { last = front.time(draw, limits, s); }, proxy_in, &proxy_best,
                    progress.shown() ? &progress : nullptr);
                row.proxy_mips = double(proxy_in.size()) / proxy_best / 1e6;
                row.mips = w.count / row.best_seconds / 1e6;
                row.x_proxy = row.mips / row.proxy_mips;
                row.segments = last.stats.segments;
                row.fetched_per_index = double(last.stats.fetched) / std::max(w.count, 1u);
                row.acmr = acmr;
                if (s.kind == Strategy::Kind::reorder) {
                    if (!reordered_acmr) {
                        std::vector<uint32_t> re;
                        reordered_acmr =
                            workloads::reorder_strategy_indices(draw, re) ? acmr_of(re) : acmr;
                    }
                    row.acmr = *reordered_acmr;
                }
                if (a.threads) row.context_mips = context_mips(a, w, s, limit);
                if (registered.index_buffer_id) time_redraws(a, cache, registered, limits, s, row);
                report.rows.push_back(row);
                progress.pause();
                print_row(row, a.threads != 0);
                progress.resume();
            }
    }
    progress.phase("measuring the proxies again");
    const double after = workloads::best_index_copy_mips(proxy_indices, 15);
    progress.done();
    report.index_copy_mips = std::max(report.index_copy_mips, after);
    std::printf("\nindex-copy proxy after the rows: %.1f M indices/s\n", after);
    if (a.repeat) {
        const SplitCacheStats s = cache.stats();
        report.cache = s;
        std::printf("\nsplit cache (budget %zu MiB): hits %llu, misses %llu, evictions %llu, "
                    "uncacheable %llu, entries %zu, bytes %zu\n",
                    cache.budget() >> 20, (unsigned long long)s.hits, (unsigned long long)s.misses,
                    (unsigned long long)s.evictions, (unsigned long long)s.uncacheable, s.entries,
                    s.bytes);
    }
    const auto unstable = std::count_if(report.rows.begin(), report.rows.end(),
                                        [](const BenchRow& r) { return r.reps < kStableReps; });
    if (unstable > 0) {
        std::fflush(stdout);
        std::fprintf(stderr,
                     "drawpipe bench: warning: %lld of %zu %s timed fewer than %u draws: %s not "
                     "a stable figure (--reps %u or more)\n",
                     (long long)unstable, report.rows.size(),
                     report.rows.size() == 1 ? "row" : "rows", kStableReps,
                     unstable == 1 ? "its best is" : "their bests are", kStableReps);
    }
    if (a.json) write_bench_json(report, *a.json);
    if (a.plot) write_bench_svg(report, *a.plot);
}

} // namespace

void add_bench_command(CLI::App& app) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* cmd = app.add_subcommand(
        "bench", "Measure the front end on workloads (W1..W7) and meshes, per splitting strategy");
    cmd->add_option(
           "inputs", args->inputs,
           "Workload ids (W1..W7), mesh files assimp reads (.obj, .ply, ...), or generated "
           "spheres: sphere:N (about N triangles, vertex-cache order) or sphere:N:random "
           "(triangles shuffled)")
        ->required();
    cmd->add_option("--strategy", args->strategies, strategy_help() + ", or all")->expected(1, -1);
    cmd->add_option("--max-vertices", args->limits,
                    std::string(kMaxVerticesHelp) +
                        "; one row per limit given (the front end alone: 0 is 4096, at most 65536; "
                        "with --threads, fetch_shade's 4096)")
        ->expected(1, -1);
    add_threads_option(*cmd, args->threads,
                       "Also run the whole draw through a Context of N threads, 1..1024 "
                       "(fetch_shade)");
    cmd->add_option("--repeat", args->repeat,
                    "Redraw each indexed row N more times through the split cache")
        ->check(CLI::Range(0u, 1000000u));
    cmd->add_option("--reps", args->min_reps,
                    "Least timed draws per row (default 5; fewer is warned about: not a stable "
                    "figure)")
        ->check(CLI::Range(1u, 1000000u));
    cmd->add_option("--min-time", args->min_time, "Least seconds timed per row (default 0.3)");
    add_output_option(*cmd, "--plot", args->plot,
                      "Write a grouped bar chart (SVG), FILE ending in .svg");
    add_output_option(*cmd, "--json", args->json,
                      "Write the raw figures (JSON), FILE ending in .json");
    cmd->add_flag("--no-progress", args->no_progress,
                  "No progress line on stderr (shown only when stderr is a terminal)");
    cmd->callback([args] {
        // The command as it can be re-run, with every setting spelled out.
        for (uint32_t& l : args->limits)
            if (l == 0) l = MiddleEndLimits{}.max_vertices;
        std::string& c = args->command;
        c = "drawpipe bench";
        for (const std::string& in : args->inputs) c += " " + in;
        c += " --strategy";
        for (const std::string& s : args->strategies) c += " " + s;
        c += " --max-vertices";
        for (uint32_t l : args->limits) c += " " + std::to_string(l);
        if (args->threads) c += " --threads " + std::to_string(args->threads);
        if (args->repeat) c += " --repeat " + std::to_string(args->repeat);
        c += " --reps " + std::to_string(args->min_reps);
        char t[32];
        std::snprintf(t, sizeof t, " --min-time %g", args->min_time);
        c += t;
        run_bench(*args);
    });
}

} // namespace drawpipe::cli
