// A segment's batch as the draw module carries it from the middle end to the backend: what
// the middle end wrote (ShadedBatch, its whole contract) and the draw module's own
// bookkeeping around it, which no middle end sees.
#pragma once

#include "drawpipe/extend/shaded.hpp"

#include <boost/container/vector.hpp>

#include <cstdint>
#include <vector>

namespace drawpipe {

struct DrawBatch {
    ShadedBatch shaded; // the middle end's output; the stages append the vertices they make
    // With a RasterState bound, the per-vertex step's results (post_shade, or the middle end's
    // shade_post): the record's position then holds window coordinates.
    ClipResults clip;
    // When the pipeline stages ran on the shading thread (an order-free chain): what the
    // backend receives instead of `shaded.prims`, in order, as elements into the first
    // `staged_vertex_count` records (the batch's, then those stages made).
    bool staged = false;
    uint32_t staged_vertex_count = 0;
    std::vector<StagedRange> staged_ranges;
    boost::container::vector<uint32_t> staged_elts;
    // Then too: primitives the clip stage made minus those it dropped (pipeline statistics).
    int64_t clip_delta = 0;
    // The segment's place in its draw (Segment::sequence), and whether the shading thread
    // already handed the batch to a backend that takes parallel batches.
    uint64_t sequence = 0;
    bool delivered = false;

    void clear() {
        shaded.clear();
        clip.clip_or = 0;
        staged = false;
        staged_vertex_count = 0;
        staged_ranges.clear();
        staged_elts.clear();
        clip_delta = 0;
        sequence = 0;
        delivered = false;
    }
};

} // namespace drawpipe
