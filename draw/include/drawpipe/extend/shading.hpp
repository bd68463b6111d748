// What every middle end shares: the fetched-vertex layout, shading one vertex with GL's
// fetch rules, the segment size that bounds a GS draw's output, and the GS skeleton.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/gs.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace drawpipe {

// The outputs of the pass-through vertex stage: one varying per attribute (its format's
// value type and component count). A shader that keeps the attributes declares these.
ShaderOutputs attribute_outputs(const VertexInput& input);

// The layout of a draw's vertex-stage records: the vertex shader's outputs, or with no
// shader the attributes passed through, each a varying of its format's value type.
VertexLayout vertex_layout_for(const DrawState& state);

// What a shader finds in a record's outputs before it writes them (ShaderBlock's presets):
// position and varyings (0, 0, 0, 1), with an integer 1 for integer varyings; the rest 0.
void preset_record(const VertexLayout& layout, uint32_t* rec);

// Shades vertices `ids[0 .. n)` of one instance into consecutive records at `out`: fetches
// with GL's rules, runs the vertex shader a block at a time and fills the headers. The
// reference every faster path is checked against. `draw_id` is the segment's
// (Segment::draw_id), never the prepared state's: draws sharing a preparation differ in it.
void shade_vertices(const DrawState& state, const VertexLayout& layout, const uint32_t* ids,
                    uint32_t n, uint32_t instance, uint32_t draw_id, uint32_t* out);

// One vertex (for middle ends that compute their own fetch order).
inline void shade_vertex(const DrawState& state, const VertexLayout& layout, uint32_t vertex_id,
                         uint32_t instance, uint32_t draw_id, uint32_t* out) {
    shade_vertices(state, layout, &vertex_id, 1, instance, draw_id, out);
}

// Every fetched vertex of a segment for one instance, in fetch order, with its draw id.
void shade_fetched(const DrawState& state, const VertexLayout& layout, const Segment& seg,
                   uint32_t instance, uint32_t* out);

// Vertices per segment that keep a GS draw's output near 64K vertices per segment (the
// u16 limit of a backend vertex batch), never below what one input primitive needs and
// never above `cap`.
uint32_t gs_segment_vertex_limit(const GeometryShader& gs, uint32_t cap);

// Scratch of a GS-capable middle end: the segment's vertices before the GS. A middle end
// with more per-thread state derives from it.
struct GsScratch : MiddleEndScratch {
    std::vector<uint32_t> shaded;
};

// The GS skeleton: for each instance of the segment, shades its fetched vertices into
// `scratch.shaded`, then calls primitive(instance, p, inputs) for each input primitive p
// (0-based in the segment; its GL primitive id is seg.prim_id_first + p) with the records of
// its gs_input_vertices(gs.input) vertices in GL's GS input order.
template <class Primitive>
void for_each_shaded_gs_input(const DrawState& state, const VertexLayout& in_layout,
                              const Segment& seg, GsScratch& scratch, Primitive&& primitive) {
    const uint32_t stride = in_layout.stride();
    const uint32_t per_prim = gs_input_vertices(state.gs->input);
    const uint32_t prims = seg.draw_count / per_prim;
    scratch.shaded.resize(size_t(seg.fetch_count) * stride);
    const uint32_t* inputs[6];
    for (uint32_t i = 0; i < seg.instance_count; ++i) {
        const uint32_t instance = seg.instance_first + i;
        shade_fetched(state, in_layout, seg, instance, scratch.shaded.data());
        for (uint32_t p = 0; p < prims; ++p) {
            for (uint32_t v = 0; v < per_prim; ++v)
                inputs[v] = &scratch.shaded[size_t(seg.draw_elt(p * per_prim + v)) * stride];
            primitive(instance, p, std::span<const uint32_t* const>(inputs, per_prim));
        }
    }
}

// The plain (no GS) path every middle end shares: each instance's fetched vertices shaded
// into `out`, then the segment's primitives over them.
void shade_segment(const DrawState& state, const VertexLayout& layout, const Segment& seg,
                   ShadedBatch& out);

} // namespace drawpipe
