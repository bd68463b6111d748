// The quad domain: an outer ring on the four edges (u = 0, v = 0, u = 1, v = 1), inner rings
// spiralling in, and in the middle a strip of quads (odd) or a row of points (even);
// docs/tessellation.md.
#include "draw/tess/tess_detail.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe::tess {

namespace {

constexpr int U = 0, V = 1;

void emit_point(TessDomain& out, size_t at, Fixed u, Fixed v) {
    out.coords[at] = {to_float(u), to_float(v), 0.0f};
}

void minimum_quad(const TessState& state, TessDomain& out) {
    out.coords.resize(4);
    emit_point(out, 0, 0, 0);
    emit_point(out, 1, kOne, 0);
    emit_point(out, 2, kOne, kOne);
    emit_point(out, 3, 0, kOne);
    if (state.point_mode) {
        out.elements.assign({0, 1, 2, 3});
    } else {
        out.elements.resize(6);
        TriangleSink sink{out.elements.data(), state.winding == TessWinding::cw};
        sink.tri(0, 1, 3);
        sink.tri(1, 2, 3);
    }
}

} // namespace

bool tessellate_quads(const TessState& state, const TessLevels& levels, TessDomain& out) {
    for (int e = 0; e < 4; ++e)
        if (culls(levels.outer[size_t(e)])) return false;
    const LevelRules rules = level_rules(state.spacing);
    float outer[4];
    for (int e = 0; e < 4; ++e)
        outer[e] = clamp_level(levels.outer[size_t(e)], rules.lo, rules.hi, rules.integer);
    float inner_lo = rules.lo;
    // Fractional odd: any level above 1 (the inner ones as given) forces an inner ring.
    if (state.spacing == TessSpacing::fractional_odd &&
        (std::any_of(outer, outer + 4, [](float l) { return l > kFrameTrigger; }) ||
         levels.inner[0] > kFrameTrigger || levels.inner[1] > kFrameTrigger))
        inner_lo = kFrameInnerMin;
    const float inner[2] = {clamp_level(levels.inner[0], inner_lo, rules.hi, rules.integer),
                            clamp_level(levels.inner[1], inner_lo, rules.hi, rules.integer)};

    bool outer_odd[4], inner_odd[2] = {rules.odd, rules.odd};
    if (rules.integer) {
        for (int e = 0; e < 4; ++e) outer_odd[e] = (int(outer[e]) & 1) != 0;
        for (int a = 0; a < 2; ++a) inner_odd[a] = (int(inner[a]) & 1) != 0 && inner[a] != 1.0f;
    } else {
        std::fill(outer_odd, outer_odd + 4, rules.odd);
    }
    Fixed fouter[4];
    for (int e = 0; e < 4; ++e) fouter[e] = to_fixed(outer[e]);
    const Fixed finner[2] = {to_fixed(inner[0]), to_fixed(inner[1])};
    if ((rules.integer || rules.odd) && finner[0] == kOne && finner[1] == kOne &&
        std::all_of(fouter, fouter + 4, [](Fixed f) { return f == kOne; })) {
        minimum_quad(state, out);
        return true;
    }

    Spacing edge[4];
    for (int e = 0; e < 4; ++e) edge[e] = make_spacing(fouter[e], outer_odd[e]);
    const Spacing in[2] = {make_spacing(finner[0], inner_odd[0]),
                           make_spacing(finner[1], inner_odd[1])};
    const int n_in[2] = {std::max(inner_odd[U] ? 4 : 3, in[U].points),
                         std::max(inner_odd[V] ? 4 : 3, in[V].points)};

    const size_t inner_base =
        size_t(edge[0].points + edge[1].points + edge[2].points + edge[3].points - 4);
    const size_t n_points = inner_base + size_t(n_in[U] - 2) * size_t(n_in[V] - 2);
    out.coords.resize(n_points);

    // Outer ring: edge 0 (u = 0) from v = 1 down, edge 1 (v = 0) from u = 0 up, edge 2 (u = 1)
    // from v = 0 up, edge 3 (v = 1) from u = 1 down; each leaves out its last point.
    size_t at = 0;
    for (int e = 0; e < 4; ++e) {
        const int last = edge[e].points - 1;
        for (int p = 0; p < last; ++p) {
            const Fixed t = place(edge[e], (e == 1 || e == 2) ? p : last - p);
            if (e & 1)
                emit_point(out, at++, t, e == 3 ? kOne : 0);
            else
                emit_point(out, at++, e == 2 ? kOne : 0, t);
        }
    }
    // Inner rings, the same way round, on the inner levels' spacing.
    std::array<Fixed, kMaxEdgePoints> in_at[2];
    for (int a = 0; a < 2; ++a)
        for (int i = 0; i < n_in[a] && i < kMaxEdgePoints; ++i)
            in_at[a][size_t(i)] = place(in[a], i);
    const int point_rings = std::min(n_in[U], n_in[V]) >> 1;
    for (int r = 1; r < point_rings; ++r) {
        const int end[2] = {n_in[U] - 1 - r, n_in[V] - 1 - r};
        // Edge 0: u fixed at r, v down; edge 1: v fixed at r, u up; edge 2: u fixed at the far
        // side, v up; edge 3: v fixed at the far side, u down.
        const Fixed u_near = in_at[U][size_t(r)], u_far = in_at[U][size_t(end[U])];
        const Fixed v_near = in_at[V][size_t(r)], v_far = in_at[V][size_t(end[V])];
        for (int p = r; p < end[V]; ++p)
            emit_point(out, at++, u_near, in_at[V][size_t(end[V] - (p - r))]);
        for (int p = r; p < end[U]; ++p) emit_point(out, at++, in_at[U][size_t(p)], v_near);
        for (int p = r; p < end[V]; ++p) emit_point(out, at++, u_far, in_at[V][size_t(p)]);
        for (int p = r; p < end[U]; ++p)
            emit_point(out, at++, in_at[U][size_t(end[U] - (p - r))], v_far);
    }
    // Even parity leaves a degenerate innermost ring: a row (v = 1/2) or column (u = 1/2).
    if (n_in[U] > n_in[V] && !inner_odd[V]) {
        for (int p = point_rings; p <= n_in[U] - 1 - point_rings; ++p)
            emit_point(out, at++, in_at[U][size_t(p)], kHalf);
    } else if (n_in[V] >= n_in[U] && !inner_odd[U]) {
        for (int p = n_in[V] - 1 - point_rings; p >= point_rings; --p)
            emit_point(out, at++, kHalf, in_at[V][size_t(p)]);
    }

    assert(at == n_points);
    if (state.point_mode) {
        out.elements.resize(n_points);
        for (size_t i = 0; i < n_points; ++i) out.elements[i] = uint32_t(i);
        return true;
    }

    // Triangles: ring by ring, side by side (side e of a ring runs along axis (e + 1) & 1).
    const int rows_to_centre[2] = {(n_in[U] + 1) >> 1, (n_in[V] + 1) >> 1};
    const int stitch_rings = std::min(rows_to_centre[U], rows_to_centre[V]);
    // The ring where a side's inner row is the degenerate row of points, walked backwards on
    // the way back (indexed by the side's axis).
    const int degenerate_ring[2] = {!inner_odd[V] ? rows_to_centre[V] - 1 : -1,
                                    !inner_odd[U] ? rows_to_centre[U] - 1 : -1};
    // The centre strip between the two rows of the innermost ring (odd parity).
    int strip_quads = 0;
    if (n_in[U] > n_in[V] && inner_odd[V])
        strip_quads = ((n_in[U] >> 1) - (n_in[V] >> 1)) * 2 + (!inner_odd[U] ? 2 : 1);
    else if (n_in[V] >= n_in[U] && inner_odd[U])
        strip_quads = ((n_in[V] >> 1) - (n_in[U] >> 1)) * 2 + (!inner_odd[V] ? 2 : 1);

    int n_out[4] = {edge[0].points, edge[1].points, edge[2].points, edge[3].points};
    size_t n_tris = size_t(strip_quads) * 2;
    {
        int count[4] = {n_out[0], n_out[1], n_out[2], n_out[3]};
        for (int r = 1; r < stitch_rings; ++r)
            for (int e = 0; e < 4; ++e) {
                const int ring_points = n_in[(e + 1) & 1] - 2 * r;
                n_tris += size_t(ring_points + count[e] - 2);
                count[e] = ring_points;
            }
    }
    out.elements.resize(n_tris * 3);
    TriangleSink sink{out.elements.data(), state.winding == TessWinding::cw};

    uint32_t inside_base = uint32_t(inner_base), outside_base = 0;
    for (int r = 1; r < stitch_rings; ++r) {
        const uint32_t ring_in = inside_base, ring_out = outside_base;
        for (int e = 0; e < 4; ++e) {
            const int axis = (e + 1) & 1;
            const int ring_points = n_in[axis] - 2 * r;
            const bool degenerate = r == degenerate_ring[axis];
            Row inside{inside_base}, outside{outside_base};
            if (e == 3) { // the last side closes on the ring's first points
                outside.special_pos = n_out[e] - 1;
                outside.special = ring_out;
                if (degenerate) {
                    inside.step = -1;
                } else {
                    inside.special_pos = ring_points - 1;
                    inside.special = ring_in;
                }
            } else if (e == 2 && degenerate) {
                inside.step = -1;
            }
            if (r == 1)
                stitch_transition(sink, inside, in[axis].half_points, inner_odd[axis], outside,
                                  edge[e].half_points, edge[e].odd);
            else
                stitch_regular(sink, true, Diagonals::mirrored, ring_points, inside, outside);
            outside_base += uint32_t(n_out[e] - 1);
            if (e == 2 && degenerate)
                inside_base -= uint32_t(ring_points - 1);
            else
                inside_base += uint32_t(ring_points - 1);
            n_out[e] = ring_points;
        }
    }

    // The centre strip joins the innermost ring's two long sides: the outer row runs forward
    // from the ring's second point, the inner row backwards from its last.
    const uint32_t o = outside_base, s = uint32_t(strip_quads);
    if (n_in[U] > n_in[V] && inner_odd[V]) {
        const Row inside{o + 2 * s + 2, -1, 0, o}, outside{o + 1};
        stitch_regular(sink, false, Diagonals::inside_to_outside, strip_quads + 1, inside, outside);
    } else if (n_in[V] >= n_in[U] && inner_odd[U]) {
        const Row inside{o + 2 * s + 1, -1}, outside{o};
        stitch_regular(sink, false,
                       !inner_odd[V] ? Diagonals::inside_to_outside
                                     : Diagonals::inside_to_outside_except_middle,
                       strip_quads + 1, inside, outside);
    }
    assert(sink.out == out.elements.data() + out.elements.size());
    return true;
}

} // namespace drawpipe::tess
