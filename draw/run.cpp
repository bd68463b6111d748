#include "draw/run.hpp"

#include "draw/split_cache.hpp"
#include "draw/validate.hpp"
#include "draw/vertex_fetch.hpp"

namespace drawpipe {

FrontEndOptions front_end_options(const MiddleEndLimits& limits, const RunOptions& options) {
    FrontEndOptions fo{limits, options.strategy};
    if (options.max_vertices != 0) fo.limits.max_vertices = options.max_vertices;
    return fo;
}

bool uses_split_cache(const DrawInfo& draw, const RunOptions& options) {
    return options.split_cache && draw.index_buffer_id != 0 && draw.index_type != IndexType::none;
}

DrawStats run_draw(const DrawState& state, MiddleEnd& middle, Backend& backend,
                   const RunOptions& options) {
    const DrawInfo& draw = *state.draw;
    validate_draw(draw);
    validate_vertex_input(state.input);
    const MiddleEndLimits limits = middle.prepare(state);
    const FrontEndOptions fo = front_end_options(limits, options);
    check_split(draw, fo);
    FrontEnd front;
    std::optional<SplitReplay> replay;
    std::shared_ptr<const SplitEntry> cached;
    if (uses_split_cache(draw, options)) cached = options.split_cache->acquire(draw, fo);
    // A cached split's recorded range bounds the indices without scanning them again.
    check_indices(draw, cached ? cached->range : std::nullopt);
    if (cached)
        replay.emplace(std::move(cached), draw, fo.limits);
    else
        front.begin(draw, fo);

    const VertexLayout& layout = middle.layout();
    auto scratch = middle.make_scratch();
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
    DrawStats stats;
    backend.begin_draw(draw, layout);
    while (replay ? replay->next(seg) : front.next(storage, seg)) {
        batch.clear();
        middle.run(seg, scratch.get(), batch);
        for (uint32_t i = 0; i < kMaxCounters; ++i) stats.counters[i] += batch.counters[i];
        submit_batch(backend, batch, layout);
    }
    backend.end_draw();
    middle.finish();
    if (replay)
        stats.front = replay->stats();
    else
        stats.front = front.stats();
    return stats;
}

} // namespace drawpipe
