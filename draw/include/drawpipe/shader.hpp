// What a shader stage writes per vertex, and the vertex-shader interface.
//
// A shaded vertex record (drawpipe/extend/shaded.hpp) holds the stage's declared outputs: the
// position, then each generic vec4 output ("varying"), then the special outputs it declares
// (point size, clip distances, layer, viewport index). The vertex shader runs over blocks of
// up to kShaderLanes vertices in structure-of-arrays form, so a driver's JIT or SIMD code
// shades many vertices per call; per_vertex_shader adapts a one-vertex function.
#pragma once

#include "drawpipe/limits.hpp"
#include "drawpipe/types.hpp"

#include <array>
#include <cstdint>
#include <functional>

namespace drawpipe {

// Interpolation qualifier of a generic output (GLSL smooth / flat / noperspective).
enum class Interp : uint8_t { smooth, flat, noperspective };
struct Varying {
    ValueType type = ValueType::float32; // drawpipe/types.hpp; integer bits for flat int outputs
    Interp interp = Interp::smooth;
    uint8_t components = 4; // 1-4 meaningful; all four dwords are always stored
};

// The outputs a vertex or geometry shader declares besides the position, which every
// stage writes.
struct ShaderOutputs {
    uint32_t varying_count = 0;
    std::array<Varying, kMaxVaryings> varyings{};
    bool point_size = false;     // gl_PointSize
    uint32_t clip_distances = 0; // gl_ClipDistance[0 .. n-1], n <= kMaxClipDistances
    bool layer = false;          // gl_Layer
    bool viewport_index = false; // gl_ViewportIndex

    // Appends a generic output; returns its index.
    uint32_t add_varying(Varying v = {}) {
        varyings[varying_count] = v;
        return varying_count++;
    }
};

// Throws Error(invalid_value) naming the field when the declaration exceeds a limit.
void validate_outputs(const ShaderOutputs& outputs);

// One block of vertices, as arrays of lanes. in[4 * a + c][lane] is component c of input
// attribute a as fetched (integer attributes hold their bits); out[d][lane] is dword d of
// the vertex record after its header (drawpipe/extend/shaded.hpp: VertexLayout places the
// position at 0-3, the varyings and the special outputs after it), preset to position
// (0, 0, 0, 1), varyings (0, 0, 0, 1) and special outputs 0.
struct ShaderBlock {
    uint32_t count = 0;     // lanes in use, 1 .. kShaderLanes
    uint32_t in_count = 0;  // rows of `in`: 4 x the draw's attributes
    uint32_t out_count = 0; // rows of `out`: the record's dwords after the header
    const uint32_t* vertex_id = nullptr;
    const uint32_t* instance_id = nullptr;
    const float* const* in = nullptr;
    float* const* out = nullptr;
    uint32_t draw_id = 0; // gl_DrawID, the same for every lane (DrawInfo::draw_id)
};

// A vertex shader: its declared outputs and a function over blocks, called from several
// threads at once.
struct VertexShader {
    ShaderOutputs outputs;
    std::function<void(const ShaderBlock&)> run;

    explicit operator bool() const { return bool(run); }
};

// A vertex shader from a function over one vertex: `in` holds 4 components per input
// attribute, `out` the record's dwords after the header, preset as in ShaderBlock (integer
// values as bits, as in the block). For shaders written one vertex at a time; the block form
// avoids a call per vertex.
VertexShader per_vertex_shader(
    const ShaderOutputs& outputs,
    std::function<void(const float* in, float* out, uint32_t vertex_id, uint32_t instance)> main);
// The same for a shader that reads gl_DrawID.
VertexShader per_vertex_shader(const ShaderOutputs& outputs,
                               std::function<void(const float* in, float* out, uint32_t vertex_id,
                                                  uint32_t instance, uint32_t draw_id)>
                                   main);

} // namespace drawpipe
