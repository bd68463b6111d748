// The front end: splits a draw into segments no larger than the middle end accepts.
//
// Restart runs are split independently; at each split the pieces overlap by what the
// primitive needs (strips repeat vertices and keep even triangle counts, fans and polygons
// repeat their centre, a line loop becomes strip pieces closed once at the real end).
// Indexed draws go through a dedup table that turns indices into fetch elements (vertex
// ids to fetch once per segment) and draw elements (u16 positions into the fetched set);
// the strategy chooses how. How it is done: docs/front-end.md.
#pragma once

#include "draw/front_end/split_linear.hpp"
#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/segment.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/strategy.hpp"
#include "drawpipe/types.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drawpipe {

// A draw is cut into chunks of index positions (the last one shorter), each split on its own
// so that any thread can split any chunk; a primitive belongs to the chunk that holds its
// first position (triangle strips: rounded to an even primitive, for parity). The sizes
// below: docs/front-end.md, "Chunks for threads".
inline constexpr uint32_t kChunkPositions = uint32_t(1) << 19; // at most
// Segments' worth of positions per chunk: the lookup bypass's period.
inline constexpr uint32_t kSegmentsPerChunk = 8;
// kSegmentsPerChunk segments' worth of the vertex limit, at least 4092 positions per segment,
// a multiple of 12 (whole segments of any list without reuse), at most kChunkPositions: a
// function of the limits only, never of the thread count, so every path cuts a draw alike.
inline uint32_t default_chunk_positions(uint32_t max_vertices) {
    uint32_t per = std::clamp<uint32_t>(
        max_vertices, 4096, std::min(kMaxSegmentVertices, kChunkPositions / kSegmentsPerChunk));
    per -= per % 12;
    return per * kSegmentsPerChunk;
}

struct FrontEndOptions {
    MiddleEndLimits limits;
    Strategy strategy;
    // The chunk size; 0: default_chunk_positions(limits.max_vertices). Tests cut small draws into
    // many.
    uint32_t chunk_positions = 0;
};

// The chunk size a draw split at `max_vertices` is cut with, `chunk_positions` asked (0: the
// default).
inline uint32_t chunk_size(uint32_t chunk_positions, uint32_t max_vertices) {
    return chunk_positions != 0 ? chunk_positions : default_chunk_positions(max_vertices);
}
inline uint32_t chunk_size(const FrontEndOptions& options) {
    return chunk_size(options.chunk_positions, options.limits.max_vertices);
}

// Where the restart runs of a draw with primitive restart cross its chunks, found once per
// draw (find_restart_chunks) so that a chunk is split without reading the indices before it.
struct RestartChunks {
    std::vector<uint32_t> run_begin;    // first position of the run open at the chunk's start
    std::vector<uint32_t> prim_base;    // GL primitives of the runs before that one
    std::vector<uint32_t> next_restart; // first restart at or after the chunk's start, or end
    // Per chunk, filled by the parallel scan: first and last restart, GL primitives between.
    std::vector<uint32_t> first, last, inner;
};

class FrontEnd {
  public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(FrontEnd&&) noexcept;
    FrontEnd& operator=(FrontEnd&&) noexcept;

    // Prepares to split the draw, which must have passed validate_draw, check_split and
    // check_indices (draw/context/validate.hpp): nothing is checked here. The draw's index buffer
    // must stay valid while its segments are in use: a segment's fetch list may be the u32
    // buffer's own indices. Allocates nothing once a draw of the same shape has been split
    // (the reorder strategy excepted: it reorders a copy).
    void begin(const DrawInfo& draw, const FrontEndOptions& options);
    // Prepares to split only chunk `chunk` of instance pass `pass` of a draw of more than one
    // chunk (chunk_count), exactly as begin() splits it there. `restarts` is the draw's
    // find_restart_chunks when it has primitive restart, else unused (may be null). With
    // restart and no table, this front end must have split chunk `chunk - 1` of the same
    // pass to its end just before: it carries the run open across the cut, as begin() does.
    void begin_chunk(const DrawInfo& draw, const FrontEndOptions& options,
                     const RestartChunks* restarts, uint32_t pass, uint32_t chunk);
    // Chunks per instance pass: 1 for a draw that fits one chunk, for strategies that are
    // sequential over the whole draw (reorder reorders the whole buffer; vsplit reproduces
    // Mesa's segments exactly, which chunk boundaries would move), and for non-indexed lists
    // and strips (their segments are O(1) each in closed form).
    static uint32_t chunk_count(const DrawInfo& draw, const FrontEndOptions& options);
    // Instance passes of a draw of more than one chunk (never one segment: InstanceOrder).
    static uint32_t chunk_passes(const DrawInfo& draw, const FrontEndOptions& options);
    // Fills `out` for a draw of `chunks` chunks with primitive restart: each chunk's restarts
    // scanned independently (with tbb::parallel_for when `parallel`, from inside the caller's
    // arena), then an O(chunks) prefix. The result does not depend on `parallel`.
    static void find_restart_chunks(const DrawInfo& draw, const FrontEndOptions& options,
                                    uint32_t chunks, RestartChunks& out, bool parallel);
    // Writes the next segment, in draw order, with its lists in `storage` (grown as needed
    // on first use only). Returns false when the draw is done. Pass the same `seg` unchanged
    // from call to call, or another object: a run's closed-form segments rewrite only the
    // fields that change when `seg` is the object the previous call wrote.
    bool next(SegmentStorage& storage, Segment& seg) {
        if (closed_.active) [[likely]] {
            closed_.next(seg);
            return true;
        }
        return next_split(storage, seg);
    }
    // Hands every segment left in the draw, in order, to `consume(const Segment&)`, written
    // into `seg`: next() in a loop, except that a run's closed-form segments are written from
    // registers, as Mesa's vsplit calls its middle end, instead of from state kept in memory.
    template <class Consume> void drain(SegmentStorage& storage, Segment& seg, Consume&& consume) {
        for (;;) {
            if (closed_.active) {
                closed_.drain(seg, consume);
                continue;
            }
            if (!next_split(storage, seg)) return;
            consume(static_cast<const Segment&>(seg));
        }
    }
    // Totals since begin(), complete once the draw is done (a run's closed-form segments are
    // counted when the run's first segment is written).
    const FrontEndStats& stats() const { return stats_; }

  private:
    bool next_split(SegmentStorage& storage, Segment& seg);
    void write_range_draw(SegmentStorage& storage, Segment& seg);
    void setup(const DrawInfo& draw, const FrontEndOptions& options);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    detail::LinearRun closed_; // a non-indexed run's segments after its first, in closed form
    FrontEndStats stats_;
};

} // namespace drawpipe
