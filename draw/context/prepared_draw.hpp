// A draw as it waits in a queue: validated once, when it was queued, and immutable since.
// One SegmentSource turns it into segments, from the front end or from a cached split.
#pragma once

#include "draw/context/validate.hpp"
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/split_replay.hpp"
#include "draw/shade/raster_plan.hpp"
#include "drawpipe/backend.hpp"
#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/stream_output.hpp"

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace drawpipe {

struct PreparedDraw {
    DrawState state;                             // state.draw has passed every check
    std::shared_ptr<const MiddleEndDraw> middle; // the middle end prepared for it
    FrontEndOptions split;                       // the limits and strategy it is split with
    std::shared_ptr<const SplitEntry> cached;    // its recorded split, when the cache serves it
    // The bound stream output resolved for this draw's vertices; null when none is bound.
    std::shared_ptr<const StreamOutputPlan> stream_output;
    // The bound RasterState resolved for it; null when none is bound (or rasterizer discard
    // is on): positions then reach the backend in clip space and no stage runs.
    std::shared_ptr<const RasterPlan> raster;
    // The pipeline stages run on the shading threads, batch by batch: nothing in the chain
    // depends on an earlier batch (prepare_draw decides).
    bool stages_in_shade = false;
    // The middle end is asked to run the per-vertex step (the raster plan's clip test and
    // viewport) in its shading pass: the step runs on the shading threads and places each
    // vertex in viewport 0.
    bool post_in_middle_end = false;
    // The driver's stages when they run on the shading threads: each thread clones them once
    // per set (draw/stages/stage_chain.cpp). Null when there are none or they run in order.
    struct DriverStages {
        uint64_t id = 0; // unique to this set, never reused
        std::vector<Stage*> stages;
    };
    std::shared_ptr<const DriverStages> driver_stages = nullptr;
    // The draw's place among its context's draws (BatchOrder::draw).
    uint64_t ordinal = 0;
    // With DrawOptions::robust_indices, the zero-padded indices state.draw reads when its own
    // reach past its index buffer (robust_indices.hpp); null otherwise.
    std::shared_ptr<const std::vector<std::byte>> robust_copy;
    // DrawOptions::check_middle_end, and the middle end's name for the errors it gives.
    bool check_batches = false;
    std::string_view middle_name{};
    // The bound backend when it takes parallel batches and this draw's output needs nothing
    // ordered: the shading threads then hand it each batch.
    Backend* parallel_backend = nullptr;

    // Vertices times instances, times the middle end's work per vertex: how much work the
    // draw is, for queue and token sizing.
    uint64_t work() const {
        return uint64_t(state.draw.count) * state.draw.instance_count *
               split.limits.work_per_vertex;
    }
};

// Checks `state` against `middle`, `options` and the output bound with it, and prepares the
// whole draw: the middle end's draw, the split, the stream-output and raster plans, the stage
// set and, with a `backend`, how batches reach it. Every check a draw gets happens here,
// once; the middle end's prepare() receives a validated state. Throws Error naming the field.
// Without `out` and `backend` (DrawSegments, check_draw) only the front end's half is used.
PreparedDraw prepare_draw(const DrawState& state, const MiddleEnd& middle,
                          const DrawOptions& options, const OutputOptions& out = {},
                          Backend* backend = nullptr);

// The vertex limit a draw with `options` is split at: a forced DrawOptions::max_vertices,
// else the middle end's (split_options refuses a forced one above the middle end's).
inline uint32_t split_limit(const MiddleEndLimits& limits, const DrawOptions& options) {
    return options.max_vertices != 0 ? options.max_vertices : limits.max_vertices;
}

// The same for the front end alone (no middle end, `middle` null): the draw split for a
// middle end with `limits`, checked as prepare_draw checks the draw's own fields, the split
// limits and its indices. `name` stands for the middle end in errors.
PreparedDraw prepare_split(const DrawInfo& draw, const MiddleEndLimits& limits,
                           const DrawOptions& options, std::string_view name);
// prepare_split into `p`, which a caller reuses from draw to draw (DrawSegments::begin): only
// the split's fields are written, so a small draw pays no fresh PreparedDraw.
void prepare_split_into(PreparedDraw& p, const DrawInfo& draw, const MiddleEndLimits& limits,
                        const DrawOptions& options, std::string_view name);

// The segments of prepared draws, one draw at a time, whether they come from splitting or
// from a cached split. Reused from draw to draw.
class SegmentSource {
  public:
    // The draw must outlive the segments this hands out.
    void begin(const PreparedDraw& draw);
    // Only chunk `chunk` of instance pass `pass` of a draw of several chunks (chunks.hpp's
    // begin_chunk); `restarts` as there.
    void begin_chunk(const PreparedDraw& draw, const RestartChunks* restarts, uint32_t pass,
                     uint32_t chunk);
    // Writes the next segment in draw order (lists in `storage`, or in the cached split).
    // Returns false when the draw is done.
    bool next(SegmentStorage& storage, Segment& seg);
    // next() in a loop, each segment handed to `consume(const Segment&)` (FrontEnd::drain).
    template <class Consume> void drain(SegmentStorage& storage, Segment& seg, Consume&& consume) {
        if (!replay_) return front_.drain(storage, seg, consume);
        while (replay_->next(seg)) consume(static_cast<const Segment&>(seg));
    }
    // Totals of the current draw, complete once it is done.
    const FrontEndStats& stats() const;

  private:
    FrontEnd front_;
    std::optional<SplitReplay> replay_;
};

} // namespace drawpipe
