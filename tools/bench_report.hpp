// What `drawpipe bench` measured, and the two files it can write from it: the raw figures
// as JSON for other tools, and a bar chart as SVG.
#pragma once

#include "drawpipe/split_cache.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drawpipe::cli {

struct BenchRow {
    std::string input;    // "W1 grid-tris-u32" or a mesh file name
    std::string strategy; // Strategy::name()
    uint32_t limit = 0;   // middle end's max vertices per segment
    uint32_t indices = 0; // per draw
    uint32_t reps = 0;    // timed draws
    double best_seconds = 0;
    double mips = 0;       // million indices per second, best draw
    double proxy_mips = 0; // the index-copy proxy's best, run between this row's draws
    double x_proxy = 0;    // mips / proxy_mips
    uint64_t segments = 0;
    double fetched_per_index = 0;
    std::optional<double> acmr;           // of the index buffer drawn (reordered for `reorder`)
    std::optional<double> context_mips;   // whole draw through a Context, when --threads is given
    std::optional<double> first_seconds;  // --repeat: first draw through the split cache (miss)
    std::optional<double> redraw_seconds; //   and the best redraw (hit)
};

struct BenchReport {
    std::string machine;  // CPU model, threads, compiler
    std::string command;  // the command line that produced it
    uint32_t threads = 0; // Context threads for context_mips (0: not measured)
    double memcpy_gbps = 0;
    double index_copy_mips = 0;
    std::vector<BenchRow> rows;
    std::optional<SplitCacheStats> cache; // --repeat: the split cache at the end of the run
};

// Writes the report as JSON; throws Error(not_found) when the file cannot be written.
void write_bench_json(const BenchReport& report, const std::string& path);

// Writes panels of bars (M indices/s, x proxy, fetched vertices per index, and with --repeat
// first draw vs redraw), a bar per row with its value beside it, grouped by input and limit
// (tools/bench_plot.cpp). Throws Error(not_found) when it cannot write.
void write_bench_svg(const BenchReport& report, const std::string& path);

} // namespace drawpipe::cli
