// drawpipe's pipeline stages (clip, cull, two-sided colour, offset, flatshade, unfilled, wide
// lines and points) over vertices a driver shaded itself, batch by batch: for a driver that
// keeps its own vertex stage (Mesa's compiled shaders, say) and its own backend, but wants the
// stages off its draw thread. A batch's records are VertexLayout's with window positions, its
// clip test's results beside them (ClipResults, ClipBits); what comes back is what Context
// would hand its backend for the same batch: point, line and triangle lists over the batch's
// records and the ones the stages made, appended after them.
//
// run() keeps nothing from one batch to the next and may be called from several threads at
// once, each batch on one thread. Line stipple's pattern restarts with every batch: exact
// where every primitive restarts it anyway (separate lines, triangles, strips and fans in
// polygon mode line); line strips and loops, and polygons, quads and quad strips in polygon
// mode line, whose pattern runs on from primitive to primitive, are an Error(unsupported)
// there, and go through an InOrder: one draw's batches in order, on one thread.
#pragma once

#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/raster_state.hpp"
#include "drawpipe/types.hpp"
#include "drawpipe/vertex_layout.hpp"

#include <boost/container/vector.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace drawpipe {

struct RasterPlan;

// What the stages made of one batch.
struct StagedLists {
    uint32_t vertex_count = 0; // records of the batch the lists use: its own, then new ones
    std::vector<StagedRange> ranges;
    boost::container::vector<uint32_t> elts; // StagedRange::first indexes this
    int64_t clip_delta = 0; // primitives clipping made minus those it dropped (statistics)
};

class PipelineStages {
  public:
    // Throws Error(invalid_value) naming the field for a state Context::set_raster_state
    // rejects.
    PipelineStages(const RasterState& state, const VertexLayout& layout, Provoking provoking);
    ~PipelineStages();
    PipelineStages(const PipelineStages&) = delete;
    PipelineStages& operator=(const PipelineStages&) = delete;

    // Viewport `index`'s transform as the driver computed it (window = ndc * scale +
    // translate), in place of the one RasterState's viewport gives: for an interface that
    // hands the transform itself (Gallium's pipe_viewport_state), so that the vertices
    // clipping makes land exactly where the driver's own clip test and viewport put the
    // others. Not while a batch runs.
    void set_viewport_transform(uint32_t index, const std::array<float, 3>& scale,
                                const std::array<float, 3>& translate);

    // Whether run() takes ranges of `prim`: false only for line stipple on primitives whose
    // pattern runs on (above).
    bool takes(Prim prim) const;

    // Runs the stages over the stream-0 ranges of `batch` (clip masks in `clip` when
    // clip.clip_or is not 0). New records are appended to batch.vertices (vertex_count stays
    // the driver's); `out` is overwritten. Throws Error(unsupported) for a stippled range
    // whose pattern runs on (above), before running anything.
    void run(ShadedBatch& batch, ClipResults& clip, StagedLists& out) const;

    // The batches of one draw in draw order, on one thread: the stipple pattern's place runs
    // on from each batch to the next, as in Context, so every primitive is taken (also those
    // takes() refuses). A new InOrder, or begin(), for each draw; run() as above otherwise.
    class InOrder {
      public:
        explicit InOrder(const PipelineStages& stages);
        ~InOrder();
        InOrder(const InOrder&) = delete;
        InOrder& operator=(const InOrder&) = delete;
        void begin(); // the next batch starts a draw: the pattern from its start
        void run(ShadedBatch& batch, ClipResults& clip, StagedLists& out);

      private:
        struct Impl;
        std::unique_ptr<Impl> impl_;
    };

  private:
    std::unique_ptr<RasterPlan> plan_;
    DrawInfo draw_; // the provoking vertex, for the stages
};

} // namespace drawpipe
