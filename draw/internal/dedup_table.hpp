// De-duplication tables: within one segment, turn indices into fetch elements (each index
// once) and draw elements (its position in the fetch list). They key on raw index values;
// the splitter applies the base vertex to the finished segment. Not to be confused with the
// split cache (<drawpipe/split_cache.hpp>), which keeps whole splits across draws.
//
// Every table is reset per segment in O(1). The direct-mapped ones store only a fetch-list
// position per entry and trust it when the fetch list holds the same vertex there (a
// "sparse set"): a stale entry from an earlier segment or draw simply misses, so nothing is
// cleared, no epoch wraps, and a vertex id of 0xFFFFFFFF needs no sentinel. Their branchless
// loop uses entries of its own instead (id, segment epoch and position), because checking a
// hit in the fetch list stalled it. The exact table keeps keys and epoch tags,
// because open addressing must tell a free slot from a used one.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace drawpipe::detail {

// An exact-table entry: the vertex id and (epoch << 16 | position in the fetch list).
struct ExactEntry {
    uint32_t key;
    uint32_t tag;
};

enum class TriangleLoop : uint8_t { packed, plain, unpredictable, filtered };

// Smoothed times of the triangle loops, per 1024 indices, kept across draws: the pairs of
// equivalent loops whose speed the miss rate cannot predict are chosen between by timing
// them (choose_triangle_loop).
struct TriangleLoopTimes {
    uint64_t ticks[4] = {}; // by TriangleLoop (0: not timed yet)
    uint32_t uncertain = 0; // segments whose choice was left to the times
    // The last choice, which a draw's first segment takes: a fresh guess ran the slower
    // loop for one segment in every draw (the bunny's 20 segments lost 2 % to it).
    TriangleLoop last = TriangleLoop::plain;

    uint64_t& of(TriangleLoop loop) { return ticks[size_t(loop)]; }
};
inline constexpr uint32_t kProbeClose = 8, kProbeFar = 64;

// Of two loops that write the same lists, the faster by their times. Each is timed once,
// then the faster runs; now and then an uncertain segment runs the other again, so a change
// in the draw (or a noisy first timing) is noticed. A probe costs the gap between the loops,
// so the wider the gap, the rarer the probes: every kProbeClose-th uncertain segment when
// they are within a quarter of each other, every kProbeFar-th otherwise (every 8th cost the
// bunny, 1.5x faster branchless, 8 % of its time).
inline TriangleLoop faster_loop(TriangleLoopTimes& t, TriangleLoop a, TriangleLoop b) {
    const uint64_t ta = t.of(a), tb = t.of(b);
    if (ta == 0) return a;
    if (tb == 0) return b;
    const uint64_t fast = std::min(ta, tb), slow = std::max(ta, tb);
    const uint32_t every = 4 * slow > 5 * fast ? kProbeFar : kProbeClose;
    return (tb < ta) != (++t.uncertain % every == 0) ? b : a;
}

// The loop for the next segment from this one's misses out of its indices. Below 30 %,
// the branchy lookup: grids miss 18-22 % in a pattern the branch predictor learns (the
// branchless loop ran at half the speed there: its fetch count is a dependency chain).
// Above 7 in 8, packed stores (the branch is predicted again), or, when `filter` offers it
// (segments of many vertices), the same with a seen-bit per id first (triangles_filtered),
// faster where the table is past the caches (W3 and a shuffled sphere at 65536, +16-21 %)
// and slower where it is not (W3 at 16384 and 32768, -11 to -25 %): timed. In between, the
// miss rate does not tell whether the predictor copes: glmark2's cat (36 % misses) ran twice
// as fast branchy, the bunny (39 %) 1.6x faster branchless (and 1.4x faster again since that
// loop reads keyed entries, triangles_keyed): timed too.
inline TriangleLoop choose_triangle_loop(TriangleLoopTimes& t, size_t misses, size_t indices,
                                         bool filter = false) {
    if (misses * 10 < 3 * indices) return t.last = TriangleLoop::plain;
    if (misses * 8 > 7 * indices)
        return t.last = filter ? faster_loop(t, TriangleLoop::packed, TriangleLoop::filtered)
                               : TriangleLoop::packed;
    return t.last = faster_loop(t, TriangleLoop::plain, TriangleLoop::unpredictable);
}

