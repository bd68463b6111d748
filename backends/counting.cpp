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
    // One FNV-style chain per vertex slot and parity of the primitive's position in the call,
    // folded in order at the end: as order-sensitive as one chain, with a sixth of its
    // multiply latency per vertex (the chain was most of what this backend cost).
    uint64_t lane[6] = {0, 0, 0, 0, 0, 0};
    auto mix = [&](uint32_t l, uint64_t key) { lane[l] = (lane[l] ^ key) * kPrime; };
    auto key = [&](uint32_t e) { return vertex_key(vertices, e); };
    const uint32_t* e = elts.data();
    if (prim == Prim::triangles) { // the common case, without the decomposition callback
        const size_t tris = elts.size() / 3;
        size_t t = 0;
        for (; t + 1 < tris; t += 2, e += 6) {
            mix(0, key(e[0])), mix(1, key(e[1])), mix(2, key(e[2]));
            mix(3, key(e[3])), mix(4, key(e[4])), mix(5, key(e[5]));
        }
        if (t < tris) mix(0, key(e[0])), mix(1, key(e[1])), mix(2, key(e[2]));
        totals_.triangles += tris;
    } else if (prim == Prim::triangle_strip) {
        // GL's order: odd triangles swap two vertices. Each element's key is read once.
        const size_t tris = elts.size() >= 3 ? elts.size() - 2 : 0;
        const bool last = provoking_ == Provoking::last;
        if (tris > 0) {
            uint64_t k0 = key(e[0]), k1 = key(e[1]);
            size_t i = 0;
            for (; i + 1 < tris; i += 2) {
                const uint64_t k2 = key(e[i + 2]), k3 = key(e[i + 3]);
                mix(0, k0), mix(1, k1), mix(2, k2);
                if (last)
                    mix(3, k2), mix(4, k1), mix(5, k3);
                else
                    mix(3, k1), mix(4, k3), mix(5, k2);
                k0 = k2, k1 = k3;
            }
            if (i < tris) mix(0, k0), mix(1, k1), mix(2, key(e[i + 2]));
        }
        totals_.triangles += tris;
    } else {
        uint32_t parity = 0;
        decompose_elements(prim, provoking_, elts, [&](uint32_t n, const uint32_t* v) {
            uint64_t& count = n == 1 ? totals_.points : n == 2 ? totals_.lines : totals_.triangles;
            ++count;
            for (uint32_t i = 0; i < n; ++i) mix(parity + i, key(v[i]));
            parity ^= 3;
        });
    }
    for (const uint64_t l : lane) totals_.checksum = (totals_.checksum ^ l) * kPrime;
}

} // namespace drawpipe
