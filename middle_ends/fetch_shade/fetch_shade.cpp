#include "middle_ends/fetch_shade/fetch_shade.hpp"

#include "draw/error.hpp"
#include "draw/gs.hpp"
#include "draw/gs_executor.hpp"
#include "draw/prim.hpp"
#include "draw/vertex_fetch.hpp"

#include <algorithm>
#include <vector>

namespace drawpipe {

VertexLayout vertex_layout_for(const VertexInput& input) {
    VertexLayout layout;
    layout.attrib_count = uint32_t(std::min<size_t>(input.attribs.size(), kMaxAttribs));
    for (uint32_t i = 0; i < layout.attrib_count; ++i) layout.formats[i] = input.attribs[i].format;
    return layout;
}

void shade_vertex(const DrawState& state, const VertexLayout& layout, uint32_t vertex_id,
                  uint32_t instance, uint32_t* v) {
    v[SLOT_VERTEX_ID] = vertex_id;
    v[SLOT_INSTANCE_ID] = instance;
    v[SLOT_GS_ID] = 0;
    v[SLOT_GS_LAYER] = 0;
    const DrawInfo& draw = *state.draw;
    for (uint32_t a = 0; a < layout.attrib_count; ++a) {
        const VertexAttrib& attrib = state.input.attribs[a];
        fetch_attrib(state.input.buffers[attrib.buffer], attrib,
                     attrib_element(attrib, vertex_id, instance, draw.base_instance),
                     v + kVertexHeaderDwords + 4 * a);
    }
    if (layout.attrib_count > 0) {
        std::copy_n(v + kVertexHeaderDwords, 4, v + SLOT_POSITION);
    } else {
        v[SLOT_POSITION] = v[SLOT_POSITION + 1] = v[SLOT_POSITION + 2] = 0;
        v[SLOT_POSITION + 3] = float_dword(1.0f);
    }
    if (state.vs) (*state.vs)(v, layout);
}

uint32_t gs_segment_vertex_limit(const GeometryShader& gs, uint32_t cap) {
    constexpr uint32_t kOutputBudget = 65535;
    const uint32_t per_prim = gs.max_vertices * gs.invocations;
    const uint32_t prims = std::max(1u, kOutputBudget / per_prim);
    const uint32_t first = gs_input_vertices(gs.input);
    return std::max(first, std::min(cap, prims * first));
}

namespace {

struct GsScratch final : MiddleEnd::Scratch {
    std::vector<uint32_t> shaded; // the segment's vertices, before the GS
};

constexpr std::string_view kGsCounters[] = {"gs_invocations", "gs_emitted", "gs_dropped"};

} // namespace

MiddleEndLimits FetchShade::prepare(const DrawState& state) {
    state_ = state;
    in_layout_ = vertex_layout_for(state.input);
    layout_ = in_layout_;
    if (!state.gs) return {max_vertices_, false, std::nullopt};
    validate_gs(*state.gs);
    check_gs_draw(*state.gs, state.draw->prim);
    layout_ = gs_output_layout(*state.gs);
    return {gs_segment_vertex_limit(*state.gs, max_vertices_), false, state.gs->input};
}

std::unique_ptr<MiddleEnd::Scratch> FetchShade::make_scratch() const {
    return std::make_unique<GsScratch>();
}

std::span<const std::string_view> FetchShade::counter_names() const {
    if (!state_.gs) return {};
    return kGsCounters;
}

void FetchShade::run(const Segment& seg, Scratch* scratch, ShadedBatch& out) const {
    if (state_.gs) return run_gs(seg, scratch, out);
    const uint32_t stride = layout_.stride();
    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        const uint32_t base = out.vertex_count;
        uint32_t* v = out.append_vertices(seg.fetch_count, stride);
        for (uint32_t f = 0; f < seg.fetch_count; ++f, v += stride)
            shade_vertex(state_, layout_, seg.vertex_id(f), instance, v);
        const uint32_t first = uint32_t(out.elts.size());
        out.elts.resize(first + seg.draw_count);
        for (uint32_t e = 0; e < seg.draw_count; ++e) out.elts[first + e] = base + seg.draw_elt(e);
        out.runs.push_back({seg.prim, seg.flags, first, seg.draw_count});
    }
}

void FetchShade::run_gs(const Segment& seg, Scratch* scratch, ShadedBatch& out) const {
    const GeometryShader& gs = *state_.gs;
    GsScratch local;
    GsScratch& sc = scratch ? static_cast<GsScratch&>(*scratch) : local;
    const uint32_t stride = in_layout_.stride();
    const uint32_t per_prim = gs_input_vertices(gs.input);
    sc.shaded.resize(size_t(seg.fetch_count) * stride);
    GsStripWriter writer(gs, out);
    GsRunStats stats;
    const uint32_t* inputs[6];
    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        for (uint32_t f = 0; f < seg.fetch_count; ++f)
            shade_vertex(state_, in_layout_, seg.vertex_id(f), instance,
                         &sc.shaded[size_t(f) * stride]);
        for (uint32_t p = 0; p * per_prim < seg.draw_count; ++p) {
            for (uint32_t v = 0; v < per_prim; ++v)
                inputs[v] = &sc.shaded[size_t(seg.draw_elt(p * per_prim + v)) * stride];
            run_gs_reference(gs, {inputs, per_prim}, seg.prim_id_first + p, writer, stats);
        }
    }
    out.counters[0] += stats.invocations;
    out.counters[1] += stats.emitted;
    out.counters[2] += stats.dropped;
}

} // namespace drawpipe
