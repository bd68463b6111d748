// Indexed draws that fit one segment: the vertex range, fetched linearly. As Mesa's
// vsplit_primitive: the range [min, max] of the indices is fetched once and the draw
// elements are the indices rebased to min; no dedup table, no lookups.
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/splitter.hpp"
#include "drawpipe/limits.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <type_traits>

namespace drawpipe::detail {

namespace {

template <class T> class RangeSplitter final : public Splitter {
  public:
    RangeSplitter(const SplitParams& p, const T* indices, IndexRange range)
        : p_(p), indices_(indices), range_(range) {}

    uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st, Segment& seg) override {
        assert(k0 == 0 && run.stop == run.prims); // the draw is one run of one chunk
        (void)k0;
        if (st.draw.size() < run.count) st.draw.resize(run.count);
        const T* const src = indices_ + run.begin;
        uint16_t* const draw = st.draw.data();
        // Vectorised: the plain loop was half the time of a one-segment mesh's split.
        rebase_indices(src, run.count, range_.min, draw);
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

} // namespace

// The draw qualifies when it is one run (no restart index among its indices) of at most the
// segment's index cap, and its range is no wider than its index count (so no more vertices
// are shaded than a dedup table would shade for a run without reuse) nor the fetch limit.
Splitter* range_splitter(SplitterPool& pool, const SplitParams& p, const DrawInfo& draw) {
    const uint32_t count_cap = std::min(p.index_cap, kMaxSegmentVertices);
    if (draw.count == 0 || draw.count > count_cap) return nullptr;
    return with_indices(draw, [&](const auto* idx) -> Splitter* {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(idx)>>;
        const uint32_t b = draw.start, e = draw.start + draw.count;
        const bool restart =
            draw.primitive_restart && draw.restart_index <= std::numeric_limits<T>::max();
        if (restart && find_restart(idx, b, e, draw.restart_index) != e) return nullptr;
        const IndexRange r = scan_range(idx, b, e, false, 0);
        const uint32_t width = r.max - r.min; // + 1 vertices
        if (width >= draw.count || width >= p.fetch_limit) return nullptr;
        return &pool.make<RangeSplitter<T>>(p, idx, r);
    });
}

} // namespace drawpipe::detail
