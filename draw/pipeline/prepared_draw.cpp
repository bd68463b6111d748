#include "draw/pipeline/prepared_draw.hpp"

#include "draw/pipeline/prepare_reuse.hpp"
#include "draw/pipeline/robust_indices.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/extend/draw_segments.hpp"
#include "drawpipe/extend/shading.hpp"
#include "drawpipe/extend/vertex_fetch.hpp"
#include "drawpipe/gs.hpp"
#include "drawpipe/tess.hpp"

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
    check_split(draw, p.split);
    const bool cacheable =
        options.split_cache && draw.index_buffer_id != 0 && draw.index_type != IndexType::none;
    if (cacheable) {
        if (!options.split_cache->is_registered(draw.index_buffer_id))
            throw Error(ErrorCode::not_found,
                        "index_buffer_id: " + std::to_string(draw.index_buffer_id) +
                            " is not registered (Context::register_index_buffer)");
        // Null when the split is larger than the cache's whole budget: split it uncached.
        p.cached = acquire_split(*options.split_cache, draw, p.split);
    }
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

PreparedDraw prepare_draw(const DrawState& given, const MiddleEnd& middle,
                          const DrawOptions& options) {
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

bool SegmentSource::next(SegmentStorage& storage, Segment& seg) {
    return replay_ ? replay_->next(seg) : front_.next(storage, seg);
}

const FrontEndStats& SegmentSource::stats() const {
    return replay_ ? replay_->stats() : front_.stats();
}

} // namespace drawpipe
