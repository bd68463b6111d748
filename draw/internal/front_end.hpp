// The front end: splits a draw into segments no larger than the middle end accepts.
//
// Restart runs are split independently; at each split the pieces overlap by what the
// primitive needs (strips repeat vertices and keep even triangle counts, fans and polygons
// repeat their centre, a line loop becomes strip pieces closed once at the real end).
// Indexed draws go through a dedup table that turns indices into fetch elements (vertex
// ids to fetch once per segment) and draw elements (u16 positions into the fetched set);
// the strategy chooses how.
#pragma once

#include "drawpipe/middle_end.hpp"
#include "drawpipe/segment.hpp"
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
};

class FrontEnd {
  public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(FrontEnd&&) noexcept;
    FrontEnd& operator=(FrontEnd&&) noexcept;

    // Prepares to split the draw, which must have passed validate_draw, check_split and
    // check_indices (draw/internal/validate.hpp): nothing is checked here. The draw's index buffer
    // must stay valid until next() returns false. Allocates nothing once a draw of the same
    // shape has been split (the reorder strategy excepted: it reorders a copy).
    void begin(const DrawInfo& draw, const FrontEndOptions& options);
    // Writes the next segment, in draw order, with its lists in `storage` (grown as needed
    // on first use only). Returns false when the draw is done.
    bool next(SegmentStorage& storage, Segment& seg);
    // Totals since begin().
    const FrontEndStats& stats() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drawpipe
