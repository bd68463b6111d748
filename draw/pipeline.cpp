#include "draw/pipeline.hpp"

#include "draw/error.hpp"
#include "draw/front_end.hpp"
#include "draw/split_cache.hpp"
#include "draw/validate.hpp"
#include "draw/vertex_fetch.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace drawpipe::detail {

namespace {

// TBB orders the filters with synchronisation ThreadSanitizer cannot see (Debian's libtbb is
// not instrumented). Each stage restates the order TBB already guarantees as a release at its
// end that the next stage's acquire reads, so TSan sees the same happens-before edges.
class OrderEdge {
  public:
    void release() { n_.fetch_add(1, std::memory_order_release); }
    void acquire() const { (void)n_.load(std::memory_order_acquire); }

  private:
    std::atomic<uint32_t> n_{0};
};

// A pointer that filter bodies carry. TBB copies the bodies on the calling thread and runs them
// on its workers, ordered by libtbb synchronisation TSan cannot see either; a pointer written
// and read only atomically gives TSan nothing to misreport there (relaxed: TBB orders it).
template <class T> class SharedPtrField {
  public:
    explicit SharedPtrField(T* p) { set(p); }
    SharedPtrField(const SharedPtrField& o) { set(o.get()); }
    SharedPtrField& operator=(const SharedPtrField& o) {
        set(o.get());
        return *this;
    }
    T* get() const { return std::atomic_ref<T*>(p_).load(std::memory_order_relaxed); }

  private:
    void set(T* p) { std::atomic_ref<T*>(p_).store(p, std::memory_order_relaxed); }
    alignas(std::atomic_ref<T*>::required_alignment) mutable T* p_; // only accessed atomically
};

// One segment, or the end of a draw, inside a token.
struct Item {
    uint32_t slot = 0;        // the draw's slot
    bool begins = false;      // the draw's first item: the sink calls begin_draw
    bool has_segment = false; // else the draw's end: the sink calls end_draw
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
};

struct Token {
    OrderEdge edge;
    uint32_t count = 0;
    std::vector<Item> items{kMaxItemsPerToken};
};

// One draw in flight: its own prepared middle end and the state it reads.
struct Slot {
    std::unique_ptr<MiddleEnd> owned; // made by the factory (null when a single instance is bound)
    MiddleEnd* middle = nullptr;
    DrawInfo info;
    DrawState state;
    // A cached split the draw replays: held here until the draw's last segment has left the
    // sink, so an eviction meanwhile cannot free lists that segments in flight point into.
    std::shared_ptr<const SplitEntry> split;
};

struct ScratchCell {
    bool made = false;
    std::unique_ptr<MiddleEnd::Scratch> scratch;
};

uint64_t segment_work(const Segment& seg) {
    return uint64_t(seg.fetch_count + seg.draw_count) * seg.instance_count;
}

} // namespace

struct DrawPipeline::Impl {
    uint32_t thread_count;
    tbb::task_arena arena;
    uint32_t token_count;
    std::vector<Token> tokens;

    // Middle ends: the prototype validates draws and makes scratch; slots run them.
    MiddleEndFactory factory;
    std::unique_ptr<MiddleEnd> prototype;
    std::vector<Slot> slots;
    tbb::enumerable_thread_specific<ScratchCell> scratch;

    // Source state (serial stage), kept across pipeline runs of one flush.
    FrontEnd front;
    std::optional<SplitReplay> replay; // instead of `front` for draws with a cached split
    std::span<const DrawInfo> draws;
    const PipelineBinding* binding = nullptr;
    size_t cursor = 0;      // next draw of `draws` to begin
    uint64_t begun = 0;     // draws begun in this flush (numbers slots)
    uint64_t token_seq = 0; // tokens emitted (numbers the ring)
    bool draw_open = false, open_small = false, begins_pending = false;
    uint32_t open_slot = 0;
    FrontEndStats front_total;
    OrderEdge source_edge;

