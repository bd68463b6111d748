// The de-duplicating splitter: indexed runs (and assembled GS input) through a dedup table
// (draw/internal/dedup_table.hpp), one kernel per primitive class, as Mesa's draw_split_tmp.h.
//
// A segment grows primitive by primitive until the next one might exceed the fetch limit;
// that check is made once per chunk of primitives that is sure to fit (a primitive adds at
// most `first`, or `incr`, new vertices), so the per-index path is just load, look up,
// store. The table keys on raw index values; the base vertex is added to the fetch list once
// the segment is complete, off the per-index path (or, for a u32 buffer handed on uncopied,
// carried as the segment's fetch_bias).
#pragma once

#include "draw/internal/index_scan.hpp"
#include "draw/internal/splitter.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace drawpipe::detail {

// Where a segment's indices come from.
template <class T> struct BufferIndex {
    static constexpr bool kBuffer = true;
    const T* data;
    uint32_t operator()(uint32_t pos) const { return data[pos]; }
};
struct LinearIndex { // assembled non-indexed draws: the vertex id is the position
    static constexpr bool kBuffer = false;
    uint32_t operator()(uint32_t pos) const { return pos; }
};

// A cheap, monotonic tick count for comparing two loops on the same machine (the time stamp
// counter on x86-64; the steady clock elsewhere).
inline uint64_t cycle_count() {
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_ia32_rdtsc();
#else
    return uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// The default strategy stops looking up indices for kBypassSegments segments when a segment
// of at least kBypassMinIndices found fewer than one repeated index in kBypassReuse: below
// that, a lookup costs more than the refetch it saves (a vertex fetch and shade is tens of
// lookups), and random index buffers are the only ones that low. Extra fetches stay below
// 1/kBypassReuse of the indices.
inline constexpr uint32_t kBypassReuse = 256;
inline constexpr uint32_t kBypassSegments = 7;
inline constexpr uint32_t kBypassMinIndices = 1024;

// Copies indices into a fetch list: u32 ones as memmove does, u8 and u16 ones widened in
// vectorised blocks (std::copy widened them one element a cycle).
template <class T> inline void copy_indices(const T* src, size_t count, uint32_t* dst) {
    if constexpr (sizeof(T) == sizeof(uint32_t))
        std::copy(src, src + count, dst);
    else
        rebase_indices(src, count, 0, dst);
}

// Splits runs of shape S with indices from Index through a Table. First is the list's
// vertices per primitive when known at compile time (3: triangles), else 0.
template <class Index, class Table, Shape S, uint32_t First = 0>
class DedupSplitter final : public Splitter {
  public:
    DedupSplitter(const SplitParams& p, Index index, Table table)
        : p_(p), index_(index), table_(table) {
        if constexpr (Table::kDirect) loop_ = table_.loop_times().last; // this front end's last
    }

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        const uint32_t fetch_cap = p_.fetch_limit, draw_cap = p_.index_cap;
        if (st.fetch.size() < fetch_cap) st.fetch.resize(fetch_cap);
        // One element of slack: packed triangle stores write a u16 past the last one.
        if (st.draw.size() < draw_cap + 1) st.draw.resize(draw_cap + 1);
        table_.reset();
        segment_loop_ = TriangleLoop::plain; // the sparse-set table, unless split_triangles says
        if constexpr (S == Shape::list && First == 3 && Index::kBuffer && Table::kDirect)
            if (bypass_left_ == 0) {
                // The keyed and filtered loops' per-segment set-up is part of their time.
                loop_start_ = cycle_count();
                if (loop_ == TriangleLoop::unpredictable) table_.next_keyed_segment();
                if (loop_ == TriangleLoop::filtered) table_.next_filtered_segment(fetch_cap);
            }
        // Loops keep one slot free for the closing vertex.
        constexpr uint32_t reserve = S == Shape::loop ? 1 : 0;
        // Copies, so the kernels keep everything in registers whatever the stores alias.
        const Lists l{table_,
                      index_,
                      st.fetch.data(),
                      st.draw.data(),
                      run.begin,
                      fetch_cap - reserve,
                      std::min(run.stop, k0 + prims_fitting(S, p_.ps, draw_cap - reserve))};
        size_t n = 0; // fetched so far
        uint32_t nd = 0;
        seg.prim = p_.out_prim;
        uint32_t k;
        if constexpr (S == Shape::list)
            k = split_list(l, k0, n, nd);
        else if constexpr (S == Shape::strip)
            k = split_strip(l, run, k0, n, nd);
        else if constexpr (S == Shape::fan)
            k = split_fan(l, k0, n, nd);
        else if constexpr (S == Shape::loop)
            k = split_loop(l, run, k0, n, nd, seg);
        else
            k = split_assembled(l, run, k0, n, nd);
        seg.fetch_start = 0;
        seg.fetch_count = uint32_t(n);
        if (borrowed_) { // the index buffer is the fetch list: base vertex as the bias
            seg.fetch_elts = {borrowed_, n};
            seg.fetch_bias = p_.base_vertex;
            borrowed_ = nullptr;
        } else {
            if (const uint32_t bias = p_.base_vertex)
                for (size_t i = 0; i < n; ++i) l.fetch[i] += bias;
            seg.fetch_elts = {l.fetch, n};
            seg.fetch_bias = 0;
        }
        seg.draw_count = nd;
        seg.draw_elts =
            linear_draw_ ? std::span<const uint16_t>{} : std::span<const uint16_t>{l.draw, nd};
        linear_draw_ = false;
        return k;
    }

    // The default strategy's table masks vertex ids, which costs a third less per lookup than
    // a Fibonacci hash but makes ids a multiple of the table's size apart collide. The first
    // segment shows whether this draw's do: a vertex the table no longer points to was
    // evicted by one. Every kCollisionSample-th fetched vertex is checked (the whole list cost
    // small meshes 8 %); beyond one in kCollisionShare of those, the draw is split by
    // `spread` instead, the same splitter through a Fibonacci-hashed table.
    void set_spread(Splitter* spread) { spread_ = spread; }
    void restart() override {
        bypass_left_ = 0;
        if (spread_) spread_->restart();
    }
    Splitter* after_first_segment(const Segment& seg) override {
        if constexpr (Table::kDirect) {
            const std::span<const uint32_t> fetch = seg.fetch_elts;
            if (!spread_ || fetch.empty()) return this;
            // Asked of the entries the segment's loop wrote: which loop ran depends on this
            // front end's timings, the answer must not (it moves every later split).
            const bool keyed = segment_loop_ == TriangleLoop::unpredictable;
            uint32_t evicted = 0, checked = 0;
            for (uint32_t i = 0; i < fetch.size(); i += kCollisionSample, ++checked) {
                const uint32_t v = fetch[i] - p_.base_vertex;
                evicted += (keyed ? table_.keyed_position_of(v) : table_.position_of(v)) != i;
            }
            if (evicted * kCollisionShare > checked) return spread_;
        }
        return this;
    }

  private:
    // One segment's constants: its lists, and how far its primitives may go.
    struct Lists {
        Table table;
        Index index;
        uint32_t* fetch;
        uint16_t* draw;
        uint32_t begin;  // the run's first position
        uint32_t flimit; // fetch elements the primitives may use
        uint32_t kend;   // primitives end here at the latest
    };

    static constexpr uint32_t first_of(PrimShape ps) { return First ? First : ps.first; }

    // Primitives from k that fit for sure when each adds at most `grow` new vertices.
    [[gnu::always_inline]] static uint32_t chunk_end(const Lists& l, size_t n, uint32_t k,
                                                     uint32_t grow) {
        return std::min(l.kend, k + (l.flimit - uint32_t(n)) / grow);
    }

    // Appends the vertex at run position `pos` as the next draw element.
    [[gnu::always_inline]] static void add(const Lists& l, size_t& n, uint32_t& nd, uint32_t pos) {
        l.draw[nd++] = uint16_t(l.table.lookup(l.index(l.begin + pos), l.fetch, n));
    }

    // Lists: whole primitives of `first` positions each.
    [[gnu::always_inline]] uint32_t split_list(const Lists& l, uint32_t k0, size_t& n,
                                               uint32_t& nd) {
        if constexpr (First == 3 && Index::kBuffer && Table::kDirect) {
            return split_triangles(l, k0, n, nd);
        } else {
            const uint32_t first = first_of(p_.ps);
            uint32_t k = k0;
            if constexpr (Index::kBuffer) {
                for (uint32_t stop; (stop = chunk_end(l, n, k, first)) > k; k = stop) {
                    // Pointer walks: no 32-bit position arithmetic on the per-index path.
                    const auto* src = l.index.data + l.begin + size_t(k) * first;
                    const auto* const src_end = src + size_t(stop - k) * first;
                    uint16_t* dst = l.draw + nd;
                    for (; src != src_end; src += first, dst += first)
                        for (uint32_t i = 0; i < first; ++i)
                            dst[i] = uint16_t(l.table.lookup(src[i], l.fetch, n));
                    nd = uint32_t(dst - l.draw);
                }
            } else {
                for (uint32_t stop; (stop = chunk_end(l, n, k, first)) > k;)
                    for (; k < stop; ++k)
                        for (uint32_t i = 0; i < first; ++i) add(l, n, nd, k * first + i);
            }
            return k;
        }
    }

    // After a segment that looked up its `nd` indices and fetched `n`: reuse below one index
    // in kBypassReuse means the lookups cost more than the refetches they save, so the next
    // segments skip them (copy the indices; for strips and fans, draw linearly); then one
    // segment looks again.
    void bypass_if_no_reuse(size_t n, uint32_t nd) {
        if (p_.adaptive && nd >= kBypassMinIndices && (nd - n) * kBypassReuse < nd)
            bypass_left_ = kBypassSegments;
    }

    // Records a segment's time per 1024 indices for the loop it ran.
    static void time_loop(TriangleLoopTimes& t, TriangleLoop loop, uint64_t ticks,
                          uint32_t indices) {
        if (indices < kBypassMinIndices) return; // too short to time
        const uint64_t per = std::max<uint64_t>(ticks * 1024 / indices, 1);
        uint64_t& s = t.of(loop);
        s = s ? (3 * s + per) / 4 : per; // smoothed: one slow segment does not flip the choice
    }

    // Triangle lists from an index buffer through a direct-mapped table, triangle at a time.
    // The loop is chosen per segment from the previous segment's misses (choose_triangle_loop).
    [[gnu::always_inline]] uint32_t split_triangles(const Lists& l, uint32_t k0, size_t& n,
                                                    uint32_t& nd) {
        if (bypass_left_ > 0) return copy_triangles(l, k0, n, nd);
        const auto* const base = l.index.data + l.begin;
        uint32_t k = k0;
        const auto loop = loop_;
        segment_loop_ = loop;
        const uint64_t t0 = loop_start_;
        for (uint32_t stop; (stop = chunk_end(l, n, k, 3)) > k; k = stop) {
            const size_t tris = stop - k;
            const auto* const src = base + size_t(k) * 3;
            dedup_triangles(loop, l.table, src, tris, l.fetch, n, l.draw + nd);
            nd += uint32_t(3 * tris);
        }
        time_loop(l.table.loop_times(), loop, cycle_count() - t0, nd);
        // From the whole segment's misses (its chunks shrink towards its end).
        loop_ = choose_triangle_loop(l.table.loop_times(), n, nd, p_.fetch_limit >= kFilterFrom);
        bypass_if_no_reuse(n, nd);
        return k;
    }

    // A triangle-list piece without lookups: its indices are its fetch list, drawn linearly.
    [[gnu::always_inline]] uint32_t copy_triangles(const Lists& l, uint32_t k0, size_t& n,
                                                   uint32_t& nd) {
        --bypass_left_;
        const uint32_t k = std::min(l.kend, k0 + l.flimit / 3);
        n = nd = 3 * (k - k0);
        take_indices(l, 3 * k0, n);
        return k;
    }

    // The fetch list of a piece drawn without lookups: `count` indices from run position
    // `pos`, drawn in order. A u32 index buffer is handed on as it is (no copy at all);
    // other index types are widened into the fetch list.
    [[gnu::always_inline]] void take_indices(const Lists& l, uint32_t pos, size_t count) {
        const auto* src = l.index.data + l.begin + pos;
        if constexpr (std::is_same_v<Index, BufferIndex<uint32_t>>)
            borrowed_ = src;
        else
            copy_indices(src, count, l.fetch);
        linear_draw_ = true;
    }

    // Strips (and a loop's line strip): the first primitive in full, then `incr` new
    // positions each; pieces of strips with parity keep an even triangle count.
    [[gnu::always_inline]] uint32_t split_strip(const Lists& l, const Run& run, uint32_t k0,
                                                size_t& n, uint32_t& nd) {
        const uint32_t first = first_of(p_.ps), incr = p_.ps.incr;
        if constexpr (S == Shape::strip && First == 3 && Index::kBuffer)
            if (bypass_left_ > 0) return copy_strip(l, run, k0, n, nd);
        for (uint32_t i = 0; i < first; ++i) add(l, n, nd, k0 * incr + i);
        uint32_t k = k0 + 1;
        if constexpr (S == Shape::strip && First == 3 && Index::kBuffer) {
            // Triangle strips: one new index per triangle, walked by pointer.
            for (uint32_t stop; (stop = chunk_end(l, n, k, 1)) > k; k = stop) {
                const auto* src = l.index.data + l.begin + k + 2;
                uint16_t* dst = l.draw + nd;
                for (const auto* const end = src + (stop - k); src != end; ++src, ++dst)
                    *dst = uint16_t(l.table.lookup(*src, l.fetch, n));
                nd = uint32_t(dst - l.draw);
            }
        } else {
            for (uint32_t stop; (stop = chunk_end(l, n, k, incr)) > k;)
                for (; k < stop; ++k)
                    for (uint32_t i = 0; i < incr; ++i) add(l, n, nd, (k - 1) * incr + first + i);
        }
        if (has_strip_parity(p_.prim) && k < run.prims && ((k - k0) & 1)) {
            --k; // keep an even triangle count so the next piece starts on even parity
            nd -= incr;
        }
        // A strip that repeats almost no index (rows of a grid, one strip per row).
        if constexpr (S == Shape::strip && First == 3 && Index::kBuffer) bypass_if_no_reuse(n, nd);
        return k;
    }

    // A triangle-strip piece without lookups: every position is its own vertex, fetched in
    // the strip's order, so the piece draws linearly (no draw elements at all).
    [[gnu::always_inline]] uint32_t copy_strip(const Lists& l, const Run& run, uint32_t k0,
                                               size_t& n, uint32_t& nd) {
        --bypass_left_;
        uint32_t k = std::min(l.kend, k0 + (l.flimit - 2)); // one new vertex per triangle
        if (has_strip_parity(p_.prim) && k < run.prims && ((k - k0) & 1)) --k;
        n = nd = k - k0 + 2;
        take_indices(l, k0, n);
        return k;
    }

    // Fans and polygons: every piece starts with the centre, then the rim from k0 + 1.
    [[gnu::always_inline]] uint32_t split_fan(const Lists& l, uint32_t k0, size_t& n,
                                              uint32_t& nd) {
        if constexpr (Index::kBuffer)
            if (bypass_left_ > 0) return copy_fan(l, k0, n, nd);
        add(l, n, nd, 0);
        add(l, n, nd, k0 + 1);
        add(l, n, nd, k0 + 2);
        uint32_t k = k0 + 1;
        for (uint32_t stop; (stop = chunk_end(l, n, k, 1)) > k;)
            for (; k < stop; ++k) add(l, n, nd, k + 2);
        if constexpr (Index::kBuffer) bypass_if_no_reuse(n, nd);
        return k;
    }

    // A fan piece without lookups: the centre, then the rim in order, drawn linearly.
    [[gnu::always_inline]] uint32_t copy_fan(const Lists& l, uint32_t k0, size_t& n, uint32_t& nd) {
        --bypass_left_;
        const uint32_t k = std::min(l.kend, k0 + (l.flimit - 2)); // one new vertex per triangle
        const auto* src = l.index.data + l.begin;
        l.fetch[0] = src[0];
        copy_indices(src + k0 + 1, k - k0 + 1, l.fetch + 1);
        n = nd = k - k0 + 2;
        linear_draw_ = true;
        return k;
    }

    // Line loops: a whole loop stays one (closed downstream); pieces are line strips, the
    // last one closed with the loop's first vertex (in the slot build() kept free).
    [[gnu::always_inline]] uint32_t split_loop(const Lists& l, const Run& run, uint32_t k0,
                                               size_t& n, uint32_t& nd, Segment& seg) {
        const uint32_t k = split_strip(l, run, k0, n, nd);
        if (k0 == 0 && k == run.prims) {
            seg.prim = Prim::line_loop;
        } else {
            seg.prim = Prim::line_strip;
            if (k == run.prims) add(l, n, nd, 0);
        }
        return k;
    }

    // Geometry-shader input: each primitive's vertices in full, in the GS's input order.
    [[gnu::always_inline]] uint32_t split_assembled(const Lists& l, const Run& run, uint32_t k0,
                                                    size_t& n, uint32_t& nd) {
        const uint32_t first = first_of(p_.ps);
        uint32_t v[6];
        uint32_t k = k0;
        for (uint32_t stop; (stop = chunk_end(l, n, k, first)) > k;)
            for (; k < stop; ++k) {
                gs_input_prim(p_.prim, p_.pv, run.count, k, v);
                for (uint32_t i = 0; i < first; ++i) add(l, n, nd, v[i]);
            }
        return k;
    }

    // The filtered loop is offered from this many fetchable vertices (a 128 KiB table).
    static constexpr uint32_t kFilterFrom = 16384;
    SplitParams p_;
    Index index_;
    Table table_;
    TriangleLoop loop_ = TriangleLoop::plain; // chosen from the last segment's misses
    uint64_t loop_start_ = 0;                 // when the segment's triangle loop was set up
    uint32_t bypass_left_ = 0;                // segments still to split without lookups
    bool linear_draw_ = false;           // the segment just built draws its fetch list in order
    const uint32_t* borrowed_ = nullptr; // the segment just built fetches these indices
    Splitter* spread_ = nullptr;         // see after_first_segment
    TriangleLoop segment_loop_ = TriangleLoop::plain; // the last segment's triangle loop
    static constexpr uint32_t kCollisionShare = 64, kCollisionSample = 8;
};

} // namespace drawpipe::detail
