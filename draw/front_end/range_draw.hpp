// The range draw, inline: an indexed draw of one run that is one segment, its vertices the
// range [min, max] of its indices fetched once and its draw elements the indices rebased to
// min (Mesa's vsplit_primitive). The range splitter and the front end's shortcut use it
// (split_range.cpp), and so does DrawSegments' small draw, in one function: there the calls
// between these pieces were a good part of a 12-index draw's split.
#pragma once

#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/splitter.hpp"
#include "draw/front_end/submitted_count.hpp"
#include "drawpipe/limits.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace drawpipe::detail {

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

// Below this many indices a draw's range is found by a plain loop, and DrawSegments takes a
// one-segment draw without preparing it (draw_segments.cpp).
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
        // A plain loop (the block scans' set-up would cost more than the draw), two indices a
        // step, the restart index looked for only when it can matter: this is most of a
        // 12-index draw's split (one loop testing all three took 11 instructions an index).
        const T* const p = idx + b;
        const uint32_t n = draw.count;
        if (restart) {
            const T rv = T(draw.restart_index);
            for (uint32_t i = 0; i < n; ++i)
                if (p[i] == rv) return false;
        }
        uint32_t lo = p[0], hi = p[0], i = n & 1;
        for (; i < n; i += 2) {
            const uint32_t x = p[i], y = p[i + 1];
            lo = std::min(lo, std::min(x, y)), hi = std::max(hi, std::max(x, y));
        }
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

// What find_range_draw asks before it reads an index: false when the shortcut does not apply
// (the range splitter still may); else the draw's count trimmed to whole primitives, and the
// index cap and vertex limit its range must meet.
inline bool range_draw_asked(const DrawInfo& draw, const RangeDrawAsk& ask, uint32_t& n,
                             uint32_t& cap, uint32_t& limit) {
    // What choose_splitter would hand the range splitter, for one pass of one chunk of one run
    // of a primitive without patches or assembly (the only ones checked here).
    if (draw.index_type == IndexType::none || draw.instance_count != 1 || ask.assembled ||
        draw.prim == Prim::patches || ask.kind == Strategy::Kind::none ||
        ask.kind == Strategy::Kind::reorder)
        return false;
    n = trim_count(draw.prim, draw.count);
    if (gl_prim_count(draw.prim, n) == 0) return false;
    limit = std::min(ask.max_vertices, kMaxSegmentVertices);
    cap = segment_index_cap(Strategy{ask.kind, 0}, limit, draw.prim, 1);
    // Past the cap range_splitter refuses without a scan; past a chunk it is never asked.
    return draw.count <= cap && draw.count <= ask.chunk;
}

// The range draw's segment numbered and its draw counted as next_split numbers and counts the
// range splitter's, once write_range has written it.
inline void number_range_draw(Prim prim, uint32_t n, Segment& seg, FrontEndStats& stats) {
    seg.flags = 0;
    seg.prim_id_first = 0;
    seg.instance_first = 0;
    seg.instance_count = 1;
    seg.sequence = 0;
    seg.fetch_bias = 0;
    stats = {};
    stats.ia_vertices = n;
    stats.ia_primitives = submitted_prim_count(prim, n, 1);
    stats.segments = 1;
    stats.indices = n;
    stats.fetched = seg.fetch_count;
    stats.shaded = seg.fetch_count;
}

// find_range_draw and write_range_draw at once, taking the draw only when its base vertex also
// keeps every index it fetches in [0, 2^32) (check_indices' rule; the long way reports one
// that does not).
inline bool take_range_draw(const DrawInfo& draw, const RangeDrawAsk& ask, SegmentStorage& st,
                            Segment& seg, FrontEndStats& stats) {
    uint32_t n, cap, limit;
    if (!range_draw_asked(draw, ask, n, cap, limit)) return false;
    const bool taken = with_indices(draw, [&](const auto* idx) {
        IndexRange r;
        if (!qualifying_range(idx, draw, cap, limit, r)) return false;
        const int64_t lo = int64_t(r.min) + draw.base_vertex;
        const int64_t hi = int64_t(r.max) + draw.base_vertex;
        if (lo < 0 || hi > int64_t(UINT32_MAX)) return false;
        write_range(draw.prim, idx + draw.start, n, r, uint32_t(draw.base_vertex), st, seg);
        return true;
    });
    if (taken) number_range_draw(draw.prim, n, seg, stats);
    return taken;
}

} // namespace drawpipe::detail
