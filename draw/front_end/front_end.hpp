// The front end: splits a draw into segments no larger than the middle end accepts.
//
// Restart runs are split independently; at each split the pieces overlap by what the
// primitive needs (strips repeat vertices and keep even triangle counts, fans and polygons
// repeat their centre, a line loop becomes strip pieces closed once at the real end).
// Indexed draws go through a dedup table that turns indices into fetch elements (vertex
// ids to fetch once per segment) and draw elements (u16 positions into the fetched set);
// the strategy chooses how. How it is done: docs/front-end.md.
#pragma once

#include "draw/front_end/split_linear.hpp"
#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/extend/segment.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/strategy.hpp"
#include "drawpipe/types.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace drawpipe {

struct FrontEndOptions {
    MiddleEndLimits limits;
    Strategy strategy;
    // The size of the chunks a large draw is cut into (draw/front_end/chunks.hpp); 0: by the
    // limits. Tests cut small draws into many.
    uint32_t chunk_positions = 0;
};

struct RestartChunks;

class FrontEnd {
  public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(FrontEnd&&) noexcept;
    FrontEnd& operator=(FrontEnd&&) noexcept;

    // Prepares to split the draw, which must have passed validate_draw, check_split and
    // check_indices (draw/context/validate.hpp): nothing is checked here. The draw's index buffer
    // must stay valid while its segments are in use: a segment's fetch list may be the u32
    // buffer's own indices. Allocates nothing once a draw of the same shape has been split
    // (the reorder strategy excepted: it reorders a copy).
    void begin(const DrawInfo& draw, const FrontEndOptions& options);
    // Writes the next segment, in draw order, with its lists in `storage` (grown as needed
    // on first use only). Returns false when the draw is done. Pass the same `seg` unchanged
    // from call to call, or another object: a run's closed-form segments rewrite only the
    // fields that change when `seg` is the object the previous call wrote.
    bool next(SegmentStorage& storage, Segment& seg) {
        if (closed_.active) [[likely]] {
            closed_.next(seg);
            return true;
        }
        return next_split(storage, seg);
    }
    // Hands every segment left in the draw, in order, to `consume(const Segment&)`, written
    // into `seg`: next() in a loop, except that a run's closed-form segments are written from
    // registers, as Mesa's vsplit calls its middle end, instead of from state kept in memory.
    template <class Consume> void drain(SegmentStorage& storage, Segment& seg, Consume&& consume) {
        for (;;) {
            if (closed_.active) {
                closed_.drain(seg, consume);
                continue;
            }
            if (!next_split(storage, seg)) return;
            consume(static_cast<const Segment&>(seg));
        }
    }
    // Totals since begin(), complete once the draw is done (a run's closed-form segments are
    // counted when the run's first segment is written).
    const FrontEndStats& stats() const { return stats_; }

  private:
    // begin() for one chunk of a large draw (draw/front_end/chunks.hpp).
    friend void begin_chunk(FrontEnd& front, const DrawInfo& draw, const FrontEndOptions& options,
                            const RestartChunks* restarts, uint32_t pass, uint32_t chunk);

    bool next_split(SegmentStorage& storage, Segment& seg);
    void write_range_draw(SegmentStorage& storage, Segment& seg);
    void setup(const DrawInfo& draw, const FrontEndOptions& options);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    detail::LinearRun closed_; // a non-indexed run's segments after its first, in closed form
    FrontEndStats stats_;
};

} // namespace drawpipe
