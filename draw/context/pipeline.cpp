#include "draw/context/pipeline.hpp"

#include "draw/base/tsan_order.hpp"
#include "draw/context/draw_sink.hpp"
#include "draw/context/shade_step.hpp"
#include "draw/context/statistics.hpp"
#include "draw/context/token.hpp"
#include "draw/context/token_source.hpp"
#include "draw/front_end/chunks.hpp"
#include "drawpipe/error.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace drawpipe::detail {

namespace {

struct ScratchCell {
    bool made = false;
    std::unique_ptr<MiddleEndScratch> scratch;
    FrontEnd front;         // splits chunks on this thread (its tables kept across draws)
    SegmentSource segments; // splits small draws whole on this thread
    Segment seg;            // the front end's own segment: closed-form runs rewrite it in place
};

} // namespace

struct DrawPipeline::Impl {
    uint32_t thread_count;
    tbb::task_arena arena;
    uint32_t token_count;
    std::vector<Token> tokens;

    std::shared_ptr<const MiddleEnd> middle;
    tbb::enumerable_thread_specific<ScratchCell> scratch;

    // Source (serial stage).
    TokenSource source;
    uint64_t token_seq = 0; // tokens emitted (numbers the ring)
    OrderEdge source_edge;

    // Sink (serial stage).
    std::optional<DrawSink> sink;
    std::array<uint64_t, kMaxCounters> counter_total{};
    StreamOutputCounts primitive_total;
    int64_t clip_delta_total = 0; // of batches staged on the shading threads
    // Front-end totals of what the shade stage split (chunks, small draws whole), summed here
    // in the sink; the source keeps its own (TokenSource::front_total).
    FrontEndStats sink_front_total;
    uint64_t delivered = 0;
    OrderEdge sink_edge;

    explicit Impl(uint32_t threads)
        : thread_count(threads), arena(int(threads)),
          token_count(std::max(2u, kTokensPerThread * threads)), tokens(token_count) {}

    // The source filter: fills the next token of the ring, or returns null when the draws
    // are done.
    Token* produce(tbb::flow_control* fc) {
        source_edge.acquire();
        Token& t = tokens[token_seq % token_count];
        t.edge.acquire();
        source.fill(t);
        if (t.count == 0) {
            source_edge.release();
            if (fc) fc->stop();
            return nullptr;
        }
        ++token_seq;
        t.edge.release();
        source_edge.release();
        return &t;
    }

