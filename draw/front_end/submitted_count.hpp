// What the front end counts for the input-assembly statistics, per restart run.
#pragma once

#include "drawpipe/prim.hpp"

#include <cstdint>

namespace drawpipe {

// GL_PRIMITIVES_SUBMITTED of a run of n vertices, as llvmpipe counts where GL lets an
// implementation choose: a quad strip's quads and a polygon as one primitive, not their
// triangles, and a patch as one primitive (count / vertices_per_patch), not its control points.
// With trim_count(prim, n), GL_VERTICES_SUBMITTED of the run (the front end counts both at each
// run's first segment, FrontEndStats::ia_vertices).
inline uint64_t submitted_prim_count(Prim prim, uint32_t n, uint32_t patch_vertices = 1) {
    const uint32_t k = gl_prim_count(prim, n, patch_vertices);
    return prim == Prim::polygon ? (k != 0) : k;
}

} // namespace drawpipe
