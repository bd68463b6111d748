// Runs a draw description through the serial draw path into the trace backend.
#pragma once

#include "drawpipe/backends/trace.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/extend/serial.hpp"
#include "support/tess_util.hpp"
#include "tools/common/draw_text.hpp"

#include <string>

namespace drawpipe::test {

inline std::string trace_with(const DrawDesc& desc, const MiddleEnd& middle,
                              uint32_t max_vertices = 0, Strategy strategy = {}) {
    const auto bound = bind_draw(desc);
    DrawState state{bound->info, bound->input(), nullptr, nullptr};
    // Patches are drawn through an evaluation shader that shows their vertices.
    const TessEvalShader tes = patch_ids_tes(desc.patch_vertices);
    if (desc.prim == Prim::patches) state.tes = &tes;
    TraceBackend trace;
    draw_serial(state, middle, trace, {strategy, max_vertices});
    return trace.take();
}

inline std::string trace_of(const DrawDesc& desc, uint32_t max_vertices = 0,
                            Strategy strategy = {}) {
    FetchShade middle(65536);
    return trace_with(desc, middle, max_vertices, strategy);
}

inline std::string trace_of_text(std::string_view text, uint32_t max_vertices = 0) {
    return trace_of(parse_draw_text(text), max_vertices);
}

} // namespace drawpipe::test
