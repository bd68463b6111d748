#include "draw/front_end.hpp"

#include "draw/dedup_table.hpp"
#include "draw/error.hpp"
#include "draw/limits.hpp"
#include "draw/prim.hpp"
#include "draw/reorder.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <charconv>
#include <limits>
#include <string>

namespace drawpipe {

namespace {

[[noreturn]] void fail(ErrorCode code, const std::string& msg) {
    throw Error(code, msg);
}

// How a run advances primitive by primitive.
enum class Shape : uint8_t {
    list,      // primitive k owns positions [k*first, (k+1)*first)
    strip,     // primitive k is [k*incr, k*incr + first): pieces overlap by first - incr
    fan,       // primitive k is {0, k+1, k+2}: later pieces repeat the centre
    loop,      // a line strip of n-1 lines, closed at the real end
    assembled, // geometry-shader input primitives, each listed in full
};

Shape shape_of(Prim prim, bool assembled) {
    if (assembled) return Shape::assembled;
    if (prim == Prim::line_loop) return Shape::loop;
    if (has_centre(prim)) return Shape::fan;
    return is_list(prim) ? Shape::list : Shape::strip;
}

// One restart-free run: `begin` is the absolute position of its first index (or vertex).
struct Run {
    uint32_t begin = 0;
    uint32_t count = 0; // trimmed to whole primitives
    uint32_t prims = 0; // primitives the splitter steps over (a loop's lines, GS inputs...)
    uint32_t gl_prims = 0;
};

// Per-draw constants the splitters read.
struct SplitParams {
    Prim prim;     // the draw's primitive
    Prim out_prim; // what segments carry (the GS input list type when assembling)
    Shape shape;
    PrimShape ps; // of out_prim's stepping (draw prim, or the GS list type)
    Provoking pv;
    uint32_t fetch_limit; // most distinct vertices per segment
    uint32_t index_cap;   // most draw elements per segment
    uint32_t base_vertex; // two's complement, added with wrap (validated not to overflow)
    bool adaptive;        // skip lookups while they find (almost) no reuse: the default strategy
};

// The default strategy stops looking up indices for kBypassSegments segments when a segment
// of at least kBypassMinIndices found fewer than one repeated index in kBypassReuse: below
// that, a lookup costs more than the refetch it saves (a vertex fetch and shade is tens of
// lookups), and random index buffers are the only ones that low. Extra fetches stay below
// 1/kBypassReuse of the indices.
constexpr uint32_t kBypassReuse = 256;
constexpr uint32_t kBypassSegments = 7;
constexpr uint32_t kBypassMinIndices = 1024;

// Largest number of primitives whose positions fit in `cap` (at least one by validation).
uint32_t prims_fitting(Shape shape, PrimShape ps, uint32_t cap) {
    if (shape == Shape::list || shape == Shape::assembled) return cap / ps.first;
    return cap < ps.first ? 0 : (cap - ps.first) / ps.incr + 1;
}

class Splitter {
  public:
    virtual ~Splitter() = default;
    // Fills seg's lists and prim for primitives [k0, k1) of run; returns k1 > k0.
    virtual uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) = 0;
};

// ---- non-indexed draws: closed-form pieces, no index copies ----
class LinearSplitter final : public Splitter {
  public:
    // Primitives per segment are fixed for the draw: worked out once, not per segment.
    explicit LinearSplitter(const SplitParams& p)
        : p_(p), pmax_(prims_fitting(p.shape, p.ps,
                                     p.shape == Shape::loop ? p.fetch_limit - 1 : p.fetch_limit)) {}

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        uint32_t k1 = std::min(run.prims, k0 + pmax_);
        if (has_strip_parity(p_.prim) && k1 < run.prims && ((k1 - k0) & 1)) --k1;
        seg.prim = p_.prim;
        seg.fetch_elts = {};
        seg.draw_elts = {};
        switch (p_.shape) {
        case Shape::list:
            seg.fetch_start = run.begin + k0 * p_.ps.first;
            seg.fetch_count = (k1 - k0) * p_.ps.first;
            break;
        case Shape::strip:
            seg.fetch_start = run.begin + k0 * p_.ps.incr;
            seg.fetch_count = p_.ps.first + (k1 - k0 - 1) * p_.ps.incr;
            break;
        case Shape::fan: {
            const uint32_t n = k1 - k0 + 2;
            if (k0 == 0) {
                seg.fetch_start = run.begin;
                seg.fetch_count = n;
            } else { // the centre, then the rim from k0 + 1
                st.fetch.resize(std::max<size_t>(st.fetch.size(), n));
                st.fetch[0] = run.begin;
                for (uint32_t i = 1; i < n; ++i) st.fetch[i] = run.begin + k0 + i;
                seg.fetch_elts = {st.fetch.data(), n};
                seg.fetch_count = n;
            }
            break;
        }
        case Shape::loop: {
            const uint32_t n = k1 - k0 + 1;
            seg.fetch_start = run.begin + k0;
            seg.fetch_count = n;
            if (k0 == 0 && k1 == run.prims) {
                seg.prim = Prim::line_loop; // whole loop in one piece: closed downstream
            } else {
                seg.prim = Prim::line_strip;
                if (k1 == run.prims) { // last piece: append the loop's first vertex
                    st.fetch.resize(std::max<size_t>(st.fetch.size(), n + 1));
                    for (uint32_t i = 0; i < n; ++i) st.fetch[i] = run.begin + k0 + i;
                    st.fetch[n] = run.begin;
                    seg.fetch_elts = {st.fetch.data(), n + 1};
                    seg.fetch_count = n + 1;
                }
            }
            break;
        }
        case Shape::assembled:
            assert(false);
            break;
        }
        seg.draw_count = seg.fetch_count;
        return k1;
    }

