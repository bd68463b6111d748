// The Mali instanced-fetch middle end: a model of how a Mali job-manager GPU (Midgard,
// Bifrost) runs an instanced vertex job. Each segment is a job of n = fetch_count vertices;
// the hardware dispatches padded(n) * instances threads in quads, each with a linear id L,
// and every thread finds its vertex, instance and attribute elements only through the
// descriptor arithmetic the attribute unit does (descriptors.hpp). Threads whose vertex
// slot is >= n are discarded. The shaded vertices and primitives are those fetch_shade
// produces, in GL order.
//
// Instancing and GL order: the middle end takes every instance of a segment at once, but
// only when the whole draw is one segment (the common case: a small mesh drawn many
// times); for a draw that splits, the front end makes one pass per instance, and each
// segment is that instance's slice of the same job (same padded count, same descriptors,
// same L), so output stays in GL order: all of instance 0, then instance 1, ...
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/limits.hpp"

#include <span>
#include <string_view>

namespace drawpipe::mali {

struct MaliOptions {
    uint32_t max_vertices = kMaxSegmentVertices; // the hardware takes whole draws; u16 elts cap it
    bool idvs = false;                           // Bifrost IDVS: round n up to 4 before padding
    uint32_t linear_id_bits = 32; // width of L; tests narrow it to force job splitting
    // Most vertices one all-instances segment may produce, so a batch stays bounded;
    // larger draws take one pass per instance.
    uint64_t max_batch_vertices = uint64_t(1) << 18;
};

// The counters shade() adds into ShadedBatch::counters, by index; counters() names them.
enum MaliCounter : uint32_t {
    COUNTER_THREADS, // threads dispatched: padded * instances per job
    COUNTER_WASTED,  // of those, threads discarded because their vertex slot >= n
    COUNTER_QUADS,   // quads issued; lanes past a job's last thread are masked
    COUNTER_COUNT,   // how many there are (not a counter)
};

class MaliMiddleEnd final : public MiddleEnd {
  public:
    explicit MaliMiddleEnd(const MaliOptions& options = {}) : options_(options) {}

    std::string_view name() const override { return "mali"; }
    // Accepts any draw without a geometry shader. Throws Error when one padded instance
    // exceeds the linear id width (only possible with a narrowed linear_id_bits). The
    // prepared draw dispatches each segment's jobs (see jobs.hpp) and emits instance by
    // instance.
    std::shared_ptr<const MiddleEndDraw> prepare(const DrawState& state) const override;
    // threads, wasted_threads, quads (MaliCounter order).
    std::span<const std::string_view> counters() const override;
    // waste_ratio: the share of dispatched threads padding wasted (none when no thread ran).
    std::vector<DerivedFigure> derived(std::span<const uint64_t> counters) const override;

  private:
    MaliOptions options_;
};

// Dispatch totals from summed counters (DrawStats::counters of a mali draw).
struct DispatchStats {
    uint64_t threads = 0;
    uint64_t wasted = 0;
    uint64_t quads = 0;
    double waste_ratio() const { return threads ? double(wasted) / double(threads) : 0.0; }
};
DispatchStats dispatch_stats(std::span<const uint64_t> counters);

} // namespace drawpipe::mali
