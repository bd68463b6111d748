#include "draw/stages/stages.hpp"

#include "draw/stages/simd_cull.hpp"
#include "drawpipe/extend/prim_assembly.hpp"
#include "drawpipe/prim.hpp"

namespace drawpipe {

void CullStage::triangle(const StagePrim& prim) {
    const float det = facing_det(plan_.state, prim); // front faces positive
    if (det != det) return;                          // NaN: nothing to draw, and no facing to test
    const CullFace cull = plan_.state.cull;
    if (cull == CullFace::front_and_back) return;
    // A triangle without area is culled as a back face whatever the winding, as llvmpipe
    // (Mesa 22.3) does: it draws nothing filled, but its edges and vertices in polygon mode
    // line and point (UnfilledStage then takes it as counter-clockwise).
    const bool front = det > 0;
    if ((cull == CullFace::front && front) || (cull == CullFace::back && !front)) return;
    next()->triangle(prim);
}

void cull_triangles(const RasterState& state, Prim prim, Provoking pv, const VertexView& vertices,
                    std::span<const uint32_t> elts, EmitStage& emit) {
    // CullStage's rule folded into one comparison: with det signed so that front faces are
    // positive, a back-culling state keeps det > 0 and a front-culling one det <= 0; NaN
    // fails both, and zero area counts as a back face.
    if (state.cull == CullFace::front_and_back || state.cull == CullFace::none) return;
    const float sign = front_sign(state);
    const bool keep_front = state.cull == CullFace::back;
    const uint32_t* data = vertices.data + SLOT_POSITION;
    const size_t stride = vertices.stride;
    auto keeps = [&](uint32_t a, uint32_t b, uint32_t c) {
        const uint32_t* pa = data + a * stride;
        const uint32_t* pb = data + b * stride;
        const uint32_t* pc = data + c * stride;
        const float det =
            sign * window_det(dword_float(pa[0]), dword_float(pa[1]), dword_float(pb[0]),
                              dword_float(pb[1]), dword_float(pc[0]), dword_float(pc[1]));
        return keep_front ? det > 0 : det <= 0;
    };
    // Every triangle is written and the cursor moves past the kept ones: no branch to
    // mispredict when facing is random (W3).
    if (prim == Prim::triangles) { // the common case: no decomposition to follow
        const uint32_t tris = uint32_t(elts.size() / 3);
        uint32_t* out = emit.reserve_triangles(tris);
        const CullResult simd =
            cull_triangle_list({elts.data(), tris, data, uint32_t(stride), sign, keep_front, out});
        uint32_t kept = simd.kept;
        for (uint32_t t = simd.done; t < tris; ++t) {
            const uint32_t a = elts[3 * t], b = elts[3 * t + 1], c = elts[3 * t + 2];
            uint32_t* o = out + 3 * kept;
            o[0] = a, o[1] = b, o[2] = c;
            kept += keeps(a, b, c);
        }
        return emit.commit_triangles(tris, kept);
    }
    const uint32_t most = uint32_t(elts.size()); // decomposed triangles are fewer than elements
    uint32_t* out = emit.reserve_triangles(most);
    uint32_t kept = 0;
    for_each_rasterized(prim, pv, uint32_t(elts.size()), [&](uint32_t k, const uint32_t* pos) {
        if (k != 3) return;
        const uint32_t a = elts[pos[0]], b = elts[pos[1]], c = elts[pos[2]];
        uint32_t* o = out + 3 * kept;
        o[0] = a, o[1] = b, o[2] = c;
        kept += keeps(a, b, c);
    });
    emit.commit_triangles(most, kept);
}

} // namespace drawpipe