  private:
    SplitParams p_;
    uint32_t pmax_;
};

// ---- indexed draws that fit one segment: the vertex range, fetched linearly ----
// As Mesa's vsplit_primitive: the range [min, max] of the indices is fetched once and the
// draw elements are the indices rebased to min; no dedup table, no lookups. FrontEnd::begin takes
// it only for a draw that is one run whose range is no wider than its index count (so no
// more vertices are shaded than a dedup table would shade for a run without reuse) and fits the
// fetch limit.
template <class T> class RangeSplitter final : public Splitter {
  public:
    RangeSplitter(const SplitParams& p, const T* indices, IndexRange range)
        : p_(p), indices_(indices), range_(range) {}

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        assert(k0 == 0);
        (void)k0;
        if (st.draw.size() < run.count) st.draw.resize(run.count);
        const T* const src = indices_ + run.begin;
        uint16_t* const draw = st.draw.data();
        for (uint32_t i = 0; i < run.count; ++i) draw[i] = uint16_t(src[i] - range_.min);
        seg.prim = p_.out_prim; // a line loop stays one: it is not split
        seg.fetch_start = range_.min + p_.base_vertex;
        seg.fetch_count = range_.max - range_.min + 1;
        seg.fetch_elts = {};
        seg.draw_count = run.count;
        seg.draw_elts = {draw, run.count};
        return run.prims;
    }

  private:
    SplitParams p_;
    const T* indices_;
    IndexRange range_;
};

// ---- indexed draws (and assembled GS input): the dedup table ----
template <class T> struct BufferIndex {
    static constexpr bool kBuffer = true;
    const T* data;
    uint32_t operator()(uint32_t pos) const { return data[pos]; }
};
struct LinearIndex { // assembled non-indexed draws: the vertex id is the position
    static constexpr bool kBuffer = false;
    uint32_t operator()(uint32_t pos) const { return pos; }
};

