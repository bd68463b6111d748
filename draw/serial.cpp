#include "drawpipe/serial.hpp"

#include "draw/internal/prepared_draw.hpp"
#include "draw/internal/submit.hpp"

namespace drawpipe {

DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options) {
    const PreparedDraw draw = prepare_draw(state, middle, options);
    SegmentSource source;
    source.begin(draw);
    const VertexLayout& layout = draw.middle->layout();
    auto scratch = middle.make_scratch();
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
    DrawStats stats;
    backend.begin_draw(state.draw, layout);
    while (source.next(storage, seg)) {
        batch.clear();
        draw.middle->shade(seg, scratch.get(), batch);
        for (uint32_t i = 0; i < kMaxCounters; ++i) stats.counters[i] += batch.counters[i];
        submit_batch(backend, batch, layout);
    }
    backend.end_draw();
    stats.front = source.stats();
    return stats;
}

} // namespace drawpipe
