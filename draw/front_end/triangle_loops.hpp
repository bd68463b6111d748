// The timed triangle loops: four ways to look up a triangle list's indices in a
// direct-mapped table (dedup_table.hpp) that write the same lists, one chosen per segment
// from the last segment's misses and, where those do not decide, by timing the candidates.
// Only speed depends on the choice. The rules and their measurements: docs/front-end.md,
// "The four triangle loops, and the timed choice".
#pragma once

#include "draw/front_end/dedup_table.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace drawpipe::detail {

enum class TriangleLoop : uint8_t { packed, plain, unpredictable, filtered };

// Smoothed times of the loops, per 1024 indices, kept across draws.
struct TriangleLoopTimes {
    uint64_t ticks[4] = {};                  // by TriangleLoop (0: not timed yet)
    uint32_t uncertain = 0;                  // segments whose choice was left to the times
    TriangleLoop last = TriangleLoop::plain; // the last choice, which a draw's first segment takes

    uint64_t& of(TriangleLoop loop) { return ticks[size_t(loop)]; }
};
// The slower of two loops is probed every kProbeClose-th uncertain segment when they are
// within a quarter of each other, every kProbeFar-th otherwise.
inline constexpr uint32_t kProbeClose = 8, kProbeFar = 64;
// Segments shorter than this are not timed; the filtered loop is offered from kFilterFrom
// fetchable vertices (a 128 KiB table).
inline constexpr uint32_t kTimedMinIndices = 1024, kFilterFrom = 16384;

// Of two loops that write the same lists, the faster by their times, the other now and then.
inline TriangleLoop faster_loop(TriangleLoopTimes& t, TriangleLoop a, TriangleLoop b) {
    const uint64_t ta = t.of(a), tb = t.of(b);
    if (ta == 0) return a;
    if (tb == 0) return b;
    const uint64_t fast = std::min(ta, tb), slow = std::max(ta, tb);
    const uint32_t every = 4 * slow > 5 * fast ? kProbeFar : kProbeClose;
    return (tb < ta) != (++t.uncertain % every == 0) ? b : a;
}

// The loop for the next segment from this one's misses out of its indices: branchy below
// 30 %, packed stores above 7 in 8 (or timed against the seen-bit filter where `filter`
// offers it), timed against the branchless keyed loop in between.
inline TriangleLoop choose_triangle_loop(TriangleLoopTimes& t, size_t misses, size_t indices,
                                         bool filter = false) {
    if (misses * 10 < 3 * indices) return t.last = TriangleLoop::plain;
    if (misses * 8 > 7 * indices)
        return t.last = filter ? faster_loop(t, TriangleLoop::packed, TriangleLoop::filtered)
                               : TriangleLoop::packed;
    return t.last = faster_loop(t, TriangleLoop::plain, TriangleLoop::unpredictable);
}

// The loops' storage, shared by the splitters of one front end and kept across draws.
struct TriangleLoopArena {
    TriangleLoopTimes times;
    // The keyed loop's entries, id << 32 | epoch << 16 | position, allocated on first use.
    std::vector<uint64_t> keyed;
    uint32_t keyed_epoch = 0; // of the last keyed segment; 0 is never one
    // The filtered loop's seen-bits, kSeenBits per fetchable vertex, cleared per segment.
    std::vector<uint64_t> seen;
};

// Seen-bits per fetchable vertex: at most 1 in 16 is set, so a new id meets another id's
// bit (and reads the table for nothing) at most 1 time in 16.
inline constexpr uint32_t kSeenBits = 16;

// What the loops read besides the table: this segment's keyed entries and seen-bits.
struct LoopState {
    uint64_t* keyed = nullptr; // set for a keyed segment
    uint64_t epoch = 0;        // the keyed segment's, << 16
    uint64_t* seen = nullptr;  // set for a filtered segment
    uint32_t seen_mask = 0;
};

// The one entry: triangles src[0, 3 * tris) through `table` with loop `kind` into draw
// elements at dst (one element of slack: packed stores write a u16 past the last), appending
// misses to fetch[n...] (one element of slack: the keyed loop writes past the end). Compiled
// for Hash = ModHash and FibHash, T = uint8_t, uint16_t and uint32_t (triangle_loops.cpp),
// with a BMI2 copy chosen once per process on x86-64.
template <class Hash, class T>
void dedup_triangles(TriangleLoop kind, const DirectDedup<Hash>& table, const LoopState& state,
                     const T* src, size_t tris, uint32_t* fetch, size_t& n, uint16_t* dst);

