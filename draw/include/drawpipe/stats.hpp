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

// Vertex streams a geometry shader may emit to (GL_MAX_VERTEX_STREAMS).
inline constexpr uint32_t kMaxVertexStreams = 4;

// GL's queries per vertex stream: GL_PRIMITIVES_GENERATED (decomposed points, lines and
// triangles the last vertex stage produced) and GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
// (those stream output wrote whole into its buffers).
struct StreamOutputCounts {
    std::array<uint64_t, kMaxVertexStreams> generated{};
    std::array<uint64_t, kMaxVertexStreams> written{};

    StreamOutputCounts& operator+=(const StreamOutputCounts& o) {
        for (uint32_t s = 0; s < kMaxVertexStreams; ++s) {
            generated[s] += o.generated[s];
            written[s] += o.written[s];
        }
        return *this;
    }
};

struct DrawStats {
    FrontEndStats front;
    // The middle end's per-segment counters (MiddleEnd::counters() names them), summed.
    std::array<uint64_t, kMaxCounters> counters{};
    // Primitives generated (always counted) and written (while stream output is active).
    StreamOutputCounts primitives;

    DrawStats& operator+=(const DrawStats& o) {
        front += o.front;
        primitives += o.primitives;
        for (uint32_t i = 0; i < kMaxCounters; ++i) counters[i] += o.counters[i];
        return *this;
    }
};

// What a context did, for tests and tuning.
struct ContextCounters {
    uint64_t draws = 0;             // draws delivered to the backend
    uint64_t inline_flushes = 0;    // flushes delivered on the calling thread
    uint64_t pipeline_launches = 0; // tbb::parallel_pipeline invocations
    uint64_t tokens = 0;            // pipeline tokens (each one or more segments)
};

} // namespace drawpipe
