// Chunks: a large draw cut into ranges of index positions (the last one shorter), each split
// on its own so that any thread can split any chunk. A primitive belongs to the chunk that
// holds its first position (triangle strips: rounded to an even primitive, for parity). The
// pipeline's source hands out (pass, chunk) descriptions and each shading thread starts its
// own FrontEnd on one with begin_chunk. The sizes: docs/front-end.md, "Chunks for threads".
#pragma once

#include "draw/front_end/front_end.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/types.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace drawpipe {

inline constexpr uint32_t kChunkPositions = uint32_t(1) << 19; // positions per chunk, at most
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

// The chunk size a draw split at `max_vertices` is cut with, `chunk_positions` asked (0: the
// default).
inline uint32_t chunk_size(uint32_t chunk_positions, uint32_t max_vertices) {
    return chunk_positions != 0 ? chunk_positions : default_chunk_positions(max_vertices);
}
inline uint32_t chunk_size(const FrontEndOptions& options) {
    return chunk_size(options.chunk_positions, options.limits.max_vertices);
}

// Chunks per instance pass: 1 for a draw that fits one chunk, for strategies that are
// sequential over the whole draw (reorder reorders the whole buffer; vsplit reproduces Mesa's
// segments exactly, which chunk boundaries would move), and for non-indexed lists and strips
// (their segments are O(1) each in closed form).
uint32_t chunk_count(const DrawInfo& draw, const FrontEndOptions& options);
// Instance passes of a draw of more than one chunk (never one segment: InstanceOrder).
uint32_t chunk_passes(const DrawInfo& draw, const FrontEndOptions& options);

// Where the restart runs of a draw with primitive restart cross its chunks, found once per
// draw (find_restart_chunks) so that a chunk is split without reading the indices before it.
struct RestartChunks {
    std::vector<uint32_t> run_begin;    // first position of the run open at the chunk's start
    std::vector<uint32_t> prim_base;    // GL primitives of the runs before that one
    std::vector<uint32_t> next_restart; // first restart at or after the chunk's start, or end
    // Per chunk, filled by the parallel scan: first and last restart, GL primitives between.
    std::vector<uint32_t> first, last, inner;
};

// Fills `out` for a draw of `chunks` chunks with primitive restart: each chunk's restarts
// scanned independently (with tbb::parallel_for when `parallel`, from inside the caller's
// arena), then an O(chunks) prefix. The result does not depend on `parallel`.
void find_restart_chunks(const DrawInfo& draw, const FrontEndOptions& options, uint32_t chunks,
                         RestartChunks& out, bool parallel);

// Prepares `front` to split only chunk `chunk` of instance pass `pass` of a draw of more than
// one chunk (chunk_count), exactly as FrontEnd::begin splits it there; then FrontEnd::next
// hands out its segments. `restarts` is the draw's find_restart_chunks when it has primitive
// restart, else unused (may be null). With restart and no table, `front` must have split chunk
// `chunk - 1` of the same pass to its end just before: it carries the run open across the
// cut, as begin() does. Defined with the state machine it starts (front_end.cpp).
void begin_chunk(FrontEnd& front, const DrawInfo& draw, const FrontEndOptions& options,
                 const RestartChunks* restarts, uint32_t pass, uint32_t chunk);

} // namespace drawpipe
