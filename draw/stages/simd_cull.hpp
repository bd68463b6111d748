// The vectorised part of the cull loop over triangle lists (draw/stages/simd_cull.cpp).
#pragma once

#include <cstdint>

namespace drawpipe {

struct CullJob {
    const uint32_t* elts = nullptr; // 3 per triangle, positions into the records
    uint32_t triangles = 0;
    const uint32_t* positions = nullptr; // the first record's window x (y follows)
    uint32_t stride = 0;                 // dwords per record
    float sign = 1.0f;                   // makes front faces' areas positive
    bool keep_front = true;              // else keep back faces (area <= 0)
    uint32_t* out = nullptr;             // room for `triangles` triangles' elements
};

struct CullResult {
    uint32_t kept = 0; // triangles written to out
    uint32_t done = 0; // triangles looked at: whole vectors of them, the rest is the caller's
};

// Culls the leading whole vectors of job's triangles with cull_triangles' rule, writing the
// kept ones' elements in order.
CullResult cull_triangle_list(const CullJob& job);

} // namespace drawpipe