// Splits indexed runs (and assembled GS input) through a dedup table. A segment grows
// primitive by primitive until the next one might exceed the fetch limit; that check runs
// once per chunk of primitives that is sure to fit (a primitive adds at most `first`, or
// `incr`, new vertices), so the per-index path is just load, look up, store. First is the
// list's vertices per primitive when known at compile time (3: triangles), else 0.
template <class Index, class Table, Shape S, uint32_t First = 0>
class DedupSplitter final : public Splitter {
  public:
    DedupSplitter(const SplitParams& p, Index index, Table table)
        : p_(p), index_(index), table_(std::move(table)) {}

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        const uint32_t fetch_cap = p_.fetch_limit, draw_cap = p_.index_cap;
        if (st.fetch.size() < fetch_cap) st.fetch.resize(fetch_cap);
        // One element of slack: packed triangle stores write a u16 past the last one.
        if (st.draw.size() < draw_cap + 1) st.draw.resize(draw_cap + 1);
        table_.reset();
        // Locals, so the hot loops keep everything in registers whatever the stores alias.
        const Table table = table_;
        const Index index = index_;
        uint32_t* const fetch = st.fetch.data();
        uint16_t* const draw = st.draw.data();
        size_t n = 0; // fetched so far
        uint32_t nd = 0;
        // The table keys on raw index values; the base vertex is added to the fetch list
        // once the segment is complete, off the per-index path.
        const uint32_t begin = run.begin;
        auto add = [&](uint32_t pos) {
            draw[nd++] = uint16_t(table.lookup(index(begin + pos), fetch, n));
        };

        // Loops keep one slot free for the closing vertex.
        constexpr uint32_t reserve = S == Shape::loop ? 1 : 0;
        const uint32_t flimit = fetch_cap - reserve;
        const uint32_t pmax = prims_fitting(S, p_.ps, draw_cap - reserve);
        const uint32_t kend = std::min(run.prims, k0 + pmax);
        const uint32_t first = First ? First : p_.ps.first, incr = p_.ps.incr;
        // Primitives from k that fit for sure when each adds at most `grow` new vertices.
        auto chunk_end = [&](uint32_t k, uint32_t grow) {
            return std::min(kend, k + (flimit - uint32_t(n)) / grow);
        };
        uint32_t k = k0;
        if constexpr (S == Shape::list && First == 3 && Index::kBuffer && Table::kDirect) {
            // Triangle lists through a direct-mapped table, triangle at a time. The loop is
            // chosen per chunk from the previous chunk's misses: above one in two, stores are
            // the bottleneck and the draw elements are packed.
            const auto* const base = index.data + begin;
            const bool bypass = bypass_left_ > 0;
            if (bypass) --bypass_left_;
            for (uint32_t stop; (stop = chunk_end(k, 3)) > k; k = stop) {
                const size_t tris = stop - k, n0 = n;
                const auto* const src = base + size_t(k) * 3;
                const auto loop = bypass    ? detail::TriangleLoop::copy
                                  : packed_ ? detail::TriangleLoop::packed
                                            : detail::TriangleLoop::plain;
                detail::dedup_triangles(loop, table, src, tris, fetch, n, draw + nd);
                nd += uint32_t(3 * tris);
                packed_ = (n - n0) * 2 > 3 * tris;
            }
            // Reuse below one index in kBypassReuse: the lookups cost more than the refetches
            // they save, so the next segments skip them; then one segment looks again.
            if (p_.adaptive && !bypass && nd >= kBypassMinIndices && (nd - n) * kBypassReuse < nd)
                bypass_left_ = kBypassSegments;
        } else if constexpr (S == Shape::list && Index::kBuffer) {
            for (uint32_t stop; (stop = chunk_end(k, first)) > k; k = stop) {
                // Pointer walks: no 32-bit position arithmetic on the per-index path.
                const auto* src = index.data + begin + size_t(k) * first;
                const auto* const src_end = src + size_t(stop - k) * first;
                uint16_t* dst = draw + nd;
                for (; src != src_end; src += first, dst += first)
                    for (uint32_t i = 0; i < first; ++i)
                        dst[i] = uint16_t(table.lookup(src[i], fetch, n));
                nd = uint32_t(dst - draw);
            }
        } else if constexpr (S == Shape::list) {
            for (uint32_t stop; (stop = chunk_end(k, first)) > k;)
                for (; k < stop; ++k)
                    for (uint32_t i = 0; i < first; ++i) add(k * first + i);
        } else if constexpr (S == Shape::assembled) {
            uint32_t v[6];
            for (uint32_t stop; (stop = chunk_end(k, first)) > k;)
                for (; k < stop; ++k) {
                    gs_input_prim(p_.prim, p_.pv, run.count, k, v);
                    for (uint32_t i = 0; i < first; ++i) add(v[i]);
                }
        } else if constexpr (S == Shape::fan) {
            add(0);
            add(k0 + 1);
            add(k0 + 2);
            ++k;
            for (uint32_t stop; (stop = chunk_end(k, 1)) > k;)
                for (; k < stop; ++k) add(k + 2);
        } else { // strip, loop
            for (uint32_t i = 0; i < first; ++i) add(k0 * incr + i);
            ++k;
            if constexpr (S == Shape::strip && First == 3 && Index::kBuffer) {
                // Triangle strips: one new index per triangle, walked by pointer.
                for (uint32_t stop; (stop = chunk_end(k, 1)) > k; k = stop) {
                    const auto* src = index.data + begin + k + 2;
                    uint16_t* dst = draw + nd;
                    for (const auto* const end = src + (stop - k); src != end; ++src, ++dst)
                        *dst = uint16_t(table.lookup(*src, fetch, n));
                    nd = uint32_t(dst - draw);
                }
            } else {
                for (uint32_t stop; (stop = chunk_end(k, incr)) > k;)
                    for (; k < stop; ++k)
                        for (uint32_t i = 0; i < incr; ++i) add((k - 1) * incr + first + i);
            }
            if (has_strip_parity(p_.prim) && k < run.prims && ((k - k0) & 1)) {
                --k; // keep an even triangle count so the next piece starts on even parity
                nd -= incr;
            }
        }
        seg.prim = p_.out_prim;
        if constexpr (S == Shape::loop) {
            if (k0 == 0 && k == run.prims)
                seg.prim = Prim::line_loop;
            else {
                seg.prim = Prim::line_strip;
                if (k == run.prims) add(0);
            }
        }
        if (const uint32_t bias = p_.base_vertex)
            for (size_t i = 0; i < n; ++i) fetch[i] += bias;
        seg.fetch_start = 0;
        seg.fetch_count = uint32_t(n);
        seg.fetch_elts = {fetch, n};
        seg.draw_count = nd;
        seg.draw_elts = {draw, nd};
        return k;
    }

  private:
    SplitParams p_;
    Index index_;
    Table table_;
    bool packed_ = false;      // the last chunk missed more than it hit
    uint32_t bypass_left_ = 0; // segments still to split without lookups
};

