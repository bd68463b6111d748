#include "drawpipe/backends/counting.hpp"

#include "drawpipe/decompose.hpp"

namespace drawpipe {

void CountingBackend::begin_draw(const DrawInfo& draw, const VertexLayout&) {
    provoking_ = draw.provoking;
}

void CountingBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                    std::span<const uint32_t> elts) {
    totals_.calls++;
    totals_.elements += elts.size();
    decompose_elements(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
        uint64_t& count = n == 1 ? totals_.points : n == 2 ? totals_.lines : totals_.triangles;
        ++count;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t* v = vertices.vertex(e[i]);
            const uint64_t id =
                (uint64_t(v[SLOT_INSTANCE_ID]) << 32 | v[SLOT_VERTEX_ID]) ^ v[SLOT_GS_ID];
            totals_.checksum =
                (totals_.checksum ^ id) * 0x100000001B3ull; // FNV-style, order-sensitive
        }
    });
}

} // namespace drawpipe
