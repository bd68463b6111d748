#include "drawpipe/backends/counting.hpp"

#include "drawpipe/decompose.hpp"

namespace drawpipe {

namespace {

constexpr uint64_t kPrime = 0x100000001B3ull; // FNV-1's 64-bit prime

uint64_t vertex_key(const VertexView& vertices, uint32_t e) {
    const uint32_t* v = vertices.vertex(e);
    return (uint64_t(v[SLOT_INSTANCE_ID]) << 32 | v[SLOT_VERTEX_ID]) ^ v[SLOT_GS_ID];
}

} // namespace

void CountingBackend::begin_draw(const DrawInfo& draw, const VertexLayout&) {
    provoking_ = draw.provoking;
}

void CountingBackend::draw_elements(Prim prim, uint8_t, const VertexView& vertices,
                                    std::span<const uint32_t> elts) {
    totals_.calls++;
    totals_.elements += elts.size();
    // One FNV-style chain per vertex slot of a primitive, folded in order at the end: as
    // order-sensitive as one chain, with a third of its multiply latency per vertex (the
    // chain was most of what this backend cost on large draws).
    uint64_t lane[3] = {0, 0, 0};
    if (prim == Prim::triangles) { // the common case, without the decomposition callback
        const size_t tris = elts.size() / 3;
        const uint32_t* e = elts.data();
        for (size_t t = 0; t < tris; ++t, e += 3) {
            lane[0] = (lane[0] ^ vertex_key(vertices, e[0])) * kPrime;
            lane[1] = (lane[1] ^ vertex_key(vertices, e[1])) * kPrime;
            lane[2] = (lane[2] ^ vertex_key(vertices, e[2])) * kPrime;
        }
        totals_.triangles += tris;
    } else if (prim == Prim::triangle_strip) { // GL's order: odd triangles swap two vertices
        const size_t tris = elts.size() >= 3 ? elts.size() - 2 : 0;
        const uint32_t* e = elts.data();
        const bool last = provoking_ == Provoking::last;
        for (size_t i = 0; i < tris; ++i) {
            const bool odd = i & 1;
            const uint32_t a = odd && last ? e[i + 1] : e[i];
            const uint32_t b = odd ? (last ? e[i] : e[i + 2]) : e[i + 1];
            const uint32_t c = odd && !last ? e[i + 1] : e[i + 2];
            lane[0] = (lane[0] ^ vertex_key(vertices, a)) * kPrime;
            lane[1] = (lane[1] ^ vertex_key(vertices, b)) * kPrime;
            lane[2] = (lane[2] ^ vertex_key(vertices, c)) * kPrime;
        }
        totals_.triangles += tris;
    } else {
        decompose_elements(prim, provoking_, elts, [&](uint32_t n, const uint32_t* e) {
            uint64_t& count = n == 1 ? totals_.points : n == 2 ? totals_.lines : totals_.triangles;
            ++count;
            for (uint32_t i = 0; i < n; ++i)
                lane[i] = (lane[i] ^ vertex_key(vertices, e[i])) * kPrime;
        });
    }
    for (const uint64_t l : lane) totals_.checksum = (totals_.checksum ^ l) * kPrime;
}

} // namespace drawpipe
