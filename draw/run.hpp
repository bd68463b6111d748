// The serial draw path: front end -> middle end -> backend on the calling thread.
// It is the one-thread reference the parallel pipeline (draw/context.hpp) must match.
#pragma once

#include "backends/backend.hpp"
#include "draw/front_end.hpp"
#include "draw/middle_end.hpp"

#include <array>

namespace drawpipe {

struct DrawStats {
    FrontEndStats front;
    std::array<uint64_t, kMaxCounters> counters{}; // the middle end's, summed over segments
};

class SplitCache; // draw/split_cache.hpp

struct RunOptions {
    Strategy strategy;
    uint32_t max_vertices = 0; // when nonzero, replaces the middle end's limit
    // When set, indexed draws whose DrawInfo::index_buffer_id is registered there replay
    // cached splits instead of splitting again.
    SplitCache* split_cache = nullptr;
};

// Prepares the middle end, splits the draw and hands every segment's output to the backend
// in draw order. Throws Error on bad input before the backend sees anything.
DrawStats run_draw(const DrawState& state, MiddleEnd& middle, Backend& backend,
                   const RunOptions& options = {});

// True when `draw` is served from options.split_cache.
bool uses_split_cache(const DrawInfo& draw, const RunOptions& options);

// The limits the front end will use: the middle end's, with options applied.
FrontEndOptions front_end_options(const MiddleEndLimits& limits, const RunOptions& options);

} // namespace drawpipe
