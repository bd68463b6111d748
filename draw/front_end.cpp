// The front end's state machine: restart runs, instance passes, and the segments the
// draw's splitter (draw/internal/splitter.hpp) cuts from each run.
#include "draw/internal/front_end.hpp"

#include "draw/internal/index_scan.hpp"
#include "draw/internal/instance_order.hpp"
#include "draw/internal/reorder.hpp"
#include "draw/internal/split_linear.hpp"
#include "draw/internal/splitter.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/prim.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe {

using detail::Run;
using detail::Shape;

namespace {

// The reorder strategy's copy of the indices; false (draw as `exact`) when the package was
// built without meshoptimizer, where Strategy::parse never yields `reorder` anyway.
bool reorder_copy(const DrawInfo& draw, std::vector<uint32_t>& out) {
#if DRAWPIPE_WITH_REORDER
    return reorder_for_vertex_cache(draw, out);
#else
    (void)draw;
    out.clear();
    return false;
#endif
}

} // namespace

struct FrontEnd::Impl {
    DrawInfo draw;
    detail::SplitParams params{};
    detail::Splitter* splitter = nullptr;     // from `splitters`
    detail::LinearSplitter* linear = nullptr; // `splitter` when the draw is non-indexed
    detail::SplitterPool splitters;           // kept across draws
    detail::DedupArena arena;                 // kept across draws
    std::vector<uint32_t> reordered;          // the reorder strategy's index buffer
    InstanceOrder order;
    uint32_t instance = 0, instance_end = 0; // passes of InstanceOrder
    uint32_t cursor = 0, end = 0; // absolute index positions of the current instance pass
    bool run_open = false;
    Run run;
    uint32_t k = 0;            // next primitive of the open run
    uint32_t prim_id_base = 0; // primitives of earlier runs in this instance
    uint64_t sequence = 0;

