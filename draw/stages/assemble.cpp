#include "draw/stages/assemble.hpp"

#include "drawpipe/extend/segment.hpp"
#include "drawpipe/prim.hpp"

namespace drawpipe {

namespace {

constexpr uint8_t kAllEdges = PRIM_EDGE_0 | PRIM_EDGE_1 | PRIM_EDGE_2;

// Which edges of each decomposed triangle (v0-v1, v1-v2, v2-v0) are the GL primitive's own.
// The per-vertex edge flags then apply to every triangle type, strips and fans too, as
// llvmpipe draws them (an edge takes the flag of the vertex it starts from).
struct EdgeRule {
    uint8_t (*edges)(uint32_t tri, uint32_t tris, bool last, bool first_run, bool last_run);
};

uint8_t all_edges(uint32_t, uint32_t, bool, bool, bool) {
    return kAllEdges;
}
// Quads (for_each_rasterized): (0, 1, 3), (1, 2, 3) or, provoking first, (3, 0, 1),
// (3, 1, 2); the 1-3 diagonal is interior.
uint8_t quad_edges(uint32_t tri, uint32_t, bool last, bool, bool) {
    const bool second = tri & 1;
    if (!last) return second ? PRIM_EDGE_1 | PRIM_EDGE_2 : PRIM_EDGE_0 | PRIM_EDGE_1;
    return second ? PRIM_EDGE_0 | PRIM_EDGE_1 : PRIM_EDGE_0 | PRIM_EDGE_2;
}
// Quad strips in the pipeline's order: (c, a, d), (a, b, d) or, provoking first, (d, c, a),
// (d, a, b); the a-d diagonal is interior.
uint8_t quad_strip_edges(uint32_t tri, uint32_t, bool last, bool, bool) {
    const bool second = tri & 1;
    if (!last) return second ? PRIM_EDGE_1 | PRIM_EDGE_2 : PRIM_EDGE_0 | PRIM_EDGE_1;
    return second ? PRIM_EDGE_0 | PRIM_EDGE_1 : PRIM_EDGE_0 | PRIM_EDGE_2;
}
// In the driver's order: (a, b, d), (c, a, d) or, provoking first, (d, a, b), (d, c, a).
uint8_t quad_strip_driver_edges(uint32_t tri, uint32_t, bool last, bool, bool) {
    const bool second = tri & 1;
    if (!last) return second ? PRIM_EDGE_0 | PRIM_EDGE_1 : PRIM_EDGE_1 | PRIM_EDGE_2;
    return second ? PRIM_EDGE_0 | PRIM_EDGE_2 : PRIM_EDGE_0 | PRIM_EDGE_1;
}
// Polygons, a fan around vertex 0: (0, i+1, i+2) or, provoking last, (i+1, i+2, 0). The
// edges to the centre are the polygon's only on its first and last triangle.
uint8_t polygon_edges(uint32_t tri, uint32_t tris, bool last, bool first_run, bool last_run) {
    const bool first_tri = tri == 0 && first_run, last_tri = tri + 1 == tris && last_run;
    if (!last)
        return uint8_t(PRIM_EDGE_1 | (first_tri ? PRIM_EDGE_0 : 0) | (last_tri ? PRIM_EDGE_2 : 0));
    return uint8_t(PRIM_EDGE_0 | (last_tri ? PRIM_EDGE_1 : 0) | (first_tri ? PRIM_EDGE_2 : 0));
}

EdgeRule edge_rule(Prim prim, QuadStripOrder order) {
    switch (prim) {
    case Prim::quads:
        return {quad_edges};
    case Prim::quad_strip:
        return {order == QuadStripOrder::driver ? quad_strip_driver_edges : quad_strip_edges};
    case Prim::polygon:
        return {polygon_edges};
    default:
        return {all_edges};
    }
}

// Lines that start a stipple pattern: every separate line, else the run's first. Without a
// geometry shader Mesa's draw module assembles a line strip with adjacency into separate
// lines with adjacency first (draw_prim_assembler), so each of its lines restarts too.
bool separate_lines(Prim prim) {
    return prim == Prim::lines || prim == Prim::lines_adjacency ||
           prim == Prim::line_strip_adjacency;
}

} // namespace

void assemble(Prim prim, uint8_t split_flags, Provoking pv, const VertexView& vertices,
              std::span<const uint32_t> elts, int32_t edge_flag_slot, Stage& first,
              QuadStripOrder order) {
    const bool first_run = !(split_flags & SPLIT_BEFORE), last_run = !(split_flags & SPLIT_AFTER);
    const bool last = pv == Provoking::last;
    const EdgeRule rule = edge_rule(prim, order);
    const uint32_t count = uint32_t(elts.size());
    const uint32_t n = trim_count(prim, count);
    const uint32_t tris = prim_shape(prim).first == 1 ? 0 : gl_prim_count(prim, n);
    // Decomposed triangles of quads are two per quad; the rule counts decomposed triangles.
    const uint32_t decomposed_tris =
        prim == Prim::quads || prim == Prim::quad_strip ? 2 * tris : tris;
    auto edge_flag = [&](uint32_t e) {
        if (edge_flag_slot < 0) return true;
        return (vertices.vertex(e)[edge_flag_slot] & 0x7FFFFFFFu) != 0; // 0.0, -0.0 or 0
    };
    uint32_t tri = 0, line = 0;
    StagePrim p;
    for_each_rasterized(
        prim, pv, count,
        [&](uint32_t k, const uint32_t* pos) {
            for (uint32_t i = 0; i < k; ++i) p.v[i] = vertices.vertex(elts[pos[i]]);
            if (k == 3) {
                uint8_t edges = rule.edges(tri++, decomposed_tris, last, first_run, last_run);
                if (!edge_flag(elts[pos[0]])) edges &= ~PRIM_EDGE_0;
                if (!edge_flag(elts[pos[1]])) edges &= ~PRIM_EDGE_1;
                if (!edge_flag(elts[pos[2]])) edges &= ~PRIM_EDGE_2;
                // The stipple restarts with each triangle's edges in polygon mode line, as Mesa's
                // decomposition flags them: every triangle, a quad's first, a polygon's first.
                const uint32_t t = tri - 1;
                const bool reset = prim == Prim::polygon ? t == 0 && first_run
                                   : prim == Prim::quads || prim == Prim::quad_strip ? (t & 1) == 0
                                                                                     : true;
                p.flags = uint8_t(edges | (reset ? PRIM_RESET_STIPPLE : 0));
                first.triangle(p);
            } else if (k == 2) {
                const bool reset = separate_lines(prim) || (line == 0 && first_run);
                ++line;
                p.flags = reset ? PRIM_RESET_STIPPLE : 0;
                first.line(p);
            } else {
                p.flags = 0;
                first.point(p);
            }
        },
        order);
}

} // namespace drawpipe
