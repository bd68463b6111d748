// Indexed draws that fit one segment: the vertex range, fetched linearly. As Mesa's
// vsplit_primitive: the range [min, max] of the indices is fetched once and the draw
// elements are the indices rebased to min; no dedup table, no lookups. A small draw of one
// run is found before the front end sets up at all (find_range_draw): in a real driver most
// draws are small, and that set-up was most of their split.
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/range_draw.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <optional>
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
        write_range(p_.out_prim, indices_ + run.begin, run.count, range_, p_.base_vertex, st, seg);
        return run.prims;
    }

  private:
    SplitParams p_;
    const T* indices_;
    IndexRange range_;
};

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
    uint32_t n, cap, limit;
    if (!range_draw_asked(draw, ask, n, cap, limit)) return RangeDrawTest::unasked;
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
    number_range_draw(draw.prim, rd.count, seg, stats);
}

} // namespace drawpipe::detail
