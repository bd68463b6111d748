// The serial draw path: front end -> middle end -> backend on the calling thread. It is the
// one-thread reference the parallel pipeline of drawpipe/context.hpp must match, and what
// tools and tests use to draw one description.
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/middle_end.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/strategy.hpp"

namespace drawpipe {

class SplitCache; // drawpipe/split_cache.hpp

struct DrawOptions {
    Strategy strategy;
    uint32_t max_vertices = 0; // when nonzero, replaces the middle end's limit
    // When set, indexed draws whose DrawInfo::index_buffer_id is registered there replay
    // cached splits instead of splitting again.
    SplitCache* split_cache = nullptr;
};

// Validates and prepares the draw, splits it and hands every segment's output to the
// backend in draw order. Throws Error on bad input before the backend sees anything.
DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options = {});

} // namespace drawpipe
