// Pipeline statistics (drawpipe/stats.hpp): the counts a draw's input fixes, found when it is
// prepared, and those the pipeline gathers, added when its flush ends.
#pragma once

#include "drawpipe/gs.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/types.hpp"

#include <cstdint>

namespace drawpipe {

struct PreparedDraw;

// Input assembly's vertices and primitives and the geometry shader's invocations of one draw:
// per instance and restart run, the vertices of its whole primitives (adjacency vertices too)
// and its primitives, a quad strip's quads, a polygon as one. With primitive restart on, one
// pass over the draw's indices finds the runs.
PipelineStatistics input_statistics(const DrawInfo& draw, const GeometryShader* gs);

// Adds what the pipeline counted for a flush of draws sharing `draw`'s state: vertex shader
// runs (front.shaded), the geometry shader's primitives on the streams processed further
// (stream 0, and the others stream output captures) and, with a raster state in use, the
// clipper's primitives in and out (`clip_delta`: made minus dropped by the clip stage).
void add_pipeline_statistics(PipelineStatistics& s, const PreparedDraw& draw,
                             const FrontEndStats& front, const StreamOutputCounts& primitives,
                             int64_t clip_delta);

} // namespace drawpipe
