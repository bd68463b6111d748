// One tessellation level along one edge: its clamping and rounding, how many points it places
// and where, in the reference tessellator's 16.16 fixed point (docs/tessellation.md).
#include "draw/tess/tess_detail.hpp"

#include <bit>
#include <cassert>
#include <cmath>

namespace drawpipe::tess {

Fixed to_fixed(float level) {
    assert(level >= 1.0f && level <= 64.0f);
    // level = m * 2^(e - 23) with the hidden bit in m; in 16.16 that is m * 2^(e - 7), and for
    // levels in [1, 64] the exponent is 0..6, so bits are only ever dropped, never added.
    const uint32_t bits = std::bit_cast<uint32_t>(level);
    const int e = int((bits >> 23) & 0xff) - 127;
    const uint32_t m = (bits & 0x7fffff) | 0x800000;
    const int drop = 7 - e;
    if (drop <= 0) return m << -drop;
    uint32_t kept = m >> drop;
    const uint32_t rest = m & ((1u << drop) - 1), tie = 1u << (drop - 1);
    if (rest > tie || (rest == tie && (kept & 1))) ++kept;
    return kept;
}

namespace {

Fixed fixed_floor(Fixed f) {
    return f & 0xffff0000u;
}
Fixed fixed_ceil(Fixed f) {
    return (f & 0xffffu) ? fixed_floor(f) + kOne : f;
}

// 1 / n in 16.16, rounded to nearest (n <= 64 never ties); n = 0 is never used to place a
// point, the all-ones value only keeps the arithmetic defined.
Fixed reciprocal(int n) {
    return n == 0 ? 0xffffffffu : (kOne + uint32_t(n) / 2) / uint32_t(n);
}

int clear_top_bit(int v) {
    return v == 0 ? 0 : int(uint32_t(v) & ~std::bit_floor(uint32_t(v)));
}

} // namespace

Spacing make_spacing(Fixed level, bool odd) {
    Spacing s;
    s.odd = odd;
    // Each half of the edge is placed for half the level; odd parity (and an even level of 1,
    // which is placed as if odd) shifts the half by 1/2 so no point lands on the middle.
    Fixed half = (level + 1) / 2;
    if (odd || half == kHalf) half += kHalf;
    const Fixed lo = fixed_floor(half), hi = fixed_ceil(half);
    s.fraction = half - lo;
    s.half_points = int(hi >> 16);
    if (hi == lo) {
        s.split = s.half_points + 1; // a whole half level: no point is split
    } else if (odd) {
        s.split = lo == kOne ? 0 : clear_top_bit(int(lo >> 16) - 1) * 2 + 1;
    } else {
        s.split = clear_top_bit(int(lo >> 16)) * 2 + 1;
    }
    int floor_segments = int((lo * 2) >> 16), ceil_segments = int((hi * 2) >> 16);
    if (odd) {
        --floor_segments;
        --ceil_segments;
    }
    s.inv_floor = reciprocal(floor_segments);
    s.inv_ceil = reciprocal(ceil_segments);
    const Fixed rounded_half = (level + 1) / 2;
    s.points = odd ? int((fixed_ceil(kHalf + rounded_half) * 2) >> 16)
                   : int((fixed_ceil(rounded_half) * 2) >> 16) + 1;
    return s;
}

Fixed place(const Spacing& s, int i) {
    // The second half mirrors the first.
    bool mirrored = false;
    if (i >= s.half_points) {
        i = 2 * s.half_points - i - (s.odd ? 1 : 0);
        mirrored = true;
    }
    if (i == s.half_points) return kHalf; // the middle, which the lerp below cannot hit exactly
    // Lerp between the point's place at the floor and at the ceiling of the half level; past
    // the split point the floor level has one point fewer. Unsigned 32-bit arithmetic, as the
    // reference's (its products stay below 2^32 for every level it accepts).
    const uint32_t on_ceil = uint32_t(i);
    const uint32_t on_floor = i > s.split ? on_ceil - 1 : on_ceil;
    Fixed at = (on_floor * s.inv_floor) * (kOne - s.fraction) + (on_ceil * s.inv_ceil) * s.fraction;
    at = (at + kHalf) >> 16;
    return mirrored ? kOne - at : at;
}

LevelRules level_rules(TessSpacing spacing) {
    switch (spacing) {
    case TessSpacing::fractional_even:
        return {2, 64, false, false};
    case TessSpacing::fractional_odd:
        return {1, 63, false, true};
    case TessSpacing::equal:
        break;
    }
    return {1, 64, true, false};
}

float clamp_level(float level, float lo, float hi, bool integer) {
    float v = level > lo ? level : lo; // NaN and denormals give lo
    v = v > hi ? hi : v;
    return integer ? std::ceil(v) : v;
}

} // namespace drawpipe::tess
