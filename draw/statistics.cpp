#include "draw/internal/statistics.hpp"

#include "draw/internal/index_scan.hpp"
#include "draw/internal/prepared_draw.hpp"
#include "drawpipe/prim.hpp"

namespace drawpipe {

namespace {

// GL's primitives in a run of n positions, as llvmpipe counts them where GL leaves a choice:
// a quad strip's quads and a polygon as one (not their triangles).
uint64_t submitted_primitives(Prim prim, uint32_t n) {
    const uint32_t k = gl_prim_count(prim, n);
    return prim == Prim::polygon ? (k != 0) : k;
}

} // namespace

PipelineStatistics input_statistics(const DrawInfo& draw, const GeometryShader* gs) {
    PipelineStatistics s;
    auto run = [&](uint32_t n) {
        s.ia_vertices += trim_count(draw.prim, n);
        s.ia_primitives += submitted_primitives(draw.prim, n);
    };
    if (draw.primitive_restart && draw.index_type != IndexType::none) {
        with_indices(draw, [&](const auto* idx) {
            const uint32_t end = draw.start + draw.count;
            for (uint32_t b = draw.start; b < end;) {
                const uint32_t r = find_restart(idx, b, end, draw.restart_index);
                run(r - b);
                b = r + 1;
            }
        });
    } else {
        run(draw.count);
    }
    s.ia_vertices *= draw.instance_count;
    s.ia_primitives *= draw.instance_count;
    // Each input primitive runs the shader `invocations` times (GL; llvmpipe counts one).
    if (gs) s.gs_invocations = s.ia_primitives * gs->invocations;
    return s;
}

void add_pipeline_statistics(PipelineStatistics& s, const PreparedDraw& draw,
                             const FrontEndStats& front, const StreamOutputCounts& primitives,
                             int64_t clip_delta) {
    s.vs_invocations += front.shaded;
    if (draw.state.gs) {
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
