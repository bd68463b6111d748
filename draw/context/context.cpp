#include "drawpipe/context.hpp"

#include "draw/base/callback_scope.hpp"
#include "draw/context/pipeline.hpp"
#include "draw/context/prepare_reuse.hpp"
#include "draw/context/prepared_draw.hpp"
#include "draw/context/robust_indices.hpp"
#include "draw/context/validate.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/simd_shade.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/split_cache.hpp"

#include <oneapi/tbb/info.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace drawpipe {

namespace {

uint32_t checked_threads(uint32_t requested) {
    if (requested == 0) return default_thread_count();
    if (requested > kMaxThreads)
        throw Error(ErrorCode::invalid_value, "threads: " + std::to_string(requested) +
                                                  " is not a thread count in [1, " +
                                                  std::to_string(kMaxThreads) + "]");
    return requested;
}

} // namespace

uint32_t default_thread_count() {
    if (const char* env = std::getenv("DRAWPIPE_THREADS"); env && *env) {
        char* end = nullptr;
        const unsigned long n = std::strtoul(env, &end, 10);
        if (*end != '\0' || n == 0 || n > kMaxThreads)
            throw Error(ErrorCode::invalid_value, std::string("DRAWPIPE_THREADS: '") + env +
                                                      "' is not a thread count in [1, " +
                                                      std::to_string(kMaxThreads) + "]");
        return uint32_t(n);
    }
    return uint32_t(std::max(1, tbb::info::default_concurrency()));
}

struct Context::Impl {
    ContextOptions options;
    detail::DrawPipeline pipeline;
    std::vector<VertexBuffer> buffers;
    std::vector<VertexAttrib> attribs;
    VertexShader vs;
    const GeometryShader* gs = nullptr;
    TessControlShader tcs;
    TessEvalShader tes;
    TessLevels patch_default_levels;
    std::shared_ptr<const MiddleEnd> middle;
    Backend* backend = nullptr;
    uint64_t draw_ordinal = 0; // BatchOrder::draw of the next draw
    std::optional<StreamOutput> stream_output;
    bool rasterizer_discard = false;
    std::optional<RasterState> raster;
    std::vector<Stage*> stages;
    std::vector<PreparedDraw> queue;
    uint64_t queued_work = 0;
    DrawStats pending; // of draws delivered since the last flush()
    ContextCounters counters;
    SplitCache split_cache; // used unless options.draw names another
    // The last draw prepared in full (prepare_draw) with the state bound now: a draw that
    // differs from it only in `start` is prepared like it (prepare_reuse.hpp), which spares
    // the calling thread the middle end's prepare and the plans, the per-draw cost of a queue
    // of small draws. Every call that changes the bound state drops it (changing()).
    std::optional<PreparedDraw> like;
    // True while deliver() runs the queue: any call then comes from one of the context's own
    // callbacks (one thread drives a context), which would change the queue being drawn.
    std::atomic<bool> delivering{false};

    explicit Impl(const ContextOptions& o) : options(o), pipeline(checked_threads(o.threads)) {
        if (!options.draw.split_cache) options.draw.split_cache = &split_cache;
    }

    // Refuses `call` from inside a callback of this context, before it touches anything.
    void enter(const char* call, const char* what = nullptr) const {
        if (delivering.load(std::memory_order_relaxed)) [[unlikely]]
            refuse(call, what);
    }
    // Out of line: the words cost nothing on the path every call takes.
    [[noreturn, gnu::cold, gnu::noinline]] static void refuse(const char* call, const char* what) {
        const char* in = detail::t_backend_callback;
        throw Error(ErrorCode::invalid_operation,
                    std::string(call) + (what ? std::string(" (") + what + ")" : "") +
                        ": called on the context from inside " +
                        (in ? std::string("its backend's ") + in
                            : std::string("one of its callbacks (a shader or a stage)")) +
                        " while it delivers its draws; a callback must not call back into its "
                        "context");
    }

    // Before the bound state changes: the queued draws are delivered with the old one, and
    // no later draw is prepared like one prepared with it.
    void changing() {
        deliver();
        like.reset();
    }

    // A draw prepared in full, kept as the one later draws are prepared like.
    PreparedDraw prepare(const DrawState& state) {
        PreparedDraw p = prepare_draw(state, *middle, options.draw, output(), backend);
        like = p;
        like->cached = nullptr; // looked up per draw: keep no cached split alive here
        return p;
    }

