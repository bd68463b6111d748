// Tessellation for tests that draw patches without naming a shader: an evaluation shader
// in point mode over a triangle at level 1 (three domain points per patch: (0,1,0), (0,0,1),
// (1,0,0)), whose outputs are the vertex ids of the patch's control points, one uint
// varying each. So a trace shows every patch, its instance and the vertices it was made of.
#pragma once

#include "drawpipe/extend/shaded.hpp"
#include "drawpipe/tess.hpp"

#include <cstring>

namespace drawpipe::test {

// Primitive types drawn without tessellation: every one before Prim::patches. Tests that
// draw every type through middle ends without tessellation stages loop over these; patches
// have their own (tests/draw/tess/tess_stages_test.cpp).
inline constexpr int kPrimsWithoutTess = int(Prim::patches);
static_assert(kPrimsWithoutTess + 1 == kPrimCount, "patches is the last primitive type");

inline TessEvalShader patch_ids_tes(uint32_t patch_vertices) {
    TessEvalShader tes;
    tes.state = {TessMode::triangles, TessSpacing::equal, TessWinding::ccw, true};
    for (uint32_t i = 0; i < patch_vertices; ++i)
        tes.outputs.add_varying({ValueType::uint32, Interp::flat, 1});
    tes.run = [](const TessEvalBlock& b) {
        for (uint32_t i = 0; i < b.patch_vertices; ++i) {
            const uint32_t id = b.control_points[i][SLOT_VERTEX_ID];
            float f;
            std::memcpy(&f, &id, 4);
            for (uint32_t l = 0; l < b.count; ++l) b.out[4 + 4 * i][l] = f;
        }
    };
    return tes;
}

} // namespace drawpipe::test