    // Sink state (serial stage).
    std::array<uint64_t, kMaxCounters> counter_total{};
    uint64_t delivered = 0;
    std::atomic<uint64_t> closed{0}; // draws ended in the sink; frees their slots
    OrderEdge sink_edge;

    explicit Impl(uint32_t threads)
        : thread_count(threads), arena(int(threads)),
          token_count(std::max(2u, kTokensPerThread * threads)), tokens(token_count) {}

    bool slot_free(uint64_t draw_number) const {
        const uint64_t n = slots.size();
        return draw_number < n || closed.load(std::memory_order_acquire) >= draw_number - n + 1;
    }

    void open_draw(const DrawInfo& draw) {
        Slot& s = slots[begun % slots.size()];
        if (factory && !s.owned) s.middle = (s.owned = factory()).get();
        s.info = draw;
        s.state = {&s.info, binding->input, binding->vs, binding->gs};
        const MiddleEndLimits limits = s.middle->prepare(s.state);
        const FrontEndOptions fo = front_end_options(limits, binding->run);
        s.split = uses_split_cache(s.info, binding->run)
                      ? binding->run.split_cache->acquire(s.info, fo)
                      : nullptr;
        if (s.split) {
            replay.emplace(s.split, s.info, fo.limits);
        } else { // not cached, or larger than the cache's whole budget
            s.split.reset();
            replay.reset();
            front.begin(s.info, fo);
        }
        const uint64_t per_segment_instances =
            limits.handles_instancing ? std::max(draw.instance_count, 1u) : 1;
        open_small = uint64_t(draw.count) * per_segment_instances <= kTokenWork;
        open_slot = uint32_t(begun % slots.size());
        begins_pending = true;
        draw_open = true;
        ++begun;
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
                if (cursor == draws.size() || starts == kMaxDrawsPerToken || !slot_free(begun))
                    break;
                open_draw(draws[cursor]);
                ++starts;
            }
            if (t.count > 0 && !open_small) break; // a large draw's segment gets a token alone
            Item& it = t.items[t.count++];
            it.slot = open_slot;
            it.begins = std::exchange(begins_pending, false);
            it.has_segment = replay ? replay->next(it.seg) : front.next(it.storage, it.seg);
            if (it.has_segment) {
                work += segment_work(it.seg);
            } else {
                const FrontEndStats& f = replay ? replay->stats() : front.stats();
                front_total.segments += f.segments;
                front_total.indices += f.indices;
                front_total.fetched += f.fetched;
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

    MiddleEnd& prototype_middle() { return prototype ? *prototype : *slots[0].middle; }

    MiddleEnd::Scratch* local_scratch() {
        ScratchCell& cell = scratch.local();
        if (!cell.made) {
            cell.scratch = prototype_middle().make_scratch();
            cell.made = true;
        }
        return cell.scratch.get();
    }
    // The parallel stage: segments of a token, each into its own batch.
    void shade(Token& t) {
        t.edge.acquire();
        MiddleEnd::Scratch* s = local_scratch();
        for (uint32_t i = 0; i < t.count; ++i) {
            Item& it = t.items[i];
            if (!it.has_segment) continue;
            it.batch.clear();
            slots[it.slot].middle->run(it.seg, s, it.batch);
        }
        t.edge.release();
    }

    void consume(Token& t) {
        sink_edge.acquire();
        t.edge.acquire();
        Backend& backend = *binding->backend;
        for (uint32_t i = 0; i < t.count; ++i) {
            const Item& it = t.items[i];
            Slot& s = slots[it.slot];
            const VertexLayout& layout = s.middle->layout();
            if (it.begins) backend.begin_draw(s.info, layout);
            if (it.has_segment) {
                for (uint32_t c = 0; c < kMaxCounters; ++c)
                    counter_total[c] += it.batch.counters[c];
                submit_batch(backend, it.batch, layout);
            } else {
                backend.end_draw();
                s.middle->finish();
                ++delivered;
                closed.fetch_add(1, std::memory_order_release);
            }
        }
        t.edge.release();
        sink_edge.release();
    }

    // After a pipeline run: every stage's writes become visible to this thread (for TSan).
    void settle() {
        source_edge.acquire();
        sink_edge.acquire();
        for (Token& t : tokens) t.edge.acquire();
    }

    void run_parallel(ContextCounters& counters) {
        while (cursor < draws.size() || draw_open) {
            source_edge.release();
            arena.execute([&] {
                const SharedPtrField<Impl> self(this);
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
            ++counters.pipeline_runs;
        }
    }

    void run_inline() {
        while (Token* t = produce(nullptr)) {
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

void DrawPipeline::bind(MiddleEndFactory factory) {
    Impl& m = *impl_;
    auto prototype = factory();
    if (!prototype)
        throw Error(ErrorCode::middle_end_failure, "middle end: the factory returned null");
    // Enough slots that a draw never waits for one: each token in flight ends at most
    // kMaxDrawsPerToken + 1 draws.
    m.slots = std::vector<Slot>(size_t(m.token_count) * (kMaxDrawsPerToken + 1) + 1);
    m.prototype = std::move(prototype);
    m.factory = std::move(factory);
    m.scratch.clear();
}

void DrawPipeline::bind(std::unique_ptr<MiddleEnd> middle) {
    Impl& m = *impl_;
    if (!middle) throw Error(ErrorCode::middle_end_failure, "middle end: null instance bound");
    m.slots = std::vector<Slot>(1);
    m.slots[0].owned = std::move(middle);
    m.slots[0].middle = m.slots[0].owned.get();
    m.prototype.reset();
    m.factory = nullptr;
    m.scratch.clear();
}

bool DrawPipeline::bound() const {
    return !impl_->slots.empty();
}

void DrawPipeline::validate(const DrawInfo& draw, const PipelineBinding& binding) {
    Impl& m = *impl_;
    validate_draw(draw);
    validate_vertex_input(binding.input);
    const DrawState state{&draw, binding.input, binding.vs, binding.gs};
    const MiddleEndLimits limits = m.prototype_middle().prepare(state);
    const FrontEndOptions fo = front_end_options(limits, binding.run);
    check_split(draw, fo);
    // A cached split bounds base vertex by its recorded index range in O(1); anything else
    // is scanned (the split itself happens in the source).
    const auto cached =
        uses_split_cache(draw, binding.run) ? binding.run.split_cache->peek(draw, fo) : nullptr;
    if (!cached && uses_split_cache(draw, binding.run) &&
        !binding.run.split_cache->is_registered(draw.index_buffer_id))
        throw Error(ErrorCode::not_found,
                    "index_buffer_id: " + std::to_string(draw.index_buffer_id) +
                        " is not registered (Context::register_index_buffer)");
    check_indices(draw, cached ? cached->range : std::nullopt);
}

DrawStats DrawPipeline::run(std::span<const DrawInfo> draws, const PipelineBinding& binding,
                            bool parallel, ContextCounters& counters) {
    Impl& m = *impl_;
    assert(bound() && binding.backend);
    m.draws = draws;
    m.binding = &binding;
    m.cursor = 0;
    m.draw_open = false;
    m.front_total = {};
    m.counter_total = {};
    m.delivered = 0;
    // Each flush walks the token ring and the slots from their start, so a flush of the same
    // shape uses the same tokens and middle ends: once one has warmed them, nothing grows.
    m.token_seq = 0;
    m.begun = 0;
    m.closed.store(0, std::memory_order_relaxed);
    try {
        if (parallel) {
            m.run_parallel(counters);
        } else {
            m.run_inline();
            ++counters.inline_runs;
        }
    } catch (...) {
        m.settle();
        m.draw_open = false; // draws cut short never reach end_draw
        counters.draws += m.delivered;
        counters.tokens += m.token_seq;
        throw;
    }
    counters.draws += m.delivered;
    counters.tokens += m.token_seq;
    DrawStats stats;
    stats.front = m.front_total;
    stats.counters = m.counter_total;
    return stats;
}

} // namespace drawpipe::detail
