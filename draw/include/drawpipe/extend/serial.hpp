// The serial draw path: front end -> middle end -> backend on the calling thread. It is the
// one-thread reference the parallel pipeline of drawpipe/context.hpp must match, and what
// tools and tests use to draw one description.
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/draw_options.hpp"
#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/stats.hpp"

#include <span>

namespace drawpipe {

class StreamOutput; // drawpipe/stream_output.hpp
class Stage;        // drawpipe/extend/stage.hpp
struct RasterState; // drawpipe/raster_state.hpp

// What follows the middle end, in draw order, besides the backend.
struct OutputOptions {
    // Captures the draw while its session is active; null: nothing is captured (the
    // primitives generated are counted all the same).
    StreamOutput* stream_output = nullptr;
    // GL_RASTERIZER_DISCARD: nothing after stream output runs, the backend receives nothing.
    bool rasterizer_discard = false;
    // Clipping, viewport and the pipeline stages (drawpipe/raster_state.hpp); null: the
    // backend receives clip-space positions and no stage runs.
    const RasterState* raster = nullptr;
    // A driver's own stages, run in order after the built-in ones, before the backend.
    std::span<Stage* const> stages = {};
};

// Checks a draw as Context::draw and draw_serial check it before drawing (the draw, the
// vertex input, the shaders, the middle end's prepare(), the split limits and cache, base
// vertex against the indices), and draws nothing. Stream output and the raster state are
// checked where they are bound. Throws the Error drawing would.
void check_draw(const DrawState& state, const MiddleEnd& middle, const DrawOptions& options = {});

// Validates and prepares the draw, splits it and hands every segment's output to the
// backend in draw order. Throws Error on bad input before the backend sees anything.
DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options = {});
// The same, through stream output (drawpipe/stream_output.hpp) and rasterizer discard.
DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options, const OutputOptions& output);
// A multi-draw on the calling thread, as Context::draw(span) draws it: draws[i] with the
// bound state of `state` (its own draw ignored) and draw_id i, each checked before any is
// drawn (an Error names the first bad one, "draw 3: ..."). The statistics are summed.
DrawStats draw_serial(const DrawState& state, std::span<const DrawInfo> draws,
                      const MiddleEnd& middle, Backend& backend, const DrawOptions& options = {},
                      const OutputOptions& output = {});

} // namespace drawpipe
