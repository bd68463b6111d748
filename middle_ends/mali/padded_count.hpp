// The vertex count a Mali job-manager GPU (Midgard, Bifrost) pads an instanced vertex job
// to, exactly as the shipping Panfrost driver (panfrost_padded_vertex_count) computes it.
//
// The attribute unit turns a thread's linear id L = instance * padded + vertex back into
// (vertex, instance) by dividing by `padded`, and its divider only handles 2^shift times
// an odd factor of 1, 3, 5, 7 or 9, so the vertex dimension is rounded up to that shape.
//
// History the code corrects: the 2019 notes that seeded the driver gave a G71 table for
// small counts (3 -> 4, 4-7 -> 8, 8-11 -> 12, 12-15 -> 16, 16-19 -> 20) and said the padded
// count always exceeds n. The driver that ships keeps n < 10 as is (3 -> 3, 9 -> 9) and
// rounds 10-19 up to even (11 -> 12, 17 -> 18), and exact powers of two above 19 are not
// bumped past the next shape (31 -> 32, 63 -> 64); this file follows the shipping driver.
#pragma once

#include <bit>
#include <cstdint>

namespace drawpipe::mali {

// Largest n whose padded count still fits 32 bits: n >= 0xE0000000 has top nibble 111x,
// which pads to 2^32.
inline constexpr uint32_t kMaxPaddableCount = 0xDFFFFFFFu;

// Padded count for a job of n > 0 vertices drawn with more than one instance (a job with
// one instance is not padded: the caller uses n). Requires n <= kMaxPaddableCount. O(1):
// below 20, n < 10 stays and 10-19 rounds up to even; from 20 on, the top four bits choose
// one of five shapes (table below). Example: 70 = 0b1000110 -> top nibble 1000, s = 3 ->
// 9 * 2^3 = 72.
constexpr uint32_t padded_vertex_count(uint32_t n) {
    if (n < 10) return n;
    if (n < 20) return (n + 1) & ~1u;
    const uint32_t s = uint32_t(std::bit_width(n)) - 4;
    // Per top nibble 8..15: odd factor in the low 4 bits, extra shift in the high 4.
    //   1000 -> 9 * 2^s, 1001 -> 5 * 2^(s+1), 101x -> 3 * 2^(s+2), 110x -> 7 * 2^(s+1),
    //   111x -> 2^(s+4).
    constexpr uint8_t kShape[8] = {0x09, 0x15, 0x23, 0x23, 0x17, 0x17, 0x41, 0x41};
    const uint8_t shape = kShape[(n >> s) & 7];
    return uint32_t(shape & 0xF) << (s + (shape >> 4));
}

// Bifrost's IDVS path first rounds n up to a multiple of 4 so each instance's position
// results start a new 64-byte cache line. Requires n <= kMaxPaddableCount - 3.
constexpr uint32_t padded_vertex_count_idvs(uint32_t n) {
    return padded_vertex_count((n + 3) & ~3u);
}

// The count a job of n vertices and `instances` instances really runs per instance:
// padded only when instanced, per Panfrost (and rounded to 4 first on the IDVS path).
constexpr uint32_t job_vertex_count(uint32_t n, uint32_t instances, bool idvs) {
    if (instances <= 1) return n;
    return idvs ? padded_vertex_count_idvs(n) : padded_vertex_count(n);
}

} // namespace drawpipe::mali
