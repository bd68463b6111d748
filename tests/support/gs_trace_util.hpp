// Runs a draw description with a library geometry shader (its `gs` key) through the serial
// draw path into the trace backend.
#pragma once

#include "backends/trace.hpp"
#include "draw/draw_text.hpp"
#include "draw/gs_library.hpp"
#include "draw/run.hpp"

#include <string>

namespace drawpipe::test {

inline std::string gs_trace_with(const DrawDesc& desc, MiddleEnd& middle, uint32_t max_vertices = 0,
                                 Strategy strategy = {}, DrawStats* stats = nullptr) {
    const auto bound = bind_draw(desc);
    DrawState state{&bound->info, bound->input(), nullptr,
                    desc.gs.empty() ? nullptr : &find_gs(desc.gs)};
    TraceBackend trace;
    const DrawStats s = run_draw(state, middle, trace, {strategy, max_vertices});
    if (stats) *stats = s;
    return trace.take();
}

} // namespace drawpipe::test
