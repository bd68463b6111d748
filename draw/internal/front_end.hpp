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
    bool next(SegmentStorage& storage, Segment& seg) {
        if (closed_.active) [[likely]] {
            closed_.next(seg, stats_);
            return true;
        }
        return next_split(storage, seg);
    }
    // Totals since begin().
    const FrontEndStats& stats() const { return stats_; }

  private:
    // The segments of a non-indexed list or strip after a run's first, in closed form:
    // segment k of the run starts at begin + k * step primitives' worth of vertices and holds
    // `cut` primitives, the last one what is left. Written inline, so each costs a few ns.
    struct ClosedForm {
        bool active = false;  // next() writes the segment from here
        bool pending = false; // k and sequence are ahead of the Impl's
        // The draw's, set by begin():
        Prim prim = Prim::points;
        uint32_t pmax = 0;            // a run's last segment when at most this many are left
        uint32_t cut = 0;             // pmax, made even for strip parity
        uint32_t step = 0, extra = 0; // fetch_count = primitives * step + extra
        // The open run's, set when its first segment is out:
        uint32_t k = 0, prims = 0; // next primitive of the run, primitives in the run
        uint32_t begin = 0, prim_id_base = 0, instance_first = 0, instance_count = 1;
        uint64_t sequence = 0;

        void next(Segment& seg, FrontEndStats& stats) {
            const uint32_t k0 = k;
            uint32_t k1 = k0 + cut;
            uint8_t flags = SPLIT_BEFORE | SPLIT_AFTER;
            if (prims - k0 <= pmax) {
                k1 = prims;
                flags = SPLIT_BEFORE;
                active = false;
            }
            const uint32_t count = (k1 - k0) * step + extra;
            seg.prim = prim;
            seg.flags = flags;
            seg.instance_first = instance_first;
            seg.instance_count = instance_count;
            seg.prim_id_first = prim_id_base + k0;
            seg.fetch_start = begin + k0 * step;
            seg.fetch_count = count;
            seg.fetch_elts = {};
            seg.draw_count = count;
            seg.draw_elts = {};
            seg.sequence = sequence++;
            seg.fetch_bias = 0;
            k = k1;
            stats.segments++;
            stats.indices += count;
            stats.fetched += count;
        }
    };

    bool next_split(SegmentStorage& storage, Segment& seg);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    ClosedForm closed_;
    FrontEndStats stats_;
};

} // namespace drawpipe
