#include "draw/pipeline/pipeline.hpp"

#include "draw/front_end/chunks.hpp"
#include "draw/pipeline/statistics.hpp"
#include "draw/pipeline/tsan_order.hpp"
#include "draw/stages/output_stage.hpp"
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

// One segment of a chunk, shaded into its own batch, kept until the sink has consumed it.
struct Piece {
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
};

// One segment, one chunk of a large draw, or the end of a draw, inside a token.
struct Item {
    const PreparedDraw* draw = nullptr;
    bool begins = false;      // the draw's first item: the sink calls begin_draw
    bool has_segment = false; // else the draw's end: the sink calls end_draw
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
    // A chunk (has_segment too): the shade stage splits it (begin_chunk) into
    // piece_count pieces, so the front end of a large draw runs on every thread.
    bool is_chunk = false;
    // A small draw whole (has_segment too): split into pieces where it is shaded, so that
    // a queue of small draws is not split one by one in the source.
    bool is_whole = false;
    uint32_t pass = 0, chunk = 0;
    const RestartChunks* restarts = nullptr; // the draw's, when it has primitive restart
    uint32_t piece_count = 0;
    std::vector<Piece> pieces;
    FrontEndStats front; // the chunk's front-end totals, summed by the sink
    // A chunk whose batches went to a parallel backend as they were shaded (its pieces
    // are not kept): their counters and primitive counts, summed by the sink.
    std::array<uint64_t, kMaxCounters> counters{};
    StreamOutputCounts primitives;
    int64_t clip_delta = 0;
};

struct Token {
    OrderEdge edge;
    uint32_t count = 0;
    std::vector<Item> items{kMaxItemsPerToken};
};

struct ScratchCell {
    bool made = false;
    std::unique_ptr<MiddleEndScratch> scratch;
    FrontEnd front;       // splits chunks on this thread (its tables kept across draws)
    SegmentSource source; // splits small draws on this thread
    Segment seg;          // the front end's own segment: closed-form runs rewrite it in place
};

uint64_t segment_work(const PreparedDraw& draw, const Segment& seg) {
    return uint64_t(seg.fetch_count + seg.draw_count) * seg.instance_count *
           draw.split.limits.work_per_vertex;
}

} // namespace

struct DrawPipeline::Impl {
    uint32_t thread_count;
    tbb::task_arena arena;
    uint32_t token_count;
    std::vector<Token> tokens;

    std::shared_ptr<const MiddleEnd> middle;
    tbb::enumerable_thread_specific<ScratchCell> scratch;

    // Source state (serial stage), kept across the pipeline launches of one flush.
    SegmentSource source;
    std::span<const PreparedDraw> draws;
    std::optional<DrawSink> sink;
    size_t cursor = 0;      // next draw of `draws` to begin
    uint64_t token_seq = 0; // tokens emitted (numbers the ring)
    bool draw_open = false, open_small = false, open_whole = false, begins_pending = false;
    uint64_t open_work = 0; // the open draw's vertices times instances a segment shades
    FrontEndStats front_total;
    OrderEdge source_edge;
    bool in_arena = false; // produce() runs inside the arena: the restart scan may fork
    // The open draw when it is cut into chunks (chunk_count > 1): the source hands
    // out (pass, chunk) descriptions, O(1) each, in draw order.
    bool chunked = false;
    uint32_t chunks = 0, passes = 0, next_chunk = 0, next_pass = 0;
    const RestartChunks* open_restarts = nullptr;
    std::vector<RestartChunks> restart_tables; // per draw of the flush, reused across flushes

    // Sink state (serial stage).
    std::array<uint64_t, kMaxCounters> counter_total{};
    StreamOutputCounts primitive_total;
    int64_t clip_delta_total = 0; // of batches staged on the shading threads
    // Front-end totals of what the shade stage split (chunks, small draws whole), summed here
    // in the sink while the source adds its own to front_total.
    FrontEndStats sink_front_total;
    uint64_t delivered = 0;
    OrderEdge sink_edge;

    explicit Impl(uint32_t threads)
        : thread_count(threads), arena(int(threads)),
          token_count(std::max(2u, kTokensPerThread * threads)), tokens(token_count) {}

