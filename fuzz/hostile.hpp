// Hostile field values for fuzz_api: mostly the edges where 32-bit arithmetic wraps (0, 1,
// 2^31, 2^32 - 1 and their neighbours), sometimes small ordinary values, sometimes anything.
// Edges are where the checks in validate_draw, vertex fetch and the split cache live.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>

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

} // namespace drawpipe::fuzz
