// The tessellation stages: a control stage (optional, as in GL) per patch and an evaluation
// stage per domain point, around the fixed-function tessellator (drawpipe/tessellator.hpp).
//
// A draw of Prim::patches with an evaluation shader bound runs: the vertex shader over the
// patch's control points, the control shader (or the patch default levels), the tessellator,
// the evaluation shader over the domain points, then the geometry shader, stream output and
// the pipeline stages as for any draw (docs/tessellation-stages.md). Both stages are batched:
// a driver's JIT shades many patches, or many domain points, per call.
#pragma once

#include "drawpipe/shader.hpp"
#include "drawpipe/tessellator.hpp"
#include "drawpipe/vertex_layout.hpp"

#include <cstdint>
#include <functional>
#include <string_view>

namespace drawpipe {

struct DrawState; // drawpipe/extend/middle_end.hpp

// Per-patch vec4 outputs of a control shader (GL_MAX_TESS_PATCH_COMPONENTS 120 / 4).
inline constexpr uint32_t kMaxPatchOutputs = 30;
// Patches the control stage receives per call at most.
inline constexpr uint32_t kTessControlBlock = 32;

// A block of patches for the control stage, all of one instance. Records are vertex records
// (drawpipe/extend/shaded.hpp): input records in the vertex stage's layout; output records in the
// control shader's layout, header filled and outputs preset as ShaderBlock presets them.
struct TessControlBlock {
    uint32_t count = 0;                     // patches, 1 .. kTessControlBlock
    uint32_t in_vertices = 0;               // control points per input patch (gl_PatchVerticesIn)
    uint32_t in_stride = 0;                 // dwords per input record
    const uint32_t* const* in = nullptr;    // in[p * in_vertices + v]: input vertex v of patch p
    const uint32_t* primitive_id = nullptr; // gl_PrimitiveID of each patch
    uint32_t instance = 0;
    uint32_t out_vertices = 0;     // control points per output patch (layout(vertices = N))
    uint32_t out_stride = 0;       // dwords per output record
    uint32_t* out = nullptr;       // record p * out_vertices + i: output control point i of patch p
    uint32_t patch_outputs = 0;    // vec4 per-patch outputs per patch
    uint32_t* patch_out = nullptr; // 4 * patch_outputs dwords per patch, preset to 0
    TessLevels* levels = nullptr;  // per patch, preset to the patch default levels
};

// A tessellation control shader: its declarations and a function over blocks of patches,
// called from several threads at once.
struct TessControlShader {
    uint32_t vertices = 3;      // output control points per patch, 1 .. kMaxPatchVertices
    ShaderOutputs outputs;      // per output control point, besides the position
    uint32_t patch_outputs = 0; // per-patch vec4 outputs, 0 .. kMaxPatchOutputs
    std::function<void(const TessControlBlock&)> run;

    explicit operator bool() const { return bool(run); }
};

// A block of domain points of one patch for the evaluation stage, as arrays of lanes; `out`
// as in ShaderBlock (out[d][lane] is dword d of the record after its header, preset).
// `u`, `v`, `w` and every `out` row hold kShaderLanes lanes, 16-byte aligned, so a SIMD
// shader may compute whole vectors: the coordinates past `count` are 0, and what it writes
// to those lanes is ignored.
struct TessEvalBlock {
    uint32_t count = 0;       // lanes in use, 1 .. kShaderLanes
    const float* u = nullptr; // gl_TessCoord per lane
    const float* v = nullptr;
    const float* w = nullptr;
    uint32_t primitive_id = 0; // gl_PrimitiveID: the patch within the draw, per instance
    uint32_t instance = 0;
    uint32_t patch_vertices = 0; // gl_PatchVerticesIn: control points of the patch
    uint32_t cp_stride = 0;      // dwords per control-point record
    // The patch's control points: the control shader's output records, or without one the
    // vertex stage's records of the patch's vertices.
    const uint32_t* const* control_points = nullptr;
    const uint32_t* patch_in = nullptr; // per-patch outputs (4 dwords each); null without a TCS
    TessLevels levels;                  // gl_TessLevelOuter / Inner as the control stage wrote
    uint32_t out_count = 0;
    float* const* out = nullptr;
};

// A tessellation evaluation shader: the tessellator's mode, spacing, winding and point mode
// (its layout qualifiers), the outputs it declares and a function over blocks.
struct TessEvalShader {
    TessState state;
    ShaderOutputs outputs;
    std::function<void(const TessEvalBlock&)> run;

    explicit operator bool() const { return bool(run); }
};

// The primitive the tessellator makes for `state`: points in point mode, lines for
// isolines, else triangles.
Prim tess_output_prim(const TessState& state);

// The layout of evaluation-stage vertices: header slot 0 the patch's gl_PrimitiveID, 1 the
// instance, 2 and 3 gl_TessCoord's u and v as float bits (w is 1 - u - v for triangles,
// else 0), then the shader's declared outputs.
VertexLayout tess_output_layout(const TessEvalShader& tes);
// The layout of control-stage output records.
VertexLayout tess_control_layout(const TessControlShader& tcs);

// GL's checks of a draw with tessellation state (GL_INVALID_OPERATION: patches without an
// evaluation shader, an evaluation or control shader with another primitive, a geometry
// shader whose input is not what the tessellator makes), and the shaders' declarations
// (invalid_value naming the field). A draw without patches or shaders passes.
void validate_tess(const DrawState& state);
// For a middle end that has no tessellation: throws Error(unsupported) naming `middle` when
// the draw tessellates.
void refuse_tess(const DrawState& state, std::string_view middle);

} // namespace drawpipe
