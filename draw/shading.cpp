#include "drawpipe/shading.hpp"

#include "drawpipe/vertex_fetch.hpp"

#include <algorithm>

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
    for (uint32_t a = 0; a < layout.attrib_count; ++a) {
        const VertexAttrib& attrib = state.input.attribs[a];
        fetch_attrib(state.input.buffers[attrib.buffer], attrib,
                     attrib_element(attrib, vertex_id, instance, state.draw.base_instance),
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

void shade_segment(const DrawState& state, const VertexLayout& layout, const Segment& seg,
                   ShadedBatch& out) {
    const uint32_t stride = layout.stride();
    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        const uint32_t base = out.vertex_count;
        uint32_t* v = out.append_vertices(seg.fetch_count, stride);
        for (uint32_t f = 0; f < seg.fetch_count; ++f, v += stride)
            shade_vertex(state, layout, seg.vertex_id(f), instance, v);
        const uint32_t first = uint32_t(out.elts.size());
        out.elts.resize(first + seg.draw_count);
        for (uint32_t e = 0; e < seg.draw_count; ++e) out.elts[first + e] = base + seg.draw_elt(e);
        out.prims.push_back({seg.prim, seg.flags, first, seg.draw_count});
    }
}

} // namespace drawpipe