    OutputOptions output() {
        return {stream_output ? &*stream_output : nullptr, rasterizer_discard,
                raster ? &*raster : nullptr, stages};
    }

    void check_bound() const {
        if (!middle)
            throw Error(ErrorCode::invalid_value,
                        "middle end: none bound (Context::bind_middle_end)");
        if (!backend)
            throw Error(ErrorCode::invalid_value, "backend: none bound (Context::bind_backend)");
    }

    DrawState bound_state(const DrawInfo& draw) const {
        return {draw,
                {buffers, attribs},
                vs ? &vs : nullptr,
                gs,
                tcs ? &tcs : nullptr,
                tes ? &tes : nullptr,
                patch_default_levels};
    }

    // Whether `draw` may be prepared like the last draw prepared in full. Not with
    // tessellation: its prepared middle end may hold counts that depend on where the draw
    // starts (gl_PrimitiveIDIn after a control shader, drawpipe/extend/tess_stages.hpp).
    bool reuses_like(const DrawInfo& draw) const {
        // Nor one read through a zero-padded copy: its middle end is prepared for the copy.
        return like && !tes && same_but_start(like->state.draw, draw) &&
               !(options.draw.robust_indices && reads_past_indices(draw));
    }

    // Checks and prepares one draw against the bound state; queues nothing.
    PreparedDraw prepare_one(const DrawInfo& draw) {
        check_bound();
        const DrawState state = bound_state(draw);
        return reuses_like(draw) ? prepare_draw_like(*like, state, options.draw) : prepare(state);
    }

    void enqueue(PreparedDraw&& p) {
        p.ordinal = draw_ordinal++;
        queued_work += p.work();
        queue.push_back(std::move(p));
        if (queue.size() >= detail::kMaxQueuedDraws || queued_work >= detail::kFlushWork) deliver();
    }

    // A multi-draw of `n` draws, draw i read by get(i, DrawInfo&) (false: it draws nothing).
    // First every draw's own fields (validate_draw: enums, 32-bit positions, the index
    // buffer's length), so that the errors GL would give for the call queue none of it; then
    // each is prepared and queued as a single draw is, flushing as they go, so that memory
    // stays bounded however many there are. Errors name the draw: `what` and its index.
    // `get` may write only some fields: state.draw starts as `first` and keeps the rest.
    template <class Get>
    void draw_all(size_t n, Get&& get, const char* what, const DrawInfo& first = {}) {
        auto named = [&](const Error& e, size_t i) {
            return Error(e.code(), what + std::to_string(i) + ": " + e.what());
        };
        check_bound();
        DrawState state = bound_state(first);
        for (size_t i = 0; i < n; ++i) {
            try {
                if (get(i, state.draw)) validate_draw(state.draw, options.draw.robust_indices);
            } catch (const Error& e) {
                throw named(e, i);
            }
        }
        // As prepare_one, each draw validated already.
        for (size_t i = 0; i < n; ++i) {
            if (!get(i, state.draw)) continue;
            PreparedDraw p = [&] {
                try {
                    return reuses_like(state.draw)
                               ? prepare_draw_like(*like, state, options.draw, true)
                               : prepare(state);
                } catch (const Error& e) {
                    throw named(e, i);
                }
            }();
            enqueue(std::move(p)); // may deliver: its errors are the queue's, not this draw's
        }
    }

    void deliver() {
        if (queue.empty()) return;
        const bool parallel = options.inline_below == 0 ||
                              (pipeline.threads() > 1 && queued_work >= options.inline_below &&
                               queued_work >= options.inline_mean_below * queue.size());
        struct Delivering { // cleared however the run ends
            std::atomic<bool>& flag;
            ~Delivering() { flag.store(false, std::memory_order_relaxed); }
        } const scope{delivering};
        delivering.store(true, std::memory_order_relaxed);
        try {
            pending += pipeline.run(queue, *backend, output(), parallel, counters);
        } catch (...) {
            queue.clear();
            queued_work = 0;
            throw;
        }
        queue.clear();
        queued_work = 0;
    }
};