// A cheap, monotonic tick count for comparing two loops on the same machine (the time stamp
// counter on x86-64; the steady clock elsewhere).
inline uint64_t cycle_count() {
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_ia32_rdtsc();
#else
    return uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// One splitter's triangle loops through its Table (a DirectDedup): the next segment's loop,
// set up, run chunk by chunk, timed.
template <class Table> class TriangleLoops {
  public:
    TriangleLoops() = default;
    explicit TriangleLoops(TriangleLoopArena& arena) : arena_(&arena), next_(arena.times.last) {}

    // Before a segment that runs the loops; its set-up is part of the loop's time.
    void begin_segment(const Table& table, uint32_t fetch_cap) {
        start_ = cycle_count();
        ran_ = next_;
        if (ran_ == TriangleLoop::unpredictable) next_keyed_segment(table.entries());
        if (ran_ == TriangleLoop::filtered) next_filtered_segment(fetch_cap);
    }
    // Before a segment that does not (the sparse-set entries are then the current ones).
    void skip_segment() { ran_ = TriangleLoop::plain; }

    template <class T>
    [[gnu::always_inline]] void run(const Table& table, const T* src, size_t tris, uint32_t* fetch,
                                    size_t& n, uint16_t* dst) const {
        dedup_triangles(ran_, table, state_, src, tris, fetch, n, dst);
    }

    // After the segment's `indices`, of which `misses` were fetched: its time, and the next
    // segment's loop (the filtered one offered for segments of kFilterFrom vertices).
    void end_segment(size_t misses, uint32_t indices, uint32_t fetch_limit) {
        TriangleLoopTimes& t = arena_->times;
        if (indices >= kTimedMinIndices) {
            const uint64_t per = std::max<uint64_t>((cycle_count() - start_) * 1024 / indices, 1);
            uint64_t& s = t.of(ran_);
            s = s ? (3 * s + per) / 4 : per; // smoothed: one slow segment does not flip the choice
        }
        next_ = choose_triangle_loop(t, misses, indices, fetch_limit >= kFilterFrom);
    }

    // The fetch-list position `table` holds for v as the last segment's loop wrote it (stale
    // or another vertex's if evicted; SIZE_MAX from a keyed entry holding another vertex).
    size_t position_of(const Table& table, uint32_t v) const {
        if (ran_ != TriangleLoop::unpredictable) return table.position_of(v);
        const uint64_t t = state_.keyed[table.slot_of(v)] ^ (uint64_t(v) << 32 | state_.epoch);
        return t < 0x10000 ? size_t(t) : SIZE_MAX;
    }

    // A new keyed epoch, so that entries of earlier segments miss (the entries are cleared
    // when the 16-bit epoch wraps, once every 65535 keyed segments).
    void next_keyed_segment(uint32_t entries) {
        TriangleLoopArena& a = *arena_;
        if (a.keyed.size() < entries) {
            a.keyed.assign(entries, 0);
            a.keyed_epoch = 0;
        }
        if (++a.keyed_epoch > 0xFFFF) {
            std::fill(a.keyed.begin(), a.keyed.end(), 0);
            a.keyed_epoch = 1;
        }
        state_.keyed = a.keyed.data();
        state_.epoch = uint64_t(a.keyed_epoch) << 16;
    }
    // No id seen yet.
    void next_filtered_segment(uint32_t fetch_cap) {
        TriangleLoopArena& a = *arena_;
        const size_t words = std::bit_ceil(std::max(fetch_cap, 64u)) * kSeenBits / 64;
        if (a.seen.size() < words) a.seen.resize(words);
        std::fill_n(a.seen.begin(), words, 0);
        state_.seen = a.seen.data();
        state_.seen_mask = uint32_t(words * 64 - 1);
    }
    // For tests: run `loop` from now on.
    void force(TriangleLoop loop) { ran_ = next_ = loop; }

  private:
    TriangleLoopArena* arena_ = nullptr;
    LoopState state_;
    uint64_t start_ = 0;                      // when the segment's loop was set up
    TriangleLoop next_ = TriangleLoop::plain; // chosen from the last segment's misses
    TriangleLoop ran_ = TriangleLoop::plain;  // the last segment's loop
};

} // namespace drawpipe::detail
