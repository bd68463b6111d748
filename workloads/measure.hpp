// Measuring the front end alone: a null middle end that consumes every element, and the
// two physical-limit proxies of docs/workloads.md, shared
// by the Google Benchmark binaries and `drawpipe bench` so both report the same figures.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/segment.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/strategy.hpp"
#include "drawpipe/types.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace drawpipe {
class FrontEnd;         // draw/front_end/front_end.hpp
struct FrontEndOptions; // draw/front_end/front_end.hpp
} // namespace drawpipe

namespace drawpipe::workloads {

// Stands in for a middle end: sums every fetch and draw element it is handed (as Mesa's
// figures in docs/workloads.md were taken), so nothing the front end writes can be optimised away.
struct NullMiddleEnd {
    uint64_t sum = 0;
    void consume(const Segment& seg);
};

// One whole draw through the front end into the null middle end.
struct TimedDraw {
    FrontEndStats stats;
    double seconds = 0;
    uint64_t checksum = 0; // the null middle end's sum; equal across strategies only by chance
};

// Splits `draw` once with `front` (kept warm across calls) and times it end to end,
// begin() included. Throws Error as FrontEnd::begin does.
TimedDraw run_front_end(FrontEnd& front, SegmentStorage& storage, const DrawInfo& draw,
                        const FrontEndOptions& options);

// run_front_end with a front end of its own, kept warm from call to call, for code that
// names no private type (the CLI): the draw split for a middle end with `limits`.
class FrontEndTimer {
  public:
    FrontEndTimer();
    ~FrontEndTimer();
    TimedDraw time(const DrawInfo& draw, const MiddleEndLimits& limits, const Strategy& strategy);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The indices the reorder strategy draws in place of `draw`'s, in vertex-cache order: the
// front end's own reorder_for_vertex_cache, for programs that include no private draw/
// header; false, `out` empty, where it draws as `exact` (or the build has no reorder strategy).
bool reorder_strategy_indices(const DrawInfo& draw, std::vector<uint32_t>& out);
// The widest raw index range the reorder strategy reorders (kReorderMaxRange).
extern const uint32_t kReorderIndexRange;

// Best (shortest) time of `reps` whole draws, after one warm-up draw.
TimedDraw best_front_end(const DrawInfo& draw, const FrontEndOptions& options, uint32_t reps);

// Proxy 1: copies `src` to `dst` (same size) once; returns seconds.
double proxy_memcpy(std::span<const std::byte> src, std::span<std::byte> dst);

// Proxy 2, the least traffic a splitter emitting fetch and draw elements can do: reads every
// u32 index and writes it as one u32 and one u16, into cache-resident 4096-entry blocks
// (a segment's lists). Returns seconds; `sink` receives a value that depends on the output.
double proxy_index_copy(std::span<const uint32_t> indices, uint64_t& sink);

// Best of `reps` runs of proxy_index_copy, in millions of indices per second.
double best_index_copy_mips(std::span<const uint32_t> indices, uint32_t reps);

// Best of `reps` 64 MiB memcpys, in GB/s (10^9 bytes copied per second).
double best_memcpy_gbps(uint32_t reps);

} // namespace drawpipe::workloads