Context::Context(const ContextOptions& options) {
    // Pinned before anything is drawn (drawpipe/extend/simd_shade.hpp): tests and fuzzers run each
    // level.
    if (const char* env = std::getenv("DRAWPIPE_SIMD_TARGET"); env && *env) {
        try {
            pin_simd_target(env);
        } catch (const Error& e) {
            throw Error(ErrorCode::invalid_value, std::string("DRAWPIPE_SIMD_TARGET: ") + e.what());
        }
    }
    impl_ = std::make_unique<Impl>(options);
}

Context::~Context() {
    try {
        impl_->deliver();
    } catch (...) { // documented: a destructor cannot report it
    }
}

uint32_t Context::threads() const {
    return impl_->pipeline.threads();
}

void Context::set_vertex_buffers(std::span<const VertexBuffer> buffers) {
    impl_->enter("Context::set_vertex_buffers");
    impl_->changing();
    impl_->buffers.assign(buffers.begin(), buffers.end());
}

void Context::set_vertex_attribs(std::span<const VertexAttrib> attribs) {
    impl_->enter("Context::set_vertex_attribs");
    impl_->changing();
    impl_->attribs.assign(attribs.begin(), attribs.end());
}

void Context::bind_vertex_shader(VertexShader vs) {
    impl_->enter("Context::bind_vertex_shader");
    impl_->changing();
    impl_->vs = std::move(vs);
}

void Context::bind_geometry_shader(const GeometryShader* gs) {
    impl_->enter("Context::bind_geometry_shader");
    impl_->changing();
    impl_->gs = gs;
}

void Context::bind_tess_control(TessControlShader tcs) {
    impl_->enter("Context::bind_tess_control");
    impl_->changing();
    impl_->tcs = std::move(tcs);
}

void Context::bind_tess_eval(TessEvalShader tes) {
    impl_->enter("Context::bind_tess_eval");
    impl_->changing();
    impl_->tes = std::move(tes);
}

void Context::set_patch_default_levels(const TessLevels& levels) {
    impl_->enter("Context::set_patch_default_levels");
    impl_->changing();
    impl_->patch_default_levels = levels;
}

void Context::bind_middle_end(std::string_view name) {
    bind_middle_end(MiddleEndRegistry::global().find(name));
}

void Context::bind_middle_end(std::shared_ptr<const MiddleEnd> middle) {
    impl_->enter("Context::bind_middle_end");
    if (!middle) throw Error(ErrorCode::invalid_value, "middle end: null instance bound");
    impl_->changing();
    impl_->middle = middle;
    impl_->pipeline.bind(std::move(middle));
}

void Context::bind_backend(Backend& backend) {
    impl_->enter("Context::bind_backend");
    impl_->changing();
    impl_->backend = &backend;
}

void Context::draw(const DrawInfo& draw) {
    impl_->enter("Context::draw");
    impl_->enqueue(impl_->prepare_one(draw));
}

void Context::draw(std::span<const DrawInfo> draws) {
    impl_->enter("Context::draw");
    if (draws.size() > UINT32_MAX)
        throw Error(ErrorCode::count_overflow,
                    "draws: " + std::to_string(draws.size()) + " do not fit a draw id");
    impl_->draw_all(
        draws.size(),
        [&](size_t i, DrawInfo& d) {
            d = draws[i];
            d.draw_id = uint32_t(i);
            return true;
        },
        "draw ");
}

void Context::draw_indirect(const DrawInfo& draw, const IndirectDraws& indirect) {
    impl_->enter("Context::draw_indirect");
    const IndirectRecords records(draw, indirect); // read in place, never copied whole
    impl_->draw_all(
        records.count(), [&](size_t i, DrawInfo& d) { return records.fill(uint32_t(i), d); },
        "indirect record ", draw);
}

DrawStats Context::flush() {
    impl_->enter("Context::flush");
    impl_->deliver();
    return std::exchange(impl_->pending, DrawStats{});
}

void Context::set_stream_output(const StreamOutputState& state) {
    impl_->enter("Context::set_stream_output");
    // GL: buffers and varyings cannot change while transform feedback is active.
    if (impl_->stream_output && impl_->stream_output->begun())
        throw Error(ErrorCode::invalid_operation,
                    "stream output: set_stream_output during a capture session");
    StreamOutput so(state); // validated before anything changes
    impl_->changing();
    impl_->stream_output.emplace(std::move(so));
}

