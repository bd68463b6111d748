#include "draw/run.hpp"

#include "draw/vertex_fetch.hpp"

namespace drawpipe {

FrontEndOptions front_end_options(const MiddleEndLimits& limits, const RunOptions& options) {
    FrontEndOptions fo{limits, options.strategy};
    if (options.max_vertices != 0) fo.limits.max_vertices = options.max_vertices;
    return fo;
}

DrawStats run_draw(const DrawState& state, MiddleEnd& middle, Backend& backend,
                   const RunOptions& options) {
    validate_draw(*state.draw);
    validate_vertex_input(state.input);
    const MiddleEndLimits limits = middle.prepare(state);
    FrontEnd front;
    front.begin(*state.draw, front_end_options(limits, options));

    const VertexLayout& layout = middle.layout();
    auto scratch = middle.make_scratch();
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
    DrawStats stats;
    backend.begin_draw(*state.draw, layout);
    while (front.next(storage, seg)) {
        batch.clear();
        middle.run(seg, scratch.get(), batch);
        for (uint32_t i = 0; i < kMaxCounters; ++i) stats.counters[i] += batch.counters[i];
        submit_batch(backend, batch, layout);
    }
    backend.end_draw();
    middle.finish();
    stats.front = front.stats();
    return stats;
}

} // namespace drawpipe
