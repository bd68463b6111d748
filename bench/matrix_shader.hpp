// The whole-draw benchmarks' vertex shader: position = M * attribute 0, written as a driver's
// SIMD shader would be: plain loops over the block's lanes, the rows as non-aliasing pointers
// and the lanes in chunks of 8 so the compiler vectorises them (GCC's -O2 cost model only
// vectorises a loop whose trip count is known), then a lane at a time.
#pragma once

#include "drawpipe/shader.hpp"

#include <cstdint>

namespace drawpipe::bench {

template <uint32_t kChunk>
inline void matrix_lanes(const float* __restrict x, const float* __restrict y,
                         const float* __restrict z, const float* __restrict w,
                         float* __restrict out, const float* m) {
    for (uint32_t l = 0; l < kChunk; ++l)
        out[l] = m[0] * x[l] + m[1] * y[l] + m[2] * z[l] + m[3] * w[l];
}

// One block through the row-major 4x4 matrix `m` (out[r] = sum_c m[4r + c] * in[c]).
inline void matrix_block(const ShaderBlock& b, const float* m) {
    const float *x = b.in[0], *y = b.in[1], *z = b.in[2], *w = b.in[3];
    for (int r = 0; r < 4; ++r) {
        uint32_t l = 0;
        for (; l + 8 <= b.count; l += 8)
            matrix_lanes<8>(x + l, y + l, z + l, w + l, b.out[r] + l, m + 4 * r);
        for (; l < b.count; ++l)
            matrix_lanes<1>(x + l, y + l, z + l, w + l, b.out[r] + l, m + 4 * r);
    }
}

} // namespace drawpipe::bench
