// A recorded split and its replay: the private half of the split cache
// (drawpipe/split_cache.hpp).
#pragma once

#include "draw/front_end/chunks.hpp"
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/instance_order.hpp"
#include "drawpipe/split_cache.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace drawpipe {

// An immutable recorded split: segments whose lists point into this entry.
struct SplitEntry {
    std::vector<Segment> segments; // instance 0, base vertex 0, sequence from 0
    std::vector<uint32_t> fetch;
    std::vector<uint16_t> draw;
    std::optional<IndexRange> range; // raw index bounds (restart excluded), for base vertex checks
    // chunk_count and the chunk size: sequence numbers are chunk-major past 1 chunk.
    uint32_t chunks = 1, chunk_positions = kChunkPositions;
    uint64_t ia_vertices = 0, ia_primitives = 0; // of the one instance (FrontEndStats)
    size_t bytes = 0;
};

// Records the split of one instance of `draw` with base vertex 0 (no caching); null as soon
// as the entry would hold more than `max_bytes`. The draw must have passed validate_draw and
// check_split.
std::shared_ptr<SplitEntry> record_split(const DrawInfo& draw, const FrontEndOptions& options,
                                         size_t max_bytes = SIZE_MAX);

// The split of `draw` (indexed, draw.index_buffer_id registered in `cache`) under `options`:
// from the cache, or recorded now and cached. Null when the split is larger than the
// cache's whole budget: split that draw with a FrontEnd instead. The draw must have passed
// validate_draw and check_split (draw/context/validate.hpp); throws Error only for a draw
// that is not indexed or a buffer that is not registered. Thread-safe; entries are shared
// read-only.
std::shared_ptr<const SplitEntry> acquire_split(SplitCache& cache, const DrawInfo& draw,
                                                const FrontEndOptions& options);

// The cached split of `draw`, or null: no recording, no statistics, no LRU change.
// For checks before a draw is queued. Thread-safe.
std::shared_ptr<const SplitEntry> peek_split(const SplitCache& cache, const DrawInfo& draw,
                                             const FrontEndOptions& options);

// Replays a recorded split as the segments of `draw`: every instance in turn (or all at
// once when the middle end instances, under the same InstanceOrder as FrontEnd), base
// vertex as fetch_bias, sequence numbers in draw order. The draw must have passed
// check_indices with the entry's recorded range: nothing is checked here.
class SplitReplay {
  public:
    SplitReplay(std::shared_ptr<const SplitEntry> entry, const DrawInfo& draw,
                const MiddleEndLimits& limits);
    bool next(Segment& seg);
    // Totals of the segments replayed so far, as FrontEnd::stats() counts them.
    const FrontEndStats& stats() const { return stats_; }

  private:
    FrontEndStats stats_;
    std::shared_ptr<const SplitEntry> entry_;
    uint32_t bias_;
    InstanceOrder order_;
    uint32_t instance_ = 0, instance_end_ = 0; // passes of order_
    size_t index_ = 0;
    uint64_t sequence_ = 0;
};

} // namespace drawpipe
