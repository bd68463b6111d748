// The fixed-function tessellator: a patch's tessellation levels in, the domain points and the
// primitives connecting them out, exactly as Mesa's llvmpipe draws them (the Direct3D 11
// reference tessellator's rules: docs/tessellation.md).
#pragma once

#include "drawpipe/types.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace drawpipe {

enum class TessMode : uint8_t { triangles, quads, isolines };
enum class TessSpacing : uint8_t { equal, fractional_even, fractional_odd };
enum class TessWinding : uint8_t { ccw, cw };

// gl_TessLevelOuter / gl_TessLevelInner as the control stage (or the patch defaults) wrote them,
// before any clamping or rounding.
struct TessLevels {
    std::array<float, 4> outer{1, 1, 1, 1};
    std::array<float, 2> inner{1, 1};
};

struct TessState {
    TessMode mode = TessMode::triangles;
    TessSpacing spacing = TessSpacing::equal;
    TessWinding winding = TessWinding::ccw;
    bool point_mode = false;
};

// One tessellated patch. Reused between calls: tessellate() clears it.
struct TessDomain {
    // gl_TessCoord of each domain point: (u, v, w) for triangles (w = 1 - u - v in float),
    // (u, v, 0) for quads and isolines.
    std::vector<std::array<float, 3>> coords;
    // Indices into coords: 3 per triangle, 2 per line, 1 per point, in the order llvmpipe
    // emits them (and transform feedback captures them).
    std::vector<uint32_t> elements;
    Prim prim = Prim::triangles; // triangles, lines or points
};

// Tessellates one patch. Returns false, with `out` empty, when the levels cull the patch (an
// outer level the mode uses is <= 0 or NaN).
bool tessellate(const TessState& state, const TessLevels& levels, TessDomain& out);

} // namespace drawpipe
