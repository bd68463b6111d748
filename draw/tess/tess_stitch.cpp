// Stitching two rows of domain points into triangles: rings of equal point counts (regular)
// and the first inner ring against the outer edge (transition). docs/tessellation.md.
#include "draw/tess/tess_detail.hpp"

namespace drawpipe::tess {

namespace {

// The regular stitch's loop with the winding fixed at compile time and each row's next index
// carried over from the previous quad (the hot loop of a highly tessellated patch).
template <bool Swap>
uint32_t* regular(uint32_t* dst, bool trapezoid, Diagonals diagonals, int inside_points,
                  const Row& in, const Row& out) {
    auto tri = [&dst](uint32_t a, uint32_t b, uint32_t c) {
        dst[0] = a;
        dst[1] = Swap ? c : b;
        dst[2] = Swap ? b : c;
        dst += 3;
    };
    int i = 0, o = 0;
    if (trapezoid) {
        tri(out[0], out[1], in[0]);
        o = 1;
    }
    uint32_t in0 = in[i], out0 = out[o];
    // A quad between in0, in1, out0, out1, split along one of its diagonals.
    auto quad = [&](auto split) {
        const uint32_t in1 = in[i + 1], out1 = out[o + 1];
        split(in0, in1, out0, out1);
        in0 = in1, out0 = out1;
        ++i, ++o;
    };
    auto from_inside = [&](uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
        tri(a0, b0, b1); // diagonal in0 - out1
        tri(a0, b1, a1);
    };
    auto from_outside = [&](uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
        tri(b0, a1, a0); // diagonal out0 - in1
        tri(b0, b1, a1);
    };
    auto outside_first = [&](uint32_t a0, uint32_t a1, uint32_t b0, uint32_t b1) {
        tri(b0, b1, a0); // diagonal in0 - out1, the outer triangle first
        tri(a0, b1, a1);
    };
    int p = 0;
    switch (diagonals) {
    case Diagonals::inside_to_outside:
        for (; p < inside_points - 1; ++p) quad(from_inside);
        break;
    case Diagonals::inside_to_outside_except_middle:
        // Odd rows only: the middle quad takes the other diagonal, so the strip is symmetric.
        for (; p < inside_points / 2 - 1; ++p) quad(outside_first);
        quad(from_outside);
        for (p += 2; p < inside_points; ++p) quad(outside_first);
        break;
    case Diagonals::mirrored:
        for (; p < inside_points / 2; ++p) quad(from_outside);
        for (; p < inside_points - 1; ++p) quad(from_inside);
        break;
    }
    if (trapezoid) tri(out0, out[o + 1], in0);
    return dst;
}

} // namespace

void stitch_regular(TriangleSink& sink, bool trapezoid, Diagonals diagonals, int inside_points,
                    const Row& in, const Row& out) {
    sink.out = sink.swap ? regular<true>(sink.out, trapezoid, diagonals, inside_points, in, out)
                         : regular<false>(sink.out, trapezoid, diagonals, inside_points, in, out);
}

namespace {

// Where each point of a half edge ends up at the highest level (32 points a half), in the
// order the points appear as the level grows: the ruler function. A row with h points on its
// half advances at step k when kRulerOrder[k] < h.
constexpr int kRulerOrder[33] = {0, 32, 16, 8,  17, 4,  18, 9,  19, 2,  20, 10, 21, 5,  22, 11, 23,
                                 1, 24, 12, 25, 6,  26, 13, 27, 3,  28, 14, 29, 7,  30, 15, 31};

} // namespace

void stitch_transition(TriangleSink& sink, const Row& in, int in_half, bool in_odd, const Row& out,
                       int out_half, bool out_odd) {
    // With odd parity the half's last point is the one beside the middle, not on it.
    if (in_odd) --in_half;
    if (out_odd) --out_half;
    int i = 0, o = 0;
    auto advance_out = [&] {
        sink.tri(out[o], out[o + 1], in[i]);
        ++o;
    };
    auto advance_in = [&] {
        sink.tri(in[i], out[o], in[i + 1]);
        ++i;
    };
    if (kRulerOrder[0] < out_half) advance_out();
    for (int k = 1; k <= 32; ++k) {
        if (kRulerOrder[k] < in_half) advance_in();
        if (kRulerOrder[k] < out_half) advance_out();
    }
    // The middle: a quad when both rows are odd, a triangle when only one is.
    if (in_odd && out_odd) {
        sink.tri(in[i], out[o], in[i + 1]);
        sink.tri(in[i + 1], out[o], out[o + 1]);
        ++i, ++o;
    } else if (out_odd) { // even inside: one triangle pointing in
        sink.tri(in[i], out[o], out[o + 1]);
        ++o;
    } else if (in_odd) { // even outside: one triangle pointing out
        sink.tri(in[i], out[o], in[i + 1]);
        ++i;
    }
    for (int k = 32; k >= 1; --k) {
        if (kRulerOrder[k] < out_half) advance_out();
        if (kRulerOrder[k] < in_half) advance_in();
    }
    if (kRulerOrder[0] < out_half) advance_out();
}

} // namespace drawpipe::tess
