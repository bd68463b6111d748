// The front end: splits a draw into segments no larger than the middle end accepts.
//
// Restart runs are split independently; at each split the pieces overlap by what the
// primitive needs (strips repeat vertices and keep even triangle counts, fans and polygons
// repeat their centre, a line loop becomes strip pieces closed once at the real end).
// Indexed draws go through a dedup table that turns indices into fetch elements (vertex
// ids to fetch once per segment) and draw elements (u16 positions into the fetched set);
// the strategy chooses how.
#pragma once

#include "draw/middle_end.hpp"
#include "draw/segment.hpp"
#include "draw/types.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace drawpipe {

// How indexed segments are formed and de-duplicated.
struct Strategy {
    enum class Kind : uint8_t {
        distinct, // default: segments bounded by distinct vertices, hashed sparse-set table
        vsplit,   // Mesa's: 1024-index segments, direct-mapped on index mod 256
        direct,   // direct-mapped on index mod `entries`, segments bounded by distinct vertices
        exact,    // exact de-duplication (open addressing), bounded by distinct vertices
        none,     // no de-duplication: every index fetched
        reorder,  // triangle lists put in vertex-cache order first (draw/reorder.hpp), then exact
    };
    Kind kind = Kind::distinct;
    uint32_t entries = 0; // direct-N

    // "distinct", "vsplit", "direct-N" (N a power of two), "exact", "none", "reorder".
    static std::optional<Strategy> parse(std::string_view name);
    std::string name() const;
};

struct FrontEndOptions {
    MiddleEndLimits limits;
    Strategy strategy;
};

struct FrontEndStats {
    uint64_t segments = 0;
    uint64_t indices = 0; // draw elements handed on (positions drawn)
    uint64_t fetched = 0; // vertices the middle end must fetch and shade
};

class FrontEnd {
  public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(FrontEnd&&) noexcept;
    FrontEnd& operator=(FrontEnd&&) noexcept;

    // Prepares to split the draw, which must have passed validate_draw, check_split and
    // check_indices (draw/validate.hpp): nothing is checked here. The draw's index buffer
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