    void open_draw(const PreparedDraw& draw) {
        const DrawInfo& d = draw.state.draw;
        chunks = draw.cached ? 1 : chunk_count(d, draw.split);
        chunked = chunks > 1;
        begins_pending = true;
        draw_open = true;
        if (chunked) {
            passes = chunk_passes(d, draw.split);
            next_chunk = next_pass = 0;
            open_restarts = nullptr;
            // Inline, one thread splits the chunks in order and carries the open run from
            // chunk to chunk (begin_chunk without a table), reading each index once.
            if (d.primitive_restart && d.index_type != IndexType::none && in_arena) {
                // Found here, once per draw, before any of its chunks is handed out: O(chunks)
                // serial work after a scan that forks across the arena.
                RestartChunks& table = restart_tables[cursor];
                find_restart_chunks(d, draw.split, chunks, table, in_arena);
                open_restarts = &table;
            }
            open_small = open_whole = false;
            return;
        }
        const uint64_t per_segment_instances =
            draw.split.limits.handles_instancing ? std::max(draw.state.draw.instance_count, 1u) : 1;
        open_work = uint64_t(draw.state.draw.count) * per_segment_instances *
                    draw.split.limits.work_per_vertex;
        open_small = open_work <= kTokenWork;
        // Whole only when it is about one segment (and instance): the segments of a small
        // draw at a small limit, or of many instances, still go out one by one, to run side
        // by side.
        open_whole = draw.work() <= kTokenWork && d.count <= draw.split.limits.max_vertices;
        if (!open_whole) source.begin(draw);
    }

    // The source: fills the next token of the ring, or returns null when the draws are done
    // or (a single middle end still busy) the pipeline must drain first.
    Token* produce(tbb::flow_control* fc) {
        source_edge.acquire();
        Token& t = tokens[token_seq % token_count];
        t.edge.acquire();
        t.count = 0;
        uint64_t work = 0;
        uint32_t starts = 0;
        while (t.count < kMaxItemsPerToken && work < kTokenWork) {
            if (!draw_open) {
                if (cursor == draws.size() || starts == kMaxDrawsPerToken) break;
                open_draw(draws[cursor]);
                ++starts;
            }
            if (t.count > 0 && !open_small) break; // a large draw's segment gets a token alone
            Item& it = t.items[t.count++];
            it.draw = &draws[cursor];
            it.begins = std::exchange(begins_pending, false);
            it.is_chunk = chunked && next_pass < passes;
            it.is_whole = false; // set below for a small draw; the ring reuses items
            if (it.is_chunk) {
                it.pass = next_pass;
                it.chunk = next_chunk;
                it.restarts = open_restarts;
                if (++next_chunk == chunks) next_chunk = 0, ++next_pass;
                it.has_segment = true;
                work += kTokenWork; // a chunk gets a token alone
                continue;
            }
            it.is_whole = open_whole;
            if (it.is_whole) {
                it.has_segment = true;
                work += std::max<uint64_t>(open_work, 1);
                draw_open = false;
                ++cursor;
                continue;
            }
            it.has_segment = !chunked && source.next(it.storage, it.seg);
            if (it.has_segment) {
                work += segment_work(*it.draw, it.seg);
            } else {
                if (!chunked) front_total += source.stats();
                draw_open = false;
                ++cursor;
            }
        }
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
        cell.source.begin(*it.draw);
        shade_pieces(it, cell,
                     [&](SegmentStorage& st, Segment& seg) { return cell.source.next(st, seg); });
        it.front = cell.source.stats();
    }
    // The parallel stage: segments of a token, each into its own batch, a chunk, or small
    // draws whole.
    void shade(Token& t) {
        t.edge.acquire();
        ScratchCell& cell = local_cell();
        for (uint32_t i = 0; i < t.count; ++i) {
            Item& it = t.items[i];
            if (it.is_chunk && it.draw->parallel_backend) {
                // Delivered from here: one piece, reused, so a chunk's batches stay in this
                // core's cache; only their counts go on to the sink.
                it.counters = {};
                it.primitives = {};
                it.clip_delta = 0;
                shade_chunk(it, cell, [&it](const ShadedBatch& b) {
                    add_counters(it.counters, b.counters);
                    it.clip_delta += b.clip_delta;
                    for (const PrimRange& r : b.prims)
                        it.primitives.generated[r.stream] +=
                            drawn_prim_count(r.prim, r.count, r.flags);
                });
            } else if (it.is_chunk)
                shade_chunk(it, cell);
            else if (it.is_whole)
                shade_whole(it, cell);
            else if (it.has_segment)
                shade_step(*it.draw, it.seg, cell.scratch.get(), it.batch);
        }
        t.edge.release();
    }

