// Runs a draw description with its library vertex and geometry shaders (`vs`, `gs` keys) through
// the serial draw path into the trace backend.
#pragma once

#include "drawpipe/backends/trace.hpp"
#include "drawpipe/extend/serial.hpp"
#include "tools/common/draw_text.hpp"
#include "tools/common/gs_library.hpp"
#include "tools/common/vs_library.hpp"

#include <string>

namespace drawpipe::test {

inline std::string gs_trace_with(const DrawDesc& desc, const MiddleEnd& middle,
                                 uint32_t max_vertices = 0, Strategy strategy = {},
                                 DrawStats* stats = nullptr) {
    const auto bound = bind_draw(desc);
    DrawState state{bound->info, bound->input(), desc.vs.empty() ? nullptr : &find_vs(desc.vs),
                    desc.gs.empty() ? nullptr : &find_gs(desc.gs)};
    TraceBackend trace;
    const DrawStats s = draw_serial(state, middle, trace, {strategy, max_vertices});
    if (stats) *stats = s;
    return trace.take();
}

} // namespace drawpipe::test