// Table storage shared by the dedup tables of one front end, kept across draws: a new draw
// configures a prefix of it.
struct DedupArena {
    TriangleLoopTimes loop_times;
    std::vector<uint16_t> slots; // direct-mapped tables: a fetch-list position per entry
    uint32_t slot_bound = 0;     // every position stored in `slots` is below this
    std::vector<ExactEntry> exact;
    uint32_t epoch = 0;
    // The keyed form of the direct-mapped tables (DirectDedup::triangles_keyed): id << 32 |
    // epoch << 16 | position per entry, allocated on first use.
    std::vector<uint64_t> keyed;
    uint32_t keyed_epoch = 0; // of the last keyed segment; 0 is never one
    // DirectDedup::triangles_filtered's seen-bits, kSeenBits per fetchable vertex, allocated
    // on first use and cleared per segment.
    std::vector<uint64_t> seen;
};

// Seen-bits per fetchable vertex: at most 1 in 16 is set, so a new id meets another id's
// bit (and reads the table for nothing) at most 1 time in 16.
inline constexpr uint32_t kSeenBits = 16;

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
        arena_ = &arena;
        entries_ = entries;
        if constexpr (std::is_same_v<Hash, FibHash>)
            hash_.shift = 32 - std::countr_zero(entries);
        else
            hash_.mask = entries - 1;
    }
    void reset() {}
    // The fetch-list position the table holds for v (stale or another vertex's if evicted).
    size_t position_of(uint32_t v) const { return table_[hash_(v)]; }
    // The same after a segment of triangles_keyed, whose entries the table above never saw:
    // v's position this segment, or SIZE_MAX when its entry holds another vertex.
    size_t keyed_position_of(uint32_t v) const {
        const uint64_t t = keyed_[hash_(v)] ^ (uint64_t(v) << 32 | epoch_);
        return t < 0x10000 ? size_t(t) : SIZE_MAX;
    }
    // Position of vertex v in fetch[0, n), appending it (n grows) when it is not in the table.
    [[gnu::always_inline]] size_t lookup(uint32_t v, uint32_t* fetch, size_t& n) const {
        uint16_t* const e = table_ + hash_(v);
        const size_t s = *e; // 64-bit positions: no zero-extension on the per-index path
        // One branch, predictable on random and coherent ids alike; fetch[s] is readable
        // because every stored position is below this draw's fetch capacity.
        if ((s < n) & (fetch[s] == v)) return s;
        return append(v, e, fetch, n);
    }

    // For a segment of triangles_keyed: a new epoch in the keyed entries, so that entries of
    // earlier segments miss (the entries are allocated on first use, and cleared when the
    // 16-bit epoch wraps, once every 65535 keyed segments).
    void next_keyed_segment() {
        DedupArena& a = *arena_;
        if (a.keyed.size() < entries_) {
            a.keyed.assign(entries_, 0);
            a.keyed_epoch = 0;
        }
        if (++a.keyed_epoch > 0xFFFF) {
            std::fill(a.keyed.begin(), a.keyed.end(), 0);
            a.keyed_epoch = 1;
        }
        keyed_ = a.keyed.data();
        epoch_ = uint64_t(a.keyed_epoch) << 16;
    }

    // Whole triangles src[0, 3 * tris) into draw elements at dst, for lists whose lookups
    // mostly hit: one u16 store per index, straight from the branch that resolved it.
    template <class T>
    [[gnu::always_inline]] void triangles(const T* src, size_t tris, uint32_t* fetch, size_t& n,
                                          uint16_t* dst) const {
#pragma GCC unroll 2
        for (const T* const end = src + 3 * tris; src != end; src += 3, dst += 3) {
            dst[0] = uint16_t(lookup(src[0], fetch, n));
            dst[1] = uint16_t(lookup(src[1], fetch, n));
            dst[2] = uint16_t(lookup(src[2], fetch, n));
        }
    }
    // The same for lists whose lookups mostly miss, where stores are the bottleneck (each
    // miss already writes the fetch list and a random table line): a triangle's three draw
    // elements leave in one 8-byte store. Its fourth u16 lands on dst[3 * tris], which the
    // next triangle overwrites: dst needs one element of slack.
    template <class T>
    [[gnu::always_inline]] void triangles_packed(const T* src, size_t tris, uint32_t* fetch,
                                                 size_t& n, uint16_t* dst) const {
        store_triangles(src, tris, dst,
                        [&](uint32_t v) -> uint64_t { return lookup(v, fetch, n); });
    }

    // The same through the keyed entries, without a branch, for ids whose hits and misses a
    // predictor cannot guess (a mesh not in vertex-cache order hits about half the time).
    // An entry holds its id, so a hit needs no load from the fetch list: that load, from a
    // position the loop had just stored to, stalled the sparse-set form (1.76 against
    // 2.4-3.0 ns per index on the bunny). The same slot is hit or replaced as in the
    // sparse-set table, so both write the same lists. After next_keyed_segment();
    // fetch needs room for one more element than n (a hit writes its id past the end).
    template <class T>
    [[gnu::always_inline]] void triangles_keyed(const T* src, size_t tris, uint32_t* fetch,
                                                size_t& n, uint16_t* dst) const {
        assert(keyed_ && "next_keyed_segment() first");
        uint64_t* const keyed = keyed_;
        const uint64_t epoch = epoch_;
        auto find = [&](uint32_t v) -> uint64_t {
            uint64_t* const e = keyed + hash_(v);
            const uint64_t want = uint64_t(v) << 32 | epoch;
            const uint64_t t = *e ^ want; // the position alone when the entry is v's
            const bool hit = t < 0x10000;
            const uint64_t r = hit ? t : n;
            fetch[n] = v;
            *e = want | r;
            n += !hit;
            return r;
        };
        store_triangles(src, tris, dst, find);
    }

    // For a segment of triangles_filtered: no id seen yet.
    void next_filtered_segment(uint32_t fetch_cap) {
        DedupArena& a = *arena_;
        const size_t words = std::bit_ceil(std::max(fetch_cap, 64u)) * kSeenBits / 64;
        if (a.seen.size() < words) a.seen.resize(words);
        std::fill_n(a.seen.begin(), words, 0);
        seen_ = a.seen.data();
        seen_mask_ = uint32_t(words * 64 - 1);
    }

    // triangles_packed for segments of many fetchable vertices, whose table and fetch list
    // are past L1 (W3 at 65536: 512 KiB and 256 KiB): a bit per id (its low bits), set when
    // the id is met, tells for most misses that the table need not be read. A clear bit
    // means no id with those low bits is in this segment yet, where the table would miss
    // too (so v is appended at once); a set one is an ordinary lookup. So both write the
    // same lists. After next_filtered_segment().
    template <class T>
    [[gnu::always_inline]] void triangles_filtered(const T* src, size_t tris, uint32_t* fetch,
                                                   size_t& n, uint16_t* dst) const {
        assert(seen_ && "next_filtered_segment() first");
        uint64_t* const seen = seen_;
        const uint32_t mask = seen_mask_;
        auto find = [&](uint32_t v) -> uint64_t {
            const uint32_t b = v & mask;
            const uint64_t w = seen[b >> 6], bit = uint64_t(1) << (b & 63);
            seen[b >> 6] = w | bit;
            if (w & bit) [[unlikely]]
                return lookup(v, fetch, n);
            return append(v, table_ + hash_(v), fetch, n);
        };
        store_triangles(src, tris, dst, find);
    }

    TriangleLoopTimes& loop_times() const {
        return arena_->loop_times;
    }

  private:
    // A miss: v joins the fetch list, and its table entry `e` points to it.
    [[gnu::always_inline]] static size_t append(uint32_t v, uint16_t* e, uint32_t* fetch,
                                                size_t& n) {
        fetch[n] = v;
        *e = uint16_t(n);
        return n++;
    }

    // Triangles src[0, 3 * tris) through `find` (an index to its draw element), each
    // triangle's three elements in one 8-byte store whose fourth u16 lands on dst[3 * tris].
    template <class T, class Find>
    [[gnu::always_inline]] static void store_triangles(const T* src, size_t tris, uint16_t* dst,
                                                       Find&& find) {
        for (const T* const end = src + 3 * tris; src != end; src += 3, dst += 3) {
            const uint64_t d0 = find(src[0]);
            const uint64_t d1 = find(src[1]);
            const uint64_t d2 = find(src[2]);
            const uint64_t packed = d0 | d1 << 16 | d2 << 32;
            std::memcpy(dst, &packed, sizeof packed);
        }
    }

    uint16_t* table_ = nullptr;
    DedupArena* arena_ = nullptr;
    uint64_t* keyed_ = nullptr; // set by next_keyed_segment
    uint64_t epoch_ = 0;
    uint64_t* seen_ = nullptr; // set by next_filtered_segment
    uint32_t seen_mask_ = 0;
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

