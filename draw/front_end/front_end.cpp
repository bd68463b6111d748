// The front end's state machine: restart runs, instance passes, and the segments the
// draw's splitter (draw/front_end/splitter.hpp) cuts from each run.
#include "draw/front_end/front_end.hpp"

#include "draw/front_end/chunks.hpp"
#include "draw/front_end/index_scan.hpp"
#include "draw/front_end/instance_order.hpp"
#include "draw/front_end/reorder.hpp"
#include "draw/front_end/split_linear.hpp"
#include "draw/front_end/splitter.hpp"
#include "draw/front_end/submitted_count.hpp"
#include "draw/front_end/triangle_loops.hpp"
#include "drawpipe/limits.hpp"
#include "drawpipe/prim.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe {

using detail::Run;
using detail::Shape;

struct FrontEnd::Impl {
    DrawInfo draw;
    detail::SplitParams params{};
    detail::Splitter* splitter = nullptr;     // from `splitters`
    detail::Splitter* primary = nullptr;      // `splitter` before after_first_segment
    detail::LinearSplitter* linear = nullptr; // `splitter` when the draw is non-indexed
    detail::SplitterPool splitters;           // kept across draws
    detail::DedupArena arena;                 // kept across draws
    detail::TriangleLoopArena loops;          // kept across draws
    std::vector<uint32_t> reordered;          // the reorder strategy's index buffer
    FrontEndOptions options;                  // after the reorder swap
    InstanceOrder order;
    uint32_t instance = 0, instance_end = 0; // passes of InstanceOrder
    uint32_t end = 0;                        // one past the draw's last position
    // Chunks: the draw's count, the current one and one past the last to split.
    uint32_t chunks = 1, chunk = 0, chunk_end = 0;
    uint32_t chunk_begin = 0, chunk_stop = 0; // positions of the current chunk
    bool chunk_open = false;
    bool restart = false;                 // the draw has primitive restart
    const RestartChunks* table = nullptr; // begin_chunk()'s: where runs cross chunks
    uint32_t run_cursor = 0;              // where the chunk's next run begins
    bool first_run = false;               // the next run is the one open at the chunk's start
    // begin() walks the chunks in order and carries the run open at the next chunk's start
    // from the last, so a serial split scans each index for restarts once, as it did unchunked.
    struct Carry {
        uint32_t begin = 0, base = 0, end = 0;
        bool end_known = false, set = false;
    } carry;
    uint32_t carry_chunk = 0; // the chunk `carry` opens (asserted by begin_chunk)
    uint32_t first_end = 0;   // where the chunk's first run ends, when first_end_known
    bool first_end_known = false;
    uint32_t step = 1;           // positions between primitives' first positions
    bool even = false;           // chunk cuts at even primitives (strip parity)
    bool first_segment = true;   // the chunk's first: after_first_segment asks
    bool splitter_fresh = false; // chosen by setup() and not used yet
    bool run_open = false;
    // begin() found the draw one range segment (detail::find_range_draw): next() writes it
    // without the state machine, which was never set up for it.
    bool range_draw_pending = false;
    detail::RangeDraw range_draw;
    // find_range_draw refused the draw: choose_splitter's range test would too.
    bool range_refused = false;
    Run run;
    uint32_t k = 0;            // next primitive of the open run
    uint32_t prim_id_base = 0; // primitives of earlier runs in this instance
    uint64_t sequence = 0;

    // The first primitive of `r` whose first position is at `pos` or later (even for strips
    // with parity), or r.prims: the chunk boundary at `pos` within run `r`.
    uint32_t prim_at(const Run& r, uint32_t pos) const {
        if (pos <= r.begin) return 0;
        uint64_t kk = (uint64_t(pos - r.begin) + step - 1) / step;
        if (even) kk = (kk + 1) & ~uint64_t(1);
        return uint32_t(std::min<uint64_t>(kk, r.prims));
    }