template <class Index, class Table>
std::unique_ptr<Splitter> make_dedup(const SplitParams& p, Index index, Table table) {
    switch (p.shape) {
    case Shape::list:
        if (p.ps.first == 3)
            return std::make_unique<DedupSplitter<Index, Table, Shape::list, 3>>(p, index, table);
        return std::make_unique<DedupSplitter<Index, Table, Shape::list>>(p, index, table);
    case Shape::strip:
        if (p.prim == Prim::triangle_strip)
            return std::make_unique<DedupSplitter<Index, Table, Shape::strip, 3>>(p, index, table);
        return std::make_unique<DedupSplitter<Index, Table, Shape::strip>>(p, index, table);
    case Shape::fan:
        return std::make_unique<DedupSplitter<Index, Table, Shape::fan>>(p, index, table);
    case Shape::loop:
        return std::make_unique<DedupSplitter<Index, Table, Shape::loop>>(p, index, table);
    case Shape::assembled:
        if (p.ps.first == 3)
            return std::make_unique<DedupSplitter<Index, Table, Shape::assembled, 3>>(p, index,
                                                                                      table);
        return std::make_unique<DedupSplitter<Index, Table, Shape::assembled>>(p, index, table);
    }
    return nullptr;
}

// Table entries per vertex a segment may fetch, for the default strategy.
constexpr uint32_t kDistinctEntriesPerVertex = 4;

template <class Index>
std::unique_ptr<Splitter> make_for_strategy(const SplitParams& p, const Strategy& s, Index index,
                                            detail::DedupArena& arena, uint32_t count) {
    // No segment fetches more than the draw has indices, so small draws get small tables.
    const uint32_t max_fetch = std::min(p.fetch_limit, std::max(count, 1u));
    switch (s.kind) {
    case Strategy::Kind::vsplit: {
        detail::DirectDedup<detail::ModHash> table;
        table.configure(arena, kVsplitTableEntries, p.fetch_limit);
        return make_dedup(p, index, table);
    }
    case Strategy::Kind::direct: {
        detail::DirectDedup<detail::ModHash> table;
        table.configure(arena, s.entries, p.fetch_limit);
        return make_dedup(p, index, table);
    }
    case Strategy::Kind::distinct: {
        detail::DirectDedup<detail::FibHash> table;
        table.configure(arena, std::bit_ceil(max_fetch) * kDistinctEntriesPerVertex, p.fetch_limit);
        return make_dedup(p, index, table);
    }
    case Strategy::Kind::exact: {
        detail::ExactDedup table;
        table.configure(arena, max_fetch);
        return make_dedup(p, index, table);
    }
    case Strategy::Kind::none:
        return make_dedup(p, index, detail::NoDedup{});
    case Strategy::Kind::reorder:
        break; // begin() has swapped in the reordered buffer
    }
    return nullptr;
}