// The triangle loops of a direct-mapped table, by kind, and one compiled copy of them per
// instruction set: x86-64 CPUs with BMI2 (Haswell and later) get a one-uop variable shift
// for the Fibonacci hash; the choice is made once per process.
template <class Table, class T>
[[gnu::always_inline]] inline void triangle_loop(TriangleLoop kind, const Table& table,
                                                 const T* src, size_t tris, uint32_t* fetch,
                                                 size_t& n, uint16_t* dst) {
    // Locals: through the references, every store to the lists would reload them.
    const Table t = table;
    size_t count = n;
    switch (kind) {
    case TriangleLoop::packed:
        t.triangles_packed(src, tris, fetch, count, dst);
        break;
    case TriangleLoop::plain:
        t.triangles(src, tris, fetch, count, dst);
        break;
    case TriangleLoop::unpredictable:
        t.triangles_keyed(src, tris, fetch, count, dst);
        break;
    case TriangleLoop::filtered:
        t.triangles_filtered(src, tris, fetch, count, dst);
        break;
    }
    n = count;
}

template <class Table, class T>
[[gnu::noinline]] void triangle_loop_base(TriangleLoop kind, const Table& table, const T* src,
                                          size_t tris, uint32_t* fetch, size_t& n, uint16_t* dst) {
    triangle_loop(kind, table, src, tris, fetch, n, dst);
}

#if defined(__x86_64__) && defined(__GNUC__)
template <class Table, class T>
[[gnu::noinline, gnu::target("bmi2")]] void
triangle_loop_bmi2(TriangleLoop kind, const Table& table, const T* src, size_t tris,
                   uint32_t* fetch, size_t& n, uint16_t* dst) {
    triangle_loop(kind, table, src, tris, fetch, n, dst);
}

inline bool cpu_has_bmi2() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") != 0;
    }();
    return has;
}
#endif

// Looks up triangles src[0, 3 * tris) in `table` with loop `kind` (see triangle_loop).
template <class Table, class T>
void dedup_triangles(TriangleLoop kind, const Table& table, const T* src, size_t tris,
                     uint32_t* fetch, size_t& n, uint16_t* dst) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (cpu_has_bmi2()) return triangle_loop_bmi2(kind, table, src, tris, fetch, n, dst);
#endif
    triangle_loop_base(kind, table, src, tris, fetch, n, dst);
}

} // namespace drawpipe::detail
