// Built-in tessellation shaders, for the CLI (`tess`, `tcs` in a draw description) and the
// tests; tests/mesa has each in GLSL.
//
//   interpolate (evaluation)  position: the barycentric (triangles: u P0 + v P1 + w P2),
//       bilinear (quads: control points 0-3 at (0,0) (1,0) (1,1) (0,1)) or linear-along-u
//       (isolines: points 0-1) interpolation of the patch's first control points' positions,
//       and the vertex stage's outputs likewise (integer ones: control point 0's, flat); the
//       record's header carries gl_TessCoord (drawpipe/tess.hpp).
//   levels_by_patch (control)  passes the patch's control points through (as many as the
//       patch has, every output of the vertex stage) and sets every outer and inner level
//       to the default level plus gl_PrimitiveID % 3.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "drawpipe/tess.hpp"
#include "tools/common/draw_text.hpp"

#include <optional>

#include <string_view>

namespace drawpipe {

// The `interpolate` evaluation shader for a mode, spacing, winding and point mode, over
// control points with the outputs `in`.
TessEvalShader interpolate_tes(const TessState& state, const ShaderOutputs& in);
// The `levels_by_patch` control shader for patches of `vertices` control points whose
// records have `in` outputs, over the default levels `base`.
TessControlShader levels_by_patch_tcs(uint32_t vertices, const ShaderOutputs& in,
                                      const TessLevels& base);
// Throws Error(not_found) unless `name` is a library control shader (levels_by_patch).
void check_tcs_name(std::string_view name);

// The tessellation a description asks for: its shaders (bound through `state`, whose vertex
// stage they read) and default levels. Owns the shaders; `state` points at them.
struct DescTess {
    std::optional<TessControlShader> tcs;
    std::optional<TessEvalShader> tes;
    // Sets state.tcs, state.tes and the default levels from `desc`.
    void bind(const DrawDesc& desc, DrawState& state);
};

} // namespace drawpipe
