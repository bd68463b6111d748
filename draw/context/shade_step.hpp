// The per-segment step, on whichever thread runs it: the middle end shades the segment, then,
// as far as this draw lets them run out of order, the clip test and viewport, the pipeline
// stages and the hand-over to a backend that takes parallel batches. The pipeline's parallel
// stage and draw_serial both call shade_step, so their output cannot differ.
#pragma once

#include "draw/context/prepared_draw.hpp"
#include "draw/shade/check_batch.hpp"
#include "draw/shade/draw_batch.hpp"
#include "draw/shade/raster_plan.hpp"
#include "draw/stages/backend_calls.hpp"
#include "drawpipe/extend/shaded.hpp"

namespace drawpipe {

// Hands a shaded (and, where the stages ran on its thread, staged) batch's stream-0
// primitives to the backend: the staged ranges, else the batch's own ranges.
inline void deliver_batch(BackendCalls& calls, const DrawBatch& batch, uint32_t stride) {
    calls.begin_batch(batch.sequence);
    const ShadedBatch& shaded = batch.shaded;
    if (batch.staged) {
        const VertexView view{shaded.vertices.data(), batch.staged_vertex_count, stride};
        for (const StagedRange& r : batch.staged_ranges)
            calls(r.prim, 0, view, {batch.staged_elts.data() + r.first, r.count});
        return;
    }
    const VertexView view{shaded.vertices.data(), shaded.vertex_count, stride};
    for (const PrimRange& r : shaded.prims)
        if (r.stream == 0) calls(r.prim, r.flags, view, shaded.elts_of(r));
}

// Runs the draw's pipeline stages over every stream-0 range of `batch` on this thread (a chain
// per thread), leaving what the backend is to receive in the batch (DrawBatch::staged).
// Nothing to do for a batch that needs no stage.
void stage_batch(const PreparedDraw& draw, DrawBatch& batch);

// The shade step of one segment into `batch` (cleared first), on whichever thread runs it:
// the middle end, then the per-vertex clip test and viewport, unless stream output must first
// capture the shader's positions (then the sink runs them), then the pipeline stages when
// they are order-free. Where the draw allows it (PreparedDraw::post_in_middle_end), the middle
// end is asked to do the per-vertex step in its own pass (MiddleEndDraw::shade_post).
inline void shade_step(const PreparedDraw& draw, const Segment& source_seg,
                       MiddleEndScratch* scratch, DrawBatch& batch) {
    batch.clear();
    const RasterPlan* r = draw.raster && draw.raster->parallel ? draw.raster.get() : nullptr;
    // The draw id is set here, the one place every segment passes, rather than by each
    // source: the front end, the split cache and closed-form runs then need not know it.
    Segment seg = source_seg;
    seg.draw_id = draw.state.draw.draw_id;
    const bool post_done =
        draw.post_in_middle_end
            ? draw.middle->shade_post(seg, scratch, batch.shaded, *draw.raster, batch.clip)
            : (draw.middle->shade(seg, scratch, batch.shaded), false);
    if (draw.check_batches)
        check_batch(batch.shaded, draw.middle->layout().stride(),
                    {draw.middle_name, draw.ordinal, seg.sequence});
    batch.sequence = seg.sequence;
    if (r && !post_done) post_shade(*r, batch.shaded, batch.clip);
    if (draw.stages_in_shade) stage_batch(draw, batch);
    if (draw.parallel_backend) {
        BackendCalls calls(*draw.parallel_backend);
        calls.begin_draw(draw.state.draw, draw.ordinal);
        deliver_batch(calls, batch, draw.middle->layout().stride());
        batch.delivered = true;
    }
}

} // namespace drawpipe
