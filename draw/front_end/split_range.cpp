// Indexed draws that fit one segment: the vertex range, fetched linearly. As Mesa's
// vsplit_primitive: the range [min, max] of the indices is fetched once and the draw
// elements are the indices rebased to min; no dedup table, no lookups. A small draw of one
// run is found before the front end sets up at all (find_range_draw): in a real driver most
// draws are small, and that set-up was most of their split.
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/splitter.hpp"
#include "draw/pipeline/statistics.hpp"
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
// The answer is a bool and an out-parameter: a returned std::optional<IndexRange> went
// through the stack, a byte store read back as a word, which stalled the small draw's path.
template <class T>
bool qualifying_range(const T* idx, const DrawInfo& draw, uint32_t index_cap, uint32_t fetch_limit,
                      IndexRange& out) {
    const uint32_t count_cap = std::min(index_cap, kMaxSegmentVertices);
    if (draw.count == 0 || draw.count > count_cap) return false;
    const uint32_t b = draw.start, e = draw.start + draw.count;
    const bool restart =
        draw.primitive_restart && draw.restart_index <= std::numeric_limits<T>::max();
    IndexRange r;
    if (draw.count <= kSmallDrawIndices) {
        // A small draw in one pass: the vector scans' set-up would cost more than the loop.
        const uint32_t restart_index = draw.restart_index;
        uint32_t lo = UINT32_MAX, hi = 0;
        bool has_restart = false;
        for (uint32_t i = b; i < e; ++i) {
            const uint32_t v = idx[i];
            has_restart |= v == restart_index;
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
        if (restart && has_restart) return false;
        r = {lo, hi};
    } else {
        if (restart && find_restart(idx, b, e, draw.restart_index) != e) return false;
        r = scan_range(idx, b, e, false, 0);
    }
    const uint32_t width = r.max - r.min; // + 1 vertices
    if (width >= draw.count || width >= fetch_limit) return false;
    out = r;
    return true;
}

} // namespace

Splitter* range_splitter(SplitterPool& pool, const SplitParams& p, const DrawInfo& draw) {
    return with_indices(draw, [&](const auto* idx) -> Splitter* {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(idx)>>;
        IndexRange r;
        return qualifying_range(idx, draw, p.index_cap, p.fetch_limit, r)
                   ? &pool.make<RangeSplitter<T>>(p, idx, r)
                   : nullptr;
    });
}

RangeDrawTest find_range_draw(const DrawInfo& draw, const RangeDrawAsk& ask, RangeDraw& out) {
    // What choose_splitter would hand the range splitter, for one pass of one chunk of one run
    // of a primitive without patches or assembly (the only ones checked here).
    if (draw.index_type == IndexType::none || draw.instance_count != 1 || ask.assembled ||
        draw.prim == Prim::patches || ask.kind == Strategy::Kind::none ||
        ask.kind == Strategy::Kind::reorder)
        return RangeDrawTest::unasked;
    const uint32_t n = trim_count(draw.prim, draw.count);
    if (gl_prim_count(draw.prim, n) == 0) return RangeDrawTest::unasked;
    const uint32_t limit = std::min(ask.max_vertices, kMaxSegmentVertices);
    const uint32_t cap = segment_index_cap(Strategy{ask.kind, 0}, limit, draw.prim, 1);
    // Past the cap range_splitter refuses without a scan; past a chunk it is never asked.
    if (draw.count > cap || draw.count > ask.chunk) return RangeDrawTest::unasked;
    const bool qualifies = with_indices(
        draw, [&](const auto* idx) { return qualifying_range(idx, draw, cap, limit, out.range); });
    if (!qualifies) return RangeDrawTest::refused;
    out.count = n;
    return RangeDrawTest::taken;
}

void write_range_draw(const DrawInfo& draw, const RangeDraw& rd, SegmentStorage& st, Segment& seg,
                      FrontEndStats& stats) {
    with_indices(draw, [&](const auto* idx) {
        write_range(draw.prim, idx + draw.start, rd.count, rd.range, uint32_t(draw.base_vertex), st,
                    seg);
    });
    // Numbered and counted as next_split numbers and counts the range splitter's segment.
    seg.flags = 0;
    seg.prim_id_first = 0;
    seg.instance_first = 0;
    seg.instance_count = 1;
    seg.sequence = 0;
    seg.fetch_bias = 0;
    stats = {};
    stats.ia_vertices = rd.count;
    stats.ia_primitives = submitted_prim_count(draw.prim, rd.count, 1);
    stats.segments = 1;
    stats.indices = rd.count;
    stats.fetched = seg.fetch_count;
    stats.shaded = seg.fetch_count;
}

} // namespace drawpipe::detail
