// What a draw cost: the front end's totals and the middle end's counters, summed with +=.
#pragma once

#include "drawpipe/limits.hpp"

#include <array>
#include <cstdint>

namespace drawpipe {

struct FrontEndStats {
    uint64_t segments = 0;
    uint64_t indices = 0; // draw elements handed on (positions drawn)
    uint64_t fetched = 0; // vertices the middle end must fetch and shade

    FrontEndStats& operator+=(const FrontEndStats& o) {
        segments += o.segments;
        indices += o.indices;
        fetched += o.fetched;
        return *this;
    }
};

struct DrawStats {
    FrontEndStats front;
    // The middle end's per-segment counters (MiddleEnd::counters() names them), summed.
    std::array<uint64_t, kMaxCounters> counters{};

    DrawStats& operator+=(const DrawStats& o) {
        front += o.front;
        for (uint32_t i = 0; i < kMaxCounters; ++i) counters[i] += o.counters[i];
        return *this;
    }
};

// What a context did, for tests and tuning.
struct ContextCounters {
    uint64_t draws = 0;            // draws delivered to the backend
    uint64_t inline_flushes = 0;   // flushes delivered on the calling thread
    uint64_t pipeline_launches = 0; // tbb::parallel_pipeline invocations
    uint64_t tokens = 0;           // pipeline tokens (each one or more segments)
};

} // namespace drawpipe
