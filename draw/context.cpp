#include "draw/context.hpp"

#include "draw/split_cache.hpp"

#include "draw/error.hpp"
#include "draw/pipeline.hpp"

#include <oneapi/tbb/info.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace drawpipe {

namespace {

void add(DrawStats& sum, const DrawStats& s) {
    sum.front.segments += s.front.segments;
    sum.front.indices += s.front.indices;
    sum.front.fetched += s.front.fetched;
    for (uint32_t i = 0; i < kMaxCounters; ++i) sum.counters[i] += s.counters[i];
}

uint32_t resolve_threads(uint32_t requested) {
    return requested != 0 ? requested : default_thread_count();
}

} // namespace

uint32_t default_thread_count() {
    if (const char* env = std::getenv("DRAWPIPE_THREADS"); env && *env) {
        char* end = nullptr;
        const unsigned long n = std::strtoul(env, &end, 10);
        if (*end != '\0' || n == 0 || n > 1024)
            throw Error(ErrorCode::invalid_value, std::string("DRAWPIPE_THREADS: '") + env +
                                                      "' is not a thread count in [1, 1024]");
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
    Backend* backend = nullptr;
    std::vector<DrawInfo> queue;
    uint64_t queued_work = 0;
    DrawStats pending; // of draws delivered since the last flush()
    ContextCounters counters;
    SplitCache split_cache; // used unless options.run names another

    explicit Impl(const ContextOptions& o) : options(o), pipeline(resolve_threads(o.threads)) {
        if (!options.run.split_cache) options.run.split_cache = &split_cache;
    }

    detail::PipelineBinding binding() const {
        return {{buffers, attribs}, vs ? &vs : nullptr, gs, backend, options.run};
    }

    void deliver() {
        if (queue.empty()) return;
        const bool parallel = options.inline_below == 0 ||
                              (pipeline.threads() > 1 && queued_work >= options.inline_below &&
                               queued_work >= options.inline_mean_below * queue.size());
        const detail::PipelineBinding b = binding();
        try {
            add(pending, pipeline.run(queue, b, parallel, counters));
        } catch (...) {
            queue.clear();
            queued_work = 0;
            throw;
        }
        queue.clear();
        queued_work = 0;
    }
};

Context::Context(const ContextOptions& options) : impl_(std::make_unique<Impl>(options)) {}
Context::~Context() = default;

uint32_t Context::threads() const {
    return impl_->pipeline.threads();
}

void Context::set_vertex_buffers(std::span<const VertexBuffer> buffers) {
    impl_->deliver();
    impl_->buffers.assign(buffers.begin(), buffers.end());
}

void Context::set_vertex_attribs(std::span<const VertexAttrib> attribs) {
    impl_->deliver();
    impl_->attribs.assign(attribs.begin(), attribs.end());
}

void Context::bind_vertex_shader(VertexShader vs) {
    impl_->deliver();
    impl_->vs = std::move(vs);
}

void Context::bind_geometry_shader(const GeometryShader* gs) {
    impl_->deliver();
    impl_->gs = gs;
}

void Context::bind_middle_end(std::string_view name) {
    // The factory runs once here, so an unknown name throws Error(not_found) at once.
    bind_middle_end(MiddleEndFactory(
        [n = std::string(name)] { return MiddleEndRegistry::global().create(n); }));
}

void Context::bind_middle_end(MiddleEndFactory factory) {
    impl_->deliver();
    impl_->pipeline.bind(std::move(factory));
}

void Context::bind_middle_end(std::unique_ptr<MiddleEnd> middle) {
    impl_->deliver();
    impl_->pipeline.bind(std::move(middle));
}

void Context::bind_backend(Backend& backend) {
    impl_->deliver();
    impl_->backend = &backend;
}

void Context::draw(const DrawInfo& draw) {
    Impl& m = *impl_;
    if (!m.pipeline.bound())
        throw Error(ErrorCode::invalid_value, "middle end: none bound (Context::bind_middle_end)");
    if (!m.backend)
        throw Error(ErrorCode::invalid_value, "backend: none bound (Context::bind_backend)");
    m.pipeline.validate(draw, m.binding());
    m.queue.push_back(draw);
    m.queued_work += uint64_t(draw.count) * draw.instance_count;
    if (m.queue.size() >= detail::kMaxQueuedDraws || m.queued_work >= detail::kFlushWork)
        m.deliver();
}

DrawStats Context::flush() {
    impl_->deliver();
    return std::exchange(impl_->pending, DrawStats{});
}

const ContextCounters& Context::counters() const {
    return impl_->counters;
}

uint64_t Context::register_index_buffer() {
    return impl_->options.run.split_cache->register_buffer();
}

void Context::bump_index_buffer(uint64_t buffer_id) {
    impl_->deliver(); // queued draws were issued against the old contents
    impl_->options.run.split_cache->bump_version(buffer_id);
}

SplitCache& Context::split_cache() {
    return *impl_->options.run.split_cache;
}

} // namespace drawpipe
