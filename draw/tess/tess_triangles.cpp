// The triangle domain: an outer ring on the three edges (u = 0, v = 0, w = 0), then inner
// rings spiralling in, each ring's points starting at its v-most corner; the rings stitched
// edge by edge, the centre a point (even) or a triangle (odd). docs/tessellation.md.
#include "draw/tess/tess_detail.hpp"

#include <algorithm>
#include <cassert>

namespace drawpipe::tess {

namespace {

void emit_point(TessDomain& out, size_t at, Fixed u, Fixed v) {
    const float fu = to_float(u), fv = to_float(v);
    out.coords[at] = {fu, fv, 1.0f - fu - fv};
}

void minimum_triangle(const TessState& state, TessDomain& out) {
    out.coords.resize(3);
    emit_point(out, 0, 0, kOne);
    emit_point(out, 1, 0, 0);
    emit_point(out, 2, kOne, 0);
    if (state.point_mode) {
        out.elements.assign({0, 1, 2});
    } else {
        out.elements.resize(3);
        TriangleSink sink{out.elements.data(), state.winding == TessWinding::cw};
        sink.tri(0, 1, 2);
    }
}

} // namespace

bool tessellate_triangles(const TessState& state, const TessLevels& levels, TessDomain& out) {
    if (culls(levels.outer[0]) || culls(levels.outer[1]) || culls(levels.outer[2])) return false;
    const LevelRules rules = level_rules(state.spacing);
    float outer[3];
    for (int e = 0; e < 3; ++e)
        outer[e] = clamp_level(levels.outer[e], rules.lo, rules.hi, rules.integer);
    float inner_lo = rules.lo;
    // Fractional odd: an outer level above 1 forces an inner ring ("picture frame"), however
    // small the inner level.
    if (state.spacing == TessSpacing::fractional_odd &&
        std::any_of(outer, outer + 3, [](float l) { return l > kFrameTrigger; }))
        inner_lo = kFrameInnerMin;
    const float inner = clamp_level(levels.inner[0], inner_lo, rules.hi, rules.integer);

    bool outer_odd[3], inner_odd = rules.odd;
    if (rules.integer) {
        for (int e = 0; e < 3; ++e) outer_odd[e] = (int(outer[e]) & 1) != 0;
        inner_odd = (int(inner) & 1) != 0 && inner != 1.0f; // an inner 1 is placed as even
    } else {
        std::fill(outer_odd, outer_odd + 3, rules.odd);
    }
    Fixed fouter[3];
    for (int e = 0; e < 3; ++e) fouter[e] = to_fixed(outer[e]);
    const Fixed finner = to_fixed(inner);
    if ((rules.integer || rules.odd) && finner == kOne && fouter[0] == kOne && fouter[1] == kOne &&
        fouter[2] == kOne) {
        minimum_triangle(state, out);
        return true;
    }

    Spacing edge[3];
    for (int e = 0; e < 3; ++e) edge[e] = make_spacing(fouter[e], outer_odd[e]);
    const Spacing in = make_spacing(finner, inner_odd);
    const int n_in = std::max(inner_odd ? 4 : 3, in.points);

    // Points: the outer ring, then the inner rings, then the centre when even.
    const int rings = n_in >> 1; // inner rings with three sides (ring 0 is the outer edge)
    size_t n_points = size_t(edge[0].points + edge[1].points + edge[2].points - 3);
    const size_t inner_base = n_points;
    for (int r = 1; r < rings; ++r) n_points += size_t(3 * (n_in - 1 - 2 * r));
    if (!inner_odd) ++n_points;
    out.coords.resize(n_points);

    size_t at = 0;
    // Edge 0 (u = 0) runs from v = 1 down, edge 1 (v = 0) from u = 0 up, edge 2 (w = 0) from
    // u = 1 down; each leaves out its last point, the next edge's first.
    for (int e = 0; e < 3; ++e) {
        const int last = edge[e].points - 1;
        for (int p = 0; p < last; ++p) {
            const Fixed t = place(edge[e], (e & 1) ? p : last - p);
            if (e == 0)
                emit_point(out, at++, 0, t);
            else
                emit_point(out, at++, t, e == 2 ? kOne - t : 0);
        }
    }
    std::array<Fixed, kMaxEdgePoints> in_at{};
    for (int i = 0; i < n_in && i < kMaxEdgePoints; ++i) in_at[size_t(i)] = place(in, i);
    for (int r = 1; r < rings; ++r) {
        const int last = n_in - 1 - r;
        // Ring r sits at place(r) on the inner level's spacing, scaled by 2/3 into barycentric
        // space; along the edge, the inner spacing shifted by half that distance.
        const Fixed perp = (in_at[size_t(r)] * kTwoThirds + kHalf) >> 16;
        const Fixed shift = (perp + 1) / 2;
        for (int e = 0; e < 3; ++e) {
            for (int p = r; p < last; ++p) {
                const Fixed t = in_at[size_t((e & 1) ? p : last - (p - r))] - shift;
                if (e == 0)
                    emit_point(out, at++, perp, t);
                else if (e == 1)
                    emit_point(out, at++, t, perp);
                else
                    emit_point(out, at++, t, kOne - t - perp);
            }
        }
    }
    if (!inner_odd) emit_point(out, at++, kThird, kThird);

    assert(at == n_points);
    if (state.point_mode) {
        out.elements.resize(n_points);
        for (size_t i = 0; i < n_points; ++i) out.elements[i] = uint32_t(i);
        return true;
    }

    // Triangles: each ring's three sides against the ring outside it, the first ring with the
    // transition stitch (the levels differ), the others regular.
    const int stitch_rings = (n_in + 1) >> 1; // counting the centre point when even
    int n_out[3] = {edge[0].points, edge[1].points, edge[2].points};
    size_t n_tris = inner_odd ? 1 : 0;
    {
        int count[3] = {n_out[0], n_out[1], n_out[2]};
        for (int r = 1; r < stitch_rings; ++r) {
            const int ring_points = n_in - 2 * r;
            for (int e = 0; e < 3; ++e) {
                n_tris += size_t(ring_points + count[e] - 2);
                count[e] = ring_points;
            }
        }
    }
    out.elements.resize(n_tris * 3);
    TriangleSink sink{out.elements.data(), state.winding == TessWinding::cw};
    uint32_t inside_base = uint32_t(inner_base), outside_base = 0;
    for (int r = 1; r < stitch_rings; ++r) {
        const int ring_points = n_in - 2 * r;
        const uint32_t ring_in = inside_base, ring_out = outside_base;
        for (int e = 0; e < 3; ++e) {
            Row inside{inside_base}, outside{outside_base};
            if (e == 2) { // the last side closes on each ring's first point
                inside.special_pos = ring_points - 1;
                inside.special = ring_in;
                outside.special_pos = n_out[e] - 1;
                outside.special = ring_out;
            }
            if (r == 1)
                stitch_transition(sink, inside, in.half_points, inner_odd, outside,
                                  edge[e].half_points, edge[e].odd);
            else
                stitch_regular(sink, true, Diagonals::mirrored, ring_points, inside, outside);
            outside_base += uint32_t(n_out[e] - 1);
            inside_base += uint32_t(ring_points - 1);
            n_out[e] = ring_points;
        }
    }
    if (inner_odd) sink.tri(outside_base, outside_base + 1, outside_base + 2);
    assert(sink.out == out.elements.data() + out.elements.size());
    return true;
}

} // namespace drawpipe::tess
