// The physical-limit loop of mesa_draw_bench: the least work a whole draw with a matrix vertex
// shader can do. It reads every index of the draw once, gathers the indexed float4 position
// and transforms it by the 4x4 matrix into an output block of kLimitBlock vertices that stays
// in cache (as a segment's output would), with no de-duplication, no primitive assembly and
// no backend. Compiled on its own with vectorising flags (bench/CMakeLists.txt).
#pragma once

#include <cstdint>

namespace drawpipe::bench {

// Vertices per output block: the front end's default segment limit.
inline constexpr uint32_t kLimitBlock = 4096;

// Transforms position[indices[i]] (float4, 16-byte stride) by the row-major 4x4 `matrix` for
// every i in [0, count), into `out` (4 x kLimitBlock floats, one float4 per index).
// An index at or past `vertex_count` (a restart index) reads vertex 0, as a bounds-checked
// fetch would. Returns a value depending on every output block so the work cannot be dropped.
float limit_transform(const uint32_t* indices, uint32_t count, const float* positions,
                      uint32_t vertex_count, const float* matrix, float* out);
float limit_transform(const uint16_t* indices, uint32_t count, const float* positions,
                      uint32_t vertex_count, const float* matrix, float* out);

} // namespace drawpipe::bench
