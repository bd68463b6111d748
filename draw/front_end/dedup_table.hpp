// De-duplication tables: within one segment, turn indices into fetch elements (each index
// once) and draw elements (its position in the fetch list). They key on raw index values;
// the splitter applies the base vertex to the finished segment. Not to be confused with the
// split cache (<drawpipe/split_cache.hpp>), which keeps whole splits across draws.
//
// Every table is reset per segment in O(1). The direct-mapped ones store only a fetch-list
// position per entry and trust it when the fetch list holds the same vertex there (a
// "sparse set"): a stale entry from an earlier segment or draw simply misses, so nothing is
// cleared, no epoch wraps, and a vertex id of 0xFFFFFFFF needs no sentinel. The exact table
// keeps keys and epoch tags, because open addressing must tell a free slot from a used one.
// Triangle lists through a direct-mapped table have faster loops of their own:
// triangle_loops.hpp.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace drawpipe::detail {

// An exact-table entry: the vertex id and (epoch << 16 | position in the fetch list).
struct ExactEntry {
    uint32_t key;
    uint32_t tag;
};

// Table storage shared by the dedup tables of one front end, kept across draws: a new draw
// configures a prefix of it.
struct DedupArena {
    std::vector<uint16_t> slots; // direct-mapped tables: a fetch-list position per entry
    uint32_t slot_bound = 0;     // every position stored in `slots` is below this
    std::vector<ExactEntry> exact;
    uint32_t epoch = 0;
};

// Mesa's vsplit, direct-N and the default: the low bits of the vertex id. Ids closer than
// the table's size never collide, and one segment's ids usually are that close.
struct ModHash {
    uint32_t mask;
    uint32_t operator()(uint32_t v) const { return v & mask; }
};
// Fibonacci hashing spreads ids a multiple of the table's size apart over the table: the
// default strategy's fallback when a mask makes them collide.
struct FibHash {
    uint32_t shift;
    uint32_t operator()(uint32_t v) const { return (v * 0x9E3779B1u) >> shift; }
};

// Direct-mapped on a hash of the vertex id; a collision evicts (costs a refetch, never a
// wrong vertex). Mesa's vsplit is ModHash over 256 entries.
template <class Hash> class DirectDedup {
  public:
    static constexpr bool kDirect = true;
    // `entries` is a power of two; fetch lists this table sees hold at least `fetch_cap`.
    void configure(DedupArena& arena, uint32_t entries, uint32_t fetch_cap) {
        // Stale positions must stay inside this draw's fetch lists, which may be shorter:
        // then the table restarts at this draw's size (a cost in proportion to it), so a
        // small draw after a large one does not clear the large one's table.
        if (arena.slot_bound > fetch_cap)
            arena.slots.assign(entries, 0);
        else if (arena.slots.size() < entries)
            arena.slots.resize(entries, 0);
        arena.slot_bound = std::max(fetch_cap, 1u);
        table_ = arena.slots.data();
        entries_ = entries;
        if constexpr (std::is_same_v<Hash, FibHash>)
            hash_.shift = 32 - std::countr_zero(entries);
        else
            hash_.mask = entries - 1;
    }
    void reset() {}
    uint32_t entries() const { return entries_; }
    // The entry v maps to, and the fetch-list position it holds (stale or another vertex's
    // if evicted).
    uint32_t slot_of(uint32_t v) const { return hash_(v); }
    uint16_t* slot(uint32_t v) const { return table_ + hash_(v); }
    size_t position_of(uint32_t v) const { return table_[hash_(v)]; }
    // Position of vertex v in fetch[0, n), appending it (n grows) when it is not in the table.
    [[gnu::always_inline]] size_t lookup(uint32_t v, uint32_t* fetch, size_t& n) const {
        uint16_t* const e = slot(v);
        const size_t s = *e; // 64-bit positions: no zero-extension on the per-index path
        // One branch, predictable on random and coherent ids alike; fetch[s] is readable
        // because every stored position is below this draw's fetch capacity.
        if ((s < n) & (fetch[s] == v)) return s;
        return append(v, e, fetch, n);
    }
    // A miss: v joins the fetch list, and its table entry `e` points to it.
    [[gnu::always_inline]] static size_t append(uint32_t v, uint16_t* e, uint32_t* fetch,
                                                size_t& n) {
        fetch[n] = v;
        *e = uint16_t(n);
        return n++;
    }

  private:
    uint16_t* table_ = nullptr;
    uint32_t entries_ = 0;
    Hash hash_{};
};

// Exact de-duplication: open addressing with linear probing, at most half full.
class ExactDedup {
  public:
    static constexpr bool kDirect = false;
    void configure(DedupArena& arena, uint32_t max_fetch) {
        const uint32_t entries = std::bit_ceil(std::max(max_fetch, 8u)) * 2;
        if (arena.exact.size() < entries) {
            arena.exact.assign(entries, ExactEntry{0, 0});
            arena.epoch = 0;
        }
        arena_ = &arena;
        table_ = arena.exact.data();
        mask_ = entries - 1;
        shift_ = 32 - std::countr_zero(entries);
    }
    void reset() {
        uint32_t& epoch = arena_->epoch;
        epoch = (epoch + 1) & 0xFFFF;
        if (epoch == 0) { // tags wrapped: forget everything once every 65535 segments
            std::fill(arena_->exact.begin(), arena_->exact.end(), ExactEntry{0, 0});
            epoch = 1;
        }
        want_ = epoch << 16;
    }
    size_t lookup(uint32_t v, uint32_t* fetch, size_t& n) const {
        for (uint32_t h = (v * 0x9E3779B1u) >> shift_;; h = (h + 1) & mask_) {
            ExactEntry& e = table_[h];
            if ((e.tag & 0xFFFF0000u) != want_) {
                fetch[n] = v;
                e = {v, want_ | uint32_t(n)};
                return n++;
            }
            if (e.key == v) return e.tag & 0xFFFFu;
        }
    }

  private:
    DedupArena* arena_ = nullptr;
    ExactEntry* table_ = nullptr;
    uint32_t mask_ = 0, shift_ = 32, want_ = 0;
};

// No de-duplication: every index is its own fetch.
class NoDedup {
  public:
    static constexpr bool kDirect = false;
    void reset() {}
    size_t lookup(uint32_t v, uint32_t* fetch, size_t& n) const {
        fetch[n] = v;
        return n++;
    }
};

} // namespace drawpipe::detail
