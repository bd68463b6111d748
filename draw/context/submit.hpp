// Hands a middle end's batch to the backend: the one place draw/ calls draw_elements.
#pragma once

#include "drawpipe/backend.hpp"

namespace drawpipe {

// Hands one middle-end batch to a backend, range by range, stream 0 only (no stream output).
inline void submit_batch(Backend& backend, const ShadedBatch& batch, const VertexLayout& layout) {
    const VertexView view{batch.vertices.data(), batch.vertex_count, layout.stride()};
    for (const PrimRange& r : batch.prims)
        if (r.stream == 0) // the other vertex streams only feed stream output
            backend.draw_elements(r.prim, r.flags, view, batch.elts_of(r));
}

} // namespace drawpipe
