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
    uint64_t shaded = 0;  // fetched times the instances of each segment: vertex shader runs
    // Input assembly (pipeline statistics): per instance and restart run, the vertices of its
    // whole primitives and its GL primitives, counted at the run's first segment.
    uint64_t ia_vertices = 0, ia_primitives = 0;

    FrontEndStats& operator+=(const FrontEndStats& o) {
        segments += o.segments;
        indices += o.indices;
        fetched += o.fetched;
        shaded += o.shaded;
        ia_vertices += o.ia_vertices;
        ia_primitives += o.ia_primitives;
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

// ARB_pipeline_statistics_query / Vulkan's pipeline statistics: the counts the draw module
// owns (docs/pipeline-stages.md, "Pipeline statistics", gives each one's rule). Input assembly
// and the geometry shader's counts are GL's; vertex shader invocations are the vertices the
// split hands the middle end (they depend on the strategy and the vertex limit, never on the
// thread count); the clipper's count points, lines and triangles going in and coming out
// while a raster state is bound and rasterizer discard is off.
struct PipelineStatistics {
    uint64_t ia_vertices = 0;      // GL_VERTICES_SUBMITTED
    uint64_t ia_primitives = 0;    // GL_PRIMITIVES_SUBMITTED
    uint64_t vs_invocations = 0;   // GL_VERTEX_SHADER_INVOCATIONS
    uint64_t gs_invocations = 0;   // GL_GEOMETRY_SHADER_INVOCATIONS
    uint64_t gs_primitives = 0;    // GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED
    uint64_t clip_invocations = 0; // GL_CLIPPING_INPUT_PRIMITIVES
    uint64_t clip_primitives = 0;  // GL_CLIPPING_OUTPUT_PRIMITIVES

    PipelineStatistics& operator+=(const PipelineStatistics& o) {
        ia_vertices += o.ia_vertices;
        ia_primitives += o.ia_primitives;
        vs_invocations += o.vs_invocations;
        gs_invocations += o.gs_invocations;
        gs_primitives += o.gs_primitives;
        clip_invocations += o.clip_invocations;
        clip_primitives += o.clip_primitives;
        return *this;
    }
    bool operator==(const PipelineStatistics&) const = default;
};

// Adds the middle end's per-segment counters `from` into `to`, counter by counter: how a
// batch's counters reach its draw's and a draw's reach the flush's.
inline void add_counters(std::array<uint64_t, kMaxCounters>& to,
                         const std::array<uint64_t, kMaxCounters>& from) {
    for (uint32_t i = 0; i < kMaxCounters; ++i) to[i] += from[i];
}

struct DrawStats {
    FrontEndStats front;
    // The middle end's per-segment counters (MiddleEnd::counters() names them), summed.
    std::array<uint64_t, kMaxCounters> counters{};
    // Primitives generated (always counted) and written (while stream output is active).
    StreamOutputCounts primitives;
    PipelineStatistics statistics;

    DrawStats& operator+=(const DrawStats& o) {
        front += o.front;
        primitives += o.primitives;
        statistics += o.statistics;
        add_counters(counters, o.counters);
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
