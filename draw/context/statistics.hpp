// Pipeline statistics (drawpipe/stats.hpp): what a flush's totals give (the front end counts
// input assembly itself, draw/front_end/submitted_count.hpp).
#pragma once

#include "draw/front_end/submitted_count.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/types.hpp"

#include <cstdint>

namespace drawpipe {

struct PreparedDraw;

// Adds what the pipeline counted for a flush of draws sharing `draw`'s state: input assembly
// (front.ia_*), vertex shader runs (front.shaded), geometry shader invocations (ia_primitives
// times GeometryShader::invocations), the geometry shader's primitives on the streams processed
// further (stream 0, and the others stream output captures) and, with a raster state in use, the
// clipper's primitives in and out (`clip_delta`: made minus dropped by the clip stage).
void add_pipeline_statistics(PipelineStatistics& s, const PreparedDraw& draw,
                             const FrontEndStats& front, const StreamOutputCounts& primitives,
                             int64_t clip_delta);

} // namespace drawpipe
