#include "drawpipe/extend/serial.hpp"

#include "draw/context/draw_sink.hpp"
#include "draw/context/prepared_draw.hpp"
#include "draw/context/shade_step.hpp"
#include "draw/context/statistics.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/gs.hpp"

#include <string>
#include <vector>

namespace drawpipe {

DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options) {
    return draw_serial(state, middle, backend, options, OutputOptions{});
}

namespace {

DrawStats run_serial(const PreparedDraw& draw, const MiddleEnd& middle, Backend& backend,
                     const OutputOptions& output) {
    SegmentSource source;
    source.begin(draw);
    auto scratch = middle.make_scratch();
    SegmentStorage storage;
    Segment seg;
    DrawBatch batch;
    DrawStats stats;
    DrawSink sink(backend, output);
    int64_t clip_delta = 0; // of batches the stages ran on as they were shaded
    sink.begin(draw);
    source.drain(storage, seg, [&](const Segment& s) {
        shade_step(draw, s, scratch.get(), batch);
        add_counters(stats.counters, batch.shaded.counters);
        sink.batch(batch, stats.primitives);
        clip_delta += batch.clip_delta;
    });
    sink.end();
    stats.front = source.stats();
    add_pipeline_statistics(stats.statistics, draw, stats.front, stats.primitives,
                            clip_delta + sink.take_clip_delta());
    return stats;
}

} // namespace

DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options, const OutputOptions& output) {
    return run_serial(prepare_draw(state, middle, options, output, &backend), middle, backend,
                      output);
}

void check_draw(const DrawState& state, const MiddleEnd& middle, const DrawOptions& options) {
    (void)prepare_draw(state, middle, options);
}

DrawStats draw_serial(const DrawState& state, std::span<const DrawInfo> draws,
                      const MiddleEnd& middle, Backend& backend, const DrawOptions& options,
                      const OutputOptions& output) {
    if (draws.size() > UINT32_MAX)
        throw Error(ErrorCode::count_overflow,
                    "draws: " + std::to_string(draws.size()) + " do not fit a draw id");
    std::vector<PreparedDraw> prepared;
    prepared.reserve(draws.size());
    DrawState one = state;
    for (size_t i = 0; i < draws.size(); ++i) {
        one.draw = draws[i];
        one.draw.draw_id = uint32_t(i);
        try {
            prepared.push_back(prepare_draw(one, middle, options, output, &backend));
        } catch (const Error& e) {
            throw Error(e.code(), "draw " + std::to_string(i) + ": " + e.what());
        }
    }
    DrawStats stats;
    for (const PreparedDraw& p : prepared) stats += run_serial(p, middle, backend, output);
    return stats;
}

} // namespace drawpipe