    ScratchCell& local_cell() {
        ScratchCell& cell = scratch.local();
        if (!cell.made) {
            cell.scratch = middle->make_scratch();
            cell.made = true;
        }
        return cell;
    }
    // Shades each segment `next(storage, seg)` writes into its own piece of `it`, or (`each`
    // given) into one reused piece handed to `each` as soon as it is shaded.
    template <class Next, class Each = std::nullptr_t>
    static void shade_pieces(Item& it, ScratchCell& cell, Next&& next, Each each = nullptr) {
        constexpr bool kEach = !std::is_same_v<Each, std::nullptr_t>;
        uint32_t n = 0;
        for (;; ++n) {
            const uint32_t at = kEach ? 0 : n;
            if (at == it.pieces.size()) it.pieces.emplace_back();
            Piece& p = it.pieces[at];
            if (!next(p.storage, cell.seg)) break;
            p.seg = cell.seg;
            shade_step(*it.draw, p.seg, cell.scratch.get(), p.batch);
            if constexpr (kEach) each(p.batch);
        }
        it.piece_count = kEach ? 0 : n;
    }
    // Splits a chunk on this thread into pieces (shade_pieces).
    template <class Each = std::nullptr_t>
    static void shade_chunk(Item& it, ScratchCell& cell, Each each = nullptr) {
        const PreparedDraw& draw = *it.draw;
        FrontEnd& front = cell.front;
        begin_chunk(front, draw.state.draw, draw.split, it.restarts, it.pass, it.chunk);
        shade_pieces(
            it, cell, [&](SegmentStorage& st, Segment& seg) { return front.next(st, seg); }, each);
        it.front = front.stats();
    }
    // Splits a small draw on this thread, each segment shaded into its own piece.
    static void shade_whole(Item& it, ScratchCell& cell) {
        cell.segments.begin(*it.draw);
        shade_pieces(it, cell,
                     [&](SegmentStorage& st, Segment& seg) { return cell.segments.next(st, seg); });
        it.front = cell.segments.stats();
    }
    // A chunk for a parallel backend, delivered from here: one piece, reused, so a chunk's
    // batches stay in this core's cache; only their counts go on to the sink.
    static void shade_and_deliver_chunk(Item& it, ScratchCell& cell) {
        it.counters = {};
        it.primitives = {};
        it.clip_delta = 0;
        shade_chunk(it, cell, [&it](const DrawBatch& b) {
            add_counters(it.counters, b.shaded.counters);
            it.clip_delta += b.clip_delta;
            for (const PrimRange& r : b.shaded.prims)
                it.primitives.generated[r.stream] += drawn_prim_count(r.prim, r.count, r.flags);
        });
    }
    // The parallel stage: a token's segments each into its own batch, a chunk, or small draws
    // whole.
    void shade(Token& t) {
        t.edge.acquire();
        ScratchCell& cell = local_cell();
        for (uint32_t i = 0; i < t.count; ++i) {
            Item& it = t.items[i];
            switch (it.kind) {
            case ItemKind::segment:
                shade_step(*it.draw, it.seg, cell.scratch.get(), it.batch);
                break;
            case ItemKind::chunk:
                if (it.draw->parallel_backend)
                    shade_and_deliver_chunk(it, cell);
                else
                    shade_chunk(it, cell);
                break;
            case ItemKind::whole:
                shade_whole(it, cell);
                break;
            case ItemKind::end:
                break;
            }
        }
        t.edge.release();
    }

    void sink_batch(DrawBatch& batch) {
        add_counters(counter_total, batch.shaded.counters);
        sink->batch(batch, primitive_total);
        clip_delta_total += batch.clip_delta;
    }
    void sink_pieces(Item& it) {
        for (uint32_t p = 0; p < it.piece_count; ++p) sink_batch(it.pieces[p].batch);
        sink_front_total += it.front;
    }
    void end_draw() {
        sink->end();
        ++delivered;
    }
    // The sink stage: begin_draw, the batches and end_draw, in draw order.
    void consume(Token& t) {
        sink_edge.acquire();
        t.edge.acquire();
        for (uint32_t i = 0; i < t.count; ++i) {
            Item& it = t.items[i];
            if (it.begins) sink->begin(*it.draw);
            switch (it.kind) {
            case ItemKind::segment:
                sink_batch(it.batch);
                break;
            case ItemKind::chunk:
                sink_pieces(it);
                if (it.draw->parallel_backend) {
                    add_counters(counter_total, it.counters);
                    primitive_total += it.primitives;
                    clip_delta_total += it.clip_delta;
                }
                break;
            case ItemKind::whole:
                sink_pieces(it);
                end_draw();
                break;
            case ItemKind::end:
                end_draw();
                break;
            }
        }
        t.edge.release();
        sink_edge.release();
    }

    // After a pipeline launch: every stage's writes become visible to this thread (for TSan,
    // draw/base/tsan_order.hpp; TBB's own wait already orders them).
    void settle() {
        source_edge.acquire();
        sink_edge.acquire();
        for (Token& t : tokens) t.edge.acquire();
    }

    void run_parallel(ContextCounters& counters) {
        while (!source.done()) {
            source_edge.release();
            arena.execute([&] {
                const FilterBodyPointer<Impl> self(this);
                tbb::parallel_pipeline(
                    token_count, tbb::make_filter<void, Token*>(tbb::filter_mode::serial_in_order,
                                                                [self](tbb::flow_control& fc) {
                                                                    return self.get()->produce(&fc);
                                                                }) &
                                     tbb::make_filter<Token*, Token*>(tbb::filter_mode::parallel,
                                                                      [self](Token* t) {
                                                                          self.get()->shade(*t);
                                                                          return t;
                                                                      }) &
                                     tbb::make_filter<Token*, void>(
                                         tbb::filter_mode::serial_in_order,
                                         [self](Token* t) { self.get()->consume(*t); }));
            });
            settle();
            ++counters.pipeline_launches;
        }
    }

