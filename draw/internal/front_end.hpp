// The front end: splits a draw into segments no larger than the middle end accepts.
//
// Restart runs are split independently; at each split the pieces overlap by what the
// primitive needs (strips repeat vertices and keep even triangle counts, fans and polygons
// repeat their centre, a line loop becomes strip pieces closed once at the real end).
// Indexed draws go through a segment cache that turns indices into fetch elements (vertex
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


// Checks a draw for bad input, throwing Error with a message naming the field.
void validate_draw(const DrawInfo& draw);

// Bounds of the raw index values of a validated indexed draw, restart indices excluded
// (min > max when no index counts). One pass over the indices.
IndexRange scan_index_range(const DrawInfo& draw);

class FrontEnd {
  public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(FrontEnd&&) noexcept;
    FrontEnd& operator=(FrontEnd&&) noexcept;

    // Validates the draw and prepares to split it. The draw's index buffer must stay valid
    // until next() returns false. Throws Error on bad input or a limit too small.
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

namespace drawpipe {
// TEMPORARY until the front-end split lands (FrontEnd::begin still checks everything).
inline void check_split(const DrawInfo&, const FrontEndOptions&) {}
inline void check_indices(const DrawInfo&, const std::optional<IndexRange>&) {}
} // namespace drawpipe