template <class T>
uint32_t find_restart(const T* idx, uint32_t from, uint32_t end, uint32_t restart) {
    if (restart > std::numeric_limits<T>::max()) return end; // can never match this type
    const T r = T(restart);
    uint32_t i = from;
    // Blocks of 16 compared without an early exit, which compilers vectorise; then the exact
    // position within the block that matched.
    for (; i + 16 <= end; i += 16) {
        bool any = false;
        for (uint32_t j = 0; j < 16; ++j) any |= idx[i + j] == r;
        if (any) break;
    }
    for (; i < end; ++i)
        if (idx[i] == r) return i;
    return end;
}

template <class T>
IndexRange scan_range(const T* idx, uint32_t begin, uint32_t end, bool restart, uint32_t rvalue) {
    uint32_t lo = UINT32_MAX, hi = 0;
    if (restart && rvalue <= std::numeric_limits<T>::max()) {
        for (uint32_t i = begin; i < end; ++i) {
            const uint32_t v = idx[i];
            if (v == rvalue) continue;
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
    } else {
        for (uint32_t i = begin; i < end; ++i) {
            const uint32_t v = idx[i];
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
    }
    return {lo, hi};
}

// The range splitter for `draw` when it qualifies (see RangeSplitter), else null: no
// restart index among its indices, count within the segment's index cap, and a range no
// wider than the count or the fetch limit.
template <class T>
std::unique_ptr<Splitter> range_splitter(const SplitParams& p, const DrawInfo& draw,
                                         uint32_t count_cap) {
    const auto* idx = static_cast<const T*>(draw.indices);
    const uint32_t b = draw.start, e = draw.start + draw.count;
    if (draw.count == 0 || draw.count > count_cap) return nullptr;
    const bool restart =
        draw.primitive_restart && draw.restart_index <= std::numeric_limits<T>::max();
    if (restart && find_restart(idx, b, e, draw.restart_index) != e) return nullptr;
    const IndexRange r = scan_range(idx, b, e, false, 0);
    const uint32_t width = r.max - r.min; // + 1 vertices
    if (width >= draw.count || width >= p.fetch_limit) return nullptr;
    return std::make_unique<RangeSplitter<T>>(p, idx, r);
}

// An indexed draw's splitter: Mesa's fast path when the draw qualifies (never for GS
// assembly, nor for `none`, which promises a fetch per index), else the strategy's dedup table.
template <class T>
std::unique_ptr<Splitter> indexed_splitter(const SplitParams& p, const Strategy& s,
                                           const DrawInfo& draw, bool assembled,
                                           detail::DedupArena& arena) {
    if (!assembled && s.kind != Strategy::Kind::none)
        if (auto range = range_splitter<T>(p, draw, std::min(p.index_cap, kMaxSegmentVertices)))
            return range;
    return make_for_strategy(p, s, BufferIndex<T>{static_cast<const T*>(draw.indices)}, arena,
                             draw.count);
}

IndexRange scan_range(const DrawInfo& d) {
    const uint32_t b = d.start, e = d.start + d.count;
    switch (d.index_type) {
    case IndexType::u8:
        return scan_range(static_cast<const uint8_t*>(d.indices), b, e, d.primitive_restart,
                          d.restart_index);
    case IndexType::u16:
        return scan_range(static_cast<const uint16_t*>(d.indices), b, e, d.primitive_restart,
                          d.restart_index);
    case IndexType::u32:
        return scan_range(static_cast<const uint32_t*>(d.indices), b, e, d.primitive_restart,
                          d.restart_index);
    case IndexType::none:
        break;
    }
    return {d.start, d.start + d.count - 1};
}

} // namespace

IndexRange scan_index_range(const DrawInfo& draw) {
    return scan_range(draw);
}

std::optional<Strategy> Strategy::parse(std::string_view name) {
    if (name == "distinct" || name == "default") return Strategy{Kind::distinct, 0};
    if (name == "vsplit") return Strategy{Kind::vsplit, kVsplitTableEntries};
    if (name == "exact") return Strategy{Kind::exact, 0};
    if (name == "none") return Strategy{Kind::none, 0};
    if (name == "reorder") return Strategy{Kind::reorder, 0};
    if (name.starts_with("direct-")) {
        uint32_t n = 0;
        const auto digits = name.substr(7);
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec == std::errc{} && ptr == digits.data() + digits.size() && n >= 2 &&
            n <= (1u << 24) && std::has_single_bit(n))
            return Strategy{Kind::direct, n};
    }
    return std::nullopt;
}

