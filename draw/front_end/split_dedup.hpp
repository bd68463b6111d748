// The de-duplicating splitter: indexed runs (and assembled GS input) through a dedup table
// (dedup_table.hpp), one kernel per primitive class, as Mesa's draw_split_tmp.h: lists,
// strips, fans, line loops and GS input; triangle lists through a direct-mapped table run
// the timed loops of triangle_loops.hpp. A segment grows by chunks of primitives that surely
// fit (a primitive adds at most `first`, or `incr`, new vertices), so the per-index path is
// load, look up, store. The base vertex is added to the finished fetch list (or, for a u32
// buffer handed on uncopied, carried as the segment's fetch_bias).
#pragma once

#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/splitter.hpp"
#include "draw/front_end/triangle_loops.hpp"
#include "drawpipe/extend/prim_assembly.hpp"

#include <algorithm>
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

// The lookup bypass: after a segment of at least kBypassMinIndices with fewer than one
// repeated index in kBypassReuse, the next kBypassSegments skip the table (a lookup then
// costs more than the refetch it saves): docs/front-end.md, "The lookup bypass".
inline constexpr uint32_t kBypassReuse = 256;
inline constexpr uint32_t kBypassSegments = 7;
inline constexpr uint32_t kBypassMinIndices = 1024;

// Copies indices into a fetch list: u32 ones as memmove does, u8 and u16 ones widened in
// vectorised blocks (faster than std::copy: docs/front-end.md, "The lookup bypass").
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
    DedupSplitter(const SplitParams& p, Index index, Table table, TriangleLoopArena& loops)
        : p_(p), index_(index), table_(table), loops_(loops) {}

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        const uint32_t fetch_cap = p_.fetch_limit, draw_cap = p_.index_cap;
        if (st.fetch.size() < fetch_cap) st.fetch.resize(fetch_cap);
        // One element of slack: packed triangle stores write a u16 past the last one.
        if (st.draw.size() < draw_cap + 1) st.draw.resize(draw_cap + 1);
        table_.reset();
        if constexpr (kTimedTriangles) {
            if (bypass_left_ == 0)
                loops_.begin_segment(table_, fetch_cap);
            else
                loops_.skip_segment();
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

    // The default strategy's masked table makes ids a multiple of its size apart collide: when
    // more than 1 in kCollisionShare of every kCollisionSample-th vertex of the first segment
    // was evicted, `spread` (a Fibonacci-hashed table) splits the draw: docs/front-end.md,
    // "The collision check".
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
            uint32_t evicted = 0, checked = 0;
            for (uint32_t i = 0; i < fetch.size(); i += kCollisionSample, ++checked)
                evicted += loops_.position_of(table_, fetch[i] - p_.base_vertex) != i;
            if (evicted * kCollisionShare > checked) return spread_;
        }
        return this;
    }

  private:
    // Triangle lists from an index buffer through a direct-mapped table: the timed loops.
    static constexpr bool kTimedTriangles =
        S == Shape::list && First == 3 && Index::kBuffer && Table::kDirect;

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
        if constexpr (kTimedTriangles) {
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

    // Triangle lists through the timed loops, triangle at a time; the loop is chosen from the
    // whole segment's misses (its chunks shrink towards its end).
    [[gnu::always_inline]] uint32_t split_triangles(const Lists& l, uint32_t k0, size_t& n,
                                                    uint32_t& nd) {
        if (bypass_left_ > 0) return copy_triangles(l, k0, n, nd);
        const auto* const base = l.index.data + l.begin;
        uint32_t k = k0;
        for (uint32_t stop; (stop = chunk_end(l, n, k, 3)) > k; k = stop) {
            const size_t tris = stop - k;
            loops_.run(l.table, base + size_t(k) * 3, tris, l.fetch, n, l.draw + nd);
            nd += uint32_t(3 * tris);
        }
        loops_.end_segment(n, nd, p_.fetch_limit);
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

    SplitParams p_;
    Index index_;
    Table table_;
    TriangleLoops<Table> loops_;         // used by kTimedTriangles and the collision check
    uint32_t bypass_left_ = 0;           // segments still to split without lookups
    bool linear_draw_ = false;           // the segment just built draws its fetch list in order
    const uint32_t* borrowed_ = nullptr; // the segment just built fetches these indices
    Splitter* spread_ = nullptr;         // see after_first_segment
    static constexpr uint32_t kCollisionShare = 64, kCollisionSample = 8;
};

} // namespace drawpipe::detail