    // Keeps the ring's retained storage under kRetainedItemBytes (between flushes only).
    void trim() {
        auto held = [](const SegmentStorage& st, const DrawBatch& b) {
            return st.fetch.capacity() * sizeof(uint32_t) + st.draw.capacity() * sizeof(uint16_t) +
                   b.shaded.vertices.capacity() * sizeof(uint32_t) +
                   b.shaded.elts.capacity() * sizeof(uint32_t) +
                   b.clip.clip_mask.capacity() * sizeof(uint16_t) +
                   b.clip.clip_pos.capacity() * sizeof(float) +
                   b.shaded.prims.capacity() * sizeof(PrimRange);
        };
        size_t bytes = 0;
        for (const Token& t : tokens)
            for (const Item& it : t.items) {
                bytes += held(it.storage, it.batch);
                for (const Piece& p : it.pieces) bytes += held(p.storage, p.batch);
            }
        if (bytes <= kRetainedItemBytes) return;
        // A chunk is always its token's first item: its pieces stay, as a large draw's
        // segment did, so a flush of large draws after another allocates nothing.
        for (Token& t : tokens)
            for (size_t i = 1; i < t.items.size(); ++i) {
                t.items[i].storage = {};
                t.items[i].batch = {};
                t.items[i].pieces = {};
            }
    }

    void run_inline() {
        while (Token* t = produce(nullptr)) {
            Item& first = t->items[0];
            if (first.kind == ItemKind::chunk) {
                // A chunk is its token's only item. Each piece goes to the sink as soon as it
                // is shaded, while its vertices are still in this core's cache (a chunk's 16
                // batches are megabytes: W3 read them back from memory, +10 %).
                assert(t->count == 1);
                if (first.begins) sink->begin(*first.draw);
                shade_chunk(first, local_cell(), [this](DrawBatch& b) { sink_batch(b); });
                sink_front_total += first.front;
                continue;
            }
            shade(*t);
            consume(*t);
        }
    }
};

DrawPipeline::DrawPipeline(uint32_t threads)
    : impl_(std::make_unique<Impl>(std::max(threads, 1u))) {}
DrawPipeline::~DrawPipeline() = default;

uint32_t DrawPipeline::threads() const {
    return impl_->thread_count;
}

void DrawPipeline::bind(std::shared_ptr<const MiddleEnd> middle) {
    impl_->middle = std::move(middle);
    impl_->scratch.clear();
}

DrawStats DrawPipeline::run(std::span<const PreparedDraw> draws, Backend& backend,
                            const OutputOptions& output, bool parallel, ContextCounters& counters) {
    Impl& m = *impl_;
    assert(m.middle);
    // Through the pipeline the source runs in the arena; inline (a small flush or one thread)
    // the chunks are split in order on this thread.
    m.source.start(draws, parallel);
    m.sink.emplace(backend, output);
    m.sink_front_total = {};
    m.counter_total = {};
    m.primitive_total = {};
    m.clip_delta_total = 0;
    m.delivered = 0;
    // Each flush walks the token ring from its start, so a flush of the same shape uses the
    // same tokens: once one has warmed them, nothing grows.
    m.token_seq = 0;
    try {
        if (parallel) {
            m.run_parallel(counters);
        } else {
            m.run_inline();
            ++counters.inline_flushes;
        }
    } catch (...) {
        m.settle();
        counters.draws += m.delivered;
        counters.tokens += m.token_seq;
        m.trim();
        throw;
    }
    counters.draws += m.delivered;
    counters.tokens += m.token_seq;
    m.trim();
    DrawStats stats;
    stats.front = m.source.front_total();
    stats.front += m.sink_front_total;
    stats.counters = m.counter_total;
    stats.primitives = m.primitive_total;
    if (!draws.empty())
        add_pipeline_statistics(stats.statistics, draws.front(), stats.front, stats.primitives,
                                m.clip_delta_total + m.sink->take_clip_delta());
    return stats;
}

} // namespace drawpipe::detail
