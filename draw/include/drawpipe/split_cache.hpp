// Split results cached across draws: a static index buffer is split once and redrawn
// without touching its indices again. A driver registers its static index buffers, bumps
// their versions when it writes them and sets the budget; the draw module does the rest.
//
// Index buffers get an identity (register_buffer) and a version (bump_version, called when
// the driver writes the buffer). A split is keyed by what decides it -- buffer identity and
// version, start, count, index type, primitive, restart state, the middle end's limits and
// the strategy -- and recorded with base vertex 0 for one instance: base vertex reaches the
// replayed segments as Segment::fetch_bias, instances as the replay's outer loop. Entries
// are immutable once published; a draw holds its entry through a shared_ptr, so eviction
// never pulls lists out from under segments in flight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace drawpipe {

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

    void set_budget(size_t bytes); // evicts down to the new budget
    size_t budget() const;
    SplitCacheStats stats() const;

  private:
    struct Impl;
    // The draw module looks splits up through this (acquire_split,
    // draw/front_end/split_replay.hpp).
    friend Impl& split_cache_impl(const SplitCache& cache);
    std::unique_ptr<Impl> impl_;
};

} // namespace drawpipe
