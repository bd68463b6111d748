// Segment caches: turn a segment's vertex ids into fetch elements (each id once) and draw
// elements (its position in the fetch list). Each is reset per segment in O(1): entries
// carry the epoch of the segment that wrote them, so a stale entry is simply a miss, and a
// vertex id of 0xFFFFFFFF needs no sentinel care.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace drawpipe::detail {

struct FetchList {
    uint32_t* elts;
    uint32_t count;
    uint16_t append(uint32_t vertex_id) {
        elts[count] = vertex_id;
        return uint16_t(count++);
    }
};

// An entry: the vertex id and (epoch << 16 | position in the fetch list).
struct CacheEntry {
    uint32_t key;
    uint32_t tag;
};

// Table storage shared by the caches of one front end, kept across draws: a new draw
// configures a prefix of it, and entries left by earlier draws carry older epochs.
struct CacheArena {
    std::vector<CacheEntry> table;
    uint32_t epoch = 0;
};

class EpochTable {
  public:
    void configure(CacheArena& arena, uint32_t entries) {
        arena_ = &arena;
        if (arena.table.size() < entries) {
            arena.table.assign(entries, CacheEntry{0, 0});
            arena.epoch = 0;
        }
        table_ = arena.table.data();
        mask_ = entries - 1;
    }
    void reset() {
        uint32_t& epoch = arena_->epoch;
        epoch = (epoch + 1) & 0xFFFF;
        if (epoch == 0) { // tags wrapped: forget everything once every 65535 segments
            std::fill(arena_->table.begin(), arena_->table.end(), CacheEntry{0, 0});
            epoch = 1;
        }
        epoch_ = epoch;
    }

  protected:
    CacheArena* arena_ = nullptr;
    CacheEntry* table_ = nullptr;
    uint32_t mask_ = 0;
    uint32_t epoch_ = 0;
};

// Direct-mapped on a hash of the vertex id; a collision evicts (costs a refetch, never a
// wrong vertex). Mesa's vsplit is ModHash over 256 entries.
struct ModHash {
    uint32_t operator()(uint32_t v) const { return v; }
};
// Fibonacci hashing spreads grid-like ids (rows a power of two apart) over the table.
struct FibHash {
    uint32_t shift;
    uint32_t operator()(uint32_t v) const { return (v * 0x9E3779B1u) >> shift; }
};

template <class Hash> class DirectCache : public EpochTable {
  public:
    explicit DirectCache(Hash hash = {}) : hash_(hash) {}
    void set_hash(Hash hash) { hash_ = hash; }
    uint16_t lookup(uint32_t v, FetchList& fetch) {
        CacheEntry& e = table_[hash_(v) & mask_];
        const uint32_t want = epoch_ << 16;
        if (e.key == v && (e.tag & 0xFFFF0000u) == want) return uint16_t(e.tag);
        const uint16_t slot = fetch.append(v);
        e.key = v;
        e.tag = want | slot;
        return slot;
    }

  private:
    Hash hash_;
};

// Exact de-duplication: open addressing with linear probing, at most half full.
class ExactCache : public EpochTable {
  public:
    uint16_t lookup(uint32_t v, FetchList& fetch) {
        const uint32_t want = epoch_ << 16;
        for (uint32_t h = (v * 0x9E3779B1u) >> shift_;; h = (h + 1) & mask_) {
            CacheEntry& e = table_[h & mask_];
            if ((e.tag & 0xFFFF0000u) != want) {
                const uint16_t slot = fetch.append(v);
                e.key = v;
                e.tag = want | slot;
                return slot;
            }
            if (e.key == v) return uint16_t(e.tag);
        }
    }
    void configure_for(CacheArena& arena, uint32_t max_fetch) {
        const uint32_t entries = std::bit_ceil(std::max(max_fetch, 8u)) * 2;
        configure(arena, entries);
        shift_ = 32 - std::countr_zero(entries);
    }

  private:
    uint32_t shift_ = 32;
};

// No de-duplication: every index is its own fetch.
class NoCache {
  public:
    void reset() {}
    uint16_t lookup(uint32_t v, FetchList& fetch) { return fetch.append(v); }
};

} // namespace drawpipe::detail
