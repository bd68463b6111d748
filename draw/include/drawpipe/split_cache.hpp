// Split results cached across draws: a static index buffer is split once and redrawn
// without touching its indices again.
//
// Index buffers get an identity (register_buffer) and a version (bump_version, called when
// the driver writes the buffer). A split is keyed by what decides it -- buffer identity and
// version, start, count, index type, primitive, restart state, the middle end's limits and
// the strategy -- and recorded with base vertex 0 for one instance: base vertex reaches the
// replayed segments as Segment::fetch_bias, instances as the replay's outer loop. Entries
// are immutable once published; a draw holds its entry through a shared_ptr, so eviction
// never pulls lists out from under segments in flight.
#pragma once

#include "drawpipe/types.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace drawpipe {

struct FrontEndOptions; // draw/internal/front_end.hpp
struct SplitEntry;      // draw/internal/split_replay.hpp

struct SplitCacheStats {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t evictions = 0;
    uint64_t uncacheable = 0; // draws larger than the whole budget, split without caching
    size_t bytes = 0;         // held by cached entries
    size_t entries = 0;
};

class SplitCache {
  public:
    static constexpr size_t kDefaultBudget = size_t(64) << 20; // a few large static meshes

    explicit SplitCache(size_t budget_bytes = kDefaultBudget);
    ~SplitCache();
    SplitCache(const SplitCache&) = delete;
    SplitCache& operator=(const SplitCache&) = delete;

    // Gives an index buffer an identity for caching (never 0). Thread-safe.
    uint64_t register_buffer();
    bool is_registered(uint64_t buffer_id) const;
    // Marks a buffer's contents as changed: its cached splits are dropped. Thread-safe.
    void bump_version(uint64_t buffer_id);

    // The split of `draw` (indexed, draw.index_buffer_id registered) under `options`:
    // from the cache, or recorded now and cached. Null when the split is larger than the
    // whole budget: split that draw with a FrontEnd instead. The draw must have passed
    // validate_draw and check_split (draw/internal/validate.hpp); throws Error only for a draw that
    // is not indexed or a buffer that is not registered. Thread-safe; entries are shared
    // read-only.
    std::shared_ptr<const SplitEntry> acquire(const DrawInfo& draw, const FrontEndOptions& options);

    // The cached split of `draw`, or null: no recording, no statistics, no LRU change.
    // For checks before a draw is queued. Thread-safe.
    std::shared_ptr<const SplitEntry> peek(const DrawInfo& draw,
                                           const FrontEndOptions& options) const;

    void set_budget(size_t bytes); // evicts down to the new budget
    size_t budget() const;
    SplitCacheStats stats() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drawpipe
