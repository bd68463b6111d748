#include "draw/context/prepared_draw.hpp"

#include "draw/context/prepare_reuse.hpp"
#include "draw/context/robust_indices.hpp"
#include "draw/front_end/chunks.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/stage.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/tess.hpp"

#include <atomic>
#include <memory>
#include <string>

namespace drawpipe {

namespace {

// A forced limit may only lower the middle end's: above it, segments would be larger than
// the middle end was built to take.
FrontEndOptions split_options(const MiddleEndLimits& limits, const DrawOptions& options,
                              std::string_view middle) {
    FrontEndOptions fo{limits, options.strategy};
    if (options.max_vertices > limits.max_vertices)
        throw Error(ErrorCode::invalid_value,
                    "max_vertices: " + std::to_string(options.max_vertices) + " is above the " +
                        std::to_string(limits.max_vertices) + " vertices per segment middle end '" +
                        std::string(middle) + "' accepts for this draw");
    fo.limits.max_vertices = split_limit(limits, options);
    fo.chunk_positions = options.chunk_positions; // 0: by the limits (default_chunk_positions)
    return fo;
}

// The checks and the split-cache lookup that depend on where the draw starts, shared by
// prepare_draw and prepare_draw_like.
void finish_draw(PreparedDraw& p, const DrawOptions& options) {
    const DrawInfo& draw = p.state.draw;
    p.check_batches = options.check_middle_end;
    check_split(draw, p.split, p.state.gs);
    const bool cacheable =
        options.split_cache && draw.index_buffer_id != 0 && draw.index_type != IndexType::none;
    // acquire_split checks the buffer's registration, under the lock its lookup takes anyway.
    // Null when the split is larger than the cache's whole budget: split it uncached.
    if (cacheable) p.cached = acquire_split(*options.split_cache, draw, p.split);
    check_indices(draw, p.cached ? p.cached->range : std::nullopt);
}

// GL treats primitive restart as disabled for patches (PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED
// is false): the restart index is an ordinary index there. llvmpipe restarts anyway.
void drop_patch_restart(DrawInfo& draw) {
    if (draw.prim == Prim::patches) draw.primitive_restart = false;
}

DrawState without_patch_restart(const DrawState& state) {
    DrawState s = state;
    drop_patch_restart(s.draw);
    return s;
}

// The draw's own checks, then, with robust index access, the draw that reads 0 past its index
// buffer (p.robust_copy holds its indices).
void checked_draw(PreparedDraw& p, const DrawOptions& options, bool validated = false) {
    if (!validated) validate_draw(p.state.draw, options.robust_indices);
    p.robust_copy = nullptr;
    if (options.robust_indices) p.state.draw = robust_draw(p.state.draw, p.robust_copy);
}

} // namespace

namespace {

// The options a draw is split with while stream output is bound: the reorder strategy draws
// triangles out of GL's order on purpose, and captured bytes must keep that order, so it
// falls back to `exact` (the de-duplication reorder itself uses).
DrawOptions capture_options(DrawOptions options, const StreamOutput* so) {
    if (so && options.strategy.kind == Strategy::Kind::reorder)
        options.strategy = Strategy{Strategy::Kind::exact, 0};
    return options;
}

// Resolves the bound stream output for the draw's vertices (its plan), or throws Error: an
// output the last vertex stage does not write, or a middle end that drops the vertex streams
// the capture needs. Nothing to do when no stream output is bound.
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

// Whether a draw's pipeline stages may run on the shading threads, batch by batch: nothing in
// its chain depends on an earlier batch. Not with stream output (the capture reads the
// positions first, in order), line stipple (its counter runs on along a strip), a driver's
// stage that cannot be copied (Stage::clone: it runs in order) or quad strips (a run's path
// depends on its later pieces, DrawSink::quad_strip).
bool stages_order_free(const PreparedDraw& draw, const OutputOptions& out) {
    for (const Stage* s : out.stages)
        if (!s->clone()) return false;
    return draw.raster && draw.raster->parallel && !draw.raster->state.line_stipple &&
           draw.state.draw.prim != Prim::quad_strip;
}

// The driver's stages as a set the shading threads clone (PreparedDraw::driver_stages).
std::shared_ptr<const PreparedDraw::DriverStages> driver_stage_set(std::span<Stage* const> stages) {
    if (stages.empty()) return nullptr;
    static std::atomic<uint64_t> next_id{1};
    auto set = std::make_shared<PreparedDraw::DriverStages>();
    set->id = next_id.fetch_add(1, std::memory_order_relaxed);
    set->stages.assign(stages.begin(), stages.end());
    return set;
}

// Resolves the bound RasterState for the draw (its plan); nothing to do when none is bound or
// rasterizer discard is on. Throws Error for a state GL rejects.
void prepare_raster(PreparedDraw& draw, const OutputOptions& out) {
    if (!out.raster || out.rasterizer_discard) return;
    draw.raster = plan_raster(*out.raster, draw.middle->layout(), out.stream_output != nullptr);
    draw.post_in_middle_end = draw.raster->parallel && !draw.raster->viewport_per_primitive;
    draw.stages_in_shade = stages_order_free(draw, out);
    if (draw.stages_in_shade) draw.driver_stages = driver_stage_set(out.stages);
}

// Sets PreparedDraw::parallel_backend: `backend` when it takes parallel batches and nothing
// ordered runs between the shading and it for this draw.
void prepare_delivery(PreparedDraw& draw, const OutputOptions& out, Backend& backend) {
    const bool ordered =
        draw.stream_output || out.rasterizer_discard || (draw.raster && !draw.stages_in_shade);
    draw.parallel_backend = backend.takes_parallel_batches() && !ordered ? &backend : nullptr;
}

} // namespace

PreparedDraw prepare_draw(const DrawState& given, const MiddleEnd& middle,
                          const DrawOptions& given_options, const OutputOptions& out,
                          Backend* backend) {
    const DrawOptions options = capture_options(given_options, out.stream_output);
    PreparedDraw p;
    p.state = without_patch_restart(given);
    checked_draw(p, options);
    const DrawState& state = p.state;
    validate_vertex_input(state.input);
    if (state.vs) {
        if (!state.vs->run) throw Error(ErrorCode::invalid_value, "vs: no run function");
        validate_outputs(state.vs->outputs);
    }
    validate_tess(state);
    if (state.gs) {
        validate_gs(*state.gs);
        check_gs_link(*state.gs,
                      state.tes ? tess_output_layout(*state.tes) : vertex_layout_for(state));
    }
    p.middle = middle.prepare(state);
    if (!p.middle)
        throw Error(ErrorCode::middle_end_failure,
                    "middle end '" + std::string(middle.name()) + "': prepare returned null");
    p.split = split_options(p.middle->limits(), options, middle.name());
    p.middle_name = middle.name();
    if (p.middle->layout().stride() < kVertexHeaderDwords)
        throw Error(ErrorCode::middle_end_failure,
                    "middle end '" + std::string(middle.name()) + "': a vertex of " +
                        std::to_string(p.middle->layout().stride()) + " dwords, below the " +
                        std::to_string(kVertexHeaderDwords) + " of its header and position");
    finish_draw(p, options);
    prepare_stream_output(p, out.stream_output);
    prepare_raster(p, out);
    if (backend) prepare_delivery(p, out, *backend);
    return p;
}

namespace {

// prepare_split's checks before finish_draw: the draw's own fields and the split limits.
// In place: `p` keeps what it holds beyond them (a driver's reused DrawSegments).
void split_only(PreparedDraw& p, const DrawInfo& draw, const MiddleEndLimits& limits,
                const DrawOptions& options, std::string_view name) {
    p.state.draw = draw;
    drop_patch_restart(p.state.draw);
    p.cached = nullptr;
    checked_draw(p, options);
    p.split = split_options(limits, options, name);
    p.middle_name = name;
}

} // namespace

PreparedDraw prepare_split(const DrawInfo& draw, const MiddleEndLimits& limits,
                           const DrawOptions& options, std::string_view name) {
    PreparedDraw p;
    prepare_split_into(p, draw, limits, options, name);
    return p;
}

void prepare_split_into(PreparedDraw& p, const DrawInfo& draw, const MiddleEndLimits& limits,
                        const DrawOptions& options, std::string_view name) {
    split_only(p, draw, limits, options, name);
    finish_draw(p, options);
}

void check_split_limits(const DrawInfo& draw, const MiddleEndLimits& limits,
                        const DrawOptions& options) {
    PreparedDraw p;
    split_only(p, draw, limits, options, "(limits)");
    check_split(p.state.draw, p.split);
}

bool same_but_start(const DrawInfo& a, const DrawInfo& b) {
    return a.prim == b.prim && a.index_type == b.index_type && a.indices == b.indices &&
           a.index_buffer_count == b.index_buffer_count && a.count == b.count &&
           a.base_vertex == b.base_vertex && a.primitive_restart == b.primitive_restart &&
           a.restart_index == b.restart_index && a.instance_count == b.instance_count &&
           a.base_instance == b.base_instance && a.provoking == b.provoking &&
           a.index_range.has_value() == b.index_range.has_value() &&
           (!a.index_range || (a.index_range->min == b.index_range->min &&
                               a.index_range->max == b.index_range->max)) &&
           a.index_buffer_id == b.index_buffer_id && a.patch_vertices == b.patch_vertices;
}

PreparedDraw prepare_draw_like(const PreparedDraw& like, const DrawState& state,
                               const DrawOptions& options, bool validated) {
    PreparedDraw p = like; // the middle end, split options and plans, and what else it holds
    p.state = without_patch_restart(state);
    checked_draw(p, options, validated);
    p.cached = nullptr;
    finish_draw(p, options);
    return p;
}

void SegmentSource::begin(const PreparedDraw& draw) {
    if (draw.cached) {
        replay_.emplace(draw.cached, draw.state.draw, draw.split.limits);
    } else {
        replay_.reset();
        front_.begin(draw.state.draw, draw.split);
    }
}

void SegmentSource::begin_chunk(const PreparedDraw& draw, const RestartChunks* restarts,
                                uint32_t pass, uint32_t chunk) {
    replay_.reset();
    drawpipe::begin_chunk(front_, draw.state.draw, draw.split, restarts, pass, chunk);
}

bool SegmentSource::next(SegmentStorage& storage, Segment& seg) {
    return replay_ ? replay_->next(seg) : front_.next(storage, seg);
}

const FrontEndStats& SegmentSource::stats() const {
    return replay_ ? replay_->stats() : front_.stats();
}

} // namespace drawpipe
