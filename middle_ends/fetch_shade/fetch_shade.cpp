#include "middle_ends/fetch_shade/fetch_shade.hpp"

#include "draw/error.hpp"
#include "draw/vertex_fetch.hpp"

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

MiddleEndLimits FetchShade::prepare(const DrawState& state) {
    if (state.gs)
        throw Error(ErrorCode::unsupported, "gs: fetch_shade was built without a geometry stage");
    state_ = state;
    layout_ = vertex_layout_for(state.input);
    return {max_vertices_, false, std::nullopt};
}

void FetchShade::run(const Segment& seg, Scratch*, ShadedBatch& out) const {
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

} // namespace drawpipe