std::string Strategy::name() const {
    switch (kind) {
    case Kind::distinct:
        return "distinct";
    case Kind::vsplit:
        return "vsplit";
    case Kind::direct:
        return "direct-" + std::to_string(entries);
    case Kind::exact:
        return "exact";
    case Kind::none:
        return "none";
    case Kind::reorder:
        return "reorder";
    }
    return "?";
}

void validate_draw(const DrawInfo& d) {
    if (uint32_t(d.prim) >= uint32_t(kPrimCount))
        fail(ErrorCode::invalid_value,
             "prim: unknown primitive type " + std::to_string(int(d.prim)));
    if (uint32_t(d.index_type) > uint32_t(IndexType::u32))
        fail(ErrorCode::invalid_value, "index_type: unknown index type");
    if (uint32_t(d.provoking) > uint32_t(Provoking::last))
        fail(ErrorCode::invalid_value, "provoking: must be first or last");
    // The end position start + count must itself be a 32-bit value.
    if (uint64_t(d.start) + d.count > uint64_t(UINT32_MAX))
        fail(ErrorCode::count_overflow, "start + count: " + std::to_string(d.start) + " + " +
                                            std::to_string(d.count) + " overflows 32 bits");
    if (d.instance_count > 0 && uint64_t(d.base_instance) + d.instance_count - 1 > UINT32_MAX)
        fail(ErrorCode::count_overflow, "base_instance + instance_count overflows 32 bits");
    if (d.index_type != IndexType::none) {
        if (d.count > 0 && d.indices == nullptr)
            fail(ErrorCode::invalid_value, "indices: null index buffer for an indexed draw");
        if (uint64_t(d.start) + d.count > d.index_buffer_count)
            fail(ErrorCode::index_buffer_overrun,
                 "start + count: " + std::to_string(uint64_t(d.start) + d.count) +
                     " indices needed but the index buffer holds " +
                     std::to_string(d.index_buffer_count));
    }
    if (d.index_range && d.index_range->min > d.index_range->max)
        fail(ErrorCode::invalid_value, "index_range: min > max");
}

struct FrontEnd::Impl {
    DrawInfo draw;
    SplitParams params{};
    std::unique_ptr<Splitter> splitter;
    detail::DedupArena arena;        // kept across draws
    std::vector<uint32_t> reordered; // the reorder strategy's index buffer
    FrontEndStats stats;
    bool instancing = false;          // the middle end takes every instance in one segment
    bool single_segment_only = false; // ... but only when the draw is one segment (GL order)
    uint32_t instance = 0, instance_end = 0;
    uint32_t cursor = 0, end = 0; // absolute index positions of the current instance pass
    bool run_open = false;
    Run run;
    uint32_t k = 0;            // next primitive of the open run
    uint32_t prim_id_base = 0; // primitives of earlier runs in this instance
    uint64_t sequence = 0;

    uint32_t find_restart_from(uint32_t from) const {
        if (!draw.primitive_restart) return end;
        switch (draw.index_type) {
        case IndexType::u8:
            return find_restart(static_cast<const uint8_t*>(draw.indices), from, end,
                                draw.restart_index);
        case IndexType::u16:
            return find_restart(static_cast<const uint16_t*>(draw.indices), from, end,
                                draw.restart_index);
        case IndexType::u32:
            return find_restart(static_cast<const uint32_t*>(draw.indices), from, end,
                                draw.restart_index);
        case IndexType::none:
            break;
        }
        return end;
    }