    uint32_t find_restart_from(uint32_t from, uint32_t to) const {
        if (!restart) return to;
        return with_indices(draw, [&](const auto* idx) {
            const uint32_t r = find_restart(idx, from, to, draw.restart_index);
            // The next run is scanned once this one is split and shaded: its indices are
            // asked for now, as many as this run had (up to 16 KB), so that its scan does
            // not wait on memory at every page (W7: 1,023 runs of 2,047 indices, the scan
            // 10 % of a one-thread draw in Mesa).
            if (r < to) prefetch_indices(idx + r + 1, std::min<uint64_t>(r - from, end - r - 1));
            return r;
        });
    }

    // The splitter for the draw, made afresh: each chunk starts from the same state
    // (bypass counters, the fallback's choice), so a chunk splits alike on any thread.
    void choose_splitter() {
        const detail::SplitParams& p = params;
        const Strategy& s = options.strategy;
        const bool assembled = options.limits.assemble_as.has_value();
        const bool indexed = draw.index_type != IndexType::none;
        splitter = nullptr;
        linear = nullptr;
        // Mesa's fast path when an indexed draw qualifies (never for GS assembly, nor for
        // `none`, which promises a fetch per index), else the strategy's dedup table.
        if (indexed && !assembled && s.kind != Strategy::Kind::none && chunks == 1 &&
            !range_refused)
            splitter = detail::range_splitter(splitters, p, draw);
        if (!splitter)
            splitter = indexed || assembled
                           ? &detail::dedup_splitter(splitters, p, s, draw, arena, loops)
                           : &detail::linear_splitter(splitters, p);
        if (!indexed && !assembled) linear = static_cast<detail::LinearSplitter*>(splitter);
        primary = splitter;
    }

    void open_chunk() {
        const uint32_t size = chunk_size(options);
        chunk_begin = draw.start + chunk * size;
        chunk_stop = chunks == 1 ? end : std::min(end, chunk_begin + size);
        if (chunks == 1) chunk_begin = draw.start;
        run_cursor = draw.start;
        prim_id_base = 0;
        first_end_known = false;
        if (restart && chunks > 1 && table) {
            run_cursor = table->run_begin[chunk];
            prim_id_base = table->prim_base[chunk];
            first_end = table->next_restart[chunk];
            first_end_known = true;
        } else if (restart && chunk > 0) {
            run_cursor = carry.begin;
            prim_id_base = carry.base;
            first_end = carry.end;
            first_end_known = carry.end_known;
        }
        carry.set = false;
        first_run = true;
        if (chunks > 1) { // chunk-major numbering (segment.hpp), the splitter afresh
            sequence = (uint64_t(instance) * chunks + chunk) * size;
            if (!splitter_fresh) { // begin(): the draw's splitter, as begin_chunk() makes it
                splitter = primary;
                splitter->restart();
            }
            first_segment = true;
        }
        splitter_fresh = false;
        chunk_open = true;
    }

    bool open_next_run() {
        for (;;) {
            if (!chunk_open) {
                if (chunk >= chunk_end) { // begin()'s next pass: every chunk again
                    if (++instance >= instance_end) return false;
                    chunk = 0;
                }
                open_chunk();
            }
            const uint32_t b = run_cursor;
            if (b >= chunk_stop || b >= end) { // the chunk's runs are done
                if (!carry.set) carry = {b, prim_id_base, 0, false, true};
                carry_chunk = chunk + 1;
                chunk_open = false;
                ++chunk;
                continue;
            }
            uint32_t r;
            if (!restart) {
                r = end;
            } else if (first_run && first_end_known) {
                r = first_end;
            } else if (table) { // only this chunk's indices: later ones are the table's
                r = find_restart_from(b, chunk_stop);
                if (r == chunk_stop) r = chunk + 1 < chunks ? table->next_restart[chunk + 1] : end;
            } else {
                r = find_restart_from(b, end);
            }
            first_run = false;
            if (r >= chunk_stop) carry = {b, prim_id_base, r, true, true}; // runs on past the chunk
            const uint32_t n = trim_count(params.prim, r - b, params.patch_vertices);
            run.begin = b;
            run.count = n;
            run.gl_prims = gl_prim_count(params.prim, n, params.patch_vertices);
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
                run.prims = run.gl_prims;
                break;
            }
            run_cursor = r < end ? r + 1 : end;
            const uint32_t k0 = prim_at(run, chunk_begin);
            run.stop = chunk_stop >= end ? run.prims : prim_at(run, chunk_stop);
            if (k0 < run.stop) {
                k = k0;
                return true;
            }
            prim_id_base += run.gl_prims;
        }
    }
};

