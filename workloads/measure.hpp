// Measuring the front end alone: a null middle end that consumes every element, the segment
// source of a prepared draw, and the two physical-limit proxies of docs/workloads.md, shared
// by the Google Benchmark binaries and `drawpipe bench` so both report the same figures.
#pragma once

#include "draw/internal/front_end.hpp"
#include "draw/internal/prepared_draw.hpp"
#include "drawpipe/serial.hpp"

#include <cstdint>
#include <span>

namespace drawpipe::workloads {

// Stands in for a middle end: sums every fetch and draw element it is handed (as Mesa's
// figures in docs/workloads.md were taken), so nothing the front end writes can be optimised away.
struct NullMiddleEnd {
    uint64_t sum = 0;
    void consume(const Segment& seg);
};

// One whole draw through the front end into the null middle end.
struct DrawRun {
    FrontEndStats stats;
    double seconds = 0;
    uint64_t checksum = 0; // the null middle end's sum; equal across strategies only by chance
};

// Splits `draw` once with `front` (kept warm across calls) and times it end to end,
// begin() included. Throws Error as FrontEnd::begin does.
DrawRun run_front_end(FrontEnd& front, SegmentStorage& storage, const DrawInfo& draw,
                      const FrontEndOptions& options);

// Best (shortest) time of `reps` whole draws, after one warm-up draw.
DrawRun best_front_end(const DrawInfo& draw, const FrontEndOptions& options, uint32_t reps);

// Draws as the pipeline's source stage hands out their segments, with nothing shaded: each
// draw prepared as Context::draw prepares it (prepare_draw: the checks, and with
// DrawOptions::split_cache the cache's lookup, a miss recording the split), then every
// segment read from a SegmentSource. Only the segments' headers are read, so the time is the
// front end's work or the cached split's replay. The front end stays warm across draws.
class SourceDraws {
  public:
    // Seconds for one whole draw. The middle end standing in accepts any segment limit up to
    // kMaxSegmentVertices. Throws Error as prepare_draw does.
    double time(const DrawInfo& draw, const DrawOptions& options);
    uint64_t checksum() const { return sum_; } // the segments' fetch and draw counts summed

  private:
    SegmentSource source_;
    SegmentStorage storage_;
    uint64_t sum_ = 0;
};

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
