// The tessellator's building blocks (docs/tessellation.md): 16.16 fixed-point domain
// coordinates, one level's spacing along an edge, and the stitching of two rows of points into
// triangles. Shared by the triangle, quad and isoline domains (tess_*.cpp).
#pragma once

#include "drawpipe/tessellator.hpp"

#include <array>
#include <cstdint>
#include <limits>

namespace drawpipe::tess {

// Domain coordinates and levels are unsigned 16.16 fixed point, as in the D3D11 reference
// tessellator that llvmpipe runs: its rounding decides every point's float value.
using Fixed = uint32_t;
constexpr Fixed kOne = 1u << 16;
constexpr Fixed kHalf = kOne / 2;
constexpr Fixed kThird = 0x5555;     // 21845 / 65536 = 0.333328247
constexpr Fixed kTwoThirds = 0xaaaa; // 43690 / 65536

// A float level in [1, 64] to 16.16, rounding to nearest, ties to even.
Fixed to_fixed(float level);
// Exact: every coordinate is a multiple of 2^-16 in [0, 1].
inline float to_float(Fixed f) {
    return float(f) * (1.0f / 65536.0f);
}

// The most points one level places along an edge (level 64, even: 65 points), plus slack.
constexpr int kMaxEdgePoints = 68;

// One level along one edge or axis: how many points it places and where (place()).
struct Spacing {
    bool odd = false;    // odd parity: no point at the middle of the edge
    int points = 0;      // points along the edge, both ends included
    int half_points = 0; // points on one half, before the mirror
    int split = 0;       // past this point of the half, the floor level has one point less
    Fixed fraction = 0;  // how far the half level is from its floor
    Fixed inv_floor = 0; // 1 / segments at the floor level (16.16, rounded)
    Fixed inv_ceil = 0;  // 1 / segments at the ceiling level
};

Spacing make_spacing(Fixed level, bool odd);
// The coordinate (0 at one end, 1 at the other) of point `i` of the edge.
Fixed place(const Spacing& s, int i);

// A row of point indices along one side of a ring: base + step * i, except position
// `special_pos`, which is `special` (where a ring closes on its first point).
struct Row {
    uint32_t base = 0;
    int32_t step = 1;
    int32_t special_pos = -1;
    uint32_t special = 0;
    uint32_t operator[](int i) const {
        return i == special_pos ? special : uint32_t(int32_t(base) + step * i);
    }
};

// Writes triangles given in the reference's clockwise order; GL's ccw keeps that order (Mesa
// asks the reference for the opposite winding of the one GL names), cw swaps the last two.
struct TriangleSink {
    uint32_t* out = nullptr;
    bool swap = false;
    void tri(uint32_t a, uint32_t b, uint32_t c) {
        out[0] = a;
        out[1] = swap ? c : b;
        out[2] = swap ? b : c;
        out += 3;
    }
};

enum class Diagonals : uint8_t { inside_to_outside, inside_to_outside_except_middle, mirrored };

// Joins an inner row of `inside_points` points to an outer row with the same number of
// points (one more on each end when `trapezoid`), diagonals as named.
void stitch_regular(TriangleSink& sink, bool trapezoid, Diagonals diagonals, int inside_points,
                    const Row& inside, const Row& outside);
// Joins the first inner ring to the outer edge, whose levels differ: points advance on either
// row in the order the levels split their segments (the ruler function), mirrored on the
// second half.
void stitch_transition(TriangleSink& sink, const Row& inside, int inside_half, bool inside_odd,
                       const Row& outside, int outside_half, bool outside_odd);

// An outer level that culls the patch: zero, negative, NaN, or a positive denormal (llvmpipe
// draws with denormals flushed to zero, so those compare as zero).
inline bool culls(float outer_level) {
    return !(outer_level >= std::numeric_limits<float>::min());
}

// Levels after clamping and rounding for one spacing (docs/tessellation.md, "Levels").
struct LevelRules {
    float lo = 1, hi = 64;
    bool integer = false; // equal spacing: round up, parity per level
    bool odd = false;     // fractional_odd (ignored when integer)
};
LevelRules level_rules(TessSpacing spacing);
// Fractional odd's "picture frame": once a level is above kFrameTrigger, the inner levels are
// at least kFrameInnerMin, so a ring of inner points exists even at inner level 1.
constexpr float kFrameTrigger = 1.0f + 1.0f / 131072.0f; // 1 + 2^-17
constexpr float kFrameInnerMin = 1.0f + 1.0f / 65536.0f; // 1 + 2^-16
// NaN and values below lo give lo, values above hi give hi; equal spacing rounds up.
float clamp_level(float level, float lo, float hi, bool integer);

bool tessellate_triangles(const TessState& state, const TessLevels& levels, TessDomain& out);
bool tessellate_quads(const TessState& state, const TessLevels& levels, TessDomain& out);
bool tessellate_isolines(const TessState& state, const TessLevels& levels, TessDomain& out);

} // namespace drawpipe::tess
