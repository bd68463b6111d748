#include "drawpipe/extend/draw_segments.hpp"

#include "draw/context/prepared_draw.hpp"
#include "draw/front_end/chunks.hpp"
#include "draw/front_end/front_end.hpp"
#include "draw/front_end/range_draw.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/prim.hpp"

#include <string>
#include <utility>

namespace drawpipe {

namespace {

// A small indexed draw (the most a driver's front end sees, whose split is a few dozen
// nanoseconds, so that checks and set-up would be most of its cost) of one instance that
// passes every check prepare_split makes, told from its fields alone, without building the
// prepared draw. False sends the draw the long way, which checks it again and names what is
// wrong.
// `limit` is split_limit(lim, o).
bool plainly_valid_small_draw(const DrawInfo& d, const MiddleEndLimits& lim, const DrawOptions& o,
                              uint32_t limit) {
    return d.count != 0 && d.count <= detail::kSmallDrawIndices && d.instance_count == 1 &&
           (d.index_type == IndexType::u8 || d.index_type == IndexType::u16 ||
            d.index_type == IndexType::u32) &&
           uint32_t(d.prim) < uint32_t(kPrimCount) && d.prim != Prim::patches &&
           uint32_t(d.provoking) <= uint32_t(Provoking::last) && d.indices != nullptr &&
           uint64_t(d.start) + d.count <= d.index_buffer_count && !d.index_range &&
           !lim.assemble_as && o.max_vertices <= lim.max_vertices &&
           std::min(limit, kMaxSegmentVertices) >= min_segment_vertices(d.prim) &&
           (o.split_cache == nullptr || d.index_buffer_id == 0);
}

} // namespace

// The prepared draw stays here: the source hands out segments that point into it.
struct DrawSegments::Impl {
    PreparedDraw draw;
    SegmentSource source;
    SegmentStorage storage;
    bool begun = false; // a draw is in progress (false before the first begin, or a failed one)
    // A small draw that is one range segment: written at begin, handed out by the first next.
    bool small_pending = false, small = false;
    Segment small_seg;
    FrontEndStats small_stats;
    // chunks(): the draw's chunks per instance pass and passes (0: not asked since begin),
    // and where restart runs cross the chunks (restart_table: found for this draw).
    uint32_t per_pass = 0, passes = 1;
    RestartChunks restarts;
    bool restart_table = false;

    // The long way's answer for a small draw, without its set-up: the same checks (only
    // draws that pass them all are taken) and the range splitter's own segment.
    bool begin_small(const DrawInfo& d, const MiddleEndLimits& lim, const DrawOptions& o) {
        const uint32_t limit = split_limit(lim, o);
        if (!plainly_valid_small_draw(d, lim, o, limit)) return false;
        detail::RangeDrawAsk ask; // as split_options makes them, read field by field
        ask.kind = o.strategy.kind;
        ask.max_vertices = limit;
        ask.chunk = chunk_size(o.chunk_positions, limit);
        if (!detail::take_range_draw(d, ask, storage, small_seg, small_stats)) return false;
        return small = small_pending = true;
    }

    Impl() = default;
    explicit Impl(PreparedDraw prepared) { begin(std::move(prepared)); }
    void begin(PreparedDraw prepared) {
        small = small_pending = false;
        per_pass = 0;
        draw = std::move(prepared);
        source.begin(draw);
        begun = true;
    }
};

DrawSegments::DrawSegments() : impl_(std::make_unique<Impl>()) {}

DrawSegments::DrawSegments(const DrawState& state, const MiddleEnd& middle,
                           const DrawOptions& options)
    : impl_(std::make_unique<Impl>(prepare_draw(state, middle, options))) {}

DrawSegments::DrawSegments(const DrawInfo& draw, const MiddleEndLimits& limits,
                           const DrawOptions& options)
    : impl_(std::make_unique<Impl>(prepare_split(draw, limits, options, "(limits)"))) {}

DrawSegments::~DrawSegments() = default;

void DrawSegments::begin(const DrawInfo& draw, const MiddleEndLimits& limits,
                         const DrawOptions& options) {
    Impl& m = *impl_;
    m.begun = false;
    if (m.begin_small(draw, limits, options)) {
        m.begun = true;
        m.per_pass = 1;
        return;
    }
    m.small = m.small_pending = false;
    m.per_pass = 0;
    prepare_split_into(m.draw, draw, limits, options, "(limits)");
    m.source.begin(m.draw);
    m.begun = true;
}

bool DrawSegments::next(Segment& seg) {
    Impl& m = *impl_;
    if (m.small) {
        if (!m.small_pending) return false;
        m.small_pending = false;
        seg = m.small_seg;
        return true;
    }
    return m.begun && m.source.next(m.storage, seg);
}

const FrontEndStats& DrawSegments::stats() const {
    return impl_->small ? impl_->small_stats : impl_->source.stats();
}

uint32_t DrawSegments::chunks(bool parallel) {
    Impl& m = *impl_;
    if (!m.begun) return 0;
    if (m.per_pass != 0) return m.per_pass * m.passes;
    const DrawInfo& d = m.draw.state.draw;
    m.per_pass = m.draw.cached ? 1 : chunk_count(d, m.draw.split);
    m.passes = m.per_pass > 1 ? chunk_passes(d, m.draw.split) : 1;
    if (m.passes == 0) m.per_pass = m.passes = 1; // no instance: nothing to split apart
    m.restart_table = m.per_pass > 1 && d.primitive_restart && d.index_type != IndexType::none;
    if (m.restart_table) find_restart_chunks(d, m.draw.split, m.per_pass, m.restarts, parallel);
    return m.per_pass * m.passes;
}

uint32_t standard_chunk_positions(uint32_t max_vertices) {
    return default_chunk_positions(max_vertices);
}

void DrawSegments::begin_chunk(const DrawSegments& draw, uint32_t chunk) {
    const Impl& of = *draw.impl_;
    Impl& m = *impl_;
    m.begun = false;
    m.small = m.small_pending = false;
    m.per_pass = 0;
    if (!of.begun || of.per_pass <= 1 || chunk >= of.per_pass * of.passes)
        throw Error(ErrorCode::invalid_operation,
                    "begin_chunk: chunk " + std::to_string(chunk) + " of a draw of " +
                        std::to_string(of.begun ? of.per_pass * of.passes : 0) +
                        " chunks (chunks() not asked, or the draw splits as one piece)");
    m.source.begin_chunk(of.draw, of.restart_table ? &of.restarts : nullptr, chunk / of.per_pass,
                         chunk % of.per_pass);
    m.begun = true;
}

} // namespace drawpipe
