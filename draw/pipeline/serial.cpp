#include "drawpipe/extend/serial.hpp"

#include "draw/pipeline/prepared_draw.hpp"
#include "draw/pipeline/statistics.hpp"
#include "draw/stages/output_stage.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/gs.hpp"

#include <string>
#include <vector>

namespace drawpipe {

void prepare_stream_output(PreparedDraw& draw, const StreamOutput* so) {
    if (!so) return;
    const GeometryShader* gs = draw.state.gs;
    const uint32_t streams = gs ? gs->streams : 1;
    auto plan = std::make_shared<StreamOutputPlan>(
        plan_stream_output(so->state(), draw.middle->layout(), streams));
    // A middle end that drops streams past 0 would leave their buffers silently empty.
    bool later_streams = false;
    for (uint32_t s = 1; s < kMaxVertexStreams; ++s) later_streams |= plan->buffer_mask[s] != 0;
    if (later_streams && !draw.middle->limits().delivers_streams)
        throw Error(ErrorCode::unsupported,
                    "stream output: captures a vertex stream past 0, which this middle end does "
                    "not deliver (only stream 0 of gs " +
                        (gs ? gs->name : std::string()) + ")");
    draw.stream_output = std::move(plan);
}

void prepare_raster(PreparedDraw& draw, const OutputOptions& out) {
    if (!out.raster || out.rasterizer_discard) return;
    draw.raster = plan_raster(*out.raster, draw.middle->layout(), out.stream_output != nullptr);
    draw.stages_in_shade = stages_order_free(draw, out);
    if (draw.stages_in_shade) draw.driver_stages = driver_stage_set(out.stages);
}

DrawStats draw_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                      const DrawOptions& options) {
    return draw_serial(state, middle, backend, options, OutputOptions{});
}

namespace {

PreparedDraw prepare_serial(const DrawState& state, const MiddleEnd& middle, Backend& backend,
                            const DrawOptions& options, const OutputOptions& output) {
    PreparedDraw draw = prepare_draw(state, middle, capture_options(options, output.stream_output));
    prepare_stream_output(draw, output.stream_output);
    prepare_raster(draw, output);
    prepare_delivery(draw, output, backend);
    return draw;
}

DrawStats run_serial(const PreparedDraw& draw, const MiddleEnd& middle, Backend& backend,
                     const OutputOptions& output) {
    SegmentSource source;
    source.begin(draw);
    auto scratch = middle.make_scratch();
    SegmentStorage storage;
    Segment seg;
    ShadedBatch batch;
    DrawStats stats;
    DrawSink sink(backend, output);
    int64_t clip_delta = 0; // of batches the stages ran on as they were shaded
    sink.begin(draw);
    source.drain(storage, seg, [&](const Segment& s) {
        shade_step(draw, s, scratch.get(), batch);
        add_counters(stats.counters, batch.counters);
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
    return run_serial(prepare_serial(state, middle, backend, options, output), middle, backend,
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
            prepared.push_back(prepare_serial(one, middle, backend, options, output));
        } catch (const Error& e) {
            throw Error(e.code(), "draw " + std::to_string(i) + ": " + e.what());
        }
    }
    DrawStats stats;
    for (const PreparedDraw& p : prepared) stats += run_serial(p, middle, backend, output);
    return stats;
}

} // namespace drawpipe