    bool open_next_run() {
        for (;;) {
            if (cursor >= end) {
                if (++instance >= instance_end) return false;
                cursor = draw.start;
                prim_id_base = 0;
            }
            const uint32_t r = find_restart_from(cursor);
            const uint32_t n = trim_count(params.prim, r - cursor);
            run.begin = cursor;
            run.count = n;
            run.gl_prims = gl_prim_count(params.prim, n);
            switch (params.shape) {
            case Shape::fan:
                run.prims = n >= 3 ? n - 2 : 0;
                break;
            case Shape::loop:
                run.prims = n >= 2 ? n - 1 : 0;
                break;
            case Shape::assembled:
                run.prims = run.gl_prims;
                break;
            default:
                run.prims = gl_prim_count(params.prim, n);
                break;
            }
            cursor = r < end ? r + 1 : end;
            if (run.prims > 0) {
                k = 0;
                return true;
            }
        }
    }
};

FrontEnd::FrontEnd() : impl_(std::make_unique<Impl>()) {}
FrontEnd::~FrontEnd() = default;
FrontEnd::FrontEnd(FrontEnd&&) noexcept = default;
FrontEnd& FrontEnd::operator=(FrontEnd&&) noexcept = default;

void FrontEnd::begin(const DrawInfo& input, const FrontEndOptions& input_options) {
    validate_draw(input);
    Impl& m = *impl_;
    m.draw = input;
    FrontEndOptions options = input_options;
    if (options.strategy.kind == Strategy::Kind::reorder) {
        // Draw the reordered copy (kept in Impl, reused across draws) with exact de-duplication.
        options.strategy = Strategy{Strategy::Kind::exact, 0};
        if (reorder_for_vertex_cache(input, m.reordered)) {
            m.draw.index_type = IndexType::u32;
            m.draw.indices = m.reordered.data();
            m.draw.index_buffer_count = uint32_t(m.reordered.size());
            m.draw.start = 0;
            m.draw.count = uint32_t(m.reordered.size());
            m.draw.primitive_restart = false;
        }
    }
    const DrawInfo& draw = m.draw;
    m.stats = {};
    m.sequence = 0;
    m.run_open = false;

    const MiddleEndLimits& lim = options.limits;
    if (lim.max_vertices == 0)
        fail(ErrorCode::middle_end_failure,
             "max_vertices: the middle end reported 0 vertices per segment");
    const bool assembled = lim.assemble_as.has_value();
    if (assembled && !gs_input_compatible(draw.prim, *lim.assemble_as))
        fail(ErrorCode::invalid_value, std::string("prim: ") + std::string(prim_name(draw.prim)) +
                                           " cannot feed a geometry shader taking " +
                                           std::string(prim_name(*lim.assemble_as)));
    const Prim out_prim = assembled ? *lim.assemble_as : draw.prim;
    const uint32_t limit = std::min(lim.max_vertices, kMaxSegmentVertices);
    if (limit < min_segment_vertices(out_prim))
        fail(ErrorCode::limit_too_small,
             "max_vertices: " + std::to_string(limit) + " is below the " +
                 std::to_string(min_segment_vertices(out_prim)) + " vertices " +
                 std::string(prim_name(out_prim)) + " needs per segment");

    const bool indexed = draw.index_type != IndexType::none;
#ifndef NDEBUG
    // A given index range is trusted; debug builds check that it bounds the indices.
    if (indexed && draw.index_range && draw.count > 0) {
        const IndexRange s = scan_range(draw);
        if (s.min <= s.max && (s.min < draw.index_range->min || s.max > draw.index_range->max))
            fail(ErrorCode::index_range_mismatch, "index_range: indices [" + std::to_string(s.min) +
                                                      ", " + std::to_string(s.max) +
                                                      "] fall outside the given range");
    }
#endif
    // Base vertex must not carry any index out of [0, 2^32).
    if (indexed && draw.base_vertex != 0 && draw.count > 0) {
        const IndexRange r = draw.index_range ? *draw.index_range : scan_range(draw);
        if (r.min <= r.max) {
            const int64_t lo = int64_t(r.min) + draw.base_vertex,
                          hi = int64_t(r.max) + draw.base_vertex;
            if (lo < 0 || hi > int64_t(UINT32_MAX))
                fail(ErrorCode::base_vertex_overflow,
                     "base_vertex: " + std::to_string(draw.base_vertex) + " takes index " +
                         std::to_string(lo < 0 ? r.min : r.max) + " outside [0, 2^32)");
        }
    }

    SplitParams& p = m.params;
    p.prim = draw.prim;
    p.out_prim = out_prim;
    p.shape = shape_of(draw.prim, assembled);
    p.ps = prim_shape(assembled ? out_prim : draw.prim);
    p.pv = draw.provoking;
    p.fetch_limit = limit;
    p.base_vertex = indexed ? uint32_t(draw.base_vertex) : 0;
    p.adaptive = options.strategy.kind == Strategy::Kind::distinct;
    const Strategy& s = options.strategy;
    if (s.kind == Strategy::Kind::vsplit)
        p.index_cap = std::min(kVsplitSegmentIndices, limit);
    else if (s.kind == Strategy::Kind::none)
        p.index_cap = limit;
    else
        p.index_cap = std::clamp(limit * 8, limit, kMaxSegmentVertices);
    p.index_cap = std::max(p.index_cap, min_segment_vertices(out_prim));

    switch (draw.index_type) {
    case IndexType::u8:
        m.splitter = indexed_splitter<uint8_t>(p, s, draw, assembled, m.arena);
        break;
    case IndexType::u16:
        m.splitter = indexed_splitter<uint16_t>(p, s, draw, assembled, m.arena);
        break;
    case IndexType::u32:
        m.splitter = indexed_splitter<uint32_t>(p, s, draw, assembled, m.arena);
        break;
    case IndexType::none:
        if (assembled)
            m.splitter = make_for_strategy(p, s, LinearIndex{}, m.arena, draw.count);
        else
            m.splitter = std::make_unique<LinearSplitter>(p);
        break;
    }

    m.instancing = lim.handles_instancing;
    m.single_segment_only = lim.instancing_single_segment_only;
    m.instance = 0;
    m.instance_end = draw.count == 0
                         ? 0
                         : (m.instancing ? std::min(draw.instance_count, 1u) : draw.instance_count);
    m.cursor = draw.start;
    m.end = draw.start + draw.count;
    m.prim_id_base = 0;
    if (m.instance_end == 0) m.cursor = m.end; // nothing to draw
}

