// Indexed draws that fit one segment: the vertex range, fetched linearly. As Mesa's
// vsplit_primitive: the range [min, max] of the indices is fetched once and the draw
// elements are the indices rebased to min; no dedup table, no lookups. A small draw of one
// run is found before the front end sets up at all (find_range_draw): in a real driver most
// draws are small, and that set-up was most of their split.
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/splitter.hpp"
#include "drawpipe/limits.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <optional>
#include <type_traits>

namespace drawpipe::detail {

namespace {

// The segment: the range [min, max] fetched, the run's `count` indices rebased to min.
template <class T>
void write_range(Prim prim, const T* src, uint32_t count, IndexRange range, uint32_t base_vertex,
                 SegmentStorage& st, Segment& seg) {
    if (st.draw.size() < count) st.draw.resize(count);
    uint16_t* const draw = st.draw.data();
    // Vectorised: the plain loop was half the time of a one-segment mesh's split.
    rebase_indices(src, count, range.min, draw);
    seg.prim = prim; // a line loop stays one: it is not split
    seg.fetch_start = range.min + base_vertex;
    seg.fetch_count = range.max - range.min + 1;
    seg.fetch_elts = {};
    seg.draw_count = count;
    seg.draw_elts = {draw, count};
}

template <class T> class RangeSplitter final : public Splitter {
  public:
    RangeSplitter(const SplitParams& p, const T* indices, IndexRange range)
        : p_(p), indices_(indices), range_(range) {}

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        assert(k0 == 0 && run.stop == run.prims); // the draw is one run of one chunk
        (void)k0;
        write_range(p_.out_prim, indices_ + run.begin, run.count, range_, p_.base_vertex, st, seg);
        return run.prims;
    }

  private:
    SplitParams p_;
    const T* indices_;
    IndexRange range_;
};

// Below this many indices a draw's range is found by a plain loop.
constexpr uint32_t kSmallDrawIndices = 32;

// The draw's index range when it qualifies: one run (no restart index among its indices) of
// at most `index_cap` indices, its range no wider than its index count (so no more vertices
// are shaded than a dedup table would shade for a run without reuse) nor `fetch_limit`.
template <class T>
std::optional<IndexRange> qualifying_range(const T* idx, const DrawInfo& draw, uint32_t index_cap,
                                           uint32_t fetch_limit) {
    const uint32_t count_cap = std::min(index_cap, kMaxSegmentVertices);
    if (draw.count == 0 || draw.count > count_cap) return std::nullopt;
    const uint32_t b = draw.start, e = draw.start + draw.count;
    const bool restart =
        draw.primitive_restart && draw.restart_index <= std::numeric_limits<T>::max();
    IndexRange r;
    if (draw.count <= kSmallDrawIndices) {
        // A small draw in one pass: the vector scans' set-up would cost more than the loop.
        uint32_t lo = UINT32_MAX, hi = 0;
        bool has_restart = false;
        for (uint32_t i = b; i < e; ++i) {
            const uint32_t v = idx[i];
            has_restart |= v == draw.restart_index;
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
        if (restart && has_restart) return std::nullopt;
        r = {lo, hi};
    } else {
        if (restart && find_restart(idx, b, e, draw.restart_index) != e) return std::nullopt;
        r = scan_range(idx, b, e, false, 0);
    }
    const uint32_t width = r.max - r.min; // + 1 vertices
    if (width >= draw.count || width >= fetch_limit) return std::nullopt;
    return r;
}

} // namespace

Splitter* range_splitter(SplitterPool& pool, const SplitParams& p, const DrawInfo& draw) {
    return with_indices(draw, [&](const auto* idx) -> Splitter* {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(idx)>>;
        const auto r = qualifying_range(idx, draw, p.index_cap, p.fetch_limit);
        return r ? &pool.make<RangeSplitter<T>>(p, idx, *r) : nullptr;
    });
}

RangeDrawTest find_range_draw(const DrawInfo& draw, const FrontEndOptions& options,
                              RangeDraw& out) {
    // What choose_splitter would hand the range splitter, for one pass of one chunk of one run
    // of a primitive without patches or assembly (the only ones checked here).
    const Strategy::Kind kind = options.strategy.kind;
    if (draw.index_type == IndexType::none || draw.instance_count != 1 ||
        options.limits.assemble_as || draw.prim == Prim::patches || kind == Strategy::Kind::none ||
        kind == Strategy::Kind::reorder)
        return RangeDrawTest::unasked;
    const uint32_t n = trim_count(draw.prim, draw.count);
    if (gl_prim_count(draw.prim, n) == 0) return RangeDrawTest::unasked;
    const uint32_t limit = std::min(options.limits.max_vertices, kMaxSegmentVertices);
    const uint32_t cap = segment_index_cap(options.strategy, limit, draw.prim, 1);
    // Past the cap range_splitter refuses without a scan; past a chunk it is never asked.
    if (draw.count > cap || draw.count > chunk_size(options)) return RangeDrawTest::unasked;
    const auto r = with_indices(
        draw, [&](const auto* idx) { return qualifying_range(idx, draw, cap, limit); });
    if (!r) return RangeDrawTest::refused;
    out = {*r, n};
    return RangeDrawTest::taken;
}

void write_range_draw(const DrawInfo& draw, const RangeDraw& rd, SegmentStorage& st, Segment& seg) {
    with_indices(draw, [&](const auto* idx) {
        write_range(draw.prim, idx + draw.start, rd.count, rd.range, uint32_t(draw.base_vertex), st,
                    seg);
    });
}

} // namespace drawpipe::detail
