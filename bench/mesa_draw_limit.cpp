// The physical-limit loop (mesa_draw_limit.hpp). This file alone is built with
// -O3 -march=native so GCC vectorises the loop; check with -fopt-info-vec-optimized.
#include "bench/mesa_draw_limit.hpp"

#include <algorithm>

namespace drawpipe::bench {

namespace {

// Array-of-structures output, one float4 per index: GCC turns the inner loop over the rows
// into one 4-wide vector (a load, four broadcasts, four multiply-adds, a store per index),
// which beat gathering into structures of arrays (19.9 against 12.1 ms on W1, 107 against
// 70 ms on W3, -O3 -march=native on the AVX-512 test machine).
template <class I>
void transform_block(const I* __restrict indices, uint32_t n, const float* __restrict pos,
                     uint32_t vertex_count, const float* __restrict m, float* __restrict out) {
    float col[4][4]; // col[c][r] = M[r][c]
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) col[c][r] = m[4 * r + c];
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = indices[i];
        const float* p = pos + size_t(v < vertex_count ? v : 0u) * 4;
        const float x = p[0], y = p[1], z = p[2], w = p[3];
        float* o = out + 4 * size_t(i);
        for (int r = 0; r < 4; ++r)
            o[r] = col[0][r] * x + col[1][r] * y + col[2][r] * z + col[3][r] * w;
    }
}

template <class I>
float run(const I* indices, uint32_t count, const float* positions, uint32_t vertex_count,
          const float* matrix, float* out) {
    float sink = 0;
    for (uint32_t first = 0; first < count; first += kLimitBlock) {
        const uint32_t n = std::min(kLimitBlock, count - first);
        transform_block(indices + first, n, positions, vertex_count, matrix, out);
        sink += out[4 * (n - 1)] + out[4 * (n / 2) + 3];
    }
    return sink;
}

} // namespace

float limit_transform(const uint32_t* indices, uint32_t count, const float* positions,
                      uint32_t vertex_count, const float* matrix, float* out) {
    return run(indices, count, positions, vertex_count, matrix, out);
}

float limit_transform(const uint16_t* indices, uint32_t count, const float* positions,
                      uint32_t vertex_count, const float* matrix, float* out) {
    return run(indices, count, positions, vertex_count, matrix, out);
}

} // namespace drawpipe::bench
