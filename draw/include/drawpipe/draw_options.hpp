// How a context (ContextOptions::draw) or draw_serial splits and checks its draws.
#pragma once

#include "drawpipe/strategy.hpp"

#include <cstdint>

namespace drawpipe {

class SplitCache; // drawpipe/split_cache.hpp

struct DrawOptions {
    Strategy strategy;
    uint32_t max_vertices = 0; // when nonzero, replaces the middle end's limit
    // When set, indexed draws whose DrawInfo::index_buffer_id is registered there replay
    // cached splits instead of splitting again.
    SplitCache* split_cache = nullptr;
    // Index positions per front-end chunk when nonzero (else 8 segments' worth of the vertex
    // limit, at least 32,736): tests cut small draws into many chunks with it, and a driver
    // whose threads split chunks apart (DrawSegments::chunks) cuts medium draws finer. Every
    // path splits a draw with the same value alike.
    uint32_t chunk_positions = 0;
    // Check what the middle end hands back for every segment (element indices, vertex and
    // primitive counts, its layout): a broken model is then Error(middle_end_failure) naming
    // it, the draw and the segment, never a crash. About 2 % of a draw (bench/README.md).
    bool check_middle_end = true;
    // Robust index access (Vulkan's robustBufferAccess2, a GL robust context): an index
    // position past the index buffer reads as index 0, in every draw, multi-draw and indirect
    // record, as llvmpipe draws it. Off, such a draw is Error(index_buffer_overrun).
    bool robust_indices = false;
};

} // namespace drawpipe
