// Non-indexed draws: every piece in closed form, no index copies. In a header so that the
// front end calls it without a virtual call.
#pragma once

#include "draw/internal/splitter.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe::detail {

class LinearSplitter final : public Splitter {
  public:
    // Primitives per segment are fixed for the draw: worked out once, not per segment.
    explicit LinearSplitter(const SplitParams& p)
        : p_(p), pmax_(prims_fitting(p.shape, p.ps,
                                     p.shape == Shape::loop ? p.fetch_limit - 1 : p.fetch_limit)) {}

    // Inline and final: FrontEnd::next calls it directly (a non-indexed draw's segments cost
    // a few ns each, so the virtual call and the spills around it were most of their cost).
    [[gnu::always_inline]] uint32_t build(const Run& run, uint32_t k0, SegmentStorage& st,
                                          Segment& seg) override {
        uint32_t k1 = std::min(run.stop, k0 + pmax_);
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
        case Shape::fan:
            fan_piece(run, k0, k1, st, seg);
            break;
        case Shape::loop:
            loop_piece(run, k0, k1, st, seg);
            break;
        case Shape::assembled:
            assert(false);
            break;
        }
        seg.draw_count = seg.fetch_count;
        return k1;
    }

  private:
    // The first piece is a plain range; later ones list the centre, then the rim from k0 + 1.
    static void fan_piece(const Run& run, uint32_t k0, uint32_t k1, SegmentStorage& st,
                          Segment& seg) {
        const uint32_t n = k1 - k0 + 2;
        seg.fetch_count = n;
        if (k0 == 0) {
            seg.fetch_start = run.begin;
            return;
        }
        st.fetch.resize(std::max<size_t>(st.fetch.size(), n));
        st.fetch[0] = run.begin;
        for (uint32_t i = 1; i < n; ++i) st.fetch[i] = run.begin + k0 + i;
        seg.fetch_elts = {st.fetch.data(), n};
    }

    // A whole loop stays a line loop (closed downstream); pieces are line strips, the last
    // one listed with the loop's first vertex appended.
    static void loop_piece(const Run& run, uint32_t k0, uint32_t k1, SegmentStorage& st,
                           Segment& seg) {
        const uint32_t n = k1 - k0 + 1;
        seg.fetch_start = run.begin + k0;
        seg.fetch_count = n;
        if (k0 == 0 && k1 == run.prims) {
            seg.prim = Prim::line_loop;
            return;
        }
        seg.prim = Prim::line_strip;
        if (k1 < run.prims) return;
        st.fetch.resize(std::max<size_t>(st.fetch.size(), n + 1));
        for (uint32_t i = 0; i < n; ++i) st.fetch[i] = run.begin + k0 + i;
        st.fetch[n] = run.begin;
        seg.fetch_elts = {st.fetch.data(), n + 1};
        seg.fetch_count = n + 1;
    }

    SplitParams p_;
    uint32_t pmax_;
};

} // namespace drawpipe::detail
