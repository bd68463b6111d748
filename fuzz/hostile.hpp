// Hostile field values for fuzz_api: mostly the edges where 32-bit arithmetic wraps (0, 1,
// 2^31, 2^32 - 1 and their neighbours), sometimes small ordinary values, sometimes anything.
// Edges are where the checks in validate_draw, vertex fetch and the split cache live.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cstdint>
#include <limits>

namespace drawpipe::fuzz {

inline uint32_t hostile_u32(FuzzedDataProvider& in) {
    static constexpr uint32_t kEdges[] = {
        0u,          1u,          2u,          3u,          4u,          0x7FFFFFFFu,
        0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFDu, 0xFFFFFFF0u,
        0xFFFF0000u, 0x10000u,    0xFFFFu,     0x100u,      0xFFu,       0x1000000u,
    };
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
        return in.PickValueInArray(kEdges);
    case 1: // an edge plus or minus a little
        return in.PickValueInArray(kEdges) + uint32_t(in.ConsumeIntegralInRange<int32_t>(-8, 8));
    case 2:
        return in.ConsumeIntegralInRange<uint32_t>(0, 64);
    default:
        return in.ConsumeIntegral<uint32_t>();
    }
}

inline int32_t hostile_i32(FuzzedDataProvider& in) {
    return int32_t(hostile_u32(in)); // INT32_MIN, INT32_MAX, -1, -2 ... are all edges above
}

// Floats where rasterizer arithmetic breaks: 0 and -0, the pixel-sized values GL's limits sit
// at, huge and tiny magnitudes, infinities, NaN, and now and then any bits at all.
inline float hostile_float(FuzzedDataProvider& in) {
    static constexpr float kEdges[] = {0.0f,
                                       -0.0f,
                                       1.0f,
                                       -1.0f,
                                       0.5f,
                                       2.0f,
                                       3.0f,
                                       255.0f,
                                       256.0f,
                                       16384.0f,
                                       1e7f,
                                       -1e7f,
                                       1e30f,
                                       -1e30f,
                                       3.4e38f,
                                       -3.4e38f,
                                       1e-30f,
                                       1.4e-45f,
                                       std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity(),
                                       std::numeric_limits<float>::quiet_NaN()};
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
        return in.PickValueInArray(kEdges);
    case 1:
        return float(in.ConsumeIntegralInRange<int32_t>(-64, 64)) / 4;
    default:
        return std::bit_cast<float>(in.ConsumeIntegral<uint32_t>());
    }
}

} // namespace drawpipe::fuzz