bool FrontEnd::next(SegmentStorage& storage, Segment& seg) {
    Impl& m = *impl_;
    if (m.instance >= m.instance_end) return false;
    if (!m.run_open) {
        if (!m.open_next_run()) {
            m.instance = m.instance_end;
            return false;
        }
        m.run_open = true;
    }
    const uint32_t k0 = m.k;
    const uint32_t k1 = m.splitter->build(m.run, k0, storage, seg);
    assert(k1 > k0);
    seg.flags = (k0 > 0 ? SPLIT_BEFORE : 0) | (k1 < m.run.prims ? SPLIT_AFTER : 0);
    seg.prim_id_first = m.prim_id_base + k0;
    if (m.instancing && m.single_segment_only && m.sequence == 0 &&
        (k1 < m.run.prims || m.cursor < m.end)) {
        m.instancing = false; // the draw splits: one pass per instance keeps GL order
        m.instance_end = m.draw.instance_count;
    }
    seg.instance_first = m.instancing ? 0 : m.instance;
    seg.instance_count = m.instancing ? m.draw.instance_count : 1;
    seg.sequence = m.sequence++;
    seg.fetch_bias = 0; // `seg` may last have carried a cached split's replay
    m.k = k1;
    if (k1 >= m.run.prims) {
        m.run_open = false;
        m.prim_id_base += m.run.gl_prims;
    }
    m.stats.segments++;
    m.stats.indices += seg.draw_count;
    m.stats.fetched += seg.fetch_count;
    return true;
}

const FrontEndStats& FrontEnd::stats() const {
    return impl_->stats;
}

} // namespace drawpipe
