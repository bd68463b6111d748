// The vertex record every stage writes and every backend reads: its header slots and where
// each output the stage declares lives.
#pragma once

#include "drawpipe/limits.hpp"
#include "drawpipe/shader.hpp"

#include <cstdint>
#include <cstring>

namespace drawpipe {

// A shaded vertex is `stride()` dwords: the header, the position, 4 dwords per varying, then
// the special outputs the stage declares, in the order of VertexLayout's slots.
enum VertexSlot : uint32_t {
    SLOT_VERTEX_ID = 0,   // index + base vertex (or start + position)
    SLOT_INSTANCE_ID = 1, // 0-based within the draw
    SLOT_GS_ID = 2,       // integer `id` output of a geometry shader
    SLOT_DRAW_ID = 2,     // a vertex-stage record's: its draw's DrawInfo::draw_id
    SLOT_GS_LAYER = 3,    // layer output of a geometry shader
    SLOT_POSITION = 4,    // 4 floats, as bits
};

// Where each output of the stage that produced a vertex lives in its record.
struct VertexLayout {
    ShaderOutputs outputs;
    bool gs_output = false; // vertices come from a geometry shader (the trace prints its id)
    // Vertices come from a tessellation evaluation shader: the header holds the patch, the
    // instance and gl_TessCoord's u and v (drawpipe/tess.hpp); w = 1 - u - v for triangles.
    bool tess_output = false;
    bool tess_triangles = false;

    uint32_t varying_count() const { return outputs.varying_count; }
    const Varying& varying(uint32_t i) const { return outputs.varyings[i]; }
    uint32_t varying_slot(uint32_t i) const { return kVertexHeaderDwords + 4 * i; }
    uint32_t point_size_slot() const { return varying_slot(outputs.varying_count); }
    uint32_t clip_distance_slot() const { return point_size_slot() + outputs.point_size; }
    uint32_t layer_slot() const { return clip_distance_slot() + outputs.clip_distances; }
    uint32_t viewport_slot() const { return layer_slot() + outputs.layer; }
    uint32_t stride() const { return viewport_slot() + outputs.viewport_index; }
};

inline float dword_float(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
inline uint32_t float_dword(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
}

} // namespace drawpipe