    uint32_t find_restart_from(uint32_t from) const {
        if (!draw.primitive_restart || draw.index_type == IndexType::none) return end;
        return with_indices(draw, [&](const auto* idx) {
            return find_restart(idx, from, end, draw.restart_index);
        });
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
    Impl& m = *impl_;
    m.draw = input;
    FrontEndOptions options = input_options;
    if (options.strategy.kind == Strategy::Kind::reorder) {
        // Draw the reordered copy (kept in Impl, reused across draws) with exact de-duplication.
        // Not for a geometry shader: it sees primitive ids, so reordering changes its output.
        options.strategy = Strategy{Strategy::Kind::exact, 0};
        if (!options.limits.assemble_as && reorder_copy(input, m.reordered)) {
            m.draw.index_type = IndexType::u32;
            m.draw.indices = m.reordered.data();
            m.draw.index_buffer_count = uint32_t(m.reordered.size());
            m.draw.start = 0;
            m.draw.count = uint32_t(m.reordered.size());
            m.draw.primitive_restart = false;
        }
    }
    const DrawInfo& draw = m.draw;
    stats_ = {};
    closed_ = {};
    m.sequence = 0;
    m.run_open = false;

    const MiddleEndLimits& lim = options.limits;
    const bool assembled = lim.assemble_as.has_value();
    const bool indexed = draw.index_type != IndexType::none;
    const Prim out_prim = assembled ? *lim.assemble_as : draw.prim;
    const uint32_t limit = std::min(lim.max_vertices, kMaxSegmentVertices);
    detail::SplitParams& p = m.params;
    p.prim = draw.prim;
    p.out_prim = out_prim;
    p.shape = detail::shape_of(draw.prim, assembled);
    p.ps = prim_shape(out_prim);
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

    // Mesa's fast path when an indexed draw qualifies (never for GS assembly, nor for
    // `none`, which promises a fetch per index), else the strategy's dedup table.
    m.splitter = nullptr;
    m.linear = nullptr;
    if (indexed && !assembled && s.kind != Strategy::Kind::none)
        m.splitter = detail::range_splitter(m.splitters, p, draw);
    if (!m.splitter)
        m.splitter = indexed || assembled
                         ? &detail::dedup_splitter(m.splitters, p, s, draw, m.arena)
                         : &detail::linear_splitter(m.splitters, p);
    if (!indexed && !assembled) m.linear = static_cast<detail::LinearSplitter*>(m.splitter);
    // Non-indexed lists and strips hand a run's later segments to the closed form, which
    // repeats LinearSplitter::build for them; its figures are the draw's (cut 0: never).
    if (m.linear && (p.shape == Shape::list || p.shape == Shape::strip)) {
        closed_.prim = p.prim;
        closed_.pmax = detail::prims_fitting(p.shape, p.ps, p.fetch_limit);
        closed_.cut =
            has_strip_parity(p.prim) && closed_.pmax > 1 ? closed_.pmax & ~1u : closed_.pmax;
        closed_.step = p.shape == Shape::list ? p.ps.first : p.ps.incr;
        closed_.extra = p.shape == Shape::list ? 0 : p.ps.first - p.ps.incr;
    }

    m.order = InstanceOrder(lim, draw.instance_count);
    m.instance = 0;
    m.instance_end = draw.count == 0 ? 0 : m.order.passes();
    m.cursor = draw.start;
    m.end = draw.start + draw.count;
    m.prim_id_base = 0;
    if (m.instance_end == 0) m.cursor = m.end; // nothing to draw
}

bool FrontEnd::next_split(SegmentStorage& storage, Segment& seg) {
    Impl& m = *impl_;
    if (closed_.pending) { // the closed form wrote the rest of the open run
        closed_.pending = false;
        m.k = closed_.k;
        m.sequence = closed_.sequence;
        m.run_open = false;
        m.prim_id_base += m.run.gl_prims;
    }
    if (m.instance >= m.instance_end) return false;
    if (!m.run_open) {
        if (!m.open_next_run()) {
            m.instance = m.instance_end;
            return false;
        }
        m.run_open = true;
    }
    const uint32_t k0 = m.k;
    seg.fetch_bias = 0; // `seg` may last have carried a cached split's replay
    uint32_t k1 = m.linear ? m.linear->build(m.run, k0, storage, seg)
                           : m.splitter->build(m.run, k0, storage, seg);
    if (m.sequence == 0 && !m.linear) {
        // The draw's first segment may hand the draw to another splitter, which splits it
        // from the start: the draw is then split as that splitter alone would.
        detail::Splitter* const s = m.splitter->after_first_segment(seg);
        if (s != m.splitter) {
            m.splitter = s;
            k1 = s->build(m.run, k0, storage, seg);
        }
    }
    assert(k1 > k0);
    seg.flags = (k0 > 0 ? SPLIT_BEFORE : 0) | (k1 < m.run.prims ? SPLIT_AFTER : 0);
    seg.prim_id_first = m.prim_id_base + k0;
    if (m.sequence == 0) { // the first segment shows whether the draw is one segment
        m.order.settle(k1 >= m.run.prims && m.cursor >= m.end);
        m.instance_end = m.order.passes();
    }
    seg.instance_first = m.order.first(m.instance);
    seg.instance_count = m.order.count();
    seg.sequence = m.sequence++;
    m.k = k1;
    if (k1 >= m.run.prims) {
        m.run_open = false;
        m.prim_id_base += m.run.gl_prims;
    } else if (closed_.cut > 0) { // the rest of the run in closed form
        closed_.active = closed_.pending = true;
        closed_.k = k1;
        closed_.prims = m.run.prims;
        closed_.begin = m.run.begin;
        closed_.prim_id_base = m.prim_id_base;
        closed_.instance_first = seg.instance_first;
        closed_.instance_count = seg.instance_count;
        closed_.sequence = m.sequence;
        closed_.written = seg.linear_fetch() && seg.linear_draw() ? &seg : nullptr;
        closed_.count_rest(stats_);
    }
    stats_.segments++;
    stats_.indices += seg.draw_count;
    stats_.fetched += seg.fetch_count;
    return true;
}

} // namespace drawpipe
