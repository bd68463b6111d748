// Runs a draw description through the serial draw path into the trace backend.
#pragma once

#include "backends/trace.hpp"
#include "draw/draw_text.hpp"
#include "draw/run.hpp"
#include "middle_ends/fetch_shade/fetch_shade.hpp"

#include <string>

namespace drawpipe::test {

inline std::string trace_with(const DrawDesc& desc, MiddleEnd& middle, uint32_t max_vertices = 0,
                              Strategy strategy = {}) {
    const auto bound = bind_draw(desc);
    DrawState state{&bound->info, bound->input(), nullptr, nullptr};
    TraceBackend trace;
    run_draw(state, middle, trace, {strategy, max_vertices});
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