    void sink_batch(ShadedBatch& batch) {
        add_counters(counter_total, batch.counters);
        sink->batch(batch, primitive_total);
        clip_delta_total += batch.clip_delta;
    }

    void consume(Token& t) {
        sink_edge.acquire();
        t.edge.acquire();
        for (uint32_t i = 0; i < t.count; ++i) {
            Item& it = t.items[i];
            if (it.begins) sink->begin(*it.draw);
            if (it.is_chunk) {
                for (uint32_t p = 0; p < it.piece_count; ++p) sink_batch(it.pieces[p].batch);
                if (it.draw->parallel_backend) {
                    add_counters(counter_total, it.counters);
                    primitive_total += it.primitives;
                    clip_delta_total += it.clip_delta;
                }
                sink_front_total += it.front;
            } else if (it.is_whole) {
                for (uint32_t p = 0; p < it.piece_count; ++p) sink_batch(it.pieces[p].batch);
                sink_front_total += it.front; // front_total is the source's
                sink->end();
                ++delivered;
            } else if (it.has_segment) {
                sink_batch(it.batch);
            } else {
                sink->end();
                ++delivered;
            }
        }
        t.edge.release();
        sink_edge.release();
    }

    // After a pipeline launch: every stage's writes become visible to this thread (for TSan,
    // draw/pipeline/tsan_order.hpp; TBB's own wait already orders them).
    void settle() {
        source_edge.acquire();
        sink_edge.acquire();
        for (Token& t : tokens) t.edge.acquire();
    }

    void run_parallel(ContextCounters& counters) {
        in_arena = true;
        while (cursor < draws.size() || draw_open) {
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
        auto held = [](const SegmentStorage& st, const ShadedBatch& b) {
            return st.fetch.capacity() * sizeof(uint32_t) + st.draw.capacity() * sizeof(uint16_t) +
                   b.vertices.capacity() * sizeof(uint32_t) + b.elts.capacity() * sizeof(uint32_t) +
                   b.clip_mask.capacity() * sizeof(uint16_t) +
                   b.clip_pos.capacity() * sizeof(float) + b.prims.capacity() * sizeof(PrimRange);
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
        in_arena = false; // a small flush or one thread: chunks are split in order here
        while (Token* t = produce(nullptr)) {
            Item& first = t->items[0];
            if (first.is_chunk) {
                // A chunk is its token's only item. Each piece goes to the sink as soon as it
                // is shaded, while its vertices are still in this core's cache (a chunk's 16
                // batches are megabytes: W3 read them back from memory, +10 %).
                assert(t->count == 1);
                if (first.begins) sink->begin(*first.draw);
                shade_chunk(first, local_cell(), [this](ShadedBatch& b) { sink_batch(b); });
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
    m.draws = draws;
    m.sink.emplace(backend, output);
    m.cursor = 0;
    m.draw_open = false;
    m.front_total = {};
    m.sink_front_total = {};
    if (m.restart_tables.size() < draws.size()) m.restart_tables.resize(draws.size());
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
        m.draw_open = false; // draws cut short never reach end_draw
        counters.draws += m.delivered;
        counters.tokens += m.token_seq;
        m.trim();
        throw;
    }
    counters.draws += m.delivered;
    counters.tokens += m.token_seq;
    m.trim();
    DrawStats stats;
    stats.front = m.front_total;
    stats.front += m.sink_front_total;
    stats.counters = m.counter_total;
    stats.primitives = m.primitive_total;
    if (!draws.empty())
        add_pipeline_statistics(stats.statistics, draws.front(), stats.front, stats.primitives,
                                m.clip_delta_total + m.sink->take_clip_delta());
    return stats;
}

} // namespace drawpipe::detail
