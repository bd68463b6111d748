// Pipeline statistics (drawpipe/stats.hpp): what the front end counts per restart run, and
// the statistics a flush's totals give.
#pragma once

#include "drawpipe/prim.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/types.hpp"

#include <cstdint>

namespace drawpipe {

struct PreparedDraw;

// GL_PRIMITIVES_SUBMITTED of a run of n vertices, as llvmpipe counts where GL lets an
// implementation choose: a quad strip's quads and a polygon as one primitive, not their
// triangles, and a patch as one primitive (count / vertices_per_patch), not its control points.
// With trim_count(prim, n), GL_VERTICES_SUBMITTED of the run (the front end counts both at each
// run's first segment, FrontEndStats::ia_vertices).
inline uint64_t submitted_prim_count(Prim prim, uint32_t n, uint32_t patch_vertices = 1) {
    const uint32_t k = gl_prim_count(prim, n, patch_vertices);
    return prim == Prim::polygon ? (k != 0) : k;
}

// Adds what the pipeline counted for a flush of draws sharing `draw`'s state: input assembly
// (front.ia_*), vertex shader runs (front.shaded), geometry shader invocations (ia_primitives
// times GeometryShader::invocations), the geometry shader's primitives on the streams processed
// further (stream 0, and the others stream output captures) and, with a raster state in use, the
// clipper's primitives in and out (`clip_delta`: made minus dropped by the clip stage).
void add_pipeline_statistics(PipelineStatistics& s, const PreparedDraw& draw,
                             const FrontEndStats& front, const StreamOutputCounts& primitives,
                             int64_t clip_delta);

} // namespace drawpipe
