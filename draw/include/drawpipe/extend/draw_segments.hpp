// The segments of one draw without shading them: exactly what the pipeline's source stage
// hands the middle end (from the front end, or replayed from the split cache), in draw
// order. For tools that print or time a split (`drawpipe trace --segments`, `drawpipe
// bench`) and for middle-end authors checking what their limits make of a draw.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/segment.hpp"
#include "drawpipe/extend/serial.hpp"
#include "drawpipe/stats.hpp"

#include <memory>

namespace drawpipe {

class DrawSegments {
  public:
    // The draw as `middle` is handed it, checked and prepared as Context::draw checks and
    // prepares it (its prepare() included). Throws Error naming the field. The state's
    // buffers must outlive the segments.
    DrawSegments(const DrawState& state, const MiddleEnd& middle, const DrawOptions& options = {});
    // The front end alone, for a middle end with `limits`: the draw's own fields, the split
    // limits and its indices against base vertex are checked as Context::draw checks them.
    DrawSegments(const DrawInfo& draw, const MiddleEndLimits& limits,
                 const DrawOptions& options = {});
    // No draw yet: begin() starts one. A driver's front end keeps one and begins every draw
    // on it, so the front end's tables and the segment lists are allocated once, not per draw.
    DrawSegments();
    ~DrawSegments();
    DrawSegments(const DrawSegments&) = delete;
    DrawSegments& operator=(const DrawSegments&) = delete;

    // Starts another draw as the limits constructor does (the same checks and Error); the
    // segments of the previous draw are invalid from here on.
    void begin(const DrawInfo& draw, const MiddleEndLimits& limits,
               const DrawOptions& options = {});

    // Writes the next segment in draw order into `seg`, its lists valid until the next call.
    // Returns false when the draw is done.
    bool next(Segment& seg);
    // Totals of the segments so far, complete once next() has returned false.
    const FrontEndStats& stats() const;

    // A large draw is cut into chunks that split independently (docs/front-end.md, "Chunks
    // for threads"), so that a driver's own threads can split it as the pipeline's do. The
    // chunks of the draw begun last, in draw order (instance pass by pass): 1 when it splits
    // as one piece (small, cached, or a strategy that is sequential over the whole draw).
    // With primitive restart this first finds where restart runs cross the chunks, one pass
    // over the indices: with tbb::parallel_for in the caller's task arena when `parallel`.
    uint32_t chunks(bool parallel = false);
    // Splits only chunk `chunk` of the draw begun on `draw` (whose chunks() said more than
    // one): next() then hands out exactly the segments draw.next() hands out there, in order,
    // and stats() their totals. Any thread, one DrawSegments per chunk in flight; `draw` must
    // not begin another draw meanwhile. Throws Error (invalid_operation) for a chunk `draw`
    // does not have.
    void begin_chunk(const DrawSegments& draw, uint32_t chunk);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The index positions per chunk of a draw split at `max_vertices` with
// DrawOptions::chunk_positions 0: 8 segments' worth, at least 32,736.
uint32_t standard_chunk_positions(uint32_t max_vertices);

// What the limits constructor checks before it reads any index (the draw's own fields and
// the split limits): throws the same Error. Costs O(1), whatever the draw's size.
void check_split_limits(const DrawInfo& draw, const MiddleEndLimits& limits,
                        const DrawOptions& options = {});

} // namespace drawpipe