FrontEnd::FrontEnd() : impl_(std::make_unique<Impl>()) {}
FrontEnd::~FrontEnd() = default;
FrontEnd::FrontEnd(FrontEnd&&) noexcept = default;
FrontEnd& FrontEnd::operator=(FrontEnd&&) noexcept = default;

void FrontEnd::setup(const DrawInfo& input, const FrontEndOptions& input_options) {
    Impl& m = *impl_;
    m.draw = input;
    FrontEndOptions options = input_options;
    if (options.strategy.kind == Strategy::Kind::reorder) {
        // Draw the reordered copy (kept in Impl, reused across draws) with exact de-duplication.
        // Not for a geometry shader: it sees primitive ids, so reordering changes its output.
        options.strategy = Strategy{Strategy::Kind::exact, 0};
        if (!options.limits.assemble_as && reorder_for_vertex_cache(input, m.reordered)) {
            m.draw.index_type = IndexType::u32;
            m.draw.indices = m.reordered.data();
            m.draw.index_buffer_count = uint32_t(m.reordered.size());
            m.draw.start = 0;
            m.draw.count = uint32_t(m.reordered.size());
            m.draw.primitive_restart = false;
        }
    }
    m.options = options;
    m.range_draw_pending = false;
    const DrawInfo& draw = m.draw;
    stats_ = {};
    closed_ = {};
    m.sequence = 0;
    m.run_open = false;
    m.chunk_open = false;
    m.first_segment = true;

    const MiddleEndLimits& lim = options.limits;
    const bool assembled = lim.assemble_as.has_value();
    const bool indexed = draw.index_type != IndexType::none;
    const Prim out_prim = assembled ? *lim.assemble_as : draw.prim;
    const uint32_t limit = std::min(lim.max_vertices, kMaxSegmentVertices);
    detail::SplitParams& p = m.params;
    p.prim = draw.prim;
    p.out_prim = out_prim;
    p.shape = detail::shape_of(draw.prim, assembled);
    p.patch_vertices = draw.prim == Prim::patches ? draw.patch_vertices : 1;
    p.ps = prim_shape(out_prim, p.patch_vertices);
    p.pv = draw.provoking;
    p.fetch_limit = limit;
    p.base_vertex = indexed ? uint32_t(draw.base_vertex) : 0;
    p.adaptive = options.strategy.kind == Strategy::Kind::distinct;
    p.index_cap = detail::segment_index_cap(options.strategy, limit, out_prim, p.patch_vertices);
    // Counted with the strategy asked for, as the pipeline and the split cache count them:
    // reorder is one chunk even once swapped for exact (it reorders the whole buffer).
    m.chunks = chunk_count(draw, input_options);
    m.choose_splitter();
    m.splitter_fresh = true;
    // Non-indexed lists and strips hand a run's later segments to the closed form (cut 0: never).
    if (m.linear) closed_ = m.linear->closed_form();
    // A primitive's first position steps by the draw primitive's own stride (GS input too).
    const Shape ds = detail::shape_of(draw.prim, false);
    const PrimShape dps = prim_shape(draw.prim, p.patch_vertices);
    m.step = ds == Shape::list ? dps.first : ds == Shape::strip ? dps.incr : 1;
    m.even = p.shape == Shape::strip && has_strip_parity(p.prim);

    m.restart = draw.primitive_restart && draw.index_type != IndexType::none;
    m.order = InstanceOrder(lim, draw.instance_count);
    if (m.chunks > 1) m.order.settle(false); // never one segment
    m.end = draw.start + draw.count;
    m.prim_id_base = 0;
}

