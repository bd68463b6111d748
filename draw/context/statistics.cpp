#include "draw/context/statistics.hpp"

#include "draw/context/prepared_draw.hpp"
#include "drawpipe/gs.hpp"

namespace drawpipe {

void add_pipeline_statistics(PipelineStatistics& s, const PreparedDraw& draw,
                             const FrontEndStats& front, const StreamOutputCounts& primitives,
                             int64_t clip_delta) {
    s.ia_vertices += front.ia_vertices;
    s.ia_primitives += front.ia_primitives;
    s.vs_invocations += front.shaded;
    if (draw.state.gs) {
        // Each input primitive runs the shader `invocations` times (GL; llvmpipe counts one).
        s.gs_invocations += front.ia_primitives * draw.state.gs->invocations;
        s.gs_primitives += primitives.generated[0];
        if (draw.stream_output)
            for (uint32_t st = 1; st < kMaxVertexStreams; ++st)
                if (draw.stream_output->buffer_mask[st] != 0)
                    s.gs_primitives += primitives.generated[st];
    }
    if (draw.raster) {
        s.clip_invocations += primitives.generated[0];
        s.clip_primitives += uint64_t(int64_t(primitives.generated[0]) + clip_delta);
    }
}

} // namespace drawpipe
