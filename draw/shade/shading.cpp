#include "drawpipe/extend/shading.hpp"

#include "drawpipe/extend/vertex_fetch.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace drawpipe {

namespace {

// The varying an attribute becomes when it is passed through: its format's components and
// value type, or, for a disabled attribute, all four components of its current value.
Varying pass_through_varying(const VertexAttrib& a) {
    if (!a.enabled) return {a.current_type, Interp::smooth, 4};
    return {format_value_type(a.format), Interp::smooth, uint8_t(format_components(a.format))};
}

uint32_t one_of(ValueType t) {
    return t == ValueType::float32 ? float_dword(1.0f) : 1u;
}

void write_header(uint32_t* v, uint32_t vertex_id, uint32_t instance, uint32_t draw_id) {
    v[SLOT_VERTEX_ID] = vertex_id;
    v[SLOT_INSTANCE_ID] = instance;
    v[SLOT_DRAW_ID] = draw_id;
    v[SLOT_GS_LAYER] = 0;
}

// No vertex shader: each attribute lands in its varying, attribute 0 also in the position.
void pass_through(const DrawState& state, const VertexLayout& layout, const uint32_t* ids,
                  uint32_t n, uint32_t instance, uint32_t draw_id, uint32_t* out) {
    const uint32_t stride = layout.stride();
    const uint32_t attribs = layout.varying_count();
    for (uint32_t i = 0; i < n; ++i, out += stride) {
        write_header(out, ids[i], instance, draw_id);
        for (uint32_t a = 0; a < attribs; ++a) {
            fetch_vertex_attrib(state.input, state.input.attribs[a], ids[i], instance,
                                state.draw.base_instance, out + layout.varying_slot(a));
        }
        if (attribs > 0) {
            std::copy_n(out + kVertexHeaderDwords, 4, out + SLOT_POSITION);
        } else {
            out[SLOT_POSITION] = out[SLOT_POSITION + 1] = out[SLOT_POSITION + 2] = 0;
            out[SLOT_POSITION + 3] = float_dword(1.0f);
        }
    }
}

} // namespace

void preset_record(const VertexLayout& layout, uint32_t* rec) {
    std::fill(rec, rec + layout.stride(), 0u);
    rec[SLOT_POSITION + 3] = float_dword(1.0f);
    for (uint32_t i = 0; i < layout.varying_count(); ++i)
        rec[layout.varying_slot(i) + 3] = one_of(layout.varying(i).type);
}

ShaderOutputs attribute_outputs(const VertexInput& input) {
    ShaderOutputs o;
    const uint32_t attribs = uint32_t(std::min<size_t>(input.attribs.size(), kMaxAttribs));
    for (uint32_t a = 0; a < attribs; ++a) {
        o.add_varying(pass_through_varying(input.attribs[a]));
    }
    return o;
}

VertexLayout vertex_layout_for(const DrawState& state) {
    VertexLayout layout;
    layout.outputs = state.vs ? state.vs->outputs : attribute_outputs(state.input);
    return layout;
}

void shade_vertices(const DrawState& state, const VertexLayout& layout, const uint32_t* ids,
                    uint32_t n, uint32_t instance, uint32_t draw_id, uint32_t* out) {
    if (!state.vs) return pass_through(state, layout, ids, n, instance, draw_id, out);

    // Inputs and outputs of one block as lanes; the record's dwords after the header.
    constexpr uint32_t kMaxOut = kMaxRecordDwords - SLOT_POSITION;
    alignas(64) float in[4 * kMaxAttribs][kShaderLanes];
    alignas(64) float outs[kMaxOut][kShaderLanes];
    const float* in_rows[4 * kMaxAttribs];
    float* out_rows[kMaxOut];
    uint32_t instances[kShaderLanes];
    std::fill_n(instances, kShaderLanes, instance);

    const uint32_t stride = layout.stride();
    const uint32_t out_count = stride - SLOT_POSITION;
    const uint32_t attribs = uint32_t(std::min<size_t>(state.input.attribs.size(), kMaxAttribs));
    for (uint32_t r = 0; r < 4 * attribs; ++r) in_rows[r] = in[r];
    for (uint32_t r = 0; r < out_count; ++r) out_rows[r] = outs[r];
    uint32_t preset[kMaxRecordDwords];
    preset_record(layout, preset);

    for (uint32_t first = 0; first < n; first += kShaderLanes) {
        const uint32_t count = std::min(kShaderLanes, n - first);
        for (uint32_t a = 0; a < attribs; ++a) {
            const VertexAttrib& attrib = state.input.attribs[a];
            for (uint32_t l = 0; l < count; ++l) {
                uint32_t v[4];
                fetch_vertex_attrib(state.input, attrib, ids[first + l], instance,
                                    state.draw.base_instance, v);
                for (uint32_t c = 0; c < 4; ++c) std::memcpy(&in[4 * a + c][l], &v[c], 4);
            }
        }
        for (uint32_t r = 0; r < out_count; ++r)
            std::fill_n(outs[r], count, std::bit_cast<float>(preset[SLOT_POSITION + r]));
        state.vs->run(
            {count, 4 * attribs, out_count, ids + first, instances, in_rows, out_rows, draw_id});
        for (uint32_t l = 0; l < count; ++l) {
            uint32_t* rec = out + size_t(first + l) * stride;
            write_header(rec, ids[first + l], instance, draw_id);
            for (uint32_t r = 0; r < out_count; ++r)
                std::memcpy(&rec[SLOT_POSITION + r], &outs[r][l], 4);
        }
    }
}

void shade_fetched(const DrawState& state, const VertexLayout& layout, const Segment& seg,
                   uint32_t instance, uint32_t* out) {
    uint32_t ids[kShaderLanes];
    const uint32_t stride = layout.stride();
    for (uint32_t first = 0; first < seg.fetch_count; first += kShaderLanes) {
        const uint32_t count = std::min(kShaderLanes, seg.fetch_count - first);
        for (uint32_t i = 0; i < count; ++i) ids[i] = seg.vertex_id(first + i);
        shade_vertices(state, layout, ids, count, instance, seg.draw_id,
                       out + size_t(first) * stride);
    }
}

uint32_t gs_segment_vertex_limit(const GeometryShader& gs, uint32_t cap) {
    constexpr uint32_t kOutputBudget = 65535;
    const uint32_t per_prim = gs.max_vertices * gs.invocations;
    const uint32_t prims = std::max(1u, kOutputBudget / per_prim);
    const uint32_t first = gs_input_vertices(gs.input);
    return std::max(first, std::min(cap, prims * first));
}

void shade_segment(const DrawState& state, const VertexLayout& layout, const Segment& seg,
                   ShadedBatch& out) {
    const uint32_t stride = layout.stride();
    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        const uint32_t base = out.vertex_count;
        shade_fetched(state, layout, seg, instance, out.append_vertices(seg.fetch_count, stride));
        const uint32_t first = uint32_t(out.elts.size());
        out.elts.resize(first + seg.draw_count);
        for (uint32_t e = 0; e < seg.draw_count; ++e) out.elts[first + e] = base + seg.draw_elt(e);
        out.prims.push_back({seg.prim, seg.flags, first, seg.draw_count});
    }
}

} // namespace drawpipe
