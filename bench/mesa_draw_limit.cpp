// The physical-limit loop (mesa_draw_limit.hpp). This file alone is built with
// -O3 -march=native so GCC vectorises the loop (gathers of the positions, the outputs as
// structures of arrays); check with -fopt-info-vec-optimized.
#include "bench/mesa_draw_limit.hpp"

#include <algorithm>

namespace drawpipe::bench {

namespace {

template <class I>
void transform_block(const I* __restrict indices, uint32_t n, const float* __restrict pos,
                     uint32_t vertex_count, const float* __restrict m, float* __restrict out) {
    const float m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3];
    const float m10 = m[4], m11 = m[5], m12 = m[6], m13 = m[7];
    const float m20 = m[8], m21 = m[9], m22 = m[10], m23 = m[11];
    const float m30 = m[12], m31 = m[13], m32 = m[14], m33 = m[15];
    float* __restrict ox = out;
    float* __restrict oy = out + kLimitBlock;
    float* __restrict oz = out + 2 * kLimitBlock;
    float* __restrict ow = out + 3 * kLimitBlock;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = indices[i];
        const int o = int(v < vertex_count ? v : 0u) * 4;
        const float x = pos[o], y = pos[o + 1], z = pos[o + 2], w = pos[o + 3];
        ox[i] = m00 * x + m01 * y + m02 * z + m03 * w;
        oy[i] = m10 * x + m11 * y + m12 * z + m13 * w;
        oz[i] = m20 * x + m21 * y + m22 * z + m23 * w;
        ow[i] = m30 * x + m31 * y + m32 * z + m33 * w;
    }
}

template <class I>
float run(const I* indices, uint32_t count, const float* positions, uint32_t vertex_count,
          const float* matrix, float* out) {
    float sink = 0;
    for (uint32_t first = 0; first < count; first += kLimitBlock) {
        const uint32_t n = std::min(kLimitBlock, count - first);
        transform_block(indices + first, n, positions, vertex_count, matrix, out);
        sink += out[n - 1] + out[3 * kLimitBlock + n / 2];
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