void FrontEnd::begin(const DrawInfo& input, const FrontEndOptions& input_options) {
    Impl& m = *impl_;
    detail::RangeDrawAsk ask;
    ask.kind = input_options.strategy.kind;
    ask.assembled = input_options.limits.assemble_as.has_value();
    ask.max_vertices = input_options.limits.max_vertices;
    ask.chunk = chunk_size(input_options);
    const detail::RangeDrawTest test = detail::find_range_draw(input, ask, m.range_draw);
    if (test == detail::RangeDrawTest::taken) {
        m.draw = input;
        m.range_draw_pending = true;
        m.instance = m.instance_end = 0; // done once the segment is written
        stats_ = {};
        closed_ = {};
        return;
    }
    m.range_refused = test == detail::RangeDrawTest::refused;
    setup(input, input_options);
    m.range_refused = false;
    m.table = nullptr; // the chunks come in order: each carries the run open at the next
    m.instance = 0;
    m.instance_end = m.draw.count == 0 ? 0 : m.order.passes();
    m.chunk = 0;
    m.chunk_end = m.chunks;
}

// Declared in draw/front_end/chunks.hpp with the rest of the chunks; defined here, as begin()
// is, because it starts the state machine above.
void begin_chunk(FrontEnd& front, const DrawInfo& input, const FrontEndOptions& input_options,
                 const RestartChunks* restarts, uint32_t pass, uint32_t chunk) {
    front.setup(input, input_options);
    FrontEnd::Impl& m = *front.impl_;
    assert(m.chunks > 1 && chunk < m.chunks);
    assert(restarts || !m.restart || chunk == 0 || (m.carry.set && m.carry_chunk == chunk));
    m.table = restarts;
    m.instance = pass;
    m.instance_end = pass + 1;
    m.chunk = chunk;
    m.chunk_end = chunk + 1;
}

void FrontEnd::write_range_draw(SegmentStorage& storage, Segment& seg) {
    detail::write_range_draw(impl_->draw, impl_->range_draw, storage, seg, stats_);
}

bool FrontEnd::next_split(SegmentStorage& storage, Segment& seg) {
    Impl& m = *impl_;
    if (m.range_draw_pending) [[unlikely]] {
        m.range_draw_pending = false;
        write_range_draw(storage, seg);
        return true;
    }
    if (closed_.pending) { // the closed form wrote the rest of the open run's chunk
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
    if (m.first_segment && !m.linear) {
        // The chunk's first segment may hand the chunk to another splitter, which splits it
        // from the start: the chunk is then split as that splitter alone would.
        detail::Splitter* const s = m.splitter->after_first_segment(seg);
        if (s != m.splitter) {
            m.splitter = s;
            k1 = s->build(m.run, k0, storage, seg);
        }
    }
    assert(k1 > k0 && k1 <= m.run.stop);
    seg.flags = (k0 > 0 ? SPLIT_BEFORE : 0) | (k1 < m.run.prims ? SPLIT_AFTER : 0);
    seg.prim_id_first = m.prim_id_base + k0;
    if (m.sequence == 0 && m.chunks == 1) { // the first segment shows whether it is the only one
        m.order.settle(k1 >= m.run.prims && m.run_cursor >= m.end);
        m.instance_end = m.order.passes();
    }
    m.first_segment = false;
    seg.instance_first = m.order.first(m.instance);
    seg.instance_count = m.order.count();
    seg.sequence = m.sequence++;
    if (k0 == 0) { // the run's first segment, once per instance pass (pipeline statistics)
        stats_.ia_vertices += uint64_t(m.run.count) * seg.instance_count;
        stats_.ia_primitives +=
            submitted_prim_count(m.params.prim, m.run.count, m.params.patch_vertices) *
            seg.instance_count;
    }
    m.k = k1;
    if (k1 >= m.run.stop) {
        m.run_open = false;
        m.prim_id_base += m.run.gl_prims;
    } else if (closed_.cut > 0) { // the rest of the run's chunk in closed form
        closed_.open(m.run, k1, seg, m.prim_id_base, m.sequence, stats_);
    }
    stats_.segments++;
    stats_.indices += seg.draw_count;
    stats_.fetched += seg.fetch_count;
    stats_.shaded += uint64_t(seg.fetch_count) * seg.instance_count;
    return true;
}

} // namespace drawpipe
