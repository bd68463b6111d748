// The `reorder` strategy's index buffer: a triangle list put in post-transform vertex-cache
// order by meshoptimizer (meshopt_optimizeVertexCache), so that a segment's triangles share
// more vertices and fewer are fetched.
#pragma once

#include "drawpipe/types.hpp"

#include <cstdint>
#include <vector>

namespace drawpipe {

// Widest raw index range (max - min + 1) reordered; meshoptimizer's scratch grows with it.
inline constexpr uint32_t kReorderMaxRange = 1u << 26;

// Writes to `out` the indices the reorder strategy draws in place of draw's indices
// [start, start + count): its whole triangles, raw values (base vertex not applied), in
// vertex-cache order. Returns false and leaves `out` empty when the strategy falls back to
// plain `exact`: not an indexed triangle list, a restart index present among the indices,
// or a raw index range wider than kReorderMaxRange (or than 4 x count + 65536). Allocates
// (out, and meshoptimizer's scratch) per call; `draw` must already be valid. In a package
// built without meshoptimizer it always returns false (and `reorder` is no strategy there).
bool reorder_for_vertex_cache(const DrawInfo& draw, std::vector<uint32_t>& out);

} // namespace drawpipe