void Context::clear_stream_output() {
    impl_->enter("Context::clear_stream_output");
    if (impl_->stream_output && impl_->stream_output->begun())
        throw Error(ErrorCode::invalid_operation,
                    "stream output: clear_stream_output during a capture session");
    impl_->changing();
    impl_->stream_output.reset();
}

StreamOutput& Context::bound_stream_output(const char* what) {
    impl_->enter("Context::stream_output", what);
    if (!impl_->stream_output)
        throw Error(ErrorCode::invalid_operation,
                    std::string("stream output: ") + what + ": none bound (set_stream_output)");
    // Queued draws were issued before this call: they are captured (or not) first.
    impl_->deliver();
    return *impl_->stream_output;
}

void Context::begin_stream_output() {
    bound_stream_output("begin").begin();
}
void Context::pause_stream_output() {
    bound_stream_output("pause").pause();
}
void Context::resume_stream_output() {
    bound_stream_output("resume").resume();
}
StreamOutputCounts Context::end_stream_output() {
    StreamOutput& so = bound_stream_output("end");
    so.end();
    return so.counts();
}
StreamOutputCounts Context::stream_output_counts() {
    return bound_stream_output("counts").counts();
}
size_t Context::stream_output_written_bytes(uint32_t buffer) {
    if (buffer >= kMaxStreamOutputBuffers)
        throw Error(ErrorCode::invalid_value, "buffer: " + std::to_string(buffer) + ", at most " +
                                                  std::to_string(kMaxStreamOutputBuffers - 1));
    return bound_stream_output("written bytes").written_bytes(buffer);
}

void Context::draw_stream_output(const DrawInfo& draw, uint32_t stream) {
    impl_->enter("Context::draw_stream_output");
    // GL draws captured vertices as arrays: the buffer holds vertices, not indices.
    if (draw.index_type != IndexType::none)
        throw Error(ErrorCode::invalid_value,
                    "index_type: drawing what was captured is not indexed");
    if (stream >= kMaxVertexStreams)
        throw Error(ErrorCode::invalid_value, "stream: " + std::to_string(stream) + ", at most " +
                                                  std::to_string(kMaxVertexStreams - 1));
    const StreamOutput& so = bound_stream_output("draw what was captured");
    // GL: INVALID_OPERATION until EndTransformFeedback has run once for the object.
    if (!so.ended_once())
        throw Error(ErrorCode::invalid_operation,
                    "stream output: draw what was captured: no capture session has ended");
    const uint64_t vertices = so.written_vertices(stream);
    if (vertices > UINT32_MAX)
        throw Error(ErrorCode::count_overflow, "stream output: " + std::to_string(vertices) +
                                                   " captured vertices do not fit a draw count");
    DrawInfo d = draw;
    d.count = uint32_t(vertices);
    this->draw(d);
}

void Context::set_raster_state(const RasterState& state) {
    impl_->enter("Context::set_raster_state");
    impl_->changing();
    impl_->raster = state;
}

void Context::clear_raster_state() {
    impl_->enter("Context::clear_raster_state");
    impl_->changing();
    impl_->raster.reset();
}

void Context::add_stage(Stage& stage) {
    impl_->enter("Context::add_stage");
    impl_->changing();
    impl_->stages.push_back(&stage);
}

void Context::clear_stages() {
    impl_->enter("Context::clear_stages");
    impl_->changing();
    impl_->stages.clear();
}

void Context::set_rasterizer_discard(bool discard) {
    impl_->enter("Context::set_rasterizer_discard");
    impl_->changing();
    impl_->rasterizer_discard = discard;
}

const ContextCounters& Context::counters() const {
    return impl_->counters;
}

uint64_t Context::register_index_buffer() {
    impl_->enter("Context::register_index_buffer");
    return impl_->options.draw.split_cache->register_buffer();
}

void Context::bump_index_buffer(uint64_t buffer_id) {
    impl_->enter("Context::bump_index_buffer");
    impl_->deliver(); // queued draws were issued against the old contents
    impl_->options.draw.split_cache->bump_version(buffer_id);
}

SplitCache& Context::split_cache() {
    impl_->enter("Context::split_cache");
    return *impl_->options.draw.split_cache;
}

} // namespace drawpipe
